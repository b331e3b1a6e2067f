package sim

import (
	"runtime"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/gocann/gocann/hal"
)

// sqArena holds the queues' submission areas (hal.SQ) outside the Go heap,
// in memory that only ever holds submission areas. A producer in C reads a
// queue's area from a record and may still lock it after the queue closed;
// it then sees that the record no longer serves its stream and leaves. So
// an area is reused only for another queue's area, never unmapped while a
// producer may hold its address, and never moved or freed by the garbage
// collector: nothing has to be pinned, and no Go pointer to it is ever
// stored in C memory.
//
// An area goes back to the free list when its queue is garbage (a cleanup
// on the queue), so Go code still holding a closed queue never sees the
// area serve another. The arena is part of an AddressSpace and lives as
// long as it; after the space closes, each mapping is released once all of
// its areas are back.
type sqArena struct {
	// mu guards the fields below.
	mu     sync.Mutex
	chunks []*sqChunk
	free   []*hal.SQ
	closed bool
}

// sqChunk is one mapping of areas.
type sqChunk struct {
	mem  []byte
	out  int // areas handed out and not yet back
	gone bool
}

// sqPerChunk is the number of areas a mapping holds (about 1.2 MiB).
const sqPerChunk = 64

// sqSize is an area's size, rounded so each area starts on a cache line.
var sqSize = (unsafe.Sizeof(hal.SQ{}) + 63) &^ 63

// get returns a cleared area for a new queue.
func (a *sqArena) get() (*hal.SQ, error) {
	a.mu.Lock()
	if a.closed {
		a.mu.Unlock()
		return nil, hal.Errorf(hal.KindInvalidDevice, "the address space of the devices was closed")
	}
	if len(a.free) == 0 {
		if err := a.grow(); err != nil {
			a.mu.Unlock()
			return nil, err
		}
	}
	sq := a.free[len(a.free)-1]
	a.free = a.free[:len(a.free)-1]
	a.chunkOf(sq).out++
	a.mu.Unlock()
	resetSQ(sq)
	return sq, nil
}

// grow maps a chunk of areas onto the free list. a.mu held.
func (a *sqArena) grow() error {
	mem, err := unix.Mmap(-1, 0, int(sqSize)*sqPerChunk, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err != nil {
		return hal.Wrap(hal.KindOutOfMemory, err, "mapping memory for %d submission areas", sqPerChunk)
	}
	a.chunks = append(a.chunks, &sqChunk{mem: mem})
	for i := sqPerChunk - 1; i >= 0; i-- {
		a.free = append(a.free, (*hal.SQ)(unsafe.Pointer(&mem[uintptr(i)*sqSize])))
	}
	return nil
}

// chunkOf returns the chunk holding sq. a.mu held.
func (a *sqArena) chunkOf(sq *hal.SQ) *sqChunk {
	p := uintptr(unsafe.Pointer(sq))
	for _, c := range a.chunks {
		if base := uintptr(unsafe.Pointer(&c.mem[0])); p-base < uintptr(len(c.mem)) {
			return c
		}
	}
	panic("sim: a submission area that is not the arena's")
}

// put takes back the area of a queue that is garbage.
func (a *sqArena) put(sq *hal.SQ) {
	a.mu.Lock()
	defer a.mu.Unlock()
	c := a.chunkOf(sq)
	c.out--
	if !a.closed {
		a.free = append(a.free, sq)
		return
	}
	a.release(c)
}

// close releases every mapping whose areas are all back; the others go as
// their last area comes back.
func (a *sqArena) close() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.closed = true
	a.free = nil
	for _, c := range a.chunks {
		a.release(c)
	}
}

// release unmaps c once none of its areas is out. a.mu held.
func (a *sqArena) release(c *sqChunk) {
	if c.out > 0 || c.gone {
		return
	}
	c.gone = true
	// Failure leaves the memory mapped, which is harmless.
	_ = unix.Munmap(c.mem)
}

// resetSQ clears an area for its next queue, holding its submitters' lock:
// a producer that still holds the lock from the area's last queue keeps it
// until it has looked and left, and the clearing never releases a lock
// someone else holds.
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
