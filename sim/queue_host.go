package sim

import (
	"context"
	"time"

	"github.com/gocann/gocann/hal"
)

// What the host does to a queue besides producing for it: wait for its
// tasks, learn why a wait ended early, take the faults it recorded, and
// abort it, dropping what has not started.

// brokenSince returns why a wait that began at abort generation gen must
// end early: an abort since then, or a stop.
func (q *queue) brokenSince(gen uint64) error {
	if q.s.closing.Load() {
		return hal.Errorf(hal.KindInvalidHandle, "stream %d: device %d was closed", q.id, q.s.dev.id)
	}
	if q.abortGen.Load() != gen {
		return hal.Errorf(hal.KindStreamAborted, "stream %d was aborted while waiting", q.id)
	}
	if f := q.stop.Load(); f != nil {
		q.s.awaitReports()
		return stoppedError(q, f)
	}
	return nil
}

func (q *queue) timeoutError(cause error, seq uint64, timeout time.Duration) error {
	return hal.Wrap(hal.KindStreamSyncTimeout, cause,
		"stream %d: task %d not done within %v (done up to %d)", q.id, seq, timeout, q.completed.v.Load())
}

func (q *queue) Wait(ctx context.Context, seq uint64, timeout time.Duration) error {
	if q.completed.v.Load() >= seq {
		return nil
	}
	return q.completed.wait(ctx, seq, timeout, q, q.abortGen.Load())
}

func (q *queue) TakeFaults(seq uint64) []hal.Fault {
	if q.nfaults.Load() == 0 {
		return nil
	}
	q.s.awaitReports()
	q.s.mu.Lock()
	defer q.s.mu.Unlock()
	n := 0
	for n < len(q.faults) && q.faults[n].Seq <= seq {
		n++
	}
	if n == 0 {
		return nil
	}
	taken := make([]hal.Fault, n)
	copy(taken, q.faults[:n])
	q.faults = append(q.faults[:0], q.faults[n:]...)
	q.nfaults.Store(int32(len(q.faults)))
	return taken
}

func (q *queue) Stopped() (hal.Fault, bool) {
	if f := q.stop.Load(); f != nil {
		return *f, true
	}
	return hal.Fault{}, false
}

// unqueue takes a head that has not started off its engine. s.mu must be held.
func (q *queue) unqueue() {
	if q.state == qQueued && q.cur.next == 0 {
		q.s.engines[engineOf(q.cur.t)].withdraw(&q.cur)
		q.setState(qIdle)
	}
}

func (q *queue) Abort() error {
	s := q.s
	q.lockSubmit()
	s.mu.Lock()
	q.absorb()
	q.unlockSubmit() // tasks submitted from now on are not aborted
	if q.closed {
		s.mu.Unlock()
		return hal.Errorf(hal.KindInvalidHandle, "queue %d is closed", q.id)
	}
	q.abortGen.Add(1)
	q.unqueue()
	var running uint64
	if q.state == qQueued || q.state == qRunning {
		running = q.done + 1
		q.dropping = true
	} else {
		q.setState(qIdle)
		q.drop()
	}
	q.setStop(nil)
	q.completed.interrupt()
	q.setCompleted(q.done)
	s.mu.Unlock()
	if running != 0 {
		// The running task cannot be taken back; wait for it.
		return q.completed.wait(context.Background(), running, 0, q, q.abortGen.Load())
	}
	return nil
}

// drop discards the tasks not yet run. A discarded event record is as if
// never submitted: the waits for it go on, as a wait for an event never
// recorded does, instead of waiting for ever. s.mu must be held.
func (q *queue) drop() {
	from, to := q.done+1, q.tail
	q.done = q.tail
	q.discardRecords(from, to)
}

// discardRecords discards the event records of tasks from..to, which will
// not run: dropped, or behind a stop, where they wait for an abort that
// drops them. Waits for them on other queues go on, as after a drop,
// rather than hang a device synchronize. s.mu must be held.
func (q *queue) discardRecords(from, to uint64) {
	for seq := from; seq <= to; seq++ {
		sl := q.slot(seq)
		if sl.t.Kind == hal.TaskEventRecord && sl.rec != 0 {
			if e, ok := sl.t.Event.(*event); ok {
				e.discard(sl.rec)
			}
		}
		if sl.t.Kind == hal.TaskGraph {
			discardGraphRecords(sl.t.Graph, sl.recs)
		}
	}
}
