package main

/*
#include "acl/acl.h"
#include "thread.h"
#include "devstate.h"
*/
import "C"

import (
	"sync"

	"github.com/gocann/gocann"
)

// The C ABI gives a new stream its handle once the Go API has made it, so
// a CREATE_POST callback, which the Go API calls before returning the
// stream, would find no handle: such calls wait in pendingStates until the
// handle exists (bornStream), still before the creating call returns.
var pendingStates struct {
	// mu guards calls.
	mu    sync.Mutex
	calls map[*gocann.Stream][]func(handle)
}

// streamStateCall calls a C stream state callback for s, now if s has its
// handle, else once it has. The default stream of a device being set gets
// its handle at once (its context's record is made here, as aclrtSetDevice
// would make it next), so its CREATE_POST comes before the device's
// SET_POST, in CANN's order. A stream destroyed without ever having had a
// handle was never seen by C: no call.
func streamStateCall(s *gocann.Stream, st gocann.StreamState, call func(handle)) {
	h := frontHandle(s)
	if h == 0 && st == gocann.StreamCreatePost && s.IsDefault() && s.Context().IsDefault() {
		if c, err := defaultContext(s.Context().Device()); err == nil && c.def.s == s {
			h = c.def.h
		}
	}
	if h != 0 {
		call(h)
		return
	}
	if st != gocann.StreamCreatePost {
		return
	}
	pendingStates.mu.Lock()
	if pendingStates.calls == nil {
		pendingStates.calls = make(map[*gocann.Stream][]func(handle))
	}
	pendingStates.calls[s] = append(pendingStates.calls[s], call)
	pendingStates.mu.Unlock()
}

// bornStream records s's handle h and runs the callbacks waiting for it.
func bornStream(s *gocann.Stream, h handle) {
	proc.fronts.Store(s, h)
	pendingStates.mu.Lock()
	calls := pendingStates.calls[s]
	delete(pendingStates.calls, s)
	pendingStates.mu.Unlock()
	for _, call := range calls {
		call(h)
	}
}

// forgetPending drops the waiting calls of a stream that never got a
// handle.
func forgetPending(s *gocann.Stream) {
	pendingStates.mu.Lock()
	delete(pendingStates.calls, s)
	pendingStates.mu.Unlock()
}

//export gocann_aclrtRegStreamStateCallback
func gocann_aclrtRegStreamStateCallback(t *C.gocann_thread, name *C.char, cb C.aclrtStreamStateCallback, args C.uintptr_t) C.aclError {
	const fn = "aclrtRegStreamStateCallback"
	n, r, code := regTarget(t, fn, name)
	if code != 0 {
		return code
	}
	var f func(*gocann.Stream, gocann.StreamState)
	if cb != nil {
		f = func(s *gocann.Stream, st gocann.StreamState) {
			streamStateCall(s, st, func(h handle) {
				C.gocann_call_streamstate(cb, C.uintptr_t(h), C.int32_t(st), args)
			})
		}
	}
	return fail(t, fn, r.RegisterStreamStateCallback(n, f))
}

//export gocann_aclrtStreamStop
func gocann_aclrtStreamStop(t *C.gocann_thread, p C.aclrtStream) C.aclError {
	const fn = "aclrtStreamStop"
	if p == nil {
		return failf(t, fn, gocann.KindInvalidParam, "stream is NULL, expected an explicit stream: the default stream cannot be stopped")
	}
	s, code := queueStream(t, fn, p)
	if code != 0 {
		return code
	}
	return fail(t, fn, s.s.Stop())
}
