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

// Cache maintenance: checked, ordered like any task, changing no bytes of
// the coherent simulated memory.

//export gocann_aclrtMemFlush
func gocann_aclrtMemFlush(t *C.gocann_thread, p unsafe.Pointer, size C.size_t) C.aclError {
	const fn = "aclrtMemFlush"
	if p == nil {
		return nullArg(t, fn, "devPtr")
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	return fail(t, fn, c.c.Raw().MemFlush(p, uintptr(size)))
}

//export gocann_aclrtMemInvalidate
func gocann_aclrtMemInvalidate(t *C.gocann_thread, p unsafe.Pointer, size C.size_t) C.aclError {
	const fn = "aclrtMemInvalidate"
	if p == nil {
		return nullArg(t, fn, "devPtr")
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	return fail(t, fn, c.c.Raw().MemInvalidate(p, uintptr(size)))
}

//export gocann_aclrtDeviceL2CacheFlush
func gocann_aclrtDeviceL2CacheFlush(t *C.gocann_thread, rsv unsafe.Pointer) C.aclError {
	const fn = "aclrtDeviceL2CacheFlush"
	if rsv != nil {
		return failf(t, fn, gocann.KindBadArgument, "rsv %p is invalid, expected NULL (reserved)", rsv)
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	return fail(t, fn, c.c.L2CacheFlush())
}

//export gocann_aclrtCmoAsync
func gocann_aclrtCmoAsync(t *C.gocann_thread, src unsafe.Pointer, size C.size_t, typ C.aclrtCmoType, p C.aclrtStream) C.aclError {
	const fn = "aclrtCmoAsync"
	if src == nil {
		return nullArg(t, fn, "src")
	}
	if size == 0 {
		return failf(t, fn, gocann.KindBadArgument, "size 0 is invalid, expected > 0")
	}
	s, code := queueStream(t, fn, p)
	if code != 0 {
		return code
	}
	return fail(t, fn, s.s.Cmo(gocann.DevPtr(uintptr(src)), int64(size&(1<<63-1)), gocann.CmoType(typ)))
}

//export gocann_aclrtCmoAsyncWithBarrier
func gocann_aclrtCmoAsyncWithBarrier(t *C.gocann_thread, src unsafe.Pointer, size C.size_t, typ C.aclrtCmoType, barrier C.uint32_t, p C.aclrtStream) C.aclError {
	if code := unsupported(t, "aclrtCmoAsyncWithBarrier"); code != 0 {
		return code
	}
	const fn = "aclrtCmoAsyncWithBarrier"
	if src == nil {
		return nullArg(t, fn, "src")
	}
	if size == 0 {
		return failf(t, fn, gocann.KindInvalidParam, "size 0 is invalid, expected > 0")
	}
	s, code := queueStream(t, fn, p)
	if code != 0 {
		return code
	}
	return fail(t, fn, s.s.CmoWithBarrier(gocann.DevPtr(uintptr(src)), int64(size&(1<<63-1)), gocann.CmoType(typ), uint32(barrier)))
}

//export gocann_aclrtCmoWaitBarrier
func gocann_aclrtCmoWaitBarrier(t *C.gocann_thread, info *C.aclrtBarrierTaskInfo, p C.aclrtStream, flag C.uint32_t) C.aclError {
	if code := unsupported(t, "aclrtCmoWaitBarrier"); code != 0 {
		return code
	}
	const fn = "aclrtCmoWaitBarrier"
	if info == nil {
		return failf(t, fn, gocann.KindInvalidParam, "taskInfo is NULL, expected the barriers to wait for")
	}
	if n := info.barrierNum; n == 0 || n > C.ACL_RT_CMO_MAX_BARRIER_NUM {
		return failf(t, fn, gocann.KindInvalidParam, "taskInfo->barrierNum %d is invalid, expected 1..%d", n, C.ACL_RT_CMO_MAX_BARRIER_NUM)
	}
	bs := make([]gocann.Barrier, info.barrierNum)
	for i := range bs {
		bs[i] = gocann.Barrier{Type: uint32(info.cmoInfo[i].cmoType), ID: uint32(info.cmoInfo[i].barrierId)}
	}
	s, code := queueStream(t, fn, p)
	if code != 0 {
		return code
	}
	return fail(t, fn, s.s.CmoWaitBarrier(bs, uint32(flag)))
}

//export gocann_aclrtCmoGetDescSize
func gocann_aclrtCmoGetDescSize(t *C.gocann_thread, out *C.size_t) C.aclError {
	const fn = "aclrtCmoGetDescSize"
	if code := unsupported(t, "aclrtCmoGetDescSize"); code != 0 {
		return code
	}
	if out == nil {
		return failf(t, fn, gocann.KindInvalidParam, "size is NULL, expected a place for the descriptor size")
	}
	if _, code := rt(t, fn); code != 0 {
		return code
	}
	*out = gocann.CmoDescSize
	return 0
}

//export gocann_aclrtCmoSetDesc
func gocann_aclrtCmoSetDesc(t *C.gocann_thread, desc, src unsafe.Pointer, size C.size_t) C.aclError {
	const fn = "aclrtCmoSetDesc"
	switch {
	case desc == nil:
		return failf(t, fn, gocann.KindInvalidParam, "cmoDesc is NULL, expected device memory of aclrtCmoGetDescSize bytes")
	case src == nil:
		return failf(t, fn, gocann.KindInvalidParam, "src is NULL, expected device memory")
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	return fail(t, fn, c.c.SetCmoDesc(gocann.DevPtr(uintptr(desc)), gocann.DevPtr(uintptr(src)), int64(size&(1<<63-1))))
}

//export gocann_aclrtCmoAsyncWithDesc
func gocann_aclrtCmoAsyncWithDesc(t *C.gocann_thread, desc unsafe.Pointer, typ C.aclrtCmoType, p C.aclrtStream, reserve unsafe.Pointer) C.aclError {
	const fn = "aclrtCmoAsyncWithDesc"
	switch {
	case desc == nil:
		return failf(t, fn, gocann.KindInvalidParam, "cmoDesc is NULL, expected a descriptor set with aclrtCmoSetDesc")
	case reserve != nil:
		return failf(t, fn, gocann.KindInvalidParam, "reserve %p is invalid, expected NULL", reserve)
	}
	s, code := queueStream(t, fn, p)
	if code != 0 {
		return code
	}
	return fail(t, fn, s.s.CmoWithDesc(gocann.DevPtr(uintptr(desc)), gocann.CmoType(typ)))
}
