package main

/*
#include "direct.h"
*/
import "C"

import (
	"math"
	"sync/atomic"
	"unsafe"

	"github.com/gocann/gocann/hal"
)

// The epochs of the direct launch path. A launch in C reads a stream's
// record, and through it the address of the stream's submission area,
// then locks and writes the area; the stream may be destroyed in between.
// So a queue whose stream's record has ended is kept (held here, which
// keeps the backend from giving its area to another queue) until no
// launch can still be using it.
//
// A thread entering the path stores the global epoch in its slot
// (gocann_slot.at), reads the records, and stores 0 when it leaves.
// Ending a record stores its handle 0, fences, then moves the epoch on to
// r, and holds the queue until every slot is 0 or at least r. A launch
// that can still use the area read the record before it ended, so it
// announced before the epoch moved past what it read: its slot holds less
// than r until it leaves. A thread whose slot holds r or more entered
// after the record ended and cannot find the area through it. Go never
// waits for a thread: each record that ends, and each stream that opens,
// releases what the slots allow.
//
// The fence is what makes an announcement visible before the thread's
// reads of the records could miss the end of one: where the kernel offers
// process-wide membarriers, gocann_epoch_fence runs a full barrier on
// every thread, and a thread announces with a plain store, so a launch
// pays nothing for it; elsewhere each announcement is sequentially
// consistent and the fence does nothing.

// epochs reads the epoch and the slots the threads announce it in.
type epochs struct {
	now   *uint64                    // the global epoch, from 1
	n     func() int                 // the number of slots
	slot  func(i int) *atomic.Uint64 // slot i's announcement, 0 outside the path
	fence func() bool                // makes every announcement so far visible; false if it could not
}

// cEpochs are the epochs of C threads (direct.h).
func cEpochs() epochs {
	return epochs{
		now: (*uint64)(unsafe.Pointer(&C.gocann_epoch.now)),
		n:   func() int { return int(atomic.LoadUint32((*uint32)(unsafe.Pointer(&C.gocann_nslots)))) },
		slot: func(i int) *atomic.Uint64 {
			chunk := atomic.LoadPointer((*unsafe.Pointer)(unsafe.Pointer(&C.gocann_slots[i>>C.GOCANN_SLOT_CHUNK_BITS])))
			s := &unsafe.Slice((*C.gocann_slot)(chunk), 1<<C.GOCANN_SLOT_CHUNK_BITS)[i&(1<<C.GOCANN_SLOT_CHUNK_BITS-1)]
			return (*atomic.Uint64)(unsafe.Pointer(&s.at))
		},
		fence: func() bool { return C.gocann_epoch_fence() == 0 },
	}
}

// advance moves the epoch on and returns its new value: what a thread
// still inside since before the call holds less of.
func (e epochs) advance() uint64 { return atomic.AddUint64(e.now, 1) }

// oldest returns the least epoch announced by a thread inside the path,
// or math.MaxUint64 if none is inside.
func (e epochs) oldest() uint64 {
	min := uint64(math.MaxUint64)
	for i := range e.n() {
		if at := e.slot(i).Load(); at != 0 && at < min {
			min = at
		}
	}
	return min
}

// heldQueue is a queue whose stream's record ended at epoch at.
type heldQueue struct {
	q  hal.Direct
	at uint64
}

// holds are the queues kept for launches that may still use them, in
// the order their records ended (so of at).
type holds struct {
	e    epochs
	held []heldQueue
	kept []hal.Direct // for good: the fence failed when their records ended
}

// retire holds q, whose stream's record has just ended (its handle is 0),
// and releases what it can.
func (h *holds) retire(q hal.Direct) {
	if !h.e.fence() {
		h.kept = append(h.kept, q) // a thread's announcement may not be seen
		return
	}
	h.held = append(h.held, heldQueue{q, h.e.advance()})
	h.release()
}

// release drops the queues no thread inside the path can still be using.
func (h *holds) release() {
	if len(h.held) == 0 {
		return
	}
	oldest := h.e.oldest()
	n := 0
	for n < len(h.held) && h.held[n].at <= oldest {
		h.held[n] = heldQueue{}
		n++
	}
	h.held = h.held[n:]
	if len(h.held) == 0 {
		h.held = nil
	}
}
