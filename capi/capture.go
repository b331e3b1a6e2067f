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

// Stream capture (aclmdlRICapture*), task groups and their update, and
// conditional tasks. The capture mode of aclmdlRICaptureThreadExchangeMode
// is per OS thread: it lives in the thread's state and goes with each call
// a capture may refuse.

func captureMode(t *C.gocann_thread, fn string, mode C.aclmdlRICaptureMode) (gocann.CaptureMode, C.aclError) {
	m := gocann.CaptureMode(mode)
	if m < gocann.CaptureGlobal || m > gocann.CaptureRelaxed {
		return 0, failf(t, fn, gocann.KindInvalidParam, "mode %d is invalid, expected ACL_MODEL_RI_CAPTURE_MODE_GLOBAL (0), _THREAD_LOCAL (1) or _RELAXED (2)", mode)
	}
	return m, 0
}

//export gocann_aclmdlRICaptureBegin
func gocann_aclmdlRICaptureBegin(t *C.gocann_thread, sp C.aclrtStream, mode C.aclmdlRICaptureMode) C.aclError {
	const fn = "aclmdlRICaptureBegin"
	s, code := queueStream(t, fn, sp)
	if code != 0 {
		return code
	}
	m, code := captureMode(t, fn, mode)
	if code != 0 {
		return code
	}
	_, err := s.s.Raw().BeginCapture(captureThread(t), m)
	return fail(t, fn, err)
}

//export gocann_aclmdlRICaptureToModelRIBegin
func gocann_aclmdlRICaptureToModelRIBegin(t *C.gocann_thread, sp C.aclrtStream, p C.aclmdlRI, mode C.aclmdlRICaptureMode) C.aclError {
	const fn = "aclmdlRICaptureToModelRIBegin"
	s, code := queueStream(t, fn, sp)
	if code != 0 {
		return code
	}
	m, code := modelOf(t, fn, p)
	if code != 0 {
		return code
	}
	mo, code := captureMode(t, fn, mode)
	if code != 0 {
		return code
	}
	_, err := s.s.Raw().BeginCaptureInto(captureThread(t), m.m, mo)
	return fail(t, fn, err)
}

//export gocann_aclmdlRICaptureEnd
func gocann_aclmdlRICaptureEnd(t *C.gocann_thread, sp C.aclrtStream, out *C.aclmdlRI) C.aclError {
	const fn = "aclmdlRICaptureEnd"
	if out == nil {
		return nullArg(t, fn, "modelRI")
	}
	s, code := stream(t, fn, sp)
	if code != 0 {
		return code
	}
	m, err := s.s.Raw().EndCapture(captureThread(t))
	if err != nil {
		return fail(t, fn, err)
	}
	return putModel(t, fn, m, out)
}

//export gocann_aclmdlRICaptureGetInfo
func gocann_aclmdlRICaptureGetInfo(t *C.gocann_thread, sp C.aclrtStream, status *C.aclmdlRICaptureStatus, out *C.aclmdlRI) C.aclError {
	const fn = "aclmdlRICaptureGetInfo"
	if code := unsupported(t, "aclmdlRICaptureGetInfo"); code != 0 {
		return code
	}
	if status == nil || out == nil {
		return nullArg(t, fn, "status or modelRI")
	}
	s, code := stream(t, fn, sp)
	if code != 0 {
		return code
	}
	st, m := s.s.CaptureInfo()
	*status = C.aclmdlRICaptureStatus(st)
	if m == nil {
		*out = nil
		return 0
	}
	return putModel(t, fn, m, out)
}

//export gocann_aclmdlRICaptureThreadExchangeMode
func gocann_aclmdlRICaptureThreadExchangeMode(t *C.gocann_thread, mode *C.aclmdlRICaptureMode) C.aclError {
	const fn = "aclmdlRICaptureThreadExchangeMode"
	if mode == nil {
		return nullArg(t, fn, "mode")
	}
	m, code := captureMode(t, fn, *mode)
	if code != 0 {
		return code
	}
	*mode, t.capture_mode = C.aclmdlRICaptureMode(t.capture_mode), C.int32_t(m)
	return 0
}

//export gocann_aclmdlRICaptureTaskGrpBegin
func gocann_aclmdlRICaptureTaskGrpBegin(t *C.gocann_thread, sp C.aclrtStream) C.aclError {
	const fn = "aclmdlRICaptureTaskGrpBegin"
	s, code := stream(t, fn, sp)
	if code != 0 {
		return code
	}
	return fail(t, fn, s.s.BeginTaskGroup())
}

//export gocann_aclmdlRICaptureTaskGrpEnd
func gocann_aclmdlRICaptureTaskGrpEnd(t *C.gocann_thread, sp C.aclrtStream, out *C.aclrtTaskGrp) C.aclError {
	const fn = "aclmdlRICaptureTaskGrpEnd"
	if out == nil {
		return nullArg(t, fn, "handle")
	}
	s, code := stream(t, fn, sp)
	if code != 0 {
		return code
	}
	g, err := s.s.EndTaskGroup()
	if err != nil {
		return fail(t, fn, err)
	}
	h, err := groupHandle(g)
	if err != nil {
		return fail(t, fn, err)
	}
	*out = C.aclrtTaskGrp(C.gocann_handle(C.uintptr_t(h)))
	return 0
}

// groupHandle returns g's handle, registering g on first sight. Task group
// handles live as long as the process: a group has no destroy call.
func groupHandle(g *gocann.TaskGroup) (handle, error) {
	if h, ok := proc.fronts.Load(g); ok {
		return h.(handle), nil
	}
	h, ok := proc.handles.add(kindTaskGroup, g)
	if !ok {
		return 0, gocann.Errorf("aclmdlRICaptureTaskGrpEnd", gocann.KindInternal, "too many live handles")
	}
	if prev, loaded := proc.fronts.LoadOrStore(g, h); loaded {
		proc.handles.remove(h, kindTaskGroup)
		return prev.(handle), nil
	}
	return h, nil
}

//export gocann_aclmdlRICaptureTaskUpdateBegin
func gocann_aclmdlRICaptureTaskUpdateBegin(t *C.gocann_thread, sp C.aclrtStream, gp C.aclrtTaskGrp) C.aclError {
	const fn = "aclmdlRICaptureTaskUpdateBegin"
	s, code := stream(t, fn, sp)
	if code != 0 {
		return code
	}
	obj, ok := proc.handles.get(handleOf(unsafe.Pointer(gp)), kindTaskGroup)
	if !ok {
		return badHandle(t, fn, "handle", unsafe.Pointer(gp), kindTaskGroup)
	}
	return fail(t, fn, s.s.BeginUpdate(obj.(*gocann.TaskGroup)))
}

//export gocann_aclmdlRICaptureTaskUpdateEnd
func gocann_aclmdlRICaptureTaskUpdateEnd(t *C.gocann_thread, sp C.aclrtStream) C.aclError {
	const fn = "aclmdlRICaptureTaskUpdateEnd"
	s, code := stream(t, fn, sp)
	if code != 0 {
		return code
	}
	return fail(t, fn, s.s.EndUpdate())
}

//export gocann_aclmdlRICondHandleCreate
func gocann_aclmdlRICondHandleCreate(t *C.gocann_thread, p C.aclmdlRI, def C.uint32_t, flag C.aclmdlRICondHandleFlag, out *C.aclmdlRICondHandle) C.aclError {
	const fn = "aclmdlRICondHandleCreate"
	if out == nil {
		return nullArg(t, fn, "handle")
	}
	m, code := modelOf(t, fn, p)
	if code != 0 {
		return code
	}
	if flag != 0 && flag != C.ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT {
		return failf(t, fn, gocann.KindInvalidParam, "flag %d is invalid, expected 0 or ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT (1)", flag)
	}
	h, err := m.m.NewCond(uint32(def), flag == C.ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT)
	if err != nil {
		return fail(t, fn, err)
	}
	hh, ok := proc.handles.add(kindCond, h)
	if !ok {
		return failf(t, fn, gocann.KindInternal, "too many live handles")
	}
	m.mu.Lock()
	m.conds = append(m.conds, hh)
	m.mu.Unlock()
	*out = C.aclmdlRICondHandle(C.gocann_handle(C.uintptr_t(hh)))
	return 0
}

//export gocann_aclmdlRICondHandleGetCondPtr
func gocann_aclmdlRICondHandleGetCondPtr(t *C.gocann_thread, hp C.aclmdlRICondHandle, ptr **C.uint64_t) C.aclError {
	const fn = "aclmdlRICondHandleGetCondPtr"
	if code := unsupported(t, "aclmdlRICondHandleGetCondPtr"); code != 0 {
		return code
	}
	if ptr == nil {
		return nullArg(t, fn, "ptr")
	}
	obj, ok := proc.handles.get(handleOf(unsafe.Pointer(hp)), kindCond)
	if !ok {
		return badHandle(t, fn, "handle", unsafe.Pointer(hp), kindCond)
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	p, err := r.Raw().DevicePointer(obj.(*gocann.CondHandle).Ptr())
	if err != nil {
		return fail(t, fn, err)
	}
	*ptr = (*C.uint64_t)(p)
	return 0
}

//export gocann_aclmdlRIAddCondTask
func gocann_aclmdlRIAddCondTask(t *C.gocann_thread, params C.aclmdlRICondTaskParams, sp C.aclrtStream, flags C.uint32_t) C.aclError {
	const fn = "aclmdlRIAddCondTask"
	if flags != 0 {
		return failf(t, fn, gocann.KindInvalidParam, "flags %d is invalid, expected 0 (reserved)", flags)
	}
	if params.modelRIArray == nil {
		return nullArg(t, fn, "params.modelRIArray")
	}
	obj, ok := proc.handles.get(handleOf(unsafe.Pointer(params.handle)), kindCond)
	if !ok {
		return badHandle(t, fn, "params.handle", unsafe.Pointer(params.handle), kindCond)
	}
	if params._type > C.ACL_MODEL_RI_COND_TYPE_SWITCH {
		return failf(t, fn, gocann.KindInvalidParam, "params.type %d is invalid, expected ACL_MODEL_RI_COND_TYPE_IF (0), _WHILE (1) or _SWITCH (2)", params._type)
	}
	s, code := queueStream(t, fn, sp)
	if code != 0 {
		return code
	}
	subs, err := s.s.AddCond(obj.(*gocann.CondHandle), gocann.CondKind(params._type), int(params.size))
	if err != nil {
		return fail(t, fn, err)
	}
	out := unsafe.Slice(params.modelRIArray, len(subs))
	for i, m := range subs {
		if code := putModel(t, fn, m, &out[i]); code != 0 {
			return code
		}
	}
	return 0
}
