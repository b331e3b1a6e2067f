package main

/*
#include <string.h>
#include "acl/acl.h"
#include "thread.h"
*/
import "C"

import (
	"unsafe"

	"github.com/gocann/gocann"
)

// Looking into a model and editing its tasks: aclmdlRIGetStreams,
// aclmdlRIGetTasksByStream, aclmdlRITask*, aclmdlRIUpdate.

// ownStreamHandle returns the model's own handle for stream s, registering
// it on first sight.
func (cm *cModel) ownStreamHandle(s gocann.ModelStream) (handle, bool) {
	cm.mu.Lock()
	defer cm.mu.Unlock()
	if cm.streams == nil {
		return 0, false // the model is gone
	}
	if h, ok := cm.streams[s.Index()]; ok {
		return h, true
	}
	h, ok := proc.handles.add(kindModelStream, &cModelStream{s: s, model: cm})
	if ok {
		cm.streams[s.Index()] = h
	}
	return h, ok
}

func (cm *cModel) taskHandle(tk gocann.ModelTask) (handle, bool) {
	cm.mu.Lock()
	defer cm.mu.Unlock()
	if cm.tasks == nil {
		return 0, false
	}
	key := [2]int{tk.Stream().Index(), int(tk.Seq())}
	if h, ok := cm.tasks[key]; ok {
		return h, true
	}
	h, ok := proc.handles.add(kindModelTask, &cModelTask{t: tk, model: cm})
	if ok {
		cm.tasks[key] = h
	}
	return h, ok
}

// fillArray is the two-call protocol of the getters: with a NULL array the
// count is stored; otherwise *n is the array's capacity, which must hold
// every item, and *n becomes the count.
func fillArray(t *C.gocann_thread, fn, what string, arr unsafe.Pointer, n *C.uint32_t, count int, put func(i int) (handle, bool)) C.aclError {
	if n == nil {
		return nullArg(t, fn, "num"+what)
	}
	if arr == nil {
		*n = C.uint32_t(count)
		return 0
	}
	if int(*n) < count {
		return failf(t, fn, gocann.KindInsufficientArray, "the array holds %d %s, the model has %d", *n, what, count)
	}
	out := unsafe.Slice((*unsafe.Pointer)(arr), count)
	for i := range out {
		h, ok := put(i)
		if !ok {
			return failf(t, fn, gocann.KindInvalidHandle, "the model was destroyed")
		}
		out[i] = C.gocann_handle(C.uintptr_t(h))
	}
	*n = C.uint32_t(count)
	return 0
}

//export gocann_aclmdlRIGetStreams
func gocann_aclmdlRIGetStreams(t *C.gocann_thread, p C.aclmdlRI, streams *C.aclrtStream, n *C.uint32_t) C.aclError {
	const fn = "aclmdlRIGetStreams"
	m, code := modelOf(t, fn, p)
	if code != 0 {
		return code
	}
	ss, err := m.m.Streams()
	if err != nil {
		return fail(t, fn, err)
	}
	return fillArray(t, fn, "streams", unsafe.Pointer(streams), n, len(ss), func(i int) (handle, bool) { return m.streamHandle(ss[i]) })
}

// streamHandle returns the handle of model stream s: the persistent stream
// still bound to it, for a built model, else a handle of its own.
func (cm *cModel) streamHandle(s gocann.ModelStream) (handle, bool) {
	if src := s.Source(); src != nil {
		if bs, err := src.BoundModelStream(); err == nil && bs == s {
			if h := frontHandle(src); h != 0 {
				return h, true
			}
		}
	}
	return cm.ownStreamHandle(s)
}

// modelStreamOf accepts a stream handle from aclmdlRIGetStreams, or a
// persistent stream bound to a built model.
func modelStreamOf(t *C.gocann_thread, fn string, p C.aclrtStream) (*cModel, gocann.ModelStream, C.aclError) {
	h := handleOf(unsafe.Pointer(p))
	if obj, ok := proc.handles.get(h, kindModelStream); ok {
		ms := obj.(*cModelStream)
		return ms.model, ms.s, 0
	}
	if p == nil || h.kind() != kindStream {
		return nil, gocann.ModelStream{}, badHandle(t, fn, "stream", unsafe.Pointer(p), kindModelStream)
	}
	s, code := stream(t, fn, p)
	if code != 0 {
		return nil, gocann.ModelStream{}, code
	}
	ms, err := s.s.BoundModelStream()
	if err != nil {
		return nil, gocann.ModelStream{}, fail(t, fn, err)
	}
	mh, err := modelHandle(ms.Model())
	if err != nil {
		return nil, gocann.ModelStream{}, fail(t, fn, err)
	}
	obj, _ := proc.handles.get(mh, kindModel)
	return obj.(*cModel), ms, 0
}

//export gocann_aclmdlRIGetTasksByStream
func gocann_aclmdlRIGetTasksByStream(t *C.gocann_thread, sp C.aclrtStream, tasks *C.aclmdlRITask, n *C.uint32_t) C.aclError {
	const fn = "aclmdlRIGetTasksByStream"
	if code := unsupported(t, "aclmdlRIGetTasksByStream"); code != 0 {
		return code
	}
	cm, ms, code := modelStreamOf(t, fn, sp)
	if code != 0 {
		return code
	}
	ts := ms.Tasks()
	return fillArray(t, fn, "tasks", unsafe.Pointer(tasks), n, len(ts), func(i int) (handle, bool) { return cm.taskHandle(ts[i]) })
}

func taskOf(t *C.gocann_thread, fn string, p C.aclmdlRITask) (*cModelTask, C.aclError) {
	if obj, ok := proc.handles.get(handleOf(unsafe.Pointer(p)), kindModelTask); ok {
		return obj.(*cModelTask), 0
	}
	return nil, badHandle(t, fn, "task", unsafe.Pointer(p), kindModelTask)
}

//export gocann_aclmdlRITaskGetType
func gocann_aclmdlRITaskGetType(t *C.gocann_thread, p C.aclmdlRITask, typ *C.aclmdlRITaskType) C.aclError {
	const fn = "aclmdlRITaskGetType"
	if code := unsupported(t, "aclmdlRITaskGetType"); code != 0 {
		return code
	}
	tk, code := taskOf(t, fn, p)
	if code != 0 {
		return code
	}
	if typ == nil {
		return nullArg(t, fn, "type")
	}
	*typ = C.aclmdlRITaskType(tk.t.Type())
	return 0
}

//export gocann_aclmdlRITaskGetSeqId
func gocann_aclmdlRITaskGetSeqId(t *C.gocann_thread, p C.aclmdlRITask, id *C.uint32_t) C.aclError {
	const fn = "aclmdlRITaskGetSeqId"
	if code := unsupported(t, "aclmdlRITaskGetSeqId"); code != 0 {
		return code
	}
	tk, code := taskOf(t, fn, p)
	if code != 0 {
		return code
	}
	if id == nil {
		return nullArg(t, fn, "id")
	}
	*id = C.uint32_t(tk.t.Seq())
	return 0
}

// frontHandle is the handle C code holds for a Go API object, or 0.
func frontHandle(obj any) handle {
	if h, ok := proc.fronts.Load(obj); ok {
		return h.(handle)
	}
	return 0
}

//export gocann_aclmdlRITaskGetParams
func gocann_aclmdlRITaskGetParams(t *C.gocann_thread, p C.aclmdlRITask, params *C.aclmdlRITaskParams) C.aclError {
	const fn = "aclmdlRITaskGetParams"
	if code := unsupported(t, "aclmdlRITaskGetParams"); code != 0 {
		return code
	}
	tk, code := taskOf(t, fn, p)
	if code != 0 {
		return code
	}
	if params == nil {
		return nullArg(t, fn, "params")
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	gp := tk.t.Params()
	C.memset(unsafe.Pointer(params), 0, C.sizeof_aclmdlRITaskParams)
	params._type = C.aclmdlRITaskType(gp.Type)
	if gp.Group != nil {
		h, err := groupHandle(gp.Group)
		if err != nil {
			return fail(t, fn, err)
		}
		params.taskGrp = C.aclrtTaskGrp(C.gocann_handle(C.uintptr_t(h)))
	}
	u := unsafe.Pointer(&params.anon0)
	switch gp.Type {
	case gocann.TaskKernel:
		kp := (*C.aclmdlRIKernelTaskParams)(u)
		kp.funcHandle = C.aclrtFuncHandle(C.gocann_handle(C.uintptr_t(frontHandle(gp.Kernel))))
		dev, err := tk.t.ArgsDevice()
		if err != nil {
			return fail(t, fn, err)
		}
		args, err := r.Raw().DevicePointer(dev)
		if err != nil {
			return fail(t, fn, err)
		}
		kp.args, kp.isHostArgs, kp.argsSize, kp.numBlocks = args, 0, C.size_t(8*gp.NArgs), C.uint32_t(gp.Blocks)
	case gocann.TaskEventRecord, gocann.TaskEventWait, gocann.TaskEventReset:
		// The three event parameter structs share one layout: event, then
		// the flag it was created with.
		ep := (*C.aclmdlRIEventRecordTaskParams)(u)
		if gp.Event != nil {
			ep.event = C.aclrtEvent(C.gocann_handle(C.uintptr_t(frontHandle(gp.Event))))
			ep.eventFlag = C.uint32_t(gp.Event.Flags())
		}
	case gocann.TaskValueWrite:
		vp := (*C.aclmdlRIValueWriteTaskParams)(u)
		addr, err := r.Raw().DevicePointer(gp.Addr)
		if err != nil {
			return fail(t, fn, err)
		}
		vp.devAddr, vp.value = addr, C.uint64_t(gp.Value)
	case gocann.TaskValueWait:
		vp := (*C.aclmdlRIValueWaitTaskParams)(u)
		addr, err := r.Raw().DevicePointer(gp.Addr)
		if err != nil {
			return fail(t, fn, err)
		}
		vp.devAddr, vp.value, vp.flag = addr, C.uint64_t(gp.Value), C.uint32_t(gp.Flag)
	}
	return 0
}

//export gocann_aclmdlRITaskSetParams
func gocann_aclmdlRITaskSetParams(t *C.gocann_thread, p C.aclmdlRITask, params *C.aclmdlRITaskParams) C.aclError {
	const fn = "aclmdlRITaskSetParams"
	tk, code := taskOf(t, fn, p)
	if code != 0 {
		return code
	}
	if params == nil {
		return nullArg(t, fn, "params")
	}
	gp := gocann.TaskParams{Type: gocann.TaskType(params._type)}
	u := unsafe.Pointer(&params.anon0)
	switch gp.Type {
	case gocann.TaskKernel:
		kp := (*C.aclmdlRIKernelTaskParams)(u)
		f, code := funcOf(t, fn, unsafe.Pointer(kp.funcHandle))
		if code != 0 {
			return code
		}
		gp.Kernel, gp.Blocks = f.k, uint32(kp.numBlocks)
		size := uintptr(kp.argsSize)
		if size%8 != 0 || size > 8*gocann.MaxArgs {
			return failf(t, fn, gocann.KindInvalidParam, "argsSize %d is invalid, expected a multiple of 8 up to %d", size, 8*gocann.MaxArgs)
		}
		if size > 0 && kp.args == nil {
			return nullArg(t, fn, "kernelTaskParams.args")
		}
		if code := checkCovers(t, fn, f, "kernelTaskParams.argsSize", uint64(size)); code != 0 {
			return code
		}
		if kp.isHostArgs != 0 {
			gp.Args = make([]gocann.Arg, size/8)
			if size > 0 {
				copy(gp.Args, unsafe.Slice((*gocann.Arg)(kp.args), size/8))
			}
		} else {
			gp.ArgsDev, gp.NArgs = gocann.DevPtr(uintptr(kp.args)), int(size/8)
		}
	case gocann.TaskValueWrite:
		vp := (*C.aclmdlRIValueWriteTaskParams)(u)
		gp.Addr, gp.Value = gocann.DevPtr(uintptr(vp.devAddr)), uint64(vp.value)
	case gocann.TaskValueWait:
		vp := (*C.aclmdlRIValueWaitTaskParams)(u)
		gp.Addr, gp.Value, gp.Flag = gocann.DevPtr(uintptr(vp.devAddr)), uint64(vp.value), uint32(vp.flag)
	}
	return fail(t, fn, tk.t.SetParams(gp))
}

//export gocann_aclmdlRITaskDisable
func gocann_aclmdlRITaskDisable(t *C.gocann_thread, p C.aclmdlRITask) C.aclError {
	const fn = "aclmdlRITaskDisable"
	tk, code := taskOf(t, fn, p)
	if code != 0 {
		return code
	}
	return fail(t, fn, tk.t.Disable())
}

//export gocann_aclmdlRIUpdate
func gocann_aclmdlRIUpdate(t *C.gocann_thread, p C.aclmdlRI) C.aclError {
	const fn = "aclmdlRIUpdate"
	m, code := modelOf(t, fn, p)
	if code != 0 {
		return code
	}
	return fail(t, fn, m.m.Update())
}

//export gocann_aclmdlRIAbort
func gocann_aclmdlRIAbort(t *C.gocann_thread, p C.aclmdlRI) C.aclError {
	const fn = "aclmdlRIAbort"
	m, code := modelOf(t, fn, p)
	if code != 0 {
		return code
	}
	return fail(t, fn, m.m.Abort())
}
