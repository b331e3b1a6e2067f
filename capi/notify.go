package main

/*
#include "acl/acl.h"
#include "thread.h"
*/
import "C"

import (
	"time"
	"unsafe"

	"github.com/gocann/gocann"
)

// cNotify is a notify as C code sees it.
type cNotify struct {
	n   *gocann.Notify
	h   handle
	ctx *cContext
}

func notifyOf(t *C.gocann_thread, fn string, p C.aclrtNotify) (*cNotify, C.aclError) {
	if obj, ok := proc.handles.get(handleOf(unsafe.Pointer(p)), kindNotify); ok {
		return obj.(*cNotify), 0
	}
	return nil, badHandle(t, fn, "notify", unsafe.Pointer(p), kindNotify)
}

//export gocann_aclrtCreateNotify
func gocann_aclrtCreateNotify(t *C.gocann_thread, out *C.aclrtNotify, flag C.uint64_t) C.aclError {
	const fn = "aclrtCreateNotify"
	if out == nil {
		return nullArg(t, fn, "notify")
	}
	if flag != C.ACL_NOTIFY_DEFAULT && flag != C.ACL_NOTIFY_DEVICE_USE_ONLY {
		return failf(t, fn, gocann.KindInvalidParam, "flag %#x is invalid, expected ACL_NOTIFY_DEFAULT (0) or ACL_NOTIFY_DEVICE_USE_ONLY (1)", flag)
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	n, err := c.c.NewNotify()
	if err != nil {
		return fail(t, fn, err)
	}
	return addNotify(t, fn, c, n, out)
}

//export gocann_aclrtDestroyNotify
func gocann_aclrtDestroyNotify(t *C.gocann_thread, p C.aclrtNotify) C.aclError {
	const fn = "aclrtDestroyNotify"
	n, code := notifyOf(t, fn, p)
	if code != 0 {
		return code
	}
	if err := n.n.Close(); err != nil {
		return fail(t, fn, err)
	}
	proc.handles.remove(n.h, kindNotify)
	disown(n.ctx, &n.ctx.notifies, n)
	return 0
}

//export gocann_aclrtRecordNotify
func gocann_aclrtRecordNotify(t *C.gocann_thread, p C.aclrtNotify, sp C.aclrtStream) C.aclError {
	const fn = "aclrtRecordNotify"
	n, code := notifyOf(t, fn, p)
	if code != 0 {
		return code
	}
	s, code := queueStream(t, fn, sp)
	if code != 0 {
		return code
	}
	return fail(t, fn, s.s.RecordNotify(n.n))
}

//export gocann_aclrtWaitAndResetNotify
func gocann_aclrtWaitAndResetNotify(t *C.gocann_thread, p C.aclrtNotify, sp C.aclrtStream, timeout C.uint32_t) C.aclError {
	const fn = "aclrtWaitAndResetNotify"
	n, code := notifyOf(t, fn, p)
	if code != 0 {
		return code
	}
	s, code := queueStream(t, fn, sp)
	if code != 0 {
		return code
	}
	// The reference gives the timeout in seconds; 0 waits forever.
	return fail(t, fn, s.s.WaitNotify(n.n, time.Duration(timeout)*time.Second))
}

//export gocann_aclrtGetNotifyId
func gocann_aclrtGetNotifyId(t *C.gocann_thread, p C.aclrtNotify, id *C.uint32_t) C.aclError {
	const fn = "aclrtGetNotifyId"
	if code := unsupported(t, "aclrtGetNotifyId"); code != 0 {
		return code
	}
	if id == nil {
		return nullArg(t, fn, "notifyId")
	}
	n, code := notifyOf(t, fn, p)
	if code != 0 {
		return code
	}
	*id = C.uint32_t(n.n.ID())
	return 0
}

//export gocann_aclrtValueWrite
func gocann_aclrtValueWrite(t *C.gocann_thread, addr unsafe.Pointer, value C.uint64_t, flag C.uint32_t, sp C.aclrtStream) C.aclError {
	const fn = "aclrtValueWrite"
	if addr == nil {
		return nullArg(t, fn, "devAddr")
	}
	if flag != 0 {
		return failf(t, fn, gocann.KindInvalidParam, "flag %d is invalid, expected 0", flag)
	}
	s, code := queueStream(t, fn, sp)
	if code != 0 {
		return code
	}
	return fail(t, fn, s.s.WriteValue(gocann.DevPtr(uintptr(addr)), uint64(value)))
}

//export gocann_aclrtValueWait
func gocann_aclrtValueWait(t *C.gocann_thread, addr unsafe.Pointer, value C.uint64_t, flag C.uint32_t, sp C.aclrtStream) C.aclError {
	const fn = "aclrtValueWait"
	if addr == nil {
		return nullArg(t, fn, "devAddr")
	}
	s, code := queueStream(t, fn, sp)
	if code != 0 {
		return code
	}
	return fail(t, fn, s.s.WaitValue(gocann.DevPtr(uintptr(addr)), uint64(value), gocann.WaitCompare(flag)))
}
