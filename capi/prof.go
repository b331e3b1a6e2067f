package main

/*
#include "prof.h"
extern gocann_prof_area gocann_prof;
*/
import "C"

import (
	"sync"
	"sync/atomic"
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
		c := gocann.APICall{Start: int64(r.start), End: int64(r.end), TID: uint32(r.tid), Ret: int32(r.ret)}
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
