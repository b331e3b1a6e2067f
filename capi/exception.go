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
	var (
		isKernel C.uint32_t
		fh       C.uintptr_t
		args     [C.GOCANN_EXC_ARGS]C.uint64_t
	)
	if info.Func != nil {
		isKernel = 1
		fh = C.uintptr_t(frontHandle(info.Func))
		for i, a := range info.Args[:min(len(info.Args), len(args))] {
			args[i] = C.uint64_t(a)
		}
	}
	nargs := C.uint32_t(min(len(info.Args), len(args)))
	for _, cb := range cbs {
		C.gocann_call_exception(cb, C.uint32_t(info.TaskID), C.uint32_t(info.StreamID),
			C.uint32_t(info.ThreadID), C.uint32_t(info.DeviceID), C.uint32_t(info.Code),
			isKernel, fh, &args[0], nargs)
	}
	if cb, user := binaryException(info); cb != nil {
		C.gocann_call_op_exception(cb, user, C.uint32_t(info.TaskID), C.uint32_t(info.StreamID),
			C.uint32_t(info.ThreadID), C.uint32_t(info.DeviceID), C.uint32_t(info.Code),
			isKernel, fh, &args[0], nargs)
	}
}

// binaryException is the exception callback of the binary whose kernel
// faulted, if it has one; kernels linked into the program have no binary.
func binaryException(info gocann.ExceptionInfo) (C.aclrtOpExceptionCallback, unsafe.Pointer) {
	if info.Func == nil {
		return nil, nil
	}
	h, ok := proc.fronts.Load(info.Func)
	if !ok {
		return nil, nil
	}
	obj, ok := proc.handles.get(h.(handle), kindFunc)
	if !ok {
		return nil, nil
	}
	b := obj.(*cFunc).bin
	if b == nil {
		return nil, nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.exc, b.excData
}

//export gocann_aclrtBinarySetExceptionCallback
func gocann_aclrtBinarySetExceptionCallback(t *C.gocann_thread, p C.aclrtBinHandle, cb C.aclrtOpExceptionCallback, user unsafe.Pointer) C.aclError {
	const fn = "aclrtBinarySetExceptionCallback"
	if code := unsupported(t, "aclrtBinarySetExceptionCallback"); code != 0 {
		return code
	}
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

// invalidExceptionInfo is what CANN's getters return for no information
// or information of another kind (0xFFFFFFFF as an aclError).
const invalidExceptionInfo = C.aclError(-1)

// exceptionKernel checks info for the getters of a kernel's fault.
func exceptionKernel(t *C.gocann_thread, fn string, info *C.aclrtExceptionInfo) C.aclError {
	if info == nil {
		fail(t, fn, gocann.Errorf(fn, gocann.KindBadArgument, "info is NULL, expected the exception information a callback was given"))
		t.last_error = C.int32_t(invalidExceptionInfo)
		return invalidExceptionInfo
	}
	if info.is_kernel == 0 {
		fail(t, fn, gocann.Errorf(fn, gocann.KindBadArgument, "info describes the fault of a task that is no kernel (error %d), expected a kernel's", uint32(info.error_code)))
		t.last_error = C.int32_t(invalidExceptionInfo)
		return invalidExceptionInfo
	}
	return 0
}

//export gocann_aclrtGetArgsFromExceptionInfo
func gocann_aclrtGetArgsFromExceptionInfo(t *C.gocann_thread, info *C.aclrtExceptionInfo, devArgsPtr *unsafe.Pointer, devArgsLen *C.uint32_t) C.aclError {
	const fn = "aclrtGetArgsFromExceptionInfo"
	if code := unsupported(t, "aclrtGetArgsFromExceptionInfo"); code != 0 {
		return code
	}
	if info != nil && (devArgsPtr == nil || devArgsLen == nil) {
		return nullArg(t, fn, "devArgsPtr or devArgsLen")
	}
	if code := exceptionKernel(t, fn, info); code != 0 {
		return code
	}
	// The slots live in the information itself, host memory valid while
	// the callback runs; the length is in bytes, as CANN's argsize.
	*devArgsPtr = unsafe.Pointer(&info.args[0])
	*devArgsLen = C.uint32_t(info.nargs * 8)
	return 0
}

//export gocann_aclrtGetFuncHandleFromExceptionInfo
func gocann_aclrtGetFuncHandleFromExceptionInfo(t *C.gocann_thread, info *C.aclrtExceptionInfo, fh *C.aclrtFuncHandle) C.aclError {
	const fn = "aclrtGetFuncHandleFromExceptionInfo"
	if code := unsupported(t, "aclrtGetFuncHandleFromExceptionInfo"); code != 0 {
		return code
	}
	if info != nil && fh == nil {
		return nullArg(t, fn, "func")
	}
	if code := exceptionKernel(t, fn, info); code != 0 {
		return code
	}
	if info._func == 0 {
		return failf(t, fn, gocann.KindInvalidHandle, "the failed kernel has no function handle: it was not found with aclrtBinaryGetFunction")
	}
	*fh = C.aclrtFuncHandle(C.gocann_handle(info._func))
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
	if code := unsupported(t, "aclrtExceptionInfoCallbackRegister"); code != 0 {
		return code
	}
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
	if code := unsupported(t, "aclrtExceptionInfoCallbackUnregister"); code != 0 {
		return code
	}
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
