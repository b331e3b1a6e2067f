package sim

import (
	"runtime"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

var _ hal.Direct = (*queue)(nil)

// lockSubmit takes the submitters' lock, which direct producers in C take
// too; it is held for a few hundred nanoseconds at most, so waiters spin
// and then yield rather than park.
func (q *queue) lockSubmit() {
	for i := 0; !q.sq.Lock.CompareAndSwap(0, 1); i++ {
		if i >= 64 {
			runtime.Gosched()
		}
	}
}

func (q *queue) unlockSubmit() { q.sq.Lock.Store(0) }

func (q *queue) SQ() *hal.SQ { return q.sq }

// Doorbell takes in entries written while the queue was idle. The
// submitters' lock must be held.
func (q *queue) Doorbell() {
	s := q.s
	lockHot(&s.mu)
	if !q.closed && !s.closed {
		s.advance(q)
	}
	faults := s.takeFaults()
	s.mu.Unlock()
	s.report(faults)
}

func (q *queue) Update(f func() bool) {
	q.lockSubmit()
	defer q.unlockSubmit()
	var open uint32
	if f() {
		open = 1
	}
	q.sq.Open.Store(open)
}

// absorb takes in the tasks submitted since the last call, copying the
// ones a direct producer wrote into the ring. s.mu must be held.
func (q *queue) absorb() {
	sub := q.sq.Submitted.Load()
	if sub == q.tail {
		return
	}
	if q.sq.Direct.Load() != 0 {
		for seq := q.tail + 1; seq <= sub; seq++ {
			if e := &q.sq.Entries[seq%hal.SQEntries]; e.Seq == seq {
				q.materialize(seq, e)
			}
		}
	}
	q.tail = sub
	q.sq.Absorbed.Store(sub)
}

// materialize turns entry e into task seq of the ring. s.mu must be held.
func (q *queue) materialize(seq uint64, e *hal.SQE) {
	sl := q.slot(seq)
	k := q.s.dev.b.kernels.kernel(e.Kernel)
	n := min(e.NArgs, hal.MaxArgs)
	sl.t = hal.Task{Kind: hal.TaskKernel, Kernel: k, Blocks: e.Blocks, NArgs: n, Thread: e.Thread}
	copy(sl.t.Args[:n], e.Args[:n])
	sl.submit = e.Submit
	if sl.submit == 0 {
		sl.submit = q.s.clock()
	}
	sl.rec, sl.deadline = 0, 0
	if k == nil {
		// A number no kernel has (the producer checked the rest of the
		// entry, hal.SQE): the task fails when it runs rather than
		// taking the scheduler down.
		sl.t.Kernel = &kernel.Func{Name: "(unknown kernel)", Fn: func(*kernel.Block) { panic("direct launch of an unknown kernel") }}
	}
}

// setBusy publishes whether the scheduler will step q again. s.mu must be held.
func (q *queue) setBusy(busy bool) {
	q.busy = busy
	var v uint32
	if busy {
		v = 1
	}
	q.sq.Busy.Store(v)
}

// setCompleted publishes that every task up to seq is done. s.mu must be held.
func (q *queue) setCompleted(seq uint64) {
	q.completed.advance(seq)
	q.sq.Completed.Store(seq)
}

// setStop stops q after fault f, or clears the stop (f nil). s.mu must be held.
func (q *queue) setStop(f *hal.Fault) {
	q.stop.Store(f)
	var v uint32
	if f != nil {
		v = 1
	}
	q.sq.Stopped.Store(v)
}
