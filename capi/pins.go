package main

/*
#include "direct.h"
*/
import "C"

import (
	"runtime"
	"sync/atomic"
	"unsafe"
)

// The pins of submission areas. C holds a stream's area (hal.SQ, in the Go
// heap) in two places: the stream's record, which C reads only while it
// serves the stream's handle, and a launch in gocann_direct_launch, from
// reading the record until it returns. Go pins the area while the record
// serves the stream; when the record ends (its handle is 0 first), the pin
// is retired, and released only once no launch can still hold the area.
//
// Launches count themselves in gocann_launching by the phase they read on
// entry. A grace period is a move of the phase followed by the count of
// the old phase falling to 0. A launch that read the record before it
// ended entered before the retirement; it counted itself either in the
// phase the next move leaves, or (had it read the phase just before an
// earlier move) in the one the move after leaves. So a pin retired before
// two grace periods began is released once both have ended. Go never
// waits for a count: each retirement moves the periods on as far as the
// counts allow, and with no launch inside, both end at once.
//
// The record keeps the area's address after its pin is released. Go
// writes it as a plain word, never through a Go pointer: a pointer store
// would hand the old, possibly freed, address to the garbage collector.

// launchCount mirrors gocann_inside; direct.go checks the layouts agree.
type launchCount struct {
	phase uint32
	_     uint32
	n     [2]uint64
}

// retiredPin is a pin whose record has ended, with the number of grace
// periods begun when it was retired.
type retiredPin struct {
	p     *runtime.Pinner
	after uint64
}

// graceState counts grace periods; d.mu guards it.
type graceState struct {
	in           *launchCount // gocann_launching once used
	begun, ended uint64
	retired      []retiredPin // in order of retirement, so of after
}

// retire moves the pin of the record at idx, if any, to the retired ones.
// d.mu held.
func (d *directState) retire(idx uint32) {
	p := d.pins[idx]
	delete(d.pins, idx)
	d.grace.retire(p)
}

// retire adds p, if not nil, to the retired pins, and releases what it
// can.
func (g *graceState) retire(p *runtime.Pinner) {
	if g.in == nil {
		g.in = (*launchCount)(unsafe.Pointer(&C.gocann_launching))
	}
	if p != nil {
		g.retired = append(g.retired, retiredPin{p, g.begun})
	}
	g.reclaim()
}

// reclaim moves grace periods on as far as the launches inside allow and
// releases the pins they cover.
func (g *graceState) reclaim() {
	for {
		if g.ended < g.begun {
			if atomic.LoadUint64(&g.in.n[(g.begun-1)&1]) != 0 {
				return // a launch of the old phase is still inside
			}
			g.ended = g.begun
		}
		n := 0
		for n < len(g.retired) && g.retired[n].after+2 <= g.ended {
			g.retired[n].p.Unpin()
			g.retired[n] = retiredPin{}
			n++
		}
		g.retired = g.retired[n:]
		if len(g.retired) == 0 {
			g.retired = nil
			return
		}
		g.begun++
		atomic.StoreUint32(&g.in.phase, uint32(g.begun)&1)
	}
}
