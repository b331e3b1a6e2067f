package sim

import (
	"context"
	"time"

	"github.com/gocann/gocann/hal"
)

// Settling a synchronous transfer: on the device a task queued before a
// synchronous copy starts within microseconds, while the driver's copy
// takes longer, so programs that copy a kernel's output without
// synchronizing work there. Settle gives them the same: the host call
// waits for the device work already submitted that touches the memory it
// is about to move. It is not synchronization: nothing is ordered that
// the program did not order, and the wait gives up where the device
// would not progress without the host or after limit.

// publishQueues publishes the open queues for Busy. s.mu must be held.
func (s *scheduler) publishQueues() {
	list := make([]*queue, 0, len(s.queues))
	for _, q := range s.queues {
		list = append(list, q)
	}
	s.open.Store(&list)
}

// Busy implements hal.Settler: a few atomic loads per queue, no lock.
func (d *device) Busy() bool {
	if l := d.s.open.Load(); l != nil {
		for _, q := range *l {
			if q.completed.v.Load() < q.sq.Submitted.Load() {
				return true
			}
		}
	}
	return false
}

// Settle implements hal.Settler.
func (d *device) Settle(a, b hal.Range, limit time.Duration) {
	s := d.s
	var buf [4]struct {
		q   *queue
		seq uint64
	}
	targets := buf[:0]
	s.mu.Lock()
	for _, q := range s.queues {
		sub := q.sq.Submitted.Load()
		if q.completed.v.Load() >= sub || q.closed {
			continue
		}
		last := uint64(0)
		// The newest touching task is the one to wait for: walk back from
		// the newest and stop at it.
		for seq := sub; seq > q.done; seq-- {
			if q.touches(seq, a, b) {
				last = seq
				break
			}
		}
		if last != 0 {
			targets = append(targets, struct {
				q   *queue
				seq uint64
			}{q, last})
		}
	}
	s.mu.Unlock()
	if len(targets) == 0 {
		return
	}
	deadline := time.Now().Add(limit)
	for _, t := range targets {
		var head uint64 // the running head, and since when it is seen running
		var since time.Time
		for t.q.completed.v.Load() < t.seq {
			h, running, stalled := t.q.headState()
			if stalled {
				break
			}
			if running && h != head {
				head, since = h, time.Now()
			} else if running && time.Since(since) > settleRunning {
				break // a long task: on the device the copy would run beside it
			}
			left := time.Until(deadline)
			if left <= 0 {
				return
			}
			// A short bounded wait, then another look at the head.
			_ = t.q.Wait(context.Background(), t.seq, min(left, time.Millisecond))
		}
	}
}

// settleRunning is how long Settle waits for a task that has started: the
// device's head start is microseconds, so a task still running after this
// would meet the copy there too (a kernel polling a word the host is
// about to write, say).
const settleRunning = 50 * time.Millisecond

// touches reports whether task seq of q, submitted and not completed,
// touches range a or b: a range it reads or writes, or a kernel argument
// pointing there. s.mu must be held.
func (q *queue) touches(seq uint64, a, b hal.Range) bool {
	in := func(addr uint64) bool {
		return (a.Size != 0 && addr-a.Addr < a.Size) || (b.Size != 0 && addr-b.Addr < b.Size)
	}
	if seq > q.tail && q.sq.Direct.Load() != 0 {
		// Not taken in yet: a direct producer's entry, if it wrote one.
		if e := &q.sq.Entries[seq%hal.SQEntries]; e.Seq == seq {
			for _, v := range e.Args[:min(e.NArgs, hal.MaxArgs)] {
				if in(v) {
					return true
				}
			}
			return false
		}
	}
	return taskTouches(&q.slot(seq).t, in)
}

// taskTouches reports whether t, or a task of the graph it runs, touches
// memory that in says is the transfer's.
func taskTouches(t *hal.Task, in func(uint64) bool) bool {
	switch t.Kind {
	case hal.TaskKernel:
		for _, v := range t.Args[:min(t.NArgs, hal.MaxArgs)] {
			if in(v) {
				return true
			}
		}
		return t.ArgsDev != 0 && in(t.ArgsDev)
	case hal.TaskGraph:
		if t.Graph == nil {
			return false
		}
		for _, st := range t.Graph.Streams {
			ops := st.Ops()
			for i := range ops {
				if op := &ops[i]; op.Kind == hal.OpTask && taskTouches(&op.Task, in) {
					return true
				}
			}
		}
		return false
	}
	hit := false
	t.Accesses(nil, func(r hal.Range) {
		hit = hit || in(r.Addr) || (r.Size > 0 && in(r.Addr+r.Size-1))
	})
	return hit
}

// headState reports q's head task, whether it runs, and whether q is
// stalled, unable to progress without the host: its head waits for
// something not yet there or runs a host function (which may be the
// caller), or it is stopped, aborted or closed.
func (q *queue) headState() (head uint64, running, stalled bool) {
	s := q.s
	s.mu.Lock()
	defer s.mu.Unlock()
	head, running = q.done+1, q.state == qRunning
	stalled = q.closed || s.closed || q.stop.Load() != nil || q.dropping || q.state == qBlocked ||
		running && q.slot(head).t.Kind == hal.TaskHostFunc
	return head, running, stalled
}
