package haltest

import (
	"sync/atomic"
	"time"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

// testStopOnFailure checks STOP_ON_FAILURE: a fault on one queue of a group
// stops every queue of the group, tasks not started never run, Submit and
// Wait report the fault's kind, other groups go on, and Abort recovers.
func testStopOnFailure(e *env) {
	t := e.t
	prio := e.props.GreatestPriority
	qa := e.queueOn(e.d, hal.QueueConfig{Priority: prio, Group: 1})
	qb := e.queueOn(e.d, hal.QueueConfig{Priority: prio, Group: 1})
	qc := e.queueOn(e.d, hal.QueueConfig{Priority: prio, Group: 2})
	for _, q := range []hal.Queue{qa, qb, qc} {
		q.SetStopOnFailure(true)
	}
	w := e.malloc(e.d, 8).Addr
	var ranA, ranB atomic.Bool
	e.submit(qb, valueWait(w, 1, hal.WaitEQ))
	e.submit(qb, hostTask(func() { ranB.Store(true) }))
	// The gate holds the trap back until every task is submitted: a trap
	// that ran first would refuse the later submissions.
	g := e.gate()
	e.submit(qa, e.blocker(g))
	seqTrap := e.submit(qa, kernelTask("haltest_stop", 2, func(b *kernel.Block) { b.Trap("stop the group") }))
	seqA := e.submit(qa, hostTask(func() { ranA.Store(true) }))
	g.open()

	err := waitSeq(qa, seqA, patience)
	wantKind(t, err, hal.KindAICoreTrap, "Wait on the stopped queue")
	if hal.KindOf(err) == hal.KindStreamSyncTimeout {
		t.Fatal("the faulting queue did not stop")
	}
	for name, q := range map[string]hal.Queue{"faulting queue": qa, "other queue of the group": qb} {
		f, ok := q.Stopped()
		if !ok || f.Kind != hal.KindAICoreTrap || f.Queue != qa.ID() || f.Seq != seqTrap || f.Kernel != "haltest_stop" {
			t.Errorf("%s: Stopped() = %+v, %v; want the trap of queue %d task %d", name, f, ok, qa.ID(), seqTrap)
		}
		_, err := q.Submit(hostTask(func() { t.Error("a stopped queue ran a task submitted after the stop") }))
		wantKind(t, err, hal.KindAICoreTrap, name+": Submit")
	}
	wantKind(t, waitSeq(qb, qb.Submitted(), patience), hal.KindAICoreTrap, "Wait on the other queue of the group")

	// Releasing qb's head must not run anything on the stopped queue.
	storeWord(t, e.d, w, 1)
	time.Sleep(settle)
	if ranA.Load() || ranB.Load() {
		t.Errorf("tasks not started when the group stopped ran (faulting queue %v, other queue %v)", ranA.Load(), ranB.Load())
	}
	if _, ok := qc.Stopped(); ok {
		t.Error("a queue of another group stopped")
	}
	var ranC atomic.Bool
	e.submit(qc, hostTask(func() { ranC.Store(true) }))
	e.wait(qc)
	if !ranC.Load() {
		t.Error("a queue of another group did not run")
	}
	if fs := qa.TakeFaults(qa.Submitted()); len(fs) != 1 || fs[0].Seq != seqTrap {
		t.Errorf("faulting queue's faults: %+v, want the trap only", fs)
	}

	for name, q := range map[string]hal.Queue{"faulting queue": qa, "other queue of the group": qb} {
		if err := q.Abort(); err != nil {
			t.Fatalf("%s: Abort: %v", name, err)
		}
		if f, ok := q.Stopped(); ok {
			t.Errorf("%s: still stopped after Abort: %+v", name, f)
		}
		var ran atomic.Bool
		e.submit(q, hostTask(func() { ran.Store(true) }))
		if err := waitSeq(q, q.Submitted(), patience); err != nil {
			t.Fatalf("%s: Wait after Abort: %v", name, err)
		}
		if !ran.Load() {
			t.Errorf("%s: a task after Abort did not run", name)
		}
	}
	if ranA.Load() || ranB.Load() {
		t.Error("Abort ran tasks it should have dropped")
	}
	e.waitHandled(1)
}

// testAbortDropsPending aborts a queue with a running task and tasks behind
// it: Abort waits for the running one and the others never run.
func testAbortDropsPending(e *env) {
	t := e.t
	q := e.queue()
	g := e.gate()
	var running, headDone, dropped atomic.Bool
	e.submit(q, hostTask(func() {
		running.Store(true)
		<-g.ch
		headDone.Store(true)
	}))
	e.submit(q, hostTask(func() { dropped.Store(true) }))
	e.submit(q, kernelTask("haltest_dropped", 1, func(*kernel.Block) { dropped.Store(true) }))
	if !e.until(running.Load) {
		t.Fatal("the head never started")
	}
	aborted := make(chan error, 1)
	go func() { aborted <- q.Abort() }()
	select {
	case err := <-aborted:
		t.Fatalf("Abort returned (%v) while its running task had not ended", err)
	case <-time.After(settle):
	}
	g.open()
	select {
	case err := <-aborted:
		if err != nil {
			t.Fatalf("Abort: %v", err)
		}
	case <-time.After(patience):
		t.Fatal("Abort did not return after its running task ended")
	}
	if !headDone.Load() {
		t.Error("Abort returned before the running task ended")
	}
	time.Sleep(settle)
	if dropped.Load() {
		t.Error("a task pending at Abort ran")
	}
	var ran atomic.Bool
	e.submit(q, hostTask(func() { ran.Store(true) }))
	e.wait(q)
	if !ran.Load() || dropped.Load() {
		t.Errorf("after Abort: new task ran %v, dropped task ran %v", ran.Load(), dropped.Load())
	}
	if err := q.Close(); err != nil {
		t.Errorf("Close after Abort: %v", err)
	}
}

// testAbortWakesWaiter checks that a host waiting on a queue when it is
// aborted sees KindStreamAborted.
func testAbortWakesWaiter(e *env) {
	t := e.t
	q := e.queue()
	w := e.malloc(e.d, 8).Addr
	e.submit(q, valueWait(w, 1, hal.WaitEQ))
	seq := e.submit(q, hostTask(func() { t.Error("a task pending at Abort ran") }))
	waiting := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		close(waiting)
		done <- waitSeq(q, seq, patience)
	}()
	<-waiting
	time.Sleep(settle) // let the waiter block
	if err := q.Abort(); err != nil {
		t.Fatalf("Abort: %v", err)
	}
	select {
	case err := <-done:
		wantKind(t, err, hal.KindStreamAborted, "Wait across an Abort")
	case <-time.After(patience):
		t.Fatal("a Wait did not return after Abort")
	}
	storeWord(t, e.d, w, 1)
	time.Sleep(settle)
}

// testStopOnSyncFault checks STOP_ON_FAILURE when the failing task is one
// the scheduler runs itself: a notify wait that times out, and a value
// write to freed memory. The tasks behind it must not run.
func testStopOnSyncFault(e *env) {
	t := e.t
	word := e.malloc(e.d, 8).Addr
	freed := e.malloc(e.d, 64)
	if err := e.d.Free(freed.Addr, 0); err != nil {
		t.Fatal(err)
	}
	n := e.notify(e.d)
	for i, c := range []struct {
		name string
		task hal.Task
		kind hal.Kind
	}{
		{"notify wait timeout", waitNotify(n, 20*time.Millisecond), hal.KindWaitTimeout},
		{"value write to freed memory", valueWrite(freed.Addr, 1), hal.KindDMAFault},
	} {
		q := e.queueOn(e.d, hal.QueueConfig{Priority: e.props.GreatestPriority, Group: uint64(10 + i)})
		q.SetStopOnFailure(true)
		g := e.gate()
		e.submit(q, e.blocker(g))
		seq := e.submit(q, c.task)
		var ran atomic.Bool
		e.submit(q, hostTask(func() { ran.Store(true) }))
		e.submit(q, valueWrite(word, uint64(i+1)))
		g.open()
		wantKind(t, waitSeq(q, q.Submitted(), patience), c.kind, c.name+": Wait on the stopped queue")
		time.Sleep(settle)
		if ran.Load() {
			t.Errorf("%s: a task behind the failed one ran on a stopped queue", c.name)
		}
		if f, ok := q.Stopped(); !ok || f.Seq != seq || f.Kind != c.kind {
			t.Errorf("%s: Stopped() = %+v, %v; want %s at seq %d", c.name, f, ok, c.kind, seq)
		}
		if q.Completed() >= q.Submitted() || loadWord(t, e.d, word) == uint64(i+1) {
			t.Errorf("%s: Completed() = %d: tasks behind the failed one completed", c.name, q.Completed())
		}
	}
	e.waitHandled(2)
}
