package main

/*
#include <stddef.h>
#include <stdlib.h>
#include "direct.h"

enum {
	GOCANN_SQ_OFF_SUBMITTED = offsetof(gocann_sq, submitted),
	GOCANN_SQ_OFF_OPEN = offsetof(gocann_sq, open),
	GOCANN_SQ_OFF_BUSY = offsetof(gocann_sq, busy),
	GOCANN_SQ_OFF_ABSORBED = offsetof(gocann_sq, absorbed),
	GOCANN_SQ_OFF_COMPLETED = offsetof(gocann_sq, completed),
	GOCANN_SQ_OFF_CLOCK_BASE = offsetof(gocann_sq, clock_base),
	GOCANN_SQ_OFF_DEV_LO = offsetof(gocann_sq, dev_lo),
	GOCANN_SQ_OFF_ENTRIES = offsetof(gocann_sq, entries),
	GOCANN_SQE_OFF_SUBMIT = offsetof(gocann_sqe, submit),
	GOCANN_SQE_OFF_ARGS = offsetof(gocann_sqe, args),
};
*/
import "C"

import (
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/gocann/gocann"
	"github.com/gocann/gocann/hal"
)

// The C mirror of hal.SQ must match it field for field: each line fails to
// compile unless its two sides are equal (a difference overflows or is an
// index out of range).
var (
	_ = [1]int{}[unsafe.Sizeof(hal.SQ{})-C.sizeof_gocann_sq]
	_ = [1]int{}[unsafe.Offsetof(hal.SQ{}.Submitted)-C.GOCANN_SQ_OFF_SUBMITTED]
	_ = [1]int{}[unsafe.Offsetof(hal.SQ{}.Open)-C.GOCANN_SQ_OFF_OPEN]
	_ = [1]int{}[unsafe.Offsetof(hal.SQ{}.ClockBase)-C.GOCANN_SQ_OFF_CLOCK_BASE]
	_ = [1]int{}[unsafe.Offsetof(hal.SQ{}.DevLo)-C.GOCANN_SQ_OFF_DEV_LO]
	_ = [1]int{}[unsafe.Offsetof(hal.SQ{}.Busy)-C.GOCANN_SQ_OFF_BUSY]
	_ = [1]int{}[unsafe.Offsetof(hal.SQ{}.Absorbed)-C.GOCANN_SQ_OFF_ABSORBED]
	_ = [1]int{}[unsafe.Offsetof(hal.SQ{}.Completed)-C.GOCANN_SQ_OFF_COMPLETED]
	_ = [1]int{}[unsafe.Offsetof(hal.SQ{}.Entries)-C.GOCANN_SQ_OFF_ENTRIES]
	_ = [1]int{}[unsafe.Sizeof(hal.SQE{})-C.sizeof_gocann_sqe]
	_ = [1]int{}[unsafe.Offsetof(hal.SQE{}.Submit)-C.GOCANN_SQE_OFF_SUBMIT]
	_ = [1]int{}[unsafe.Offsetof(hal.SQE{}.Args)-C.GOCANN_SQE_OFF_ARGS]
	_ = [1]int{}[hal.SQEntries-C.GOCANN_SQ_ENTRIES]
	_ = [1]int{}[hal.MaxArgs-C.GOCANN_MAX_ARGS]
	_ = [1]int{}[gocann.MaxBlocks-C.GOCANN_MAX_BLOCKS]
	_ = [1]int{}[handleKindShift-C.GOCANN_HANDLE_KIND_SHIFT]
	_ = [1]int{}[handleIndexBits-C.GOCANN_HANDLE_INDEX_BITS]
	_ = [1]int{}[chunkBits-C.GOCANN_REC_CHUNK_BITS]
	_ = [1]int{}[maxChunks-C.GOCANN_REC_CHUNKS]
	_ = [1]int{}[kindContext-C.GOCANN_KIND_CONTEXT]
	_ = [1]int{}[kindStream-C.GOCANN_KIND_STREAM]
	_ = [1]int{}[kindFunc-C.GOCANN_KIND_FUNC]
)

// directState is what the direct launch path needs from Go: the records C
// reads (gocann_recs). A stream's record holds its submission area, whose
// queue is held once the record ends until no launch that read the record
// can still be using the area (epoch.go); such a launch locks the area,
// finds its stream closed to it or the record serving another handle, and
// leaves. The address is stored as a word, never through a Go pointer.
type directState struct {
	// mu guards chunk allocation, the device ranges and the fields below.
	mu     sync.Mutex
	queues map[uint32]hal.Direct // the queue of each stream's record, by table index
	holds  holds
}

// rec returns the record at h's table index, allocating its chunk.
func (d *directState) rec(h handle) *C.gocann_rec {
	idx := h.index()
	ci := idx >> C.GOCANN_REC_CHUNK_BITS
	if ci >= C.GOCANN_REC_CHUNKS {
		return nil
	}
	slot := (*unsafe.Pointer)(unsafe.Pointer(&C.gocann_recs[ci]))
	chunk := atomic.LoadPointer(slot)
	if chunk == nil {
		d.mu.Lock()
		if chunk = atomic.LoadPointer(slot); chunk == nil {
			chunk = C.calloc(1<<C.GOCANN_REC_CHUNK_BITS, C.sizeof_gocann_rec)
			if chunk == nil {
				d.mu.Unlock()
				return nil
			}
			atomic.StorePointer(slot, chunk)
		}
		d.mu.Unlock()
	}
	return &unsafe.Slice((*C.gocann_rec)(chunk), 1<<C.GOCANN_REC_CHUNK_BITS)[idx&(1<<C.GOCANN_REC_CHUNK_BITS-1)]
}

// set makes the record at h's index serve h, with its submission area if
// sq is given; the handle is stored last.
func (d *directState) set(h handle, a uint64, sq *hal.SQ) {
	r := d.rec(h)
	if r == nil {
		return
	}
	atomic.StoreUint64((*uint64)(unsafe.Pointer(&r.handle)), 0)
	atomic.StoreUint64((*uint64)(unsafe.Pointer(&r.a)), a)
	if sq != nil {
		// A record of another kind keeps the address, which a launch that
		// read the record before it changed hands may still lock.
		atomic.StoreUintptr((*uintptr)(unsafe.Pointer(&r.sq)), uintptr(unsafe.Pointer(sq)))
	}
	atomic.StoreUint64((*uint64)(unsafe.Pointer(&r.handle)), uint64(h))
}

// clear ends the record at table index idx, if it has one. A stream's
// queue is held from then on for the launches that read the record.
func (d *directState) clear(idx uint32) {
	ci := idx >> C.GOCANN_REC_CHUNK_BITS
	if ci >= C.GOCANN_REC_CHUNKS {
		return
	}
	chunk := atomic.LoadPointer((*unsafe.Pointer)(unsafe.Pointer(&C.gocann_recs[ci])))
	if chunk == nil {
		return
	}
	r := &unsafe.Slice((*C.gocann_rec)(chunk), 1<<C.GOCANN_REC_CHUNK_BITS)[idx&(1<<C.GOCANN_REC_CHUNK_BITS-1)]
	h := (*uint64)(unsafe.Pointer(&r.handle))
	if handle(atomic.LoadUint64(h)).kind() != kindStream {
		atomic.StoreUint64(h, 0)
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	atomic.StoreUint64(h, 0) // before the epoch moves on
	if q := d.queues[idx]; q != nil {
		delete(d.queues, idx)
		d.epochs().retire(q)
	}
}

// openStream lets C launch directly into s: its record names its context
// and holds its submission area.
func (d *directState) openStream(s *cStream) {
	dq := s.s.Raw().Direct()
	if dq == nil {
		return
	}
	sq := dq.SQ()
	if !d.deviceMemory(s.ctx.dev, sq.DevLo.Load(), sq.DevHi.Load()) {
		return // launches on it keep to the Go path
	}
	d.mu.Lock()
	if d.queues == nil {
		d.queues = make(map[uint32]hal.Direct)
	}
	d.queues[s.h.index()] = dq
	d.epochs().release()
	d.mu.Unlock()
	d.set(s.h, uint64(s.ctx.h), sq)
}

// epochs returns the holds, reading C's epochs. d.mu must be held.
func (d *directState) epochs() *holds {
	if d.holds.e.now == nil {
		d.holds.e = cEpochs()
	}
	return &d.holds
}

// deviceMemory records that device dev's memory is at [lo, hi), so that
// direct launches leave arguments there to Go; false if dev is beyond the
// table.
func (d *directState) deviceMemory(dev int, lo, hi uint64) bool {
	if dev < 0 || dev >= C.GOCANN_MAX_DEVICES {
		return false
	}
	r := &C.gocann_devmem[dev]
	los := (*uint64)(unsafe.Pointer(&r.lo))
	his := (*uint64)(unsafe.Pointer(&r.hi))
	if atomic.LoadUint64(los) == lo && atomic.LoadUint64(his) == hi {
		return true
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	atomic.StoreUint64(his, 0) // no range while it changes
	atomic.StoreUint64(los, lo)
	atomic.StoreUint64(his, hi)
	n := (*uint32)(unsafe.Pointer(&C.gocann_ndevmem))
	if uint32(dev) >= atomic.LoadUint32(n) {
		atomic.StoreUint32(n, uint32(dev)+1)
	}
	return true
}

// noteKernel gives f's record its kernel number once f has been launched on
// s, so later launches of f may go direct. A gang kernel's launches never
// do: the simulator checks each against the cores it may have, which the
// direct path does not know.
func (d *directState) noteKernel(f *cFunc, s *cStream) {
	if f.direct.Load() || f.k.Raw().Gang {
		return
	}
	kn, ok := s.s.Raw().Direct().(hal.KernelNumberer)
	if !ok {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.gone || f.unnumber != nil {
		return // released meanwhile, or noted by another thread
	}
	k := f.k.Raw()
	f.unnumber = func() { kn.ForgetKernel(k) }
	need, _ := f.paramBytes() // the fewest argument bytes a launch of f may give
	d.set(f.h, uint64(kn.KernelID(k))|uint64(need)<<32, nil)
	f.direct.Store(true)
}

//export gocann_direct_doorbell
func gocann_direct_doorbell(h C.uint64_t) {
	if obj, ok := proc.handles.get(handle(h), kindStream); ok {
		if dq := obj.(*cStream).s.Raw().Direct(); dq != nil {
			dq.Doorbell()
		}
	}
}
