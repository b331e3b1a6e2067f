package main

/*
#include "acl/acl.h"
#include "thread.h"
*/
import "C"

import (
	"context"
	"time"

	"github.com/gocann/gocann"
)

//export gocann_aclrtRecordEventWithFlag
func gocann_aclrtRecordEventWithFlag(t *C.gocann_thread, p C.aclrtEvent, sp C.aclrtStream, flag C.uint32_t) C.aclError {
	return onStream(t, "aclrtRecordEventWithFlag", p, sp, false, func(s *gocann.Stream, e *gocann.Event) error {
		return s.RecordWithFlag(e, gocann.RecordFlag(flag))
	})
}

//export gocann_aclrtStreamWaitEventWithFlag
func gocann_aclrtStreamWaitEventWithFlag(t *C.gocann_thread, sp C.aclrtStream, p C.aclrtEvent, timeout, flag C.uint32_t) C.aclError {
	// The reference gives the timeout in seconds; 0 waits forever.
	return onStream(t, "aclrtStreamWaitEventWithFlag", p, sp, true, func(s *gocann.Stream, e *gocann.Event) error {
		return s.WaitEventWithFlag(e, time.Duration(timeout)*time.Second, gocann.WaitFlag(flag))
	})
}

//export gocann_aclrtGetEventId
func gocann_aclrtGetEventId(t *C.gocann_thread, p C.aclrtEvent, id *C.uint32_t) C.aclError {
	const fn = "aclrtGetEventId"
	e, code := eventOf(t, fn, p)
	if code != 0 {
		return code
	}
	if id == nil {
		return nullArg(t, fn, "eventId")
	}
	v, err := e.e.ID()
	if err != nil {
		return fail(t, fn, err)
	}
	*id = C.uint32_t(v)
	return 0
}

//export gocann_aclrtGetEventAvailNum
func gocann_aclrtGetEventAvailNum(t *C.gocann_thread, count *C.uint32_t) C.aclError {
	const fn = "aclrtGetEventAvailNum"
	if count == nil {
		return nullArg(t, fn, "eventCount")
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	n, err := c.c.EventsAvailable()
	if err != nil {
		return fail(t, fn, err)
	}
	*count = C.uint32_t(n)
	return 0
}

// Host-function threads: aclrtLaunchHostFunc on a stream subscribed with
// aclrtSubscribeHostFunc runs in the subscribed thread, inside its
// aclrtProcessHostFunc.

//export gocann_aclrtSubscribeHostFunc
func gocann_aclrtSubscribeHostFunc(t *C.gocann_thread, threadID C.uint64_t, sp C.aclrtStream) C.aclError {
	return hostFuncStream(t, "aclrtSubscribeHostFunc", threadID, sp, (*gocann.Runtime).SubscribeHostFunc)
}

//export gocann_aclrtUnSubscribeHostFunc
func gocann_aclrtUnSubscribeHostFunc(t *C.gocann_thread, threadID C.uint64_t, sp C.aclrtStream) C.aclError {
	return hostFuncStream(t, "aclrtUnSubscribeHostFunc", threadID, sp, (*gocann.Runtime).UnsubscribeHostFunc)
}

// hostFuncStream is the body of the two subscription calls, which refuse a
// NULL stream.
func hostFuncStream(t *C.gocann_thread, fn string, threadID C.uint64_t, sp C.aclrtStream,
	op func(*gocann.Runtime, uint64, *gocann.Stream) error) C.aclError {
	if code := unsupported(t, fn); code != 0 {
		return code
	}
	if sp == nil {
		return nullArg(t, fn, "exeStream")
	}
	s, code := stream(t, fn, sp)
	if code != 0 {
		return code
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	return fail(t, fn, op(r, uint64(threadID), s.s))
}

//export gocann_aclrtProcessHostFunc
func gocann_aclrtProcessHostFunc(t *C.gocann_thread, timeout C.int32_t) C.aclError {
	const fn = "aclrtProcessHostFunc"
	if code := unsupported(t, fn); code != 0 {
		return code
	}
	if timeout == 0 || timeout < -1 {
		return failf(t, fn, gocann.KindInvalidParam, "timeout %d is invalid, expected -1 (forever) or milliseconds > 0", timeout)
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	return fail(t, fn, r.ProcessHostFunc(context.Background(), uint64(t.pthread), time.Duration(timeout)*time.Millisecond))
}
