package main

/*
#include <stdio.h>
#include <stdlib.h>
#include "acl/acl.h"
#include "thread.h"

static inline void gocann_print(const char *s, size_t n) { fwrite(s, 1, n, stdout); fflush(stdout); }
static inline void gocann_call_destroy(uintptr_t fn, uintptr_t arg) { ((aclrtCallback)fn)((void *)arg); }
*/
import "C"

import (
	"os"
	"sync"
	"unsafe"

	"github.com/gocann/gocann"
)

// Model run instances (aclmdlRI*): building over persistent streams,
// execution, names, destroy callbacks and description.

// cModel is a model run instance as C code sees it. Its handle, and the
// handles of its streams and tasks, go when the model is destroyed, however
// that happens (aclmdlRIDestroy, its context's end, its parent's destroy).
type cModel struct {
	m *gocann.ModelRI
	h handle

	// mu guards the handle caches.
	mu      sync.Mutex
	streams map[int]handle    // model stream index -> handle
	tasks   map[[2]int]handle // (stream index, seq) -> handle
	conds   []handle          // condition handles, which go with the model
}

// cModelStream is a stream of a model (aclmdlRIGetStreams).
type cModelStream struct {
	s     gocann.ModelStream
	model *cModel
}

// cModelTask is a task of a model stream (aclmdlRIGetTasksByStream).
type cModelTask struct {
	t     gocann.ModelTask
	model *cModel
}

// modelHandle returns m's handle, registering m on first sight.
func modelHandle(m *gocann.ModelRI) (handle, error) {
	if h, ok := proc.fronts.Load(m); ok {
		return h.(handle), nil
	}
	cm := &cModel{m: m, streams: map[int]handle{}, tasks: map[[2]int]handle{}}
	h, ok := proc.handles.add(kindModel, cm)
	if !ok {
		return 0, gocann.Errorf("aclmdlRI", gocann.KindInternal, "too many live handles")
	}
	cm.h = h
	if prev, loaded := proc.fronts.LoadOrStore(m, h); loaded {
		proc.handles.remove(h, kindModel)
		return prev.(handle), nil
	}
	if err := m.OnDestroy(cm.release); err != nil {
		cm.release()
		return 0, err
	}
	return h, nil
}

// release drops the handles of the model, its streams and its tasks.
func (cm *cModel) release() {
	cm.mu.Lock()
	for _, h := range cm.conds {
		proc.handles.remove(h, kindCond)
	}
	for _, h := range cm.streams {
		proc.handles.remove(h, kindModelStream)
	}
	for _, h := range cm.tasks {
		proc.handles.remove(h, kindModelTask)
	}
	cm.streams, cm.tasks, cm.conds = nil, nil, nil
	cm.mu.Unlock()
	proc.fronts.Delete(cm.m)
	proc.handles.remove(cm.h, kindModel)
}

func putModel(t *C.gocann_thread, fn string, m *gocann.ModelRI, out *C.aclmdlRI) C.aclError {
	h, err := modelHandle(m)
	if err != nil {
		return fail(t, fn, err)
	}
	*out = C.aclmdlRI(C.gocann_handle(C.uintptr_t(h)))
	return 0
}

func modelOf(t *C.gocann_thread, fn string, p C.aclmdlRI) (*cModel, C.aclError) {
	if obj, ok := proc.handles.get(handleOf(unsafe.Pointer(p)), kindModel); ok {
		return obj.(*cModel), 0
	}
	return nil, badHandle(t, fn, "modelRI", unsafe.Pointer(p), kindModel)
}

// currentModel is modelOf for calls that run or build the model: it must
// belong to the thread's current context.
func currentModel(t *C.gocann_thread, fn string, p C.aclmdlRI) (*cModel, C.aclError) {
	m, code := modelOf(t, fn, p)
	if code != 0 {
		return nil, code
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return nil, code
	}
	if mc := m.m.Context(); mc != c.c {
		return nil, failf(t, fn, gocann.KindModelContext, "modelRI %d belongs to a context of device %d, not to the thread's current context (device %d); call aclrtSetCurrentContext first", m.m.ID(), mc.Device().ID(), c.dev)
	}
	return m, 0
}

// modelAndStream resolves the model and stream of a call that builds or
// runs the model on a stream; lookup is stream or queueStream.
func modelAndStream(t *C.gocann_thread, fn string, p C.aclmdlRI, sp C.aclrtStream,
	lookup func(*C.gocann_thread, string, C.aclrtStream) (*cStream, C.aclError)) (*cModel, *cStream, C.aclError) {
	m, code := currentModel(t, fn, p)
	if code != 0 {
		return nil, nil, code
	}
	s, code := lookup(t, fn, sp)
	return m, s, code
}

// Stream binding flags of aclmdlRIBindStream.
const (
	modelStreamHead    = 0x00000000 // ACL_MODEL_STREAM_FLAG_HEAD
	modelStreamDefault = 0x7FFFFFFF // ACL_MODEL_STREAM_FLAG_DEFAULT
)

//export gocann_aclmdlRIBuildBegin
func gocann_aclmdlRIBuildBegin(t *C.gocann_thread, out *C.aclmdlRI, flag C.uint32_t) C.aclError {
	const fn = "aclmdlRIBuildBegin"
	if out == nil {
		return nullArg(t, fn, "modelRI")
	}
	if flag != 0 {
		return failf(t, fn, gocann.KindInvalidParam, "flag %d is invalid, expected 0 (reserved)", flag)
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	m, err := c.c.BuildModel()
	if err != nil {
		return fail(t, fn, err)
	}
	return putModel(t, fn, m, out)
}

//export gocann_aclmdlRIBindStream
func gocann_aclmdlRIBindStream(t *C.gocann_thread, p C.aclmdlRI, sp C.aclrtStream, flag C.uint32_t) C.aclError {
	const fn = "aclmdlRIBindStream"
	if sp == nil {
		return nullArg(t, fn, "stream")
	}
	m, s, code := modelAndStream(t, fn, p, sp, stream)
	if code != 0 {
		return code
	}
	if flag != modelStreamHead && flag != modelStreamDefault {
		return failf(t, fn, gocann.KindInvalidParam, "flag %#x is invalid, expected ACL_MODEL_STREAM_FLAG_HEAD (0) or ACL_MODEL_STREAM_FLAG_DEFAULT (0x7FFFFFFF)", flag)
	}
	return fail(t, fn, m.m.Bind(s.s, flag == modelStreamHead))
}

//export gocann_aclmdlRIEndTask
func gocann_aclmdlRIEndTask(t *C.gocann_thread, p C.aclmdlRI, sp C.aclrtStream) C.aclError {
	const fn = "aclmdlRIEndTask"
	m, s, code := modelAndStream(t, fn, p, sp, stream)
	if code != 0 {
		return code
	}
	return fail(t, fn, m.m.EndTask(s.s))
}

//export gocann_aclmdlRIBuildEnd
func gocann_aclmdlRIBuildEnd(t *C.gocann_thread, p C.aclmdlRI, reserve C.uintptr_t) C.aclError {
	const fn = "aclmdlRIBuildEnd"
	m, code := currentModel(t, fn, p)
	if code != 0 {
		return code
	}
	if reserve != 0 {
		return failf(t, fn, gocann.KindInvalidParam, "reserve %#x is invalid, expected NULL", uintptr(reserve))
	}
	return fail(t, fn, m.m.BuildEnd())
}

//export gocann_aclmdlRIUnbindStream
func gocann_aclmdlRIUnbindStream(t *C.gocann_thread, p C.aclmdlRI, sp C.aclrtStream) C.aclError {
	const fn = "aclmdlRIUnbindStream"
	m, s, code := modelAndStream(t, fn, p, sp, stream)
	if code != 0 {
		return code
	}
	return fail(t, fn, m.m.Unbind(s.s))
}

//export gocann_aclmdlRIExecute
func gocann_aclmdlRIExecute(t *C.gocann_thread, p C.aclmdlRI, timeout C.int32_t) C.aclError {
	const fn = "aclmdlRIExecute"
	m, code := currentModel(t, fn, p)
	if code != 0 {
		return code
	}
	to, code := msTimeout(t, fn, timeout)
	if code != 0 {
		return code
	}
	return fail(t, fn, m.m.ExecuteTimeout(to))
}

//export gocann_aclmdlRIExecuteAsync
func gocann_aclmdlRIExecuteAsync(t *C.gocann_thread, p C.aclmdlRI, sp C.aclrtStream) C.aclError {
	const fn = "aclmdlRIExecuteAsync"
	m, s, code := modelAndStream(t, fn, p, sp, queueStream)
	if code != 0 {
		return code
	}
	return fail(t, fn, m.m.Run(s.s))
}

//export gocann_aclmdlRIDestroy
func gocann_aclmdlRIDestroy(t *C.gocann_thread, p C.aclmdlRI) C.aclError {
	const fn = "aclmdlRIDestroy"
	m, code := modelOf(t, fn, p)
	if code != 0 {
		return code
	}
	return fail(t, fn, m.m.Close()) // the destroy callback drops the handles
}

//export gocann_aclmdlRISetName
func gocann_aclmdlRISetName(t *C.gocann_thread, p C.aclmdlRI, name *C.char) C.aclError {
	const fn = "aclmdlRISetName"
	m, code := modelOf(t, fn, p)
	if code != 0 {
		return code
	}
	if name == nil {
		return nullArg(t, fn, "name")
	}
	return fail(t, fn, m.m.SetName(C.GoString(name)))
}

//export gocann_aclmdlRIGetName
func gocann_aclmdlRIGetName(t *C.gocann_thread, p C.aclmdlRI, maxLen C.uint32_t, name *C.char) C.aclError {
	const fn = "aclmdlRIGetName"
	if code := unsupported(t, "aclmdlRIGetName"); code != 0 {
		return code
	}
	m, code := modelOf(t, fn, p)
	if code != 0 {
		return code
	}
	if name == nil {
		return nullArg(t, fn, "name")
	}
	n := m.m.Name()
	if int(maxLen) < len(n)+1 {
		return failf(t, fn, gocann.KindInvalidParam, "maxLen %d is too small, expected at least %d for the name and its NUL", maxLen, len(n)+1)
	}
	out := unsafe.Slice((*byte)(unsafe.Pointer(name)), len(n)+1)
	copy(out, n)
	out[len(n)] = 0
	return 0
}

//export gocann_aclmdlRIGetId
func gocann_aclmdlRIGetId(t *C.gocann_thread, p C.aclmdlRI, id *C.uint32_t) C.aclError {
	const fn = "aclmdlRIGetId"
	if code := unsupported(t, "aclmdlRIGetId"); code != 0 {
		return code
	}
	m, code := modelOf(t, fn, p)
	if code != 0 {
		return code
	}
	if id == nil {
		return nullArg(t, fn, "modelRIId")
	}
	*id = C.uint32_t(m.m.ID())
	return 0
}

//export gocann_aclmdlRIDestroyRegisterCallback
func gocann_aclmdlRIDestroyRegisterCallback(t *C.gocann_thread, p C.aclmdlRI, cb C.aclrtCallback, data C.uintptr_t) C.aclError {
	const fn = "aclmdlRIDestroyRegisterCallback"
	m, code := modelOf(t, fn, p)
	if code != 0 {
		return code
	}
	if cb == nil {
		return nullArg(t, fn, "func")
	}
	f, arg := uintptr(unsafe.Pointer(cb)), uintptr(data)
	return fail(t, fn, m.m.OnDestroyKey(f, func() { C.gocann_call_destroy(C.uintptr_t(f), C.uintptr_t(arg)) }))
}

//export gocann_aclmdlRIDestroyUnregisterCallback
func gocann_aclmdlRIDestroyUnregisterCallback(t *C.gocann_thread, p C.aclmdlRI, cb C.aclrtCallback) C.aclError {
	const fn = "aclmdlRIDestroyUnregisterCallback"
	m, code := modelOf(t, fn, p)
	if code != 0 {
		return code
	}
	if cb == nil {
		return nullArg(t, fn, "func")
	}
	return fail(t, fn, m.m.RemoveOnDestroy(uintptr(unsafe.Pointer(cb))))
}

//export gocann_aclmdlRIDebugPrint
func gocann_aclmdlRIDebugPrint(t *C.gocann_thread, p C.aclmdlRI) C.aclError {
	const fn = "aclmdlRIDebugPrint"
	m, code := modelOf(t, fn, p)
	if code != 0 {
		return code
	}
	s, err := m.m.Describe(false)
	if err != nil {
		return fail(t, fn, err)
	}
	cs := C.CString(s)
	defer C.free(unsafe.Pointer(cs))
	C.gocann_print(cs, C.size_t(len(s)))
	return 0
}

// Flags of aclmdlRIDebugJsonPrint.
const (
	debugJSONSummary = 0x0 // ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY
	debugJSONVerbose = 0x1 // ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE
)

//export gocann_aclmdlRIDebugJsonPrint
func gocann_aclmdlRIDebugJsonPrint(t *C.gocann_thread, p C.aclmdlRI, path *C.char, flags C.uint32_t) C.aclError {
	const fn = "aclmdlRIDebugJsonPrint"
	m, code := modelOf(t, fn, p)
	if code != 0 {
		return code
	}
	if path == nil {
		return nullArg(t, fn, "path")
	}
	if flags != debugJSONSummary && flags != debugJSONVerbose {
		return failf(t, fn, gocann.KindInvalidParam, "flags %#x is invalid, expected ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY (0) or _VERBOSE (1)", flags)
	}
	name := C.GoString(path)
	f, err := os.Create(name)
	if err != nil {
		return failf(t, fn, gocann.KindInvalidFile, "path %q cannot be written: %v", name, err)
	}
	err = m.m.WriteJSON(f, flags == debugJSONVerbose)
	if cerr := f.Close(); err == nil && cerr != nil {
		return failf(t, fn, gocann.KindInvalidFile, "path %q cannot be written: %v", name, cerr)
	}
	return fail(t, fn, err)
}
