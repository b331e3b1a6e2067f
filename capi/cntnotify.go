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

// cCntNotify is a counting notify as C code sees it.
type cCntNotify struct {
	n   *gocann.CntNotify
	h   handle
	ctx *cContext
}

func cntNotifyOf(t *C.gocann_thread, fn string, p C.aclrtCntNotify) (*cCntNotify, C.aclError) {
	if obj, ok := proc.handles.get(handleOf(unsafe.Pointer(p)), kindCntNotify); ok {
		return obj.(*cCntNotify), 0
	}
	return nil, badHandle(t, fn, "cntNotify", unsafe.Pointer(p), kindCntNotify)
}

//export gocann_aclrtCntNotifyCreate
func gocann_aclrtCntNotifyCreate(t *C.gocann_thread, out *C.aclrtCntNotify, flag C.uint64_t) C.aclError {
	const fn = "aclrtCntNotifyCreate"
	if code := unsupported(t, fn); code != 0 {
		return code
	}
	if out == nil {
		return nullArg(t, fn, "cntNotify")
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	n, err := c.c.NewCntNotify(uint64(flag))
	if err != nil {
		return fail(t, fn, err)
	}
	cn := &cCntNotify{n: n, ctx: c}
	h, ok := proc.handles.add(kindCntNotify, cn)
	if !ok {
		n.Close()
		return failf(t, fn, gocann.KindNoNotify, "too many live handles")
	}
	cn.h = h
	if !adopt(c, &c.cnts, cn) {
		proc.handles.remove(h, kindCntNotify)
		return contextGone(t, fn, c)
	}
	*out = C.aclrtCntNotify(C.gocann_handle(C.uintptr_t(h)))
	return 0
}

//export gocann_aclrtCntNotifyDestroy
func gocann_aclrtCntNotifyDestroy(t *C.gocann_thread, p C.aclrtCntNotify) C.aclError {
	const fn = "aclrtCntNotifyDestroy"
	if code := unsupported(t, fn); code != 0 {
		return code
	}
	n, code := cntNotifyOf(t, fn, p)
	if code != 0 {
		return code
	}
	if err := n.n.Close(); err != nil {
		return fail(t, fn, err)
	}
	proc.handles.remove(n.h, kindCntNotify)
	disown(n.ctx, &n.ctx.cnts, n)
	return 0
}

// cntOnStream resolves the counting notify and the stream of a queued call.
func cntOnStream(t *C.gocann_thread, fn string, p C.aclrtCntNotify, sp C.aclrtStream) (*cCntNotify, *cStream, C.aclError) {
	if code := unsupported(t, fn); code != 0 {
		return nil, nil, code
	}
	n, code := cntNotifyOf(t, fn, p)
	if code != 0 {
		return nil, nil, code
	}
	s, code := queueStream(t, fn, sp)
	return n, s, code
}

//export gocann_aclrtCntNotifyRecord
func gocann_aclrtCntNotifyRecord(t *C.gocann_thread, p C.aclrtCntNotify, sp C.aclrtStream, info *C.aclrtCntNotifyRecordInfo) C.aclError {
	const fn = "aclrtCntNotifyRecord"
	if code := unsupported(t, fn); code != 0 {
		return code
	}
	if info == nil {
		return nullArg(t, fn, "info")
	}
	n, s, code := cntOnStream(t, fn, p, sp)
	if code != 0 {
		return code
	}
	return fail(t, fn, s.s.RecordCntNotify(n.n, gocann.CntRecordMode(info.mode), uint32(info.value)))
}

//export gocann_aclrtCntNotifyWaitWithTimeout
func gocann_aclrtCntNotifyWaitWithTimeout(t *C.gocann_thread, p C.aclrtCntNotify, sp C.aclrtStream, info *C.aclrtCntNotifyWaitInfo) C.aclError {
	const fn = "aclrtCntNotifyWaitWithTimeout"
	if code := unsupported(t, fn); code != 0 {
		return code
	}
	if info == nil {
		return nullArg(t, fn, "info")
	}
	if info.isClear > 1 {
		return failf(t, fn, gocann.KindInvalidParam, "info->isClear %d is invalid, expected 0 or 1", info.isClear)
	}
	n, s, code := cntOnStream(t, fn, p, sp)
	if code != 0 {
		return code
	}
	// The reference gives the timeout in seconds; 0 waits forever.
	return fail(t, fn, s.s.WaitCntNotify(n.n, gocann.CntWait{Mode: gocann.CntWaitMode(info.mode), Value: uint32(info.value),
		Timeout: time.Duration(info.timeout) * time.Second, Clear: info.isClear == 1}))
}

//export gocann_aclrtCntNotifyReset
func gocann_aclrtCntNotifyReset(t *C.gocann_thread, p C.aclrtCntNotify, sp C.aclrtStream) C.aclError {
	const fn = "aclrtCntNotifyReset"
	n, s, code := cntOnStream(t, fn, p, sp)
	if code != 0 {
		return code
	}
	return fail(t, fn, s.s.ResetCntNotify(n.n))
}

//export gocann_aclrtCntNotifyGetId
func gocann_aclrtCntNotifyGetId(t *C.gocann_thread, p C.aclrtCntNotify, id *C.uint32_t) C.aclError {
	const fn = "aclrtCntNotifyGetId"
	if code := unsupported(t, fn); code != 0 {
		return code
	}
	if id == nil {
		return nullArg(t, fn, "notifyId")
	}
	n, code := cntNotifyOf(t, fn, p)
	if code != 0 {
		return code
	}
	v, err := n.n.ID()
	if err != nil {
		return fail(t, fn, err)
	}
	*id = C.uint32_t(v)
	return 0
}

//export gocann_aclrtNotifyBatchReset
func gocann_aclrtNotifyBatchReset(t *C.gocann_thread, notifies *C.aclrtNotify, num C.size_t) C.aclError {
	const fn = "aclrtNotifyBatchReset"
	if code := unsupported(t, fn); code != 0 {
		return code
	}
	if notifies == nil {
		return nullArg(t, fn, "notifies")
	}
	if num == 0 {
		return failf(t, fn, gocann.KindInvalidParam, "num 0 is invalid, expected at least one notify")
	}
	if num > 1<<20 {
		return failf(t, fn, gocann.KindInvalidParam, "num %d is invalid, expected at most %d notifies", num, 1<<20)
	}
	ps := unsafe.Slice(notifies, int(num))
	ns := make([]*gocann.Notify, len(ps))
	for i, p := range ps {
		n, code := notifyOf(t, fn, p)
		if code != 0 {
			return code
		}
		ns[i] = n.n
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	return fail(t, fn, r.ResetNotifies(ns...))
}
