package sim

import (
	"unsafe"

	"github.com/gocann/gocann/hal"
)

// Freed page-locked host memory may still be read or written by a queued
// copy. It stays mapped, in quarantine, until every queue that had pending
// tasks when it was freed has completed those tasks; then it is unmapped.
// Unmapping it earlier could crash the process.

// quarantined is freed host memory waiting for queues to pass a point.
type quarantined struct {
	mem   []byte
	waits []queuePoint
}

// queuePoint is a queue and the last task it had when memory was freed.
type queuePoint struct {
	q   *queue
	seq uint64
}

// busyQueues lists every queue with pending tasks on the open devices.
func (b *Backend) busyQueues() []queuePoint {
	var pts []queuePoint
	for _, d := range *b.open.Load() {
		d.s.mu.Lock()
		for _, q := range d.s.queues {
			if tail := q.sq.Submitted.Load(); q.done < tail {
				pts = append(pts, queuePoint{q, tail})
			}
		}
		d.s.mu.Unlock()
	}
	return pts
}

func (p queuePoint) passed() bool { return p.q.Completed() >= p.seq || p.q.dropped(p.seq) }

// FreeHost frees page-locked host memory. The allocation is gone at once;
// its pages go when no queued task can use them any more.
func (b *Backend) FreeHost(p unsafe.Pointer) error {
	if p == nil {
		return hal.Errorf(hal.KindInvalidParam, "host pointer is NULL, expected memory from MallocHost")
	}
	mem, err := b.host.detach(p)
	if err != nil {
		return err
	}
	b.reclaimHost(false)
	pts := b.busyQueues()
	if len(pts) == 0 {
		return unmapHost(mem)
	}
	b.mu.Lock()
	b.quarantine = append(b.quarantine, quarantined{mem: mem, waits: pts})
	b.mu.Unlock()
	return nil
}

// reclaimHost unmaps quarantined memory no task can touch any more; with
// all, everything (the devices are closed).
func (b *Backend) reclaimHost(all bool) {
	b.mu.Lock()
	var free [][]byte
	kept := b.quarantine[:0]
	for _, qm := range b.quarantine {
		done := all
		if !done {
			done = true
			for _, p := range qm.waits {
				done = done && p.passed()
			}
		}
		if done {
			free = append(free, qm.mem)
		} else {
			kept = append(kept, qm)
		}
	}
	clear(b.quarantine[len(kept):])
	b.quarantine = kept
	b.mu.Unlock()
	for _, mem := range free {
		unmapHost(mem)
	}
}
