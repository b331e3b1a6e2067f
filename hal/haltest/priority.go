package haltest

import (
	"sync/atomic"
	"time"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

// hog occupies every AI core with one kernel whose block i runs until
// released > i, so a test can free one core at a time.
type hog struct {
	e        *env
	q        hal.Queue
	holding  atomic.Int64
	released atomic.Int64
}

func (e *env) hog(q hal.Queue) *hog {
	h := &hog{e: e, q: q}
	cores := e.props.AICores
	e.submit(q, kernelTask("haltest_hog", cores, func(b *kernel.Block) {
		h.holding.Add(1)
		deadline := time.Now().Add(patience)
		for h.released.Load() <= int64(b.Idx()) && !e.quit.Load() && time.Now().Before(deadline) {
			time.Sleep(100 * time.Microsecond)
		}
	}))
	if !e.until(func() bool { return h.holding.Load() == int64(cores) }) {
		e.t.Fatalf("only %d of %d hog blocks started", h.holding.Load(), cores)
	}
	return h
}

// free lets n more hog blocks end.
func (h *hog) free(n int) { h.released.Add(int64(n)) }

// stamp is a one-block kernel that notes when it starts, on a shared clock
// of start numbers.
func stamp(clock *atomic.Int64, at *atomic.Int64) hal.Task {
	return kernelTask("haltest_stamp", 1, func(*kernel.Block) { at.Store(clock.Add(1)) })
}

// testPriority occupies every core, queues a kernel on a least urgent queue
// and then one on a most urgent queue, and frees one core: the urgent one
// must start first, and neither may start before a core is freed.
func testPriority(e *env) {
	t := e.t
	p := e.props
	if p.GreatestPriority == p.LeastPriority {
		t.Skip("the device has one priority")
	}
	qh := e.queueOn(e.d, hal.QueueConfig{Priority: p.LeastPriority})
	low := e.queueOn(e.d, hal.QueueConfig{Priority: p.LeastPriority})
	high := e.queueOn(e.d, hal.QueueConfig{Priority: p.GreatestPriority})
	h := e.hog(qh)
	var clock, lowAt, highAt atomic.Int64
	e.submit(low, stamp(&clock, &lowAt))
	e.submit(high, stamp(&clock, &highAt))
	time.Sleep(settle)
	if lowAt.Load() != 0 || highAt.Load() != 0 {
		t.Fatal("a kernel started while every AI core ran a kernel that had not ended: running blocks were preempted")
	}
	h.free(1)
	e.wait(high)
	e.wait(low)
	h.free(p.AICores)
	e.wait(qh)
	if highAt.Load() > lowAt.Load() {
		t.Error("a kernel on a less urgent queue started before a later one on a more urgent queue")
	}
}

// testSetPriority raises a queue's priority while its kernel waits for a
// core: the kernel must then start before an earlier one of the old
// priority.
func testSetPriority(e *env) {
	t := e.t
	p := e.props
	if p.GreatestPriority == p.LeastPriority {
		t.Skip("the device has one priority")
	}
	qh := e.queueOn(e.d, hal.QueueConfig{Priority: p.LeastPriority})
	qa := e.queueOn(e.d, hal.QueueConfig{Priority: p.LeastPriority})
	qb := e.queueOn(e.d, hal.QueueConfig{Priority: p.LeastPriority})
	h := e.hog(qh)
	var clock, aAt, bAt atomic.Int64
	e.submit(qa, stamp(&clock, &aAt))
	e.submit(qb, stamp(&clock, &bAt))
	qb.SetPriority(p.GreatestPriority)
	time.Sleep(settle)
	h.free(1)
	e.wait(qa)
	e.wait(qb)
	h.free(p.AICores)
	e.wait(qh)
	if bAt.Load() > aAt.Load() {
		t.Error("SetPriority did not apply to a task waiting for an engine: it started after a less urgent one")
	}
}
