package main

/*
#include "acl/acl.h"
#include "thread.h"
#include "exception.h"
*/
import "C"

import (
	"sync"
	"unsafe"

	"github.com/gocann/gocann"
)

// exceptions holds the C exception callbacks.
var exceptions struct {
	// mu guards the fields below.
	mu         sync.Mutex
	set        C.aclrtExceptionInfoCallback   // aclrtSetExceptionInfoCallback's, or nil
	registered []C.aclrtExceptionInfoCallback // aclrtExceptionInfoCallbackRegister's
	hooked     *gocann.Runtime                // the runtime reportException is installed on
}

// hookExceptions makes sure the runtime tells reportException of faults.
func hookExceptions(r *gocann.Runtime) {
	exceptions.mu.Lock()
	defer exceptions.mu.Unlock()
	if exceptions.hooked != r {
		r.AddExceptionCallback(reportException)
		exceptions.hooked = r
	}
}

// reportException calls every C exception callback with info; the info
// lives only during the calls, as documented.
func reportException(info gocann.ExceptionInfo) {
	exceptions.mu.Lock()
	cbs := append([]C.aclrtExceptionInfoCallback(nil), exceptions.registered...)
	if exceptions.set != nil {
		cbs = append(cbs, exceptions.set)
	}
	exceptions.mu.Unlock()
	for _, cb := range cbs {
		C.gocann_call_exception(cb, C.uint32_t(info.TaskID), C.uint32_t(info.StreamID),
			C.uint32_t(info.ThreadID), C.uint32_t(info.DeviceID), C.uint32_t(info.Code))
	}
	reportBinaryException(info)
}

// reportBinaryException calls the exception callback of the binary whose
// kernel faulted, if it has one.
func reportBinaryException(info gocann.ExceptionInfo) {
	if info.Func == nil {
		return
	}
	h, ok := proc.fronts.Load(info.Func)
	if !ok {
		return
	}
	obj, ok := proc.handles.get(h.(handle), kindFunc)
	if !ok {
		return
	}
	b := obj.(*cFunc).bin
	b.mu.Lock()
	cb, user := b.exc, b.excData
	b.mu.Unlock()
	if cb != nil {
		C.gocann_call_op_exception(cb, user, C.uint32_t(info.TaskID), C.uint32_t(info.StreamID),
			C.uint32_t(info.ThreadID), C.uint32_t(info.DeviceID), C.uint32_t(info.Code))
	}
}

//export gocann_aclrtBinarySetExceptionCallback
func gocann_aclrtBinarySetExceptionCallback(t *C.gocann_thread, p C.aclrtBinHandle, cb C.aclrtOpExceptionCallback, user unsafe.Pointer) C.aclError {
	const fn = "aclrtBinarySetExceptionCallback"
	b, code := binaryOf(t, fn, p)
	if code != 0 {
		return code
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	hookExceptions(r)
	b.mu.Lock()
	b.exc, b.excData = cb, user
	b.mu.Unlock()
	return 0
}

//export gocann_aclrtSetExceptionInfoCallback
func gocann_aclrtSetExceptionInfoCallback(t *C.gocann_thread, cb C.aclrtExceptionInfoCallback) C.aclError {
	const fn = "aclrtSetExceptionInfoCallback"
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	hookExceptions(r)
	exceptions.mu.Lock()
	exceptions.set = cb
	exceptions.mu.Unlock()
	return 0
}

//export gocann_aclrtExceptionInfoCallbackRegister
func gocann_aclrtExceptionInfoCallbackRegister(t *C.gocann_thread, cb C.aclrtExceptionInfoCallback) C.aclError {
	const fn = "aclrtExceptionInfoCallbackRegister"
	if cb == nil {
		return nullArg(t, fn, "callback")
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	hookExceptions(r)
	exceptions.mu.Lock()
	defer exceptions.mu.Unlock()
	for _, c := range exceptions.registered {
		if unsafe.Pointer(c) == unsafe.Pointer(cb) {
			return 0 // registered once, called once
		}
	}
	exceptions.registered = append(exceptions.registered, cb)
	return 0
}

//export gocann_aclrtExceptionInfoCallbackUnregister
func gocann_aclrtExceptionInfoCallbackUnregister(t *C.gocann_thread, cb C.aclrtExceptionInfoCallback) C.aclError {
	if cb == nil {
		return nullArg(t, "aclrtExceptionInfoCallbackUnregister", "callback")
	}
	exceptions.mu.Lock()
	defer exceptions.mu.Unlock()
	for i, c := range exceptions.registered {
		if unsafe.Pointer(c) == unsafe.Pointer(cb) {
			exceptions.registered = append(exceptions.registered[:i], exceptions.registered[i+1:]...)
			break
		}
	}
	return 0
}
