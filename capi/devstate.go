package main

/*
#include <string.h>
#include "acl/acl.h"
#include "thread.h"
#include "devstate.h"
*/
import "C"

import (
	"fmt"
	"time"
	"unsafe"

	"github.com/gocann/gocann"
)

// maxRegName bounds how much of a registration name is read.
const maxRegName = 4096

// regName reads a registration name; NULL is refused.
func regName(t *C.gocann_thread, fn string, p *C.char) (string, C.aclError) {
	if p == nil {
		return "", nullArg(t, fn, "regName")
	}
	return C.GoStringN(p, C.int(C.strnlen(p, maxRegName))), 0
}

// regTarget is a state callback registration's name and the runtime it
// registers with.
func regTarget(t *C.gocann_thread, fn string, p *C.char) (string, *gocann.Runtime, C.aclError) {
	n, code := regName(t, fn, p)
	if code != 0 {
		return "", nil, code
	}
	r, code := rt(t, fn)
	return n, r, code
}

//export gocann_aclrtRegDeviceStateCallback
func gocann_aclrtRegDeviceStateCallback(t *C.gocann_thread, name *C.char, cb C.aclrtDeviceStateCallback, args C.uintptr_t) C.aclError {
	const fn = "aclrtRegDeviceStateCallback"
	n, r, code := regTarget(t, fn, name)
	if code != 0 {
		return code
	}
	var f func(int, gocann.DeviceState)
	if cb != nil {
		f = func(dev int, st gocann.DeviceState) {
			C.gocann_call_devstate(cb, C.int32_t(dev), C.int32_t(st), args)
		}
	}
	return fail(t, fn, r.RegisterDeviceStateCallback(n, f))
}

//export gocann_aclrtSetDeviceTaskAbortCallback
func gocann_aclrtSetDeviceTaskAbortCallback(t *C.gocann_thread, name *C.char, cb C.aclrtDeviceTaskAbortCallback, args C.uintptr_t) C.aclError {
	const fn = "aclrtSetDeviceTaskAbortCallback"
	n, r, code := regTarget(t, fn, name)
	if code != 0 {
		return code
	}
	var f func(int, gocann.AbortStage, time.Duration) error
	if cb != nil {
		f = func(dev int, st gocann.AbortStage, left time.Duration) error {
			if ret := C.gocann_call_abort(cb, C.int32_t(dev), C.int32_t(st), C.uint32_t(left/time.Millisecond), args); ret != 0 {
				return fmt.Errorf("callback %q returned %d", n, int32(ret))
			}
			return nil
		}
	}
	return fail(t, fn, r.RegisterTaskAbortCallback(n, f))
}

//export gocann_aclrtDeviceTaskAbort
func gocann_aclrtDeviceTaskAbort(t *C.gocann_thread, deviceID C.int32_t, timeout C.uint32_t) C.aclError {
	const fn = "aclrtDeviceTaskAbort"
	d, code := device(t, fn, int(deviceID))
	if code != 0 {
		return code
	}
	return fail(t, fn, d.TaskAbort(time.Duration(timeout)*time.Millisecond))
}

//export gocann_aclrtGetPrimaryCtxState
func gocann_aclrtGetPrimaryCtxState(t *C.gocann_thread, deviceID C.int32_t, flags *C.uint32_t, active *C.int32_t) C.aclError {
	const fn = "aclrtGetPrimaryCtxState"
	if code := unsupported(t, "aclrtGetPrimaryCtxState"); code != 0 {
		return code
	}
	if active == nil {
		return nullArg(t, fn, "active")
	}
	if flags != nil {
		return failf(t, fn, gocann.KindBadArgument, "flags is %p, expected NULL (a reserved parameter)", unsafe.Pointer(flags))
	}
	d, code := device(t, fn, int(deviceID))
	if code != 0 {
		return code
	}
	*active = 0
	if d.PrimaryContextActive() {
		*active = 1
	}
	return 0
}

//export gocann_aclrtGetErrorVerbose
func gocann_aclrtGetErrorVerbose(t *C.gocann_thread, deviceID C.int32_t, info *C.aclrtErrorInfo) C.aclError {
	const fn = "aclrtGetErrorVerbose"
	if info == nil {
		return nullArg(t, fn, "errorInfo")
	}
	d, code := device(t, fn, int(deviceID))
	if code != 0 {
		return code
	}
	v, err := d.ErrorVerbose()
	if err != nil {
		return fail(t, fn, err)
	}
	C.memset(unsafe.Pointer(info), 0, C.sizeof_aclrtErrorInfo)
	if v.TryRepair {
		info.tryRepair = 1
	}
	if v.HasDetail {
		info.hasDetail = 1
	}
	info.errorType = C.aclrtErrorType(v.Type)
	*(*C.aclrtAicoreErrorType)(unsafe.Pointer(&info.detail)) = C.aclrtAicoreErrorType(v.AICore)
	return 0
}
