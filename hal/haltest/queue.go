package haltest

import (
	"bytes"
	"context"
	"slices"
	"sync/atomic"
	"time"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

// testInOrderMixed runs tasks of every engine on one queue. Each task
// that runs code checks the effect of the task before it and notes itself,
// so a task started early shows up both out of order and as a wrong value.
func testInOrderMixed(e *env) {
	t := e.t
	q := e.queue()
	buf := e.malloc(e.d, 4096)
	word, counter, data, data2 := buf.Addr, buf.Addr+8, buf.Addr+64, buf.Addr+1024
	const n = 256
	src := pattern(n, 7)
	out := make([]byte, n)
	var o order
	check := func(tag string, ok bool) {
		if !ok {
			t.Errorf("%s saw the effect of an earlier task missing", tag)
		}
		o.add(tag)
	}
	e.submit(q, hostTask(func() {
		// A slow head: anything started before it ends runs out of order.
		time.Sleep(20 * time.Millisecond)
		o.add("host1")
	}))
	e.submit(q, kernelTask("haltest_order_a", 3, func(b *kernel.Block) {
		b.Add64(b.Arg(1), 1)
		if b.Idx() == 0 {
			check("kernel2", len(o.get()) == 1)
			b.Store64(b.Arg(0), 1)
		}
	}, word, counter))
	e.submit(q, memsetTask(data, 0x5a, n))
	e.submit(q, hostTask(func() {
		check("host4", loadWord(t, e.d, word) == 1 && loadWord(t, e.d, counter) == 3 &&
			bytes.Equal(devBytes(t, e.d, data, n), bytes.Repeat([]byte{0x5a}, n)))
	}))
	e.submit(q, valueWrite(word, 2))
	e.submit(q, kernelTask("haltest_order_b", 1, func(b *kernel.Block) {
		check("kernel6", b.Load64(b.Arg(0)) == 2)
		b.Store64(b.Arg(0), 3)
	}, word))
	e.submit(q, copyTask(hal.DevLoc(data), hostLoc(src), n))
	e.submit(q, copyTask(hal.DevLoc(data2), hal.DevLoc(data), n))
	e.submit(q, valueWait(word, 3, hal.WaitEQ))
	e.submit(q, copyTask(hostLoc(out), hal.DevLoc(data2), n))
	e.submit(q, hostTask(func() { check("host11", bytes.Equal(out, src)) }))
	e.wait(q)
	want := []string{"host1", "kernel2", "host4", "kernel6", "host11"}
	if got := o.get(); !slices.Equal(got, want) {
		t.Errorf("ran %v, want %v", got, want)
	}
}

func testSubmittedCompletedWait(e *env) {
	t := e.t
	q := e.queue()
	if q.Submitted() != 0 || q.Completed() != 0 {
		t.Fatalf("new queue: Submitted %d, Completed %d; want 0, 0", q.Submitted(), q.Completed())
	}
	if err := waitSeq(q, 0, -1); err != nil {
		t.Fatalf("Wait(0) on a new queue: %v", err)
	}
	w := e.malloc(e.d, 8).Addr
	seq1 := e.submit(q, valueWait(w, 1, hal.WaitEQ))
	var ran atomic.Bool
	seq2 := e.submit(q, hostTask(func() { ran.Store(true) }))
	if seq1 != 1 || seq2 != 2 || q.Submitted() != 2 {
		t.Fatalf("sequence numbers %d, %d, Submitted %d; want 1, 2, 2", seq1, seq2, q.Submitted())
	}
	if !pendingAfterSettle(q, 1) || ran.Load() {
		t.Fatalf("a value wait on an unset word completed (Completed %d)", q.Completed())
	}

	start := time.Now()
	wantKind(t, waitSeq(q, seq2, -1), hal.KindStreamSyncTimeout, "Wait with a negative timeout on a blocked queue")
	if d := time.Since(start); d > time.Second {
		t.Errorf("Wait with a negative timeout took %v, want one check", d)
	}
	start = time.Now()
	wantKind(t, waitSeq(q, seq1, 50*time.Millisecond), hal.KindStreamSyncTimeout, "Wait(50ms) on a blocked queue")
	if d := time.Since(start); d < 50*time.Millisecond || d > patience {
		t.Errorf("Wait(50ms) returned after %v", d)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start = time.Now()
	if err := q.Wait(ctx, seq2, 0); err == nil {
		t.Error("Wait with an expiring context returned nil on a blocked queue")
	}
	if d := time.Since(start); d < 50*time.Millisecond || d > patience {
		t.Errorf("Wait with a 50ms context returned after %v", d)
	}
	if q.Completed() != 0 {
		t.Fatalf("Completed() = %d on a blocked queue", q.Completed())
	}

	storeWord(t, e.d, w, 1)
	if err := waitSeq(q, seq2, patience); err != nil {
		t.Fatalf("Wait after releasing the head: %v", err)
	}
	if q.Completed() != 2 || !ran.Load() {
		t.Errorf("after Wait: Completed %d, host function ran %v", q.Completed(), ran.Load())
	}
	if err := waitSeq(q, seq1, -1); err != nil {
		t.Errorf("Wait(-1) for a completed task: %v", err)
	}
}

func testQueueLimit(e *env) {
	t := e.t
	limit := e.props.StreamLimit
	if limit > 4096 {
		t.Skipf("stream limit %d is too large to exhaust in a test", limit)
	}
	ids := map[int32]bool{}
	var qs []hal.Queue
	for range limit {
		q, err := e.d.NewQueue(hal.QueueConfig{Priority: e.props.LeastPriority})
		if err != nil {
			t.Fatalf("NewQueue #%d of %d: %v", len(qs)+1, limit, err)
		}
		if ids[q.ID()] {
			t.Fatalf("queue id %d handed out twice", q.ID())
		}
		ids[q.ID()] = true
		qs = append(qs, q)
	}
	defer func() {
		for _, q := range qs {
			if err := q.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
		}
	}()
	_, err := e.d.NewQueue(hal.QueueConfig{Priority: e.props.LeastPriority})
	wantKind(t, err, hal.KindNoStream, "NewQueue past StreamLimit")
	if err := qs[0].Close(); err != nil {
		t.Fatal(err)
	}
	q, err := e.d.NewQueue(hal.QueueConfig{Priority: e.props.LeastPriority})
	if err != nil {
		t.Fatalf("NewQueue after closing one at the limit: %v", err)
	}
	qs[0] = q
	ran := false
	e.submit(q, hostTask(func() { ran = true }))
	e.wait(q)
	if !ran {
		t.Error("a queue created at the limit did not run a task")
	}
	_, err = e.d.NewQueue(hal.QueueConfig{Priority: e.props.LeastPriority})
	wantKind(t, err, hal.KindNoStream, "NewQueue past StreamLimit again")
}

func testQueueClosePending(e *env) {
	t := e.t
	q, err := e.d.NewQueue(hal.QueueConfig{Priority: e.props.GreatestPriority})
	if err != nil {
		t.Fatal(err)
	}
	g := e.gate()
	e.submit(q, e.blocker(g))
	var ran atomic.Bool
	e.submit(q, hostTask(func() { ran.Store(true) }))
	wantKind(t, q.Close(), hal.KindNotReady, "Close with pending tasks")
	g.open()
	e.wait(q)
	if !ran.Load() {
		t.Error("a refused Close dropped a pending task")
	}
	if err := q.Close(); err != nil {
		t.Fatalf("Close after Wait: %v", err)
	}
	if err := q.Close(); err == nil {
		t.Error("second Close succeeded")
	}
	if _, err := q.Submit(hostTask(func() {})); err == nil {
		t.Error("Submit to a closed queue succeeded")
	}
}

// testQueueDepth fills a queue behind a blocked head: it holds QueueDepth
// tasks, and the next Submit blocks until the head completes.
func testQueueDepth(e *env) {
	t := e.t
	depth := e.props.QueueDepth
	if depth > 8192 {
		t.Skipf("queue depth %d is too large to fill in a test", depth)
	}
	q := e.queue()
	g := e.gate()
	var ran atomic.Int64
	noop := hostTask(func() { ran.Add(1) })
	filled := make(chan error, 1)
	go func() {
		if _, err := q.Submit(e.blocker(g)); err != nil {
			filled <- err
			return
		}
		for range depth - 1 {
			if _, err := q.Submit(noop); err != nil {
				filled <- err
				return
			}
		}
		filled <- nil
	}()
	select {
	case err := <-filled:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(patience):
		t.Fatalf("Submit blocked before the queue held QueueDepth = %d tasks", depth)
	}
	extra := make(chan error, 1)
	go func() {
		_, err := q.Submit(noop)
		extra <- err
	}()
	time.Sleep(settle)
	select {
	case err := <-extra:
		t.Fatalf("Submit of task %d returned (%v) with %d tasks pending and a queue depth of %d", depth+1, err, depth, depth)
	default:
	}
	g.open()
	select {
	case err := <-extra:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(patience):
		t.Fatal("a blocked Submit did not resume once the queue drained")
	}
	e.wait(q)
	if got := ran.Load(); got != int64(depth) {
		t.Errorf("%d tasks ran, want %d", got, depth)
	}
	if q.Submitted() != uint64(depth+1) {
		t.Errorf("Submitted() = %d, want %d", q.Submitted(), depth+1)
	}
}
