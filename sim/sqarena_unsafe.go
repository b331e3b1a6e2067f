package sim

import (
	"runtime"
	"sync"
	"unsafe"

	"github.com/gocann/gocann/hal"
)

// sqArena holds the queues' submission areas (hal.SQ), whose addresses
// producers in C hold: each stays allocated, in place (pinned), for as
// long as the arena lives, so nothing else has to pin it and no Go pointer
// to it is ever stored in C memory.
//
// An area goes back to the free list when its queue is garbage (a cleanup
// on the queue): Go code still holding a closed queue never sees the area
// serve another, and a producer in C keeps the queue reachable while it
// may use the area (hal.SQ). An area is only ever reused as another
// queue's area. The arena is part of an AddressSpace and lives as long as
// it; once the space is closed and every area is back, the areas are
// released.
type sqArena struct {
	// mu guards the fields below.
	mu     sync.Mutex
	pins   *runtime.Pinner // every area in all; see pinUntilGarbage
	all    []*hal.SQ
	free   []*hal.SQ
	out    int // areas handed out and not yet back
	closed bool
}

// get returns a cleared area for a new queue.
func (a *sqArena) get() (*hal.SQ, error) {
	a.mu.Lock()
	if a.closed {
		a.mu.Unlock()
		return nil, hal.Errorf(hal.KindInvalidDevice, "the address space of the devices was closed")
	}
	var sq *hal.SQ
	if n := len(a.free); n > 0 {
		sq = a.free[n-1]
		a.free = a.free[:n-1]
	} else {
		sq = new(hal.SQ)
		if a.pins == nil {
			a.pins = new(runtime.Pinner)
		}
		a.pins.Pin(sq)
		a.all = append(a.all, sq)
	}
	a.out++
	a.mu.Unlock()
	resetSQ(sq)
	return sq, nil
}

// put takes back the area of a queue that is garbage.
func (a *sqArena) put(sq *hal.SQ) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.out--
	if !a.closed {
		a.free = append(a.free, sq)
		return
	}
	a.release()
}

// close releases the areas once every one is back.
func (a *sqArena) close() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.closed = true
	a.free = nil
	a.release()
}

// release unpins and drops every area once none is out. a.mu must be held.
func (a *sqArena) release() {
	if a.out > 0 || a.all == nil {
		return
	}
	a.pins.Unpin()
	a.all = nil
}

// pinUntilGarbage makes the arena's pins go when owner, which holds the
// arena, becomes garbage without being closed: a pinner dropped with pins
// still in it is a leak the runtime reports by crashing.
func (a *sqArena) pinUntilGarbage(owner *AddressSpace) {
	a.pins = new(runtime.Pinner)
	runtime.AddCleanup(owner, (*runtime.Pinner).Unpin, a.pins)
}

// resetSQ clears an area for its next queue, holding its submitters' lock
// as every writer of the area does: the clearing comes after the last
// producer of the area's last queue, and never releases a lock someone
// else holds.
func resetSQ(sq *hal.SQ) {
	for !sq.Lock.CompareAndSwap(0, 1) {
		runtime.Gosched()
	}
	// Everything after the lock word; nothing else reads the area while
	// its lock is held and no queue owns it.
	off := unsafe.Offsetof(hal.SQ{}.Submitted)
	clear(unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(sq), off)), unsafe.Sizeof(hal.SQ{})-off))
	sq.Lock.Store(0)
}
