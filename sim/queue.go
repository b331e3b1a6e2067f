package sim

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync/atomic"
	"time"

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
}

// queue is a hardware queue (a stream's SQ). Tasks sit in a ring until done.
type queue struct {
	s         *scheduler
	id        int32
	depth     int
	completed signal // sequence number up to which every task is done

	stop     atomic.Pointer[hal.Fault] // set while stopped by STOP_ON_FAILURE (mirrored in sq.Stopped)
	abortGen atomic.Uint64             // bumped by each Abort
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

// Submit appends t. It blocks while the ring is full at the queue depth.
//
// A task that needs nothing from the scheduler at submission (a kernel, a
// copy, a memset, a host function, a graph), queued behind work the
// scheduler will come back to, is published without the scheduler's lock:
// the host and the engines then never contend for it on the hot path.
func (q *queue) Submit(t hal.Task) (uint64, error) {
	q.lockSubmit()
	defer q.unlockSubmit()
	if seq, ok := q.publish(&t); ok {
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

// publish is Submit's fast path; it reports false when t must take the
// slow one. It is the queue's side of hal.Produce, the protocol every
// producer follows, the direct ones in C included. The submitters' lock
// is held.
func (q *queue) publish(t *hal.Task) (uint64, bool) {
	switch t.Kind {
	case hal.TaskKernel, hal.TaskCopy, hal.TaskCopy2D, hal.TaskMemset, hal.TaskHostFunc, hal.TaskGraph:
	default:
		return 0, false // admission numbers events and registers waits
	}
	if q.sq.Busy.Load() == 0 || staticCheck(t) != nil {
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
		sl.rec, sl.deadline = 0, 0
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

func (q *queue) SetPriority(p int) {
	s := q.s
	s.mu.Lock()
	q.prio = p
	// A head waiting for an engine has not started: it takes the new
	// priority too, and moves to its place in the engine's heap.
	if q.state == qQueued && q.cur.hidx >= 0 && q.cur.prio != p {
		q.cur.prio = p
		e := s.engines[engineOf(q.cur.t.Kind)]
		e.up(q.cur.hidx)
		e.down(q.cur.hidx)
	}
	s.mu.Unlock()
}

func (q *queue) SetStopOnFailure(stop bool) {
	q.s.mu.Lock()
	q.stopOnFailure = stop
	q.s.mu.Unlock()
}

func (q *queue) TakeFaults(seq uint64) []hal.Fault {
	if q.nfaults.Load() == 0 {
		return nil
	}
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
		q.s.engines[engineOf(q.cur.t.Kind)].remove(&q.cur)
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
	for seq := from; seq <= to; seq++ {
		if sl := q.slot(seq); sl.t.Kind == hal.TaskEventRecord && sl.rec != 0 {
			if e, ok := sl.t.Event.(*event); ok {
				e.discard(sl.rec)
			}
		}
	}
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
	return q, nil
}
