package gocann_test

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

// fakeQueue runs its tasks in order on one goroutine. It runs kernels and
// event records; any other task faults, as the fake does not know it.
type fakeQueue struct {
	d  *fakeDevice
	id int32

	// mu guards the fields below; cond tells the runner of work.
	mu        sync.Mutex
	cond      *sync.Cond
	pending   []fakeTask // submitted, not started
	running   bool
	submitted uint64
	completed uint64
	closed    bool
	faults    []hal.Fault
	changed   chan struct{} // closed and replaced when completed moves
}

func (q *fakeQueue) ID() int32 { return q.id }

func (q *fakeQueue) Submit(t hal.Task) (uint64, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return 0, hal.Errorf(hal.KindInvalidHandle, "fake queue %d is closed", q.id)
	}
	q.submitted++
	q.pending = append(q.pending, fakeTask{q.submitted, t})
	q.cond.Signal()
	return q.submitted, nil
}

func (q *fakeQueue) run() {
	q.mu.Lock()
	defer q.mu.Unlock()
	for {
		for len(q.pending) == 0 && !q.closed {
			q.cond.Wait()
		}
		if len(q.pending) == 0 {
			return
		}
		t := q.pending[0]
		q.pending = q.pending[1:]
		q.running = true
		q.mu.Unlock()
		f, failed := q.exec(&t.t, t.seq)
		if failed {
			q.d.mu.Lock()
			onFail := q.d.onFail
			q.d.mu.Unlock()
			onFail(f)
		}
		q.mu.Lock()
		if failed {
			q.faults = append(q.faults, f)
		}
		q.running = false
		q.complete()
	}
}

// fakeTask is a task and its sequence number.
type fakeTask struct {
	seq uint64
	t   hal.Task
}

// complete marks every task before the first pending one done: the one
// that ran, and any an abort dropped. q.mu held.
func (q *fakeQueue) complete() {
	q.completed = q.submitted
	if len(q.pending) > 0 {
		q.completed = q.pending[0].seq - 1
	}
	close(q.changed)
	q.changed = make(chan struct{})
}

// exec runs task seq and reports its fault, if it has one.
func (q *fakeQueue) exec(t *hal.Task, seq uint64) (f hal.Fault, failed bool) {
	d := q.d
	switch t.Kind {
	case hal.TaskKernel:
		d.b.noteRun("kernel " + t.Kernel.Name)
		defer func() {
			if p := recover(); p != nil {
				f = hal.Fault{Kind: hal.KindAICoreException, Queue: q.id, Seq: seq, Task: t.Kind, Kernel: t.Kernel.Name,
					Site: t.Site, Thread: t.Thread, Time: d.Now(), Msg: fmt.Sprintf("fake device: the kernel panicked: %v", p)}
				failed = true
			}
		}()
		var blk kernel.Block
		for i := range t.Blocks {
			blk.Reset(i, t.Blocks, t.Args[:t.NArgs], d)
			t.Kernel.Fn(&blk)
		}
	case hal.TaskEventRecord:
		d.b.noteRun("event record")
		t.Event.(*fakeEvent).record(d.Now())
	case hal.TaskHostFunc:
		d.b.noteRun("host func")
		if t.Host != nil {
			t.Host()
		} else {
			t.HostFn(t.HostArgs[0], t.HostArgs[1])
		}
	default:
		d.b.noteRun("unsupported " + t.Kind.String())
		return hal.Fault{Kind: hal.KindNotSupported, Queue: q.id, Seq: seq, Task: t.Kind,
			Msg: fmt.Sprintf("the fake backend does not run %v tasks", t.Kind)}, true
	}
	return f, failed
}

func (q *fakeQueue) Submitted() uint64 {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.submitted
}

func (q *fakeQueue) Completed() uint64 {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.completed
}

func (q *fakeQueue) Wait(ctx context.Context, seq uint64, timeout time.Duration) error {
	if ctx == nil {
		ctx = context.Background()
	}
	var expired <-chan time.Time
	if timeout > 0 {
		tm := time.NewTimer(timeout)
		defer tm.Stop()
		expired = tm.C
	}
	for {
		q.mu.Lock()
		done, changed := q.completed >= seq, q.changed
		q.mu.Unlock()
		switch {
		case done:
			return nil
		case timeout < 0:
			return hal.Errorf(hal.KindStreamSyncTimeout, "fake queue %d: task %d is not done", q.id, seq)
		}
		select {
		case <-changed:
		case <-expired:
			return hal.Errorf(hal.KindStreamSyncTimeout, "fake queue %d: task %d is not done after %v", q.id, seq, timeout)
		case <-ctx.Done():
			return hal.Wrap(hal.KindStreamSyncTimeout, ctx.Err(), "fake queue %d: waiting for task %d", q.id, seq)
		}
	}
}

func (q *fakeQueue) SetPriority(int) {}

// SetStopOnFailure is accepted and ignored: the fake never stops a queue.
func (q *fakeQueue) SetStopOnFailure(bool) {}

func (q *fakeQueue) TakeFaults(seq uint64) []hal.Fault {
	q.mu.Lock()
	defer q.mu.Unlock()
	n := 0
	for n < len(q.faults) && q.faults[n].Seq <= seq {
		n++
	}
	if n == 0 {
		return nil
	}
	taken := q.faults[:n:n]
	q.faults = q.faults[n:]
	return taken
}

func (q *fakeQueue) Stopped() (hal.Fault, bool) { return hal.Fault{}, false }

func (q *fakeQueue) Abort() error {
	q.mu.Lock()
	q.pending = nil
	if !q.running {
		q.complete()
	}
	seq := q.submitted
	q.mu.Unlock()
	return q.Wait(context.Background(), seq, 0)
}

func (q *fakeQueue) Close() error {
	q.mu.Lock()
	q.closed = true
	q.cond.Signal()
	q.mu.Unlock()
	return nil
}

// fakeEvent keeps the device time of its latest record.
type fakeEvent struct {
	// mu guards the fields below.
	mu       sync.Mutex
	ts       int64
	recorded bool
}

func (e *fakeEvent) record(ts int64) {
	e.mu.Lock()
	e.ts, e.recorded = ts, true
	e.mu.Unlock()
}

func (e *fakeEvent) Timestamp() (int64, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.ts, e.recorded
}

func (e *fakeEvent) Close() error { return nil }
