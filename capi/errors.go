package main

/*
#include <stdlib.h>
#include "acl/acl.h"
#include "thread.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/gocann/gocann"
)

// fail records err as the thread's last error and recent message and
// returns its CANN code; nil is success and leaves both alone. Errors from
// below the Go API (ckernel's) carry no code until gocann.Wrap gives them
// one, so their callers wrap them first.
func fail(t *C.gocann_thread, fn string, err error) C.aclError {
	if err == nil {
		return 0
	}
	code := gocann.CodeOf(err)
	t.last_error = C.int32_t(code)
	msg := fn + " failed: " + code.Error()
	var e *gocann.Error
	if errors.As(err, &e) {
		if e.Msg != "" {
			msg += ": " + e.Msg
		}
		if e.Err != nil {
			msg += ": " + e.Err.Error()
		}
	} else {
		msg += ": " + err.Error()
	}
	pushMsg(t, msg)
	return C.aclError(code)
}

// failf records an error the C ABI itself detects.
func failf(t *C.gocann_thread, fn string, k gocann.Kind, format string, args ...any) C.aclError {
	return fail(t, fn, gocann.Errorf(fn, k, format, args...))
}

// nullArg records the error for a NULL pointer parameter.
func nullArg(t *C.gocann_thread, fn, param string) C.aclError {
	return fail(t, fn, nullArgError(fn, param))
}

// nullArgError is the error for a NULL pointer parameter.
func nullArgError(fn, param string) error {
	return gocann.Errorf(fn, gocann.KindBadArgument, "%s is NULL, expected a valid pointer", param)
}

func pushMsg(t *C.gocann_thread, msg string) {
	if errMsgProcessWide() {
		proc.pushMsg(msg)
		return
	}
	cs := C.CString(msg)
	C.gocann_push_msg(t, cs, C.size_t(len(msg)))
	C.free(unsafe.Pointer(cs))
}

//export gocann_aclrtPeekAtLastError
func gocann_aclrtPeekAtLastError(t *C.gocann_thread, level C.aclrtLastErrLevel) C.aclError {
	if level != C.ACL_RT_THREAD_LEVEL {
		return failf(t, "aclrtPeekAtLastError", gocann.KindInvalidParam, "level %d is invalid, expected ACL_RT_THREAD_LEVEL (0)", level)
	}
	return C.aclError(t.last_error)
}

//export gocann_aclrtGetLastError
func gocann_aclrtGetLastError(t *C.gocann_thread, level C.aclrtLastErrLevel) C.aclError {
	if level != C.ACL_RT_THREAD_LEVEL {
		return failf(t, "aclrtGetLastError", gocann.KindInvalidParam, "level %d is invalid, expected ACL_RT_THREAD_LEVEL (0)", level)
	}
	e := t.last_error
	t.last_error = 0
	return C.aclError(e)
}

//export gocann_aclGetRecentErrMsg
func gocann_aclGetRecentErrMsg(t *C.gocann_thread) *C.char {
	if unsupported(t, "aclGetRecentErrMsg") != 0 {
		return nil
	}
	if errMsgProcessWide() {
		return proc.takeMsgs()
	}
	return C.gocann_take_msgs(t)
}

// describe renders a value for messages about C arguments.
func describe(v any) string { return fmt.Sprint(v) }
