package main

/*
#include "prof.h"
extern gocann_prof_area gocann_prof;

static void prof_calibrate(uint64_t *ticks, uint64_t *ns) { gocann_prof_calibrate(ticks, ns); }
*/
import "C"

import (
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/gocann/gocann"
)

// Profiling from C: the configuration aclInit reads turns a session on
// (the "profiler" section, else PROFILING_MODE, else the seed's
// ASCEND_PROFILING_ENABLED), and the front's API-call ring (prof.h) feeds
// it the calls, drained here.

// apiRing is the reader's side of the ring.
var apiRing struct {
	mu    sync.Mutex
	tail  uint64
	names map[uintptr]string
	// The first and the latest pairs of ticks and CLOCK_MONOTONIC ns,
	// which convert the stamps (prof.h's gocann_prof_now).
	t0, n0, t1, n1 uint64
}

// calibrate takes a new pair of clock readings. apiRing.mu held.
func calibrate() {
	var t, n C.uint64_t
	C.prof_calibrate(&t, &n)
	if apiRing.t0 == 0 {
		// A second pair a little later gives the rate from the start.
		apiRing.t0, apiRing.n0 = uint64(t), uint64(n)
		time.Sleep(2 * time.Millisecond)
		C.prof_calibrate(&t, &n)
	}
	apiRing.t1, apiRing.n1 = uint64(t), uint64(n)
}

// toNS converts a stamp to CLOCK_MONOTONIC ns, along the line through the
// first and the latest pairs (the counter is steady: one rate).
func toNS(ticks uint64) int64 {
	r := &apiRing
	rate := float64(r.n1-r.n0) / float64(r.t1-r.t0)
	return int64(r.n0) + int64(float64(int64(ticks-r.t0))*rate)
}

// recordAPI turns the front's stamping on or off.
func recordAPI(on bool) {
	v := uint32(0)
	if on {
		v = 1
	}
	atomic.StoreUint32((*uint32)(unsafe.Pointer(&C.gocann_prof.on)), v)
}

// apiCalls drains the calls recorded since the last drain into buf, and
// says how many the writers overwrote before they were read.
func apiCalls(buf []gocann.APICall) ([]gocann.APICall, uint64) {
	a := &C.gocann_prof
	apiRing.mu.Lock()
	defer apiRing.mu.Unlock()
	if apiRing.names == nil {
		apiRing.names = map[uintptr]string{}
	}
	calibrate()
	head := atomic.LoadUint64((*uint64)(unsafe.Pointer(&a.head)))
	var lost uint64
	for apiRing.tail < head {
		r := &a.recs[apiRing.tail&(C.GOCANN_API_RING-1)]
		seqp := (*uint64)(unsafe.Pointer(&r.seq))
		seq := atomic.LoadUint64(seqp)
		if seq <= apiRing.tail {
			break // claimed, not yet written
		}
		if seq > apiRing.tail+1 {
			lost += seq - 1 - apiRing.tail // overwritten: the writers lapped the reader
			apiRing.tail = seq - 1
		}
		c := gocann.APICall{Start: toNS(uint64(r.start)), End: toNS(uint64(r.end)), TID: uint32(r.tid), Ret: int32(r.ret)}
		fn := uintptr(unsafe.Pointer(r.fn))
		if atomic.LoadUint64(seqp) != seq {
			continue // rewritten while read: read it again
		}
		name, ok := apiRing.names[fn]
		if !ok {
			name = C.GoString(r.fn)
			apiRing.names[fn] = name
		}
		c.Name = name
		buf = append(buf, c)
		apiRing.tail++
	}
	return buf, lost
}
