package main

/*
#include "acl/acl.h"
#include "thread.h"
*/
import "C"

import (
	"context"
	"time"
	"unsafe"

	"github.com/gocann/gocann"
)

// cEvent is an event as C code sees it.
type cEvent struct {
	e   *gocann.Event
	h   handle
	ctx *cContext
}

func eventOf(t *C.gocann_thread, fn string, p C.aclrtEvent) (*cEvent, C.aclError) {
	if obj, ok := proc.handles.get(handleOf(unsafe.Pointer(p)), kindEvent); ok {
		return obj.(*cEvent), 0
	}
	return nil, badHandle(t, fn, "event", unsafe.Pointer(p), kindEvent)
}

// createEvent makes an event in the current context with the creation call
// new names.
func createEvent(t *C.gocann_thread, fn string, out *C.aclrtEvent, create func(*gocann.Context) (*gocann.Event, error)) C.aclError {
	if out == nil {
		return nullArg(t, fn, "event")
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	e, err := create(c.c)
	if err != nil {
		return fail(t, fn, err)
	}
	ce := &cEvent{e: e, ctx: c}
	h, ok := proc.handles.add(kindEvent, ce)
	if !ok {
		e.Close()
		return failf(t, fn, gocann.KindNoEvent, "too many live handles")
	}
	ce.h = h
	proc.fronts.Store(e, h)
	if !adopt(c, &c.events, ce) {
		proc.fronts.Delete(e)
		proc.handles.remove(h, kindEvent)
		return contextGone(t, fn, c)
	}
	*out = C.aclrtEvent(C.gocann_handle(C.uintptr_t(h)))
	return 0
}

//export gocann_aclrtCreateEvent
func gocann_aclrtCreateEvent(t *C.gocann_thread, out *C.aclrtEvent) C.aclError {
	return createEvent(t, "aclrtCreateEvent", out, (*gocann.Context).NewDefaultEvent)
}

//export gocann_aclrtCreateEventWithFlag
func gocann_aclrtCreateEventWithFlag(t *C.gocann_thread, out *C.aclrtEvent, flag C.uint32_t) C.aclError {
	return createEvent(t, "aclrtCreateEventWithFlag", out, func(c *gocann.Context) (*gocann.Event, error) {
		return c.NewEventWithFlag(gocann.EventFlags(flag))
	})
}

//export gocann_aclrtCreateEventExWithFlag
func gocann_aclrtCreateEventExWithFlag(t *C.gocann_thread, out *C.aclrtEvent, flag C.uint32_t) C.aclError {
	return createEvent(t, "aclrtCreateEventExWithFlag", out, func(c *gocann.Context) (*gocann.Event, error) {
		return c.NewEvent(gocann.EventFlags(flag))
	})
}

//export gocann_aclrtDestroyEvent
func gocann_aclrtDestroyEvent(t *C.gocann_thread, p C.aclrtEvent) C.aclError {
	const fn = "aclrtDestroyEvent"
	e, code := eventOf(t, fn, p)
	if code != 0 {
		return code
	}
	if err := e.e.Close(); err != nil {
		return fail(t, fn, err)
	}
	proc.fronts.Delete(e.e)
	proc.handles.remove(e.h, kindEvent)
	disown(e.ctx, &e.ctx.events, e)
	return 0
}

// onStream runs the event task op queues for event p on stream sp,
// checking the two handles in the order the call takes them (the stream
// first for the waits).
func onStream(t *C.gocann_thread, fn string, p C.aclrtEvent, sp C.aclrtStream, streamFirst bool,
	op func(*gocann.Stream, *gocann.Event) error) C.aclError {
	var e *cEvent
	var s *cStream
	code := C.aclError(0)
	if !streamFirst {
		if e, code = eventOf(t, fn, p); code != 0 {
			return code
		}
	}
	if s, code = queueStream(t, fn, sp); code != 0 {
		return code
	}
	if streamFirst {
		if e, code = eventOf(t, fn, p); code != 0 {
			return code
		}
	}
	return fail(t, fn, op(s.s, e.e))
}

//export gocann_aclrtRecordEvent
func gocann_aclrtRecordEvent(t *C.gocann_thread, p C.aclrtEvent, sp C.aclrtStream) C.aclError {
	return onStream(t, "aclrtRecordEvent", p, sp, false, (*gocann.Stream).Record)
}

//export gocann_aclrtResetEvent
func gocann_aclrtResetEvent(t *C.gocann_thread, p C.aclrtEvent, sp C.aclrtStream) C.aclError {
	return onStream(t, "aclrtResetEvent", p, sp, false, (*gocann.Stream).ResetEvent)
}

// queryEvent is the shared part of the three event queries: the status
// pointer must be set (ok), and query says whether the event is done.
func queryEvent(t *C.gocann_thread, fn string, p C.aclrtEvent, ok bool, query func(*gocann.Event) (bool, error)) (bool, C.aclError) {
	if !ok {
		return false, nullArg(t, fn, "status")
	}
	e, code := eventOf(t, fn, p)
	if code != 0 {
		return false, code
	}
	done, err := query(e.e)
	return done, fail(t, fn, err)
}

//export gocann_aclrtQueryEvent
func gocann_aclrtQueryEvent(t *C.gocann_thread, p C.aclrtEvent, status *C.aclrtEventStatus) C.aclError {
	done, code := queryEvent(t, "aclrtQueryEvent", p, status != nil, (*gocann.Event).QueryLegacy)
	if code == 0 {
		*status = C.ACL_EVENT_STATUS_NOT_READY
		if done {
			*status = C.ACL_EVENT_STATUS_COMPLETE
		}
	}
	return code
}

//export gocann_aclrtQueryEventStatus
func gocann_aclrtQueryEventStatus(t *C.gocann_thread, p C.aclrtEvent, status *C.aclrtEventRecordedStatus) C.aclError {
	done, code := queryEvent(t, "aclrtQueryEventStatus", p, status != nil, (*gocann.Event).Query)
	if code == 0 {
		*status = C.ACL_EVENT_RECORDED_STATUS_NOT_READY
		if done {
			*status = C.ACL_EVENT_RECORDED_STATUS_COMPLETE
		}
	}
	return code
}

//export gocann_aclrtQueryEventWaitStatus
func gocann_aclrtQueryEventWaitStatus(t *C.gocann_thread, p C.aclrtEvent, status *C.aclrtEventWaitStatus) C.aclError {
	done, code := queryEvent(t, "aclrtQueryEventWaitStatus", p, status != nil, (*gocann.Event).QueryWait)
	if code == 0 {
		*status = C.ACL_EVENT_WAIT_STATUS_NOT_READY
		if done {
			*status = C.ACL_EVENT_WAIT_STATUS_COMPLETE
		}
	}
	return code
}

//export gocann_aclrtSynchronizeEvent
func gocann_aclrtSynchronizeEvent(t *C.gocann_thread, p C.aclrtEvent) C.aclError {
	const fn = "aclrtSynchronizeEvent"
	e, code := eventOf(t, fn, p)
	if code != 0 {
		return code
	}
	return fail(t, fn, e.e.Synchronize(context.Background()))
}

//export gocann_aclrtSynchronizeEventWithTimeout
func gocann_aclrtSynchronizeEventWithTimeout(t *C.gocann_thread, p C.aclrtEvent, timeout C.int32_t) C.aclError {
	const fn = "aclrtSynchronizeEventWithTimeout"
	e, code := eventOf(t, fn, p)
	if code != 0 {
		return code
	}
	to, code := msTimeout(t, fn, timeout)
	if code != 0 {
		return code
	}
	return fail(t, fn, e.e.SynchronizeTimeout(to))
}

//export gocann_aclrtEventElapsedTime
func gocann_aclrtEventElapsedTime(t *C.gocann_thread, ms *C.float, start, end C.aclrtEvent) C.aclError {
	const fn = "aclrtEventElapsedTime"
	if ms == nil {
		return nullArg(t, fn, "ms")
	}
	s, code := eventOf(t, fn, start)
	if code != 0 {
		return code
	}
	e, code := eventOf(t, fn, end)
	if code != 0 {
		return code
	}
	d, err := gocann.Elapsed(s.e, e.e)
	if err != nil {
		return fail(t, fn, err)
	}
	*ms = C.float(float64(d) / float64(time.Millisecond))
	return 0
}

//export gocann_aclrtEventGetTimestamp
func gocann_aclrtEventGetTimestamp(t *C.gocann_thread, p C.aclrtEvent, ts *C.uint64_t) C.aclError {
	const fn = "aclrtEventGetTimestamp"
	if ts == nil {
		return nullArg(t, fn, "timestamp")
	}
	e, code := eventOf(t, fn, p)
	if code != 0 {
		return code
	}
	d, err := e.e.Timestamp()
	if err != nil {
		return fail(t, fn, err)
	}
	*ts = C.uint64_t(d / time.Microsecond) // microseconds since the device started
	return 0
}

//export gocann_aclrtStreamWaitEvent
func gocann_aclrtStreamWaitEvent(t *C.gocann_thread, sp C.aclrtStream, p C.aclrtEvent) C.aclError {
	return onStream(t, "aclrtStreamWaitEvent", p, sp, true, (*gocann.Stream).WaitEvent)
}

//export gocann_aclrtStreamWaitEventWithTimeout
func gocann_aclrtStreamWaitEventWithTimeout(t *C.gocann_thread, sp C.aclrtStream, p C.aclrtEvent, timeout C.int32_t) C.aclError {
	const fn = "aclrtStreamWaitEventWithTimeout"
	if timeout < 0 {
		return failf(t, fn, gocann.KindInvalidParam, "timeout %d is invalid, expected 0 (no timeout) or seconds > 0", timeout)
	}
	// The reference gives the timeout in seconds; 0 waits forever.
	return onStream(t, fn, p, sp, true, func(s *gocann.Stream, e *gocann.Event) error {
		return s.WaitEventTimeout(e, time.Duration(timeout)*time.Second)
	})
}
