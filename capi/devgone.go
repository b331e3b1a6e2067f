package main

/*
#include "direct.h"
*/
import "C"

import (
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/gocann/gocann/hal"
)

// devGone serialises rewrites of gocann_devgone (direct.h).
var devGone sync.Mutex

// noteClosed mirrors the address ranges of the closed devices into
// gocann_devgone, so direct launches with an argument there go to Go,
// which refuses them. The runtime calls it whenever a device opens or
// closes.
func noteClosed(closed []hal.Span) {
	devGone.Lock()
	defer devGone.Unlock()
	n := (*uint32)(unsafe.Pointer(&C.gocann_ndevgone))
	atomic.StoreUint32(n, 0) // no range while the table changes
	closed = closed[:min(len(closed), C.GOCANN_MAX_DEVICES)]
	for i, sp := range closed {
		r := &C.gocann_devgone[i]
		atomic.StoreUint64((*uint64)(unsafe.Pointer(&r.lo)), sp.Lo)
		atomic.StoreUint64((*uint64)(unsafe.Pointer(&r.hi)), sp.Hi)
	}
	atomic.StoreUint32(n, uint32(len(closed)))
}
