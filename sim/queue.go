package sim

import (
	"runtime"
	"sync/atomic"

	"github.com/gocann/gocann/hal"
)

type qstate uint8

const (
	qIdle    qstate = iota // nothing pending, or the head is not examined yet
	qQueued                // the head is an item on an engine, not started
	qRunning               // the head item has started
	qBlocked               // the head is a wait that is not satisfied yet
)

// slot is one ring entry: a task and what the scheduler learned at submission.
type slot struct {
	t        hal.Task
	submit   int64        // device clock at submission
	rec      uint64       // event record: its number; event wait: the record waited for
	deadline waitDeadline // a wait with a timeout, once it has blocked
	timedOut bool         // a kernel that ran past its execute timeout, still running
	recs     []uint64     // graph task: the numbers of its Graph.Records' records
	moved    uint64       // a kernel's blocks' global memory traffic, for its trace record
}

// queue is a hardware queue (a stream's SQ). Tasks sit in a ring until done.
type queue struct {
	s         *scheduler
	id        int32
	depth     int
	completed signal // sequence number up to which every task is done

	stop     atomic.Pointer[hal.Fault] // set while stopped by STOP_ON_FAILURE (mirrored in sq.Stopped)
	abortGen atomic.Uint64             // bumped by each Abort
	long     atomic.Uint64             // the last task submitted that outlasts a waiter's spin (outlasts)
	nfaults  atomic.Int32              // len(faults), for readers without the lock

	// sq holds the submission state submitters share, in C too: its lock
	// (lockSubmit) serializes submitters and orders them with Abort, Close
	// and ring growth, and is taken before s.mu; workers never take it.
	// sq.Submitted is the published tail: tasks up to it are in the ring or
	// in sq's entries. sq.Busy is 1 while the state is not qIdle: the
	// scheduler will step the queue again. It comes from the space's arena
	// (sqArena), which C producers may still reach after the queue closed.
	sq *hal.SQ

	// Guarded by s.mu.
	prio          int
	group         uint64
	stopOnFailure bool
	ring          []slot // len is a power of two; seq maps to ring[seq&(len-1)]; replaced with the submitters' lock held too
	done, tail    uint64 // tasks done+1..tail are pending; tail trails sq.Submitted until absorb takes them in
	state         qstate
	busy          bool // last published to sq.Busy
	cur           item // the head's engine item while queued or running
	faults        []hal.Fault
	dropping      bool // an abort drops everything after the running task
	closed        bool
}

func (q *queue) slot(seq uint64) *slot { return &q.ring[seq&uint64(len(q.ring)-1)] }

// setState sets the head's state and publishes whether the queue is busy.
// s.mu must be held.
func (q *queue) setState(st qstate) {
	q.state = st
	if busy := st != qIdle; busy != q.busy {
		q.setBusy(busy)
	}
}

func (q *queue) ID() int32 { return q.id }

func (q *queue) Submitted() uint64 { return q.sq.Submitted.Load() }

func (q *queue) Completed() uint64 { return q.completed.v.Load() }

// dropped reports whether task seq can no longer run: the queue is closed.
func (q *queue) dropped(seq uint64) bool {
	q.s.mu.Lock()
	defer q.s.mu.Unlock()
	return q.closed || q.s.closed
}

func (q *queue) SetPriority(p int) {
	s := q.s
	s.mu.Lock()
	q.prio = p
	// A head waiting for an engine has not started: it takes the new
	// priority too, and moves to its place in the engine's heap.
	// (One parked in its group's pool takes it when it is pushed back.)
	if q.state == qQueued && q.cur.prio != p && (q.cur.hidx >= 0 || q.cur.parked) {
		q.cur.prio = p
		if q.cur.hidx >= 0 {
			e := s.engines[engineOf(q.cur.t)]
			e.up(q.cur.hidx)
			e.down(q.cur.hidx)
		}
	}
	s.mu.Unlock()
}

func (q *queue) SetStopOnFailure(stop bool) {
	q.s.mu.Lock()
	q.stopOnFailure = stop
	q.s.mu.Unlock()
}

func (q *queue) Close() error {
	s := q.s
	q.lockSubmit()
	defer q.unlockSubmit()
	s.mu.Lock()
	defer s.mu.Unlock()
	q.absorb()
	if q.closed {
		return hal.Errorf(hal.KindInvalidHandle, "queue %d is already closed", q.id)
	}
	if q.done != q.tail {
		return hal.Errorf(hal.KindNotReady, "queue %d still has %d tasks pending", q.id, q.tail-q.done)
	}
	q.closed = true
	q.sq.Open.Store(0) // no producer publishes past the close
	delete(s.queues, q.id)
	s.publishQueues()
	return nil
}

// newQueue creates a queue, counting it against the stream limit.
func (s *scheduler) newQueue(cfg hal.QueueConfig) (*queue, error) {
	p := s.dev.props
	if cfg.Priority < p.GreatestPriority || cfg.Priority > p.LeastPriority {
		return nil, hal.Errorf(hal.KindInvalidParam, "priority %d is invalid, expected %d..%d",
			cfg.Priority, p.GreatestPriority, p.LeastPriority)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, hal.Errorf(hal.KindInvalidDevice, "device %d is closed", s.dev.id)
	}
	if len(s.queues) >= p.StreamLimit {
		return nil, hal.Errorf(hal.KindNoStream, "device %d has all %d streams in use", s.dev.id, p.StreamLimit)
	}
	for s.queues[s.nextID] != nil || s.nextID <= 0 {
		s.nextID++
		if s.nextID <= 0 {
			s.nextID = 1
		}
	}
	sqs := &s.dev.b.space.sqs
	sq, err := sqs.get()
	if err != nil {
		return nil, err
	}
	q := &queue{s: s, id: s.nextID, depth: p.QueueDepth, prio: cfg.Priority, group: cfg.Group,
		ring: make([]slot, min(16, p.QueueDepth)), sq: sq}
	// The area serves another queue only once nothing in Go can reach this
	// one; C producers that still hold it find the stream gone.
	runtime.AddCleanup(q, sqs.put, sq)
	q.cur.hidx = -1
	q.sq.RingLen.Store(uint32(len(q.ring)))
	q.sq.Open.Store(1)
	q.sq.DevLo.Store(s.dev.mem.base)
	q.sq.DevHi.Store(s.dev.mem.base + s.dev.mem.hbm)
	if base, ok := s.dev.b.cfg.clockBase(); ok {
		q.sq.ClockBase.Store(base)
		q.sq.ClockKnown.Store(1)
	}
	s.nextID++
	s.queues[q.id] = q
	s.publishQueues()
	return q, nil
}
