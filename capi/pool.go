package main

/*
#include "acl/acl.h"
#include "acl/acl_rt_memory_soma.h"
#include "thread.h"
*/
import "C"

import (
	"unsafe"

	"github.com/gocann/gocann"
)

// Stream-ordered memory pools (acl/acl_rt_memory_soma.h). Codes follow
// CANN's runtime: its pool errors other than invalid values are internal
// errors (ACL_ERROR_RT_INTERNAL_ERROR) there.

// cPool is a memory pool as C code sees it.
type cPool struct {
	p *gocann.MemPool
	h handle
}

// poolOf resolves a pool handle; a dead one is CANN's "memory pool is not
// created or destroyed", reported with kind k.
func poolOf(t *C.gocann_thread, fn string, p C.aclrtMemPool, k gocann.Kind) (*cPool, C.aclError) {
	if p == nil {
		return nil, nullArg(t, fn, "memPool")
	}
	if obj, ok := proc.handles.get(handleOf(unsafe.Pointer(p)), kindMemPool); ok {
		return obj.(*cPool), 0
	}
	return nil, failf(t, fn, k, "memPool %p is not a live memory pool (destroyed, or never created)", unsafe.Pointer(p))
}

//export gocann_aclrtMemPoolCreate
func gocann_aclrtMemPoolCreate(t *C.gocann_thread, out *C.aclrtMemPool, props *C.aclrtMemPoolProps) C.aclError {
	const fn = "aclrtMemPoolCreate"
	if code := unsupported(t, fn); code != 0 {
		return code
	}
	switch {
	case out == nil:
		return nullArg(t, fn, "memPool")
	case props == nil:
		return nullArg(t, fn, "poolProps")
	case props.allocType != C.ACL_MEM_ALLOCATION_TYPE_PINNED:
		return failf(t, fn, gocann.KindBadArgument, "poolProps->allocType %d is invalid, expected ACL_MEM_ALLOCATION_TYPE_PINNED (0)", props.allocType)
	case props.location._type != C.ACL_MEM_LOCATION_TYPE_DEVICE:
		return failf(t, fn, gocann.KindBadArgument, "poolProps->location.type %d is invalid, expected ACL_MEM_LOCATION_TYPE_DEVICE (1)", props.location._type)
	}
	for _, b := range props.reserved {
		if b != 0 {
			return failf(t, fn, gocann.KindBadArgument, "poolProps->reserved is reserved and must be all zero")
		}
	}
	if props.handleType != C.ACL_MEM_HANDLE_TYPE_NONE {
		return failf(t, fn, gocann.KindNotSupported, "poolProps->handleType %d is not supported: pools shared between processes are not simulated, expected ACL_MEM_HANDLE_TYPE_NONE (0)", props.handleType)
	}
	if _, code := currentContext(t, fn); code != 0 {
		return code
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	d, err := r.Device(int(props.location.id))
	if err != nil {
		return fail(t, fn, err)
	}
	p, err := d.NewMemPool(int64(props.maxSize))
	if err != nil {
		return fail(t, fn, err)
	}
	cp := &cPool{p: p}
	h, ok := proc.handles.add(kindMemPool, cp)
	if !ok {
		p.Close()
		return failf(t, fn, gocann.KindInternal, "too many live handles")
	}
	cp.h = h
	*out = C.aclrtMemPool(C.gocann_handle(C.uintptr_t(h)))
	return 0
}

//export gocann_aclrtMemPoolDestroy
func gocann_aclrtMemPoolDestroy(t *C.gocann_thread, p C.aclrtMemPool) C.aclError {
	const fn = "aclrtMemPoolDestroy"
	if code := unsupported(t, fn); code != 0 {
		return code
	}
	cp, code := poolOf(t, fn, p, gocann.KindInternal)
	if code != 0 {
		return code
	}
	proc.handles.remove(cp.h, kindMemPool)
	if err := cp.p.Close(); err != nil {
		return fail(t, fn, err)
	}
	return 0
}

// poolAttrTarget checks an attribute call's arguments in CANN's order: a
// product without pools, a NULL pool, a NULL value (which CANN's runtime
// refuses as an invalid value), then the pool itself.
func poolAttrTarget(t *C.gocann_thread, fn string, p C.aclrtMemPool, value unsafe.Pointer) (*cPool, C.aclError) {
	if code := unsupported(t, fn); code != 0 {
		return nil, code
	}
	if p == nil {
		return nil, nullArg(t, fn, "memPool")
	}
	if value == nil {
		return nil, failf(t, fn, gocann.KindInvalidParam, "value is NULL, expected a uint32_t (reuse switches) or uint64_t (sizes) to read or write")
	}
	return poolOf(t, fn, p, gocann.KindInvalidParam)
}

//export gocann_aclrtMemPoolSetAttr
func gocann_aclrtMemPoolSetAttr(t *C.gocann_thread, p C.aclrtMemPool, attr C.aclrtMemPoolAttr, value unsafe.Pointer) C.aclError {
	const fn = "aclrtMemPoolSetAttr"
	cp, code := poolAttrTarget(t, fn, p, value)
	if code != 0 {
		return code
	}
	a := gocann.MemPoolAttr(attr)
	var v uint64
	switch {
	case a >= gocann.MemPoolReuseFollowEventDependencies && a <= gocann.MemPoolReuseAllowInternalDependencies:
		v = uint64(*(*uint32)(value))
	case a >= gocann.MemPoolReleaseThreshold && a <= gocann.MemPoolUsedHigh:
		v = *(*uint64)(value)
	}
	if err := cp.p.SetAttr(a, v); err != nil {
		return fail(t, fn, err)
	}
	return 0
}

//export gocann_aclrtMemPoolGetAttr
func gocann_aclrtMemPoolGetAttr(t *C.gocann_thread, p C.aclrtMemPool, attr C.aclrtMemPoolAttr, value unsafe.Pointer) C.aclError {
	const fn = "aclrtMemPoolGetAttr"
	cp, code := poolAttrTarget(t, fn, p, value)
	if code != 0 {
		return code
	}
	a := gocann.MemPoolAttr(attr)
	v, err := cp.p.Attr(a)
	if err != nil {
		return fail(t, fn, err)
	}
	if a <= gocann.MemPoolReuseAllowInternalDependencies {
		*(*uint32)(value) = uint32(v)
	} else {
		*(*uint64)(value) = v
	}
	return 0
}

//export gocann_aclrtMemPoolMallocAsync
func gocann_aclrtMemPoolMallocAsync(t *C.gocann_thread, out *unsafe.Pointer, size C.size_t, p C.aclrtMemPool, sp C.aclrtStream) C.aclError {
	const fn = "aclrtMemPoolMallocAsync"
	if code := unsupported(t, fn); code != 0 {
		return code
	}
	switch {
	case out == nil:
		return nullArg(t, fn, "ptr")
	case p == nil:
		return nullArg(t, fn, "memPool")
	case sp == nil:
		return nullArg(t, fn, "stream")
	case size == 0:
		return 0 // CANN returns at once, *ptr untouched
	}
	s, code := queueStream(t, fn, sp)
	if code != 0 {
		return code
	}
	cp, code := poolOf(t, fn, p, gocann.KindInternal)
	if code != 0 {
		return code
	}
	if uint64(size) > 1<<63-1 {
		return failf(t, fn, gocann.KindInvalidParam, "size %d is invalid: rounding it up to 2 MiB overflows", uint64(size))
	}
	a, err := s.s.MallocAsync(cp.p, int64(size))
	if err != nil {
		return fail(t, fn, err)
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	ptr, err := r.Raw().DevicePointer(a)
	if err != nil {
		return fail(t, fn, err)
	}
	*out = ptr
	return 0
}

//export gocann_aclrtMemPoolFreeAsync
func gocann_aclrtMemPoolFreeAsync(t *C.gocann_thread, ptr unsafe.Pointer, sp C.aclrtStream) C.aclError {
	const fn = "aclrtMemPoolFreeAsync"
	if code := unsupported(t, fn); code != 0 {
		return code
	}
	switch {
	case ptr == nil:
		return nullArg(t, fn, "ptr")
	case sp == nil:
		// CANN's runtime: RT_ERROR_STREAM_NULL, an internal error to it.
		return failf(t, fn, gocann.KindInternal, "stream is NULL: aclrtMemPoolFreeAsync needs an explicit stream")
	}
	s, code := queueStream(t, fn, sp)
	if code != 0 {
		return code
	}
	if err := s.s.FreeAsync(gocann.DevPtr(uintptr(ptr))); err != nil {
		return fail(t, fn, err)
	}
	return 0
}

//export gocann_aclrtMemPoolTrimTo
func gocann_aclrtMemPoolTrimTo(t *C.gocann_thread, p C.aclrtMemPool, keep C.size_t) C.aclError {
	const fn = "aclrtMemPoolTrimTo"
	if code := unsupported(t, fn); code != 0 {
		return code
	}
	cp, code := poolOf(t, fn, p, gocann.KindInternal)
	if code != 0 {
		return code
	}
	if uint64(keep) > 1<<63-1 {
		return failf(t, fn, gocann.KindInternal, "minBytesToKeep %d is invalid, expected <= the pool's size %d", uint64(keep), cp.p.Size())
	}
	if err := cp.p.TrimTo(int64(keep)); err != nil {
		return fail(t, fn, err)
	}
	return 0
}
