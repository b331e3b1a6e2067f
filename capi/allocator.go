package main

/*
#include "acl/acl.h"
#include "thread.h"
*/
import "C"

import (
	"unsafe"

	"github.com/gocann/gocann"
)

// Custom allocator descriptors (acl/acl_rt_allocator.h). A descriptor is a
// handle, so a stale or foreign one is an error rather than a crash; what
// is registered is a copy, kept by the stream.

type cAllocDesc struct {
	d gocann.AllocatorDesc
	h handle
}

func allocDescOf(t *C.gocann_thread, fn string, p C.aclrtAllocatorDesc) (*cAllocDesc, C.aclError) {
	if obj, ok := proc.handles.get(handleOf(unsafe.Pointer(p)), kindAllocDesc); ok {
		return obj.(*cAllocDesc), 0
	}
	return nil, badHandle(t, fn, "allocatorDesc", unsafe.Pointer(p), kindAllocDesc)
}

//export gocann_aclrtAllocatorCreateDesc
func gocann_aclrtAllocatorCreateDesc(t *C.gocann_thread) C.aclrtAllocatorDesc {
	if unsupported(t, "aclrtAllocatorCreateDesc") != 0 {
		return nil
	}
	d := &cAllocDesc{}
	h, ok := proc.handles.add(kindAllocDesc, d)
	if !ok {
		failf(t, "aclrtAllocatorCreateDesc", gocann.KindInternal, "too many live handles")
		return nil
	}
	d.h = h
	d.d.Handle = uintptr(h)
	return C.aclrtAllocatorDesc(C.gocann_handle(C.uintptr_t(h)))
}

//export gocann_aclrtAllocatorDestroyDesc
func gocann_aclrtAllocatorDestroyDesc(t *C.gocann_thread, p C.aclrtAllocatorDesc) C.aclError {
	const fn = "aclrtAllocatorDestroyDesc"
	if code := unsupported(t, "aclrtAllocatorDestroyDesc"); code != 0 {
		return code
	}
	d, code := allocDescOf(t, fn, p)
	if code != 0 {
		return code
	}
	proc.handles.remove(d.h, kindAllocDesc)
	return 0
}

// setDesc stores one field of a descriptor; both arguments must be set.
func setDesc(t *C.gocann_thread, fn, param string, p C.aclrtAllocatorDesc, v unsafe.Pointer, field func(*gocann.AllocatorDesc) *uintptr) C.aclError {
	if p == nil {
		return nullArg(t, fn, "allocatorDesc")
	}
	if v == nil {
		return nullArg(t, fn, param)
	}
	d, code := allocDescOf(t, fn, p)
	if code != 0 {
		return code
	}
	*field(&d.d) = uintptr(v)
	return 0
}

//export gocann_aclrtAllocatorSetObjToDesc
func gocann_aclrtAllocatorSetObjToDesc(t *C.gocann_thread, p C.aclrtAllocatorDesc, obj C.aclrtAllocator) C.aclError {
	if code := unsupported(t, "aclrtAllocatorSetObjToDesc"); code != 0 {
		return code
	}
	return setDesc(t, "aclrtAllocatorSetObjToDesc", "allocator", p, unsafe.Pointer(obj), func(d *gocann.AllocatorDesc) *uintptr { return &d.Obj })
}

//export gocann_aclrtAllocatorSetAllocFuncToDesc
func gocann_aclrtAllocatorSetAllocFuncToDesc(t *C.gocann_thread, p C.aclrtAllocatorDesc, f C.aclrtAllocatorAllocFunc) C.aclError {
	if code := unsupported(t, "aclrtAllocatorSetAllocFuncToDesc"); code != 0 {
		return code
	}
	return setDesc(t, "aclrtAllocatorSetAllocFuncToDesc", "func", p, unsafe.Pointer(f), func(d *gocann.AllocatorDesc) *uintptr { return &d.Alloc })
}

//export gocann_aclrtAllocatorSetFreeFuncToDesc
func gocann_aclrtAllocatorSetFreeFuncToDesc(t *C.gocann_thread, p C.aclrtAllocatorDesc, f C.aclrtAllocatorFreeFunc) C.aclError {
	if code := unsupported(t, "aclrtAllocatorSetFreeFuncToDesc"); code != 0 {
		return code
	}
	return setDesc(t, "aclrtAllocatorSetFreeFuncToDesc", "func", p, unsafe.Pointer(f), func(d *gocann.AllocatorDesc) *uintptr { return &d.Free })
}

//export gocann_aclrtAllocatorSetAllocAdviseFuncToDesc
func gocann_aclrtAllocatorSetAllocAdviseFuncToDesc(t *C.gocann_thread, p C.aclrtAllocatorDesc, f C.aclrtAllocatorAllocAdviseFunc) C.aclError {
	if code := unsupported(t, "aclrtAllocatorSetAllocAdviseFuncToDesc"); code != 0 {
		return code
	}
	return setDesc(t, "aclrtAllocatorSetAllocAdviseFuncToDesc", "func", p, unsafe.Pointer(f), func(d *gocann.AllocatorDesc) *uintptr { return &d.AllocAdvise })
}

//export gocann_aclrtAllocatorSetGetAddrFromBlockFuncToDesc
func gocann_aclrtAllocatorSetGetAddrFromBlockFuncToDesc(t *C.gocann_thread, p C.aclrtAllocatorDesc, f C.aclrtAllocatorGetAddrFromBlockFunc) C.aclError {
	if code := unsupported(t, "aclrtAllocatorSetGetAddrFromBlockFuncToDesc"); code != 0 {
		return code
	}
	return setDesc(t, "aclrtAllocatorSetGetAddrFromBlockFuncToDesc", "func", p, unsafe.Pointer(f), func(d *gocann.AllocatorDesc) *uintptr { return &d.GetAddrFromBlock })
}

//export gocann_aclrtAllocatorRegister
func gocann_aclrtAllocatorRegister(t *C.gocann_thread, sp C.aclrtStream, p C.aclrtAllocatorDesc) C.aclError {
	const fn = "aclrtAllocatorRegister"
	switch {
	case sp == nil:
		return nullArg(t, fn, "stream")
	case p == nil:
		return nullArg(t, fn, "allocatorDesc")
	}
	s, code := stream(t, fn, sp)
	if code != 0 {
		return code
	}
	d, code := allocDescOf(t, fn, p)
	if code != 0 {
		return code
	}
	if err := s.s.RegisterAllocator(d.d); err != nil {
		return fail(t, fn, err)
	}
	return 0
}

//export gocann_aclrtAllocatorGetByStream
func gocann_aclrtAllocatorGetByStream(t *C.gocann_thread, sp C.aclrtStream, desc *C.aclrtAllocatorDesc, obj *C.aclrtAllocator,
	alloc *C.aclrtAllocatorAllocFunc, free *C.aclrtAllocatorFreeFunc, advise *C.aclrtAllocatorAllocAdviseFunc,
	getAddr *C.aclrtAllocatorGetAddrFromBlockFunc) C.aclError {
	const fn = "aclrtAllocatorGetByStream"
	switch {
	case desc == nil:
		return nullArg(t, fn, "allocatorDesc")
	case sp == nil:
		return nullArg(t, fn, "stream")
	}
	s, code := stream(t, fn, sp)
	if code != 0 {
		return code
	}
	d, err := s.s.Allocator()
	if err != nil {
		return fail(t, fn, err)
	}
	// The words go back as C stored them: handles and C function
	// addresses, never Go pointers.
	*(*uintptr)(unsafe.Pointer(desc)) = d.Handle
	for _, o := range []struct {
		p unsafe.Pointer
		v uintptr
	}{{unsafe.Pointer(obj), d.Obj}, {unsafe.Pointer(alloc), d.Alloc}, {unsafe.Pointer(free), d.Free},
		{unsafe.Pointer(advise), d.AllocAdvise}, {unsafe.Pointer(getAddr), d.GetAddrFromBlock}} {
		if o.p != nil {
			*(*uintptr)(o.p) = o.v
		}
	}
	return 0
}

//export gocann_aclrtAllocatorUnregister
func gocann_aclrtAllocatorUnregister(t *C.gocann_thread, sp C.aclrtStream) C.aclError {
	const fn = "aclrtAllocatorUnregister"
	if code := unsupported(t, "aclrtAllocatorUnregister"); code != 0 {
		return code
	}
	if sp == nil {
		return nullArg(t, fn, "stream")
	}
	// An unknown stream is no error: CANN's runtime does nothing then.
	if obj, ok := proc.handles.get(handleOf(unsafe.Pointer(sp)), kindStream); ok {
		obj.(*cStream).s.UnregisterAllocator()
	}
	return 0
}
