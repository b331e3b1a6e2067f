package main

/*
#include <stdlib.h>
#include <string.h>
#include "acl/acl.h"
#include "thread.h"
*/
import "C"

import (
	"context"
	"unsafe"

	"github.com/gocann/gocann"
)

// createStream makes a stream in the thread's current context.
func createStream(t *C.gocann_thread, fn string, out *C.aclrtStream, prio uint32, flags uint32) C.aclError {
	if out == nil {
		return nullArg(t, fn, "stream")
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	least, greatest := c.c.Device().StreamPriorityRange()
	p := int(min(prio, uint32(least))) // out-of-range priorities are clamped, as CANN does
	p = max(p, greatest)
	gs, err := c.c.Raw().NewStream(gocann.WithPriority(p), gocann.WithStreamFlags(gocann.StreamFlags(flags)))
	if err != nil {
		return fail(t, fn, err)
	}
	s := &cStream{s: gs, ctx: c}
	h, ok := proc.handles.add(kindStream, s)
	if !ok {
		gs.Close() // new, with nothing queued: no wait (and no support check, which CloseForce has)
		forgetPending(gs)
		return failf(t, fn, gocann.KindNoStream, "too many live handles")
	}
	s.h = h
	proc.direct.openStream(s)
	bornStream(gs, h)
	if !adopt(c, &c.streams, s) {
		proc.fronts.Delete(gs)
		proc.handles.remove(h, kindStream)
		return contextGone(t, fn, c)
	}
	*out = C.aclrtStream(C.gocann_handle(C.uintptr_t(h)))
	return 0
}

//export gocann_aclrtCreateStream
func gocann_aclrtCreateStream(t *C.gocann_thread, out *C.aclrtStream) C.aclError {
	if code := unsupported(t, "aclrtCreateStream"); code != 0 {
		return code
	}
	return createStream(t, "aclrtCreateStream", out, 0, 0)
}

//export gocann_aclrtCreateStreamWithConfig
func gocann_aclrtCreateStreamWithConfig(t *C.gocann_thread, out *C.aclrtStream, priority, flag C.uint32_t) C.aclError {
	if code := unsupported(t, "aclrtCreateStreamWithConfig"); code != 0 {
		return code
	}
	return createStream(t, "aclrtCreateStreamWithConfig", out, uint32(priority), uint32(flag))
}

//export gocann_aclrtCreateStreamV2
func gocann_aclrtCreateStreamV2(t *C.gocann_thread, out *C.aclrtStream, cfg *C.aclrtStreamConfigHandle) C.aclError {
	const fn = "aclrtCreateStreamV2"
	if code := unsupported(t, "aclrtCreateStreamV2"); code != 0 {
		return code
	}
	if cfg == nil {
		return nullArg(t, fn, "handle")
	}
	return createStream(t, fn, out, uint32(cfg.priority), uint32(cfg.flag))
}

//export gocann_aclrtCreateStreamConfigHandle
func gocann_aclrtCreateStreamConfigHandle(t *C.gocann_thread) *C.aclrtStreamConfigHandle {
	if unsupported(t, "aclrtCreateStreamConfigHandle") != 0 {
		return nil
	}
	return (*C.aclrtStreamConfigHandle)(C.calloc(1, C.sizeof_aclrtStreamConfigHandle))
}

//export gocann_aclrtDestroyStreamConfigHandle
func gocann_aclrtDestroyStreamConfigHandle(t *C.gocann_thread, h *C.aclrtStreamConfigHandle) C.aclError {
	if code := unsupported(t, "aclrtDestroyStreamConfigHandle"); code != 0 {
		return code
	}
	if h == nil {
		return nullArg(t, "aclrtDestroyStreamConfigHandle", "handle")
	}
	C.free(unsafe.Pointer(h))
	return 0
}

//export gocann_aclrtSetStreamConfigOpt
func gocann_aclrtSetStreamConfigOpt(t *C.gocann_thread, h *C.aclrtStreamConfigHandle, attr C.aclrtStreamConfigAttr, value unsafe.Pointer, size C.size_t) C.aclError {
	const fn = "aclrtSetStreamConfigOpt"
	if code := unsupported(t, "aclrtSetStreamConfigOpt"); code != 0 {
		return code
	}
	if h == nil || value == nil {
		return nullArg(t, fn, "handle or attrValue")
	}
	if err := checkStreamConfigOpt(int64(attr), uintptr(size)); err != nil {
		return fail(t, fn, err)
	}
	switch attr {
	case C.ACL_RT_STREAM_WORK_ADDR_PTR:
		// Copied as a word: a pointer store into C memory would run the
		// write barrier on whatever the field held.
		*(*uintptr)(unsafe.Pointer(&h.workptr)) = *(*uintptr)(value)
	case C.ACL_RT_STREAM_WORK_SIZE:
		h.workSize = *(*C.size_t)(value)
	case C.ACL_RT_STREAM_FLAG:
		h.flag = *(*C.size_t)(value)
	case C.ACL_RT_STREAM_PRIORITY:
		h.priority = *(*C.uint32_t)(value)
	}
	return 0
}

func destroyStream(t *C.gocann_thread, fn string, p C.aclrtStream, force bool) C.aclError {
	if p == nil {
		return failf(t, fn, gocann.KindInvalidParam, "stream is NULL: the default stream cannot be destroyed")
	}
	s, code := stream(t, fn, p)
	if code != 0 {
		return code
	}
	var err error
	if force {
		err = s.s.CloseForce()
	} else {
		err = s.s.Close()
	}
	if err != nil {
		return fail(t, fn, err)
	}
	proc.fronts.Delete(s.s)
	proc.handles.remove(s.h, kindStream)
	disown(s.ctx, &s.ctx.streams, s)
	return 0
}

//export gocann_aclrtDestroyStream
func gocann_aclrtDestroyStream(t *C.gocann_thread, p C.aclrtStream) C.aclError {
	return destroyStream(t, "aclrtDestroyStream", p, false)
}

//export gocann_aclrtDestroyStreamForce
func gocann_aclrtDestroyStreamForce(t *C.gocann_thread, p C.aclrtStream) C.aclError {
	return destroyStream(t, "aclrtDestroyStreamForce", p, true)
}

//export gocann_aclrtSynchronizeStream
func gocann_aclrtSynchronizeStream(t *C.gocann_thread, p C.aclrtStream) C.aclError {
	const fn = "aclrtSynchronizeStream"
	s, code := stream(t, fn, p)
	if code != 0 {
		return code
	}
	return fail(t, fn, s.s.Synchronize(context.Background()))
}

//export gocann_aclrtSynchronizeStreamWithTimeout
func gocann_aclrtSynchronizeStreamWithTimeout(t *C.gocann_thread, p C.aclrtStream, timeout C.int32_t) C.aclError {
	const fn = "aclrtSynchronizeStreamWithTimeout"
	s, code := stream(t, fn, p)
	if code != 0 {
		return code
	}
	to, code := msTimeout(t, fn, timeout)
	if code != 0 {
		return code
	}
	return fail(t, fn, s.s.SynchronizeTimeout(to))
}

//export gocann_aclrtStreamQuery
func gocann_aclrtStreamQuery(t *C.gocann_thread, p C.aclrtStream, status *C.aclrtStreamStatus) C.aclError {
	const fn = "aclrtStreamQuery"
	if status == nil {
		return nullArg(t, fn, "status")
	}
	s, code := stream(t, fn, p)
	if code != 0 {
		return code
	}
	done, err := s.s.Query()
	if err != nil {
		return fail(t, fn, err)
	}
	*status = C.ACL_STREAM_STATUS_NOT_READY
	if done {
		*status = C.ACL_STREAM_STATUS_COMPLETE
	}
	return 0
}

//export gocann_aclrtStreamGetPriority
func gocann_aclrtStreamGetPriority(t *C.gocann_thread, p C.aclrtStream, prio *C.uint32_t) C.aclError {
	const fn = "aclrtStreamGetPriority"
	if code := unsupported(t, "aclrtStreamGetPriority"); code != 0 {
		return code
	}
	if prio == nil {
		return nullArg(t, fn, "priority")
	}
	s, code := stream(t, fn, p)
	if code != 0 {
		return code
	}
	*prio = C.uint32_t(s.s.Priority())
	return 0
}

//export gocann_aclrtStreamGetFlags
func gocann_aclrtStreamGetFlags(t *C.gocann_thread, p C.aclrtStream, flags *C.uint32_t) C.aclError {
	const fn = "aclrtStreamGetFlags"
	if code := unsupported(t, "aclrtStreamGetFlags"); code != 0 {
		return code
	}
	if flags == nil {
		return nullArg(t, fn, "flags")
	}
	s, code := stream(t, fn, p)
	if code != 0 {
		return code
	}
	*flags = C.uint32_t(s.s.Flags())
	return 0
}

//export gocann_aclrtStreamGetId
func gocann_aclrtStreamGetId(t *C.gocann_thread, p C.aclrtStream, id *C.int32_t) C.aclError {
	const fn = "aclrtStreamGetId"
	if code := unsupported(t, "aclrtStreamGetId"); code != 0 {
		return code
	}
	if id == nil {
		return nullArg(t, fn, "streamId")
	}
	s, code := stream(t, fn, p)
	if code != 0 {
		return code
	}
	*id = C.int32_t(s.s.ID())
	return 0
}

//export gocann_aclrtSetStreamFailureMode
func gocann_aclrtSetStreamFailureMode(t *C.gocann_thread, p C.aclrtStream, mode C.uint64_t) C.aclError {
	const fn = "aclrtSetStreamFailureMode"
	s, code := stream(t, fn, p)
	if code != 0 {
		return code
	}
	return fail(t, fn, s.s.SetFailureMode(gocann.FailureMode(mode)))
}

// attrValue reads or writes the member of aclrtStreamAttrValue an
// attribute uses: 64 bits for the failure mode, 32 for the others.
func attrWide(attr C.aclrtStreamAttr) bool { return attr == C.ACL_STREAM_ATTR_FAILURE_MODE }

//export gocann_aclrtSetStreamAttribute
func gocann_aclrtSetStreamAttribute(t *C.gocann_thread, p C.aclrtStream, attr C.aclrtStreamAttr, value *C.aclrtStreamAttrValue) C.aclError {
	const fn = "aclrtSetStreamAttribute"
	if value == nil {
		return nullArg(t, fn, "value")
	}
	s, code := stream(t, fn, p)
	if code != 0 {
		return code
	}
	v := uint64(*(*C.uint32_t)(unsafe.Pointer(value)))
	if attrWide(attr) {
		v = uint64(*(*C.uint64_t)(unsafe.Pointer(value)))
	}
	return fail(t, fn, s.s.SetAttr(gocann.StreamAttr(attr), v))
}

//export gocann_aclrtGetStreamAttribute
func gocann_aclrtGetStreamAttribute(t *C.gocann_thread, p C.aclrtStream, attr C.aclrtStreamAttr, value *C.aclrtStreamAttrValue) C.aclError {
	const fn = "aclrtGetStreamAttribute"
	if code := unsupported(t, "aclrtGetStreamAttribute"); code != 0 {
		return code
	}
	if value == nil {
		return nullArg(t, fn, "value")
	}
	s, code := stream(t, fn, p)
	if code != 0 {
		return code
	}
	v, err := s.s.Attr(gocann.StreamAttr(attr))
	if err != nil {
		return fail(t, fn, err)
	}
	C.memset(unsafe.Pointer(value), 0, C.sizeof_aclrtStreamAttrValue)
	if attrWide(attr) {
		*(*C.uint64_t)(unsafe.Pointer(value)) = C.uint64_t(v)
	} else {
		*(*C.uint32_t)(unsafe.Pointer(value)) = C.uint32_t(v)
	}
	return 0
}

//export gocann_aclrtStreamAbort
func gocann_aclrtStreamAbort(t *C.gocann_thread, p C.aclrtStream) C.aclError {
	const fn = "aclrtStreamAbort"
	if p == nil {
		return failf(t, fn, gocann.KindInvalidParam, "stream is NULL, expected an explicit stream")
	}
	s, code := stream(t, fn, p)
	if code != 0 {
		return code
	}
	return fail(t, fn, s.s.Abort())
}

//export gocann_aclrtGetStreamAvailableNum
func gocann_aclrtGetStreamAvailableNum(t *C.gocann_thread, count *C.uint32_t) C.aclError {
	const fn = "aclrtGetStreamAvailableNum"
	if count == nil {
		return nullArg(t, fn, "streamCount")
	}
	d, code := currentDevice(t, fn)
	if code != 0 {
		return code
	}
	n, err := d.StreamsAvailable()
	if err != nil {
		return fail(t, fn, err)
	}
	*count = C.uint32_t(n)
	return 0
}

// The value sizes checkStreamConfigOpt expects are the fields' own
// (a build on a target where they differ fails here).
var _ = [1]struct{}{}[unsafe.Sizeof(C.aclrtStreamConfigHandle{}.workptr)+unsafe.Sizeof(C.aclrtStreamConfigHandle{}.workSize)+
	unsafe.Sizeof(C.aclrtStreamConfigHandle{}.flag)+unsafe.Sizeof(C.aclrtStreamConfigHandle{}.priority)-28]
