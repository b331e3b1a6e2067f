package main

/*
#include <stdint.h>
#include "acl/acl.h"
#include "thread.h"
*/
import "C"

import (
	"math"
	"time"
)

// Operator timeouts. As in CANN, the microsecond form and the interval
// need a current context, which a thread without one gets by setting the
// configured default device; the others need aclInit only.

//export gocann_aclrtSetOpWaitTimeout
func gocann_aclrtSetOpWaitTimeout(t *C.gocann_thread, timeout C.uint32_t) C.aclError {
	const fn = "aclrtSetOpWaitTimeout"
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	return fail(t, fn, r.SetOpWaitTimeout(time.Duration(timeout)*time.Second))
}

//export gocann_aclrtSetOpExecuteTimeOut
func gocann_aclrtSetOpExecuteTimeOut(t *C.gocann_thread, timeout C.uint32_t) C.aclError {
	const fn = "aclrtSetOpExecuteTimeOut"
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	_, err := r.Raw().SetOpExecuteTimeout(uint32(timeout))
	return fail(t, fn, err)
}

//export gocann_aclrtSetOpExecuteTimeOutWithMs
func gocann_aclrtSetOpExecuteTimeOutWithMs(t *C.gocann_thread, timeout C.uint32_t) C.aclError {
	const fn = "aclrtSetOpExecuteTimeOutWithMs"
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	return fail(t, fn, r.SetOpExecuteTimeoutMs(time.Duration(timeout)*time.Millisecond))
}

//export gocann_aclrtSetOpExecuteTimeOutV2
func gocann_aclrtSetOpExecuteTimeOutV2(t *C.gocann_thread, timeout C.uint64_t, actual *C.uint64_t) C.aclError {
	const fn = "aclrtSetOpExecuteTimeOutV2"
	if actual == nil {
		return nullArg(t, fn, "actualTimeout")
	}
	if _, code := currentContext(t, fn); code != 0 {
		return code
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	v, err := r.SetOpExecuteTimeout(durationUS(uint64(timeout)))
	if err != nil {
		return fail(t, fn, err)
	}
	*actual = math.MaxUint64 // never times out
	if v != 0 {
		*actual = C.uint64_t(v / time.Microsecond)
	}
	return 0
}

//export gocann_aclrtGetOpTimeOutInterval
func gocann_aclrtGetOpTimeOutInterval(t *C.gocann_thread, interval *C.uint64_t) C.aclError {
	const fn = "aclrtGetOpTimeOutInterval"
	if interval == nil {
		return nullArg(t, fn, "interval")
	}
	if _, code := currentContext(t, fn); code != 0 {
		return code
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	v, err := r.OpTimeoutInterval()
	if err != nil {
		return fail(t, fn, err)
	}
	*interval = C.uint64_t(v / time.Microsecond)
	return 0
}

//export gocann_aclrtGetOpExecuteTimeout
func gocann_aclrtGetOpExecuteTimeout(t *C.gocann_thread, ms *C.uint32_t) C.aclError {
	const fn = "aclrtGetOpExecuteTimeout"
	if ms == nil {
		return nullArg(t, fn, "timeoutMs")
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	v, err := r.OpExecuteTimeout()
	if err != nil {
		return fail(t, fn, err)
	}
	*ms = math.MaxUint32 // never times out
	if v != 0 {
		*ms = C.uint32_t(min((v+time.Millisecond-1)/time.Millisecond, math.MaxUint32-1))
	}
	return 0
}

// durationUS converts microseconds to a duration, saturating: a timeout
// past the longest asks for the longest.
func durationUS(us uint64) time.Duration {
	if us > math.MaxInt64/uint64(time.Microsecond) {
		return math.MaxInt64
	}
	return time.Duration(us) * time.Microsecond
}
