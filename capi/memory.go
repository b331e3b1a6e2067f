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

func malloc(t *C.gocann_thread, fn string, out *unsafe.Pointer, size C.size_t, policy C.aclrtMemMallocPolicy) C.aclError {
	if out == nil {
		return nullArg(t, fn, "devPtr")
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	p, err := c.c.Raw().Malloc(uintptr(size), gocann.MallocPolicy(policy))
	if err != nil {
		return fail(t, fn, err)
	}
	*out = p
	return 0
}

//export gocann_aclrtMalloc
func gocann_aclrtMalloc(t *C.gocann_thread, out *unsafe.Pointer, size C.size_t, policy C.aclrtMemMallocPolicy) C.aclError {
	return malloc(t, "aclrtMalloc", out, size, policy)
}

//export gocann_aclrtMallocAlign32
func gocann_aclrtMallocAlign32(t *C.gocann_thread, out *unsafe.Pointer, size C.size_t, policy C.aclrtMemMallocPolicy) C.aclError {
	return malloc(t, "aclrtMallocAlign32", out, size, policy)
}

//export gocann_aclrtMallocCached
func gocann_aclrtMallocCached(t *C.gocann_thread, out *unsafe.Pointer, size C.size_t, policy C.aclrtMemMallocPolicy) C.aclError {
	if code := unsupported(t, "aclrtMallocCached"); code != 0 {
		return code
	}
	return malloc(t, "aclrtMallocCached", out, size, policy)
}

// checkMallocCfg accepts the documented allocation attributes of cfg,
// which may be NULL.
func checkMallocCfg(t *C.gocann_thread, fn string, cfg *C.aclrtMallocConfig) C.aclError {
	if cfg == nil || cfg.numAttrs == 0 {
		return 0
	}
	if cfg.attrs == nil {
		return nullArg(t, fn, "cfg->attrs")
	}
	if code := checkArray(t, fn, "cfg->numAttrs", unsafe.Pointer(cfg.attrs), cfg.numAttrs, unsafe.Sizeof(*cfg.attrs)); code != 0 {
		return code
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	for _, a := range unsafe.Slice(cfg.attrs, cfg.numAttrs) {
		switch a.attr {
		case C.ACL_RT_MEM_ATTR_RSV, C.ACL_RT_MEM_ATTR_MODULE_ID, C.ACL_RT_MEM_ATTR_VA_FLAG:
		case C.ACL_RT_MEM_ATTR_DEVICE_ID:
			if id := int(*(*C.uint32_t)(unsafe.Pointer(&a.value))); id != c.dev {
				return failf(t, fn, gocann.KindInvalidParam, "ACL_RT_MEM_ATTR_DEVICE_ID %d is invalid, expected the current device %d", id, c.dev)
			}
		default:
			return failf(t, fn, gocann.KindInvalidParam, "malloc attribute %d is invalid, expected 0..3", a.attr)
		}
	}
	return 0
}

//export gocann_aclrtMallocWithCfg
func gocann_aclrtMallocWithCfg(t *C.gocann_thread, out *unsafe.Pointer, size C.size_t, policy C.aclrtMemMallocPolicy, cfg *C.aclrtMallocConfig) C.aclError {
	const fn = "aclrtMallocWithCfg"
	if code := unsupported(t, "aclrtMallocWithCfg"); code != 0 {
		return code
	}
	if code := checkMallocCfg(t, fn, cfg); code != 0 {
		return code
	}
	return malloc(t, fn, out, size, policy)
}

//export gocann_aclrtMallocForTaskScheduler
func gocann_aclrtMallocForTaskScheduler(t *C.gocann_thread, out *unsafe.Pointer, size C.size_t, policy C.aclrtMemMallocPolicy, cfg *C.aclrtMallocConfig) C.aclError {
	const fn = "aclrtMallocForTaskScheduler"
	if out == nil {
		return nullArg(t, fn, "devPtr")
	}
	if code := checkMallocCfg(t, fn, cfg); code != 0 {
		return code
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	p, err := c.c.MallocForTaskScheduler(int64(size), gocann.MallocPolicy(policy))
	if err != nil {
		return fail(t, fn, err)
	}
	*(*uintptr)(unsafe.Pointer(out)) = uintptr(p)
	return 0
}

//export gocann_aclrtGetHardwareSyncAddr
func gocann_aclrtGetHardwareSyncAddr(t *C.gocann_thread, out *unsafe.Pointer) C.aclError {
	const fn = "aclrtGetHardwareSyncAddr"
	if out == nil {
		return nullArg(t, fn, "addr")
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	p, err := c.c.HardwareSyncAddr()
	if err != nil {
		return fail(t, fn, err)
	}
	*(*uintptr)(unsafe.Pointer(out)) = uintptr(p)
	return 0
}

//export gocann_aclrtFree
func gocann_aclrtFree(t *C.gocann_thread, p unsafe.Pointer) C.aclError {
	const fn = "aclrtFree"
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	return fail(t, fn, r.Raw().Free(p))
}

//export gocann_aclrtMallocHost
func gocann_aclrtMallocHost(t *C.gocann_thread, out *unsafe.Pointer, size C.size_t) C.aclError {
	const fn = "aclrtMallocHost"
	if out == nil {
		return nullArg(t, fn, "hostPtr")
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	p, err := r.Raw().MallocHost(uintptr(size))
	if err != nil {
		return fail(t, fn, err)
	}
	*out = p
	return 0
}

//export gocann_aclrtFreeHost
func gocann_aclrtFreeHost(t *C.gocann_thread, p unsafe.Pointer) C.aclError {
	const fn = "aclrtFreeHost"
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	return fail(t, fn, r.Raw().FreeHost(p))
}

// nullPtrs refuses NULL memory pointers, which the runtime would read as
// host address 0.
func nullPtrs(t *C.gocann_thread, fn string, dst, src unsafe.Pointer) C.aclError {
	switch {
	case dst == nil:
		return nullArg(t, fn, "dst")
	case src == nil:
		return nullArg(t, fn, "src")
	}
	return 0
}

//export gocann_aclrtMemcpy
func gocann_aclrtMemcpy(t *C.gocann_thread, dst unsafe.Pointer, destMax C.size_t, src unsafe.Pointer, count C.size_t, kind C.aclrtMemcpyKind) C.aclError {
	const fn = "aclrtMemcpy"
	if count == 0 {
		return 0 // CANN checks nothing else for zero bytes
	}
	if code := nullPtrs(t, fn, dst, src); code != 0 {
		return code
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	return fail(t, fn, c.c.Raw().Memcpy(captureThread(t), dst, uintptr(destMax), src, uintptr(count), gocann.MemcpyKind(kind)))
}

//export gocann_aclrtMemcpyAsync
func gocann_aclrtMemcpyAsync(t *C.gocann_thread, dst unsafe.Pointer, destMax C.size_t, src unsafe.Pointer, count C.size_t, kind C.aclrtMemcpyKind, p C.aclrtStream) C.aclError {
	const fn = "aclrtMemcpyAsync"
	if count == 0 {
		return 0
	}
	if code := nullPtrs(t, fn, dst, src); code != 0 {
		return code
	}
	s, code := queueStream(t, fn, p)
	if code != 0 {
		return code
	}
	return fail(t, fn, s.s.Raw().MemcpyAsync(captureThread(t), dst, uintptr(destMax), src, uintptr(count), gocann.MemcpyKind(kind)))
}

// memsetSync runs set, a synchronous memset of n units at p (named param
// in messages), on the thread's context. Setting nothing succeeds at once
// whatever the pointer, as a copy of nothing does.
func memsetSync(t *C.gocann_thread, fn string, p unsafe.Pointer, param string, n C.size_t, set func(*cContext) error) C.aclError {
	if n == 0 {
		return 0
	}
	if p == nil {
		return nullArg(t, fn, param)
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	return fail(t, fn, set(c))
}

// memsetAsync is memsetSync on the stream sp instead of the context.
func memsetAsync(t *C.gocann_thread, fn string, p unsafe.Pointer, param string, n C.size_t, sp C.aclrtStream, set func(*cStream) error) C.aclError {
	if n == 0 {
		return 0
	}
	if p == nil {
		return nullArg(t, fn, param)
	}
	s, code := queueStream(t, fn, sp)
	if code != 0 {
		return code
	}
	return fail(t, fn, set(s))
}

//export gocann_aclrtMemset
func gocann_aclrtMemset(t *C.gocann_thread, dst unsafe.Pointer, maxCount C.size_t, value C.int32_t, count C.size_t) C.aclError {
	return memsetSync(t, "aclrtMemset", dst, "devPtr", count, func(c *cContext) error {
		return c.c.Raw().Memset(captureThread(t), dst, uintptr(maxCount), int32(value), uintptr(count))
	})
}

//export gocann_aclrtMemsetAsync
func gocann_aclrtMemsetAsync(t *C.gocann_thread, dst unsafe.Pointer, maxCount C.size_t, value C.int32_t, count C.size_t, p C.aclrtStream) C.aclError {
	return memsetAsync(t, "aclrtMemsetAsync", dst, "devPtr", count, p, func(s *cStream) error {
		return s.s.Raw().MemsetAsync(dst, uintptr(maxCount), int32(value), uintptr(count))
	})
}

//export gocann_aclrtMemcpy2d
func gocann_aclrtMemcpy2d(t *C.gocann_thread, dst unsafe.Pointer, dpitch C.size_t, src unsafe.Pointer, spitch, width, height C.size_t, kind C.aclrtMemcpyKind) C.aclError {
	const fn = "aclrtMemcpy2d"
	if width == 0 || height == 0 {
		return 0
	}
	if code := nullPtrs(t, fn, dst, src); code != 0 {
		return code
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	return fail(t, fn, c.c.Raw().Memcpy2D(captureThread(t), dst, uintptr(dpitch), src, uintptr(spitch), uintptr(width), uintptr(height), gocann.MemcpyKind(kind)))
}

//export gocann_aclrtMemcpy2dAsync
func gocann_aclrtMemcpy2dAsync(t *C.gocann_thread, dst unsafe.Pointer, dpitch C.size_t, src unsafe.Pointer, spitch, width, height C.size_t, kind C.aclrtMemcpyKind, p C.aclrtStream) C.aclError {
	const fn = "aclrtMemcpy2dAsync"
	if width == 0 || height == 0 {
		return 0
	}
	if code := nullPtrs(t, fn, dst, src); code != 0 {
		return code
	}
	s, code := queueStream(t, fn, p)
	if code != 0 {
		return code
	}
	return fail(t, fn, s.s.Raw().Memcpy2DAsync(captureThread(t), dst, uintptr(dpitch), src, uintptr(spitch), uintptr(width), uintptr(height), gocann.MemcpyKind(kind)))
}

//export gocann_aclrtPointerGetAttributes
func gocann_aclrtPointerGetAttributes(t *C.gocann_thread, p unsafe.Pointer, attrs *C.aclrtPtrAttributes) C.aclError {
	const fn = "aclrtPointerGetAttributes"
	if attrs == nil {
		return nullArg(t, fn, "attributes")
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	loc, dev, page, err := r.PointerAttributes(uintptr(p))
	if err != nil {
		return fail(t, fn, err)
	}
	*attrs = C.aclrtPtrAttributes{}
	attrs.location.id = C.uint32_t(dev)
	attrs.location._type = C.aclrtMemLocationType(loc)
	attrs.pageSize = C.uint32_t(page)
	return 0
}

//export gocann_aclrtMemGetAddressRange
func gocann_aclrtMemGetAddressRange(t *C.gocann_thread, p unsafe.Pointer, base *unsafe.Pointer, size *C.size_t) C.aclError {
	const fn = "aclrtMemGetAddressRange"
	if base == nil && size == nil {
		return failf(t, fn, gocann.KindBadArgument, "pbase and psize are both NULL, expected at least one")
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	b, n, err := r.Raw().AddressRange(p)
	if err != nil {
		return fail(t, fn, err)
	}
	if base != nil {
		*base = b
	}
	if size != nil {
		*size = C.size_t(n)
	}
	return 0
}
