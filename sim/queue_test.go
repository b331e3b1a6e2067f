package sim

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

// ringLen is the number of slots q's ring has now.
func ringLen(q hal.Queue) int {
	qq := q.(*queue)
	qq.s.mu.Lock()
	defer qq.s.mu.Unlock()
	return len(qq.ring)
}

// tally records the order in which host functions ran.
type tally struct {
	mu  sync.Mutex
	got []int
}

func (l *tally) task(i int) hal.Task {
	return hal.Task{Kind: hal.TaskHostFunc, Host: func() { l.mu.Lock(); l.got = append(l.got, i); l.mu.Unlock() }}
}

func (l *tally) check(t *testing.T, n int) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	want := make([]int, n)
	for i := range want {
		want[i] = i
	}
	if !slices.Equal(l.got, want) {
		t.Fatalf("host functions ran in order %v, want 0..%d", l.got, n-1)
	}
	l.got = l.got[:0]
}

// TestQueueRingGrows queues more tasks behind a blocked head than the ring's
// first 16 slots hold, at different ring offsets, with a head that is an
// engine task (its item points into the old ring) and one that is a blocked
// value wait (the scheduler re-reads it from the new ring).
func TestQueueRingGrows(t *testing.T) {
	d := openDev(t, hal.Props{})
	q := newQ(t, d, 0)
	w, err := d.Malloc(8, hal.MemPolicy{})
	if err != nil {
		t.Fatal(err)
	}
	word := (*uint64)(must(d.Pointer(w.Addr, 8)))
	ev, err := d.NewEvent(hal.EventConfig{Counted: true})
	if err != nil {
		t.Fatal(err)
	}
	if n := ringLen(q); n != 16 {
		t.Fatalf("a new queue has %d ring slots, want 16", n)
	}
	var l tally
	for round, n := range []int{5, 40, 300} {
		before := q.Submitted()
		gate := make(chan struct{})
		defer func() {
			select {
			case <-gate:
			default:
				close(gate)
			}
		}()
		release := func() { close(gate) }
		if round == 1 {
			*word = 0
			submit(t, q, hal.Task{Kind: hal.TaskValueWait, Dst: hal.DevLoc(w.Addr), Value: 1, Flag: hal.WaitEQ})
			release = func() {
				submit(t, newQ(t, d, 0), hal.Task{Kind: hal.TaskValueWrite, Dst: hal.DevLoc(w.Addr), Value: 1})
			}
		} else {
			submit(t, q, hal.Task{Kind: hal.TaskHostFunc, Host: func() { <-gate }})
		}
		for i := range n {
			switch i % 10 {
			case 3:
				submit(t, q, hal.Task{Kind: hal.TaskEventRecord, Event: ev})
			case 4:
				submit(t, q, hal.Task{Kind: hal.TaskEventWait, Event: ev})
			case 7:
				submit(t, q, hal.Task{Kind: hal.TaskKernel, Blocks: 2, Kernel: &kernel.Func{Name: "nop", Fn: func(*kernel.Block) {}}})
			}
			submit(t, q, l.task(i))
		}
		time.Sleep(10 * time.Millisecond)
		if c := q.Completed(); c != before {
			t.Fatalf("round %d: %d tasks done behind a blocked head, want %d", round, c, before)
		}
		if pending := int(q.Submitted() - q.Completed()); ringLen(q) < pending {
			t.Fatalf("round %d: %d tasks pending in a ring of %d", round, pending, ringLen(q))
		}
		release()
		wait(t, q)
		l.check(t, n)
	}
	if n := ringLen(q); n != 512 {
		t.Errorf("ring has %d slots after 300+ tasks were pending, want 512", n)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestQueueDepthBlocksSubmit fills a queue of depth 8 behind a blocked head:
// the ninth Submit blocks until the head completes, and the ring never
// grows past the depth.
func TestQueueDepthBlocksSubmit(t *testing.T) {
	d := openDev(t, hal.Props{QueueDepth: 8})
	q := newQ(t, d, 0)
	gate := make(chan struct{})
	var l tally
	submit(t, q, hal.Task{Kind: hal.TaskHostFunc, Host: func() { <-gate }})
	for i := range 7 {
		submit(t, q, l.task(i))
	}
	done := make(chan error, 1)
	go func() {
		_, err := q.Submit(l.task(7))
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("the ninth Submit returned (%v) on a queue of depth 8 with 8 tasks pending", err)
	case <-time.After(30 * time.Millisecond):
	}
	if n := ringLen(q); n != 8 {
		t.Errorf("ring has %d slots at depth 8", n)
	}
	close(gate)
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a blocked Submit did not resume")
	}
	wait(t, q)
	l.check(t, 8)

	// A producer far ahead of the queue blocks and resumes over and over.
	go func() {
		for i := range 500 {
			if _, err := q.Submit(l.task(i)); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	wait(t, q)
	l.check(t, 500)
	if n := ringLen(q); n != 8 {
		t.Errorf("ring has %d slots at depth 8", n)
	}
}

// TestAbortReleasesBlockedSubmit aborts a full queue while a Submit waits for
// room: the Submit fails as aborted and none of the pending tasks run.
func TestAbortReleasesBlockedSubmit(t *testing.T) {
	d := openDev(t, hal.Props{QueueDepth: 8})
	q := newQ(t, d, 0)
	gate := make(chan struct{})
	started := make(chan struct{})
	submit(t, q, hal.Task{Kind: hal.TaskHostFunc, Host: func() { close(started); <-gate }})
	var l tally
	for i := range 7 {
		submit(t, q, l.task(i))
	}
	<-started
	blocked := make(chan error, 1)
	go func() {
		_, err := q.Submit(l.task(7))
		blocked <- err
	}()
	time.Sleep(20 * time.Millisecond)
	aborted := make(chan error, 1)
	go func() { aborted <- q.Abort() }()
	select {
	case err := <-blocked:
		if k := hal.KindOf(err); k != hal.KindStreamAborted {
			t.Errorf("blocked Submit returned %v (kind %s), want %s", err, k, hal.KindStreamAborted)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Abort did not release a blocked Submit")
	}
	close(gate)
	if err := <-aborted; err != nil {
		t.Fatal(err)
	}
	submit(t, q, l.task(0))
	wait(t, q)
	l.check(t, 1)
}

// An event record an abort discards releases the queues waiting for it, as
// a record never made would: the wait does not hang for ever. Both abort
// paths: a queue held idle behind a wait, and one whose head is running.
func TestAbortedRecordReleasesWaits(t *testing.T) {
	d := openDev(t, hal.Props{})
	for _, running := range []bool{false, true} {
		ev, err := d.NewEvent(hal.EventConfig{Counted: true})
		if err != nil {
			t.Fatal(err)
		}
		a, b := newQ(t, d, 0), newQ(t, d, 0)
		gate := make(chan struct{})
		if running {
			submit(t, a, hal.Task{Kind: hal.TaskHostFunc, Host: func() { <-gate }})
		} else {
			hold(t, d, a)
		}
		submit(t, a, hal.Task{Kind: hal.TaskEventRecord, Event: ev})
		submit(t, b, hal.Task{Kind: hal.TaskEventWait, Event: ev})
		done := make(chan error, 1)
		go func() { done <- a.Abort() }()
		if running {
			time.Sleep(10 * time.Millisecond)
			close(gate)
		}
		if err := <-done; err != nil {
			t.Fatalf("Abort: %v", err)
		}
		if err := b.Wait(context.Background(), b.Submitted(), 5*time.Second); err != nil {
			t.Fatalf("running head %v: the wait for the discarded record: %v", running, err)
		}
	}
}

// A queue that a fault stops in STOP mode runs nothing more until an
// abort: a queue of another group waiting for one of its later records
// goes on, as after an abort, instead of hanging a device synchronize.
func TestStoppedRecordReleasesWaits(t *testing.T) {
	d := openDev(t, hal.Props{})
	ev, err := d.NewEvent(hal.EventConfig{Counted: true})
	if err != nil {
		t.Fatal(err)
	}
	a, err := d.NewQueue(hal.QueueConfig{Group: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := d.NewQueue(hal.QueueConfig{Group: 2})
	if err != nil {
		t.Fatal(err)
	}
	a.SetStopOnFailure(true)
	release := hold(t, d, a)
	k := &kernel.Func{Name: "bad", Fn: func(*kernel.Block) { panic("boom") }}
	submit(t, a, hal.Task{Kind: hal.TaskKernel, Kernel: k, Blocks: 1})
	ran := false
	submit(t, a, hal.Task{Kind: hal.TaskHostFunc, Host: func() { ran = true }})
	submit(t, a, hal.Task{Kind: hal.TaskEventRecord, Event: ev})
	submit(t, b, hal.Task{Kind: hal.TaskEventWait, Event: ev})
	release()
	if err := b.Wait(context.Background(), b.Submitted(), 5*time.Second); err != nil {
		t.Fatalf("the wait for a record behind the stop: %v", err)
	}
	if err := a.Wait(context.Background(), a.Submitted(), time.Second); err == nil || ran {
		t.Errorf("the stopped queue ran on (wait: %v, host function ran: %v)", err, ran)
	}
}
