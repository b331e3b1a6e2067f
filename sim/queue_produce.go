package sim

import (
	"context"
	"fmt"
	"math"

	"github.com/gocann/gocann/hal"
)

// The producer side of a queue: Submit, through hal.Produce when the queue
// is busy, else under the scheduler's lock.

// Submit appends t. It blocks while the ring is full at the queue depth.
//
// A task that needs nothing from the scheduler at submission (a kernel, a
// copy, a memset, a host function, a graph), queued behind work the
// scheduler will come back to, is published without the scheduler's lock:
// the host and the engines then never contend for it on the hot path.
func (q *queue) Submit(t hal.Task) (uint64, error) {
	if t.Kind == hal.TaskKernel && t.Kernel != nil && t.Kernel.Gang {
		if err := q.s.checkGang(&t); err != nil {
			return 0, err
		}
	}
	q.lockSubmit()
	defer q.unlockSubmit()
	if seq, ok := q.publish(&t); ok {
		q.noteLong(&t, seq)
		return seq, nil
	}
	s := q.s
	now := s.clock()
	lockHot(&s.mu)
	q.absorb()
	for {
		if err := q.refuse(); err != nil {
			s.mu.Unlock()
			return 0, err
		}
		if q.tail-q.done < uint64(len(q.ring)) {
			break
		}
		if len(q.ring) < q.depth {
			q.grow()
			break
		}
		// Full: wait for room, letting Abort and Close in meanwhile. The
		// wait is for an eighth of the ring, not one slot: a host that
		// outpaces the device then queues in bursts instead of contending
		// with the workers for the lock at every completion.
		target := q.tail - uint64(len(q.ring)) + uint64(max(1, len(q.ring)/8))
		gen := q.abortGen.Load()
		s.mu.Unlock()
		q.unlockSubmit()
		err := q.completed.wait(context.Background(), target, 0, q, gen)
		q.lockSubmit()
		if err != nil {
			return 0, err
		}
		lockHot(&s.mu)
		q.absorb()
	}
	seq := q.tail + 1
	sl := q.slot(seq)
	sl.t = t
	sl.submit = now
	if err := s.admit(q, sl); err != nil {
		sl.t = hal.Task{}
		s.mu.Unlock()
		return 0, err
	}
	q.tail = seq
	q.noteLong(&t, seq)
	q.sq.Submitted.Store(seq)
	q.sq.Absorbed.Store(seq)
	if q.state == qIdle && q.done+1 == seq {
		s.advance(q)
	}
	faults := s.takeFaults()
	s.mu.Unlock()
	s.report(faults)
	return seq, nil
}

// parkBytes is the size of a copy or memset a waiting host parks behind at
// once instead of spinning: it runs for tens of microseconds at memory
// speed, longer than a spin pays for, and split into parts it wants every
// core, the spinner's too.
const parkBytes = 1 << 20

// noteLong records seq as q.long if t moves at least parkBytes. A task
// that finished before the store is no different from one that finishes
// just after: waiters compare it with the completed count.
func (q *queue) noteLong(t *hal.Task, seq uint64) {
	n := t.Size
	switch t.Kind {
	case hal.TaskCopy, hal.TaskMemset, hal.TaskReduce:
	case hal.TaskRandom:
		n = hal.RandomCounterSize
		if !t.Random.Num.Addr {
			n = t.Random.ResultSize(t.Random.Num.Value)
		}
	case hal.TaskCopyBatch:
		n = 0
		for i := range t.Batch.Len() {
			n += t.Batch.Copies[i].Size
		}
	default:
		return
	}
	if n >= parkBytes {
		q.long.Store(seq)
	}
}

// publish is Submit's fast path; it reports false when t must take the
// slow one. It is the queue's side of hal.Produce, the protocol every
// producer follows, the direct ones in C included. The submitters' lock
// is held.
func (q *queue) publish(t *hal.Task) (uint64, bool) {
	switch t.Kind {
	case hal.TaskKernel, hal.TaskCopy, hal.TaskCopy2D, hal.TaskMemset, hal.TaskHostFunc, hal.TaskGraph, hal.TaskCopyBatch, hal.TaskCopyIndirect, hal.TaskReduce, hal.TaskRandom:
	default:
		return 0, false // admission numbers events and registers waits
	}
	if q.sq.Busy.Load() == 0 || staticCheck(t) != nil || (t.Kind == hal.TaskGraph && len(t.Graph.Records) > 0) {
		return 0, false // an idle queue is started under the scheduler's lock
	}
	// Direct entries pile up behind a queue that is not moving; past half
	// the SQ the slow path takes them in, making room for more.
	ahead := uint64(math.MaxUint64)
	if q.sq.Direct.Load() != 0 {
		ahead = hal.SQEntries / 2
	}
	seq := hal.Produce(q.sq, ahead, func(seq uint64) {
		sl := q.slot(seq)
		sl.t = *t
		sl.submit = q.s.clock()
		sl.rec, sl.deadline, sl.recs = 0, 0, sl.recs[:0]
	}, q.Doorbell)
	return seq, seq != 0
}

// refuse returns why q takes no tasks now, or nil. s.mu must be held.
func (q *queue) refuse() error {
	if q.closed {
		return hal.Errorf(hal.KindInvalidHandle, "queue %d is closed", q.id)
	}
	if f := q.stop.Load(); f != nil {
		return stoppedError(q, f)
	}
	return nil
}

func stoppedError(q *queue, f *hal.Fault) error {
	if f.Seq == 0 {
		return &hal.Error{Kind: f.Kind, Msg: fmt.Sprintf(
			"stream %d is stopped (%s); abort the stream to drop its tasks and go on", q.id, f.Msg)}
	}
	return &hal.Error{Kind: f.Kind, Err: f.Err, Msg: fmt.Sprintf(
		"stream %d is stopped (STOP_ON_FAILURE) since %s in task %d on stream %d: %s; abort the stream or reset the device to recover",
		q.id, f.Kind, f.Seq, f.Queue, f.Msg)}
}

// grow doubles the ring, keeping every pending task at its sequence number.
// Running items keep pointing into the old ring, which nothing writes again.
func (q *queue) grow() {
	old := q.ring
	q.ring = make([]slot, 2*len(old))
	for seq := q.done + 1; seq <= q.tail; seq++ {
		*q.slot(seq) = old[seq&uint64(len(old)-1)]
	}
	q.sq.RingLen.Store(uint32(len(q.ring)))
}
