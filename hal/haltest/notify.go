package haltest

import (
	"sync/atomic"
	"time"

	"github.com/gocann/gocann/hal"
)

func (e *env) notify(d hal.Device) hal.Notify {
	e.t.Helper()
	n, err := d.NewNotify()
	if err != nil {
		e.t.Fatalf("NewNotify: %v", err)
	}
	e.t.Cleanup(func() { _ = n.Close() })
	return n
}

func recordNotify(n hal.Notify) hal.Task { return hal.Task{Kind: hal.TaskNotifyRecord, Notify: n} }
func waitNotify(n hal.Notify, timeout time.Duration) hal.Task {
	return hal.Task{Kind: hal.TaskNotifyWait, Notify: n, Timeout: timeout}
}

// testNotifyOneShot submits two waits before any record: one record
// releases exactly one of them, a second record the other.
func testNotifyOneShot(e *env) {
	t := e.t
	q1, q2, qr := e.queue(), e.queue(), e.queue()
	n := e.notify(e.d)
	var ran1, ran2 atomic.Bool
	e.submit(q1, waitNotify(n, 0))
	e.submit(q1, hostTask(func() { ran1.Store(true) }))
	e.submit(q2, waitNotify(n, 0))
	e.submit(q2, hostTask(func() { ran2.Store(true) }))
	if !pendingAfterSettle(q1, 1) || q2.Completed() != 0 {
		t.Fatal("a notify wait passed before any record")
	}
	e.submit(qr, recordNotify(n))
	e.wait(qr)
	released := func() int {
		c := 0
		if q1.Completed() == 2 {
			c++
		}
		if q2.Completed() == 2 {
			c++
		}
		return c
	}
	if !e.until(func() bool { return released() >= 1 }) {
		t.Fatal("a record released no wait")
	}
	time.Sleep(settle)
	if c := released(); c != 1 {
		t.Fatalf("one record released %d waits, want 1", c)
	}
	e.submit(qr, recordNotify(n))
	e.wait(q1)
	e.wait(q2)
	if !ran1.Load() || !ran2.Load() {
		t.Error("two records did not release both waits")
	}
}

// testNotifyRecordFirst checks that a record before the wait is kept for
// it, and consumed by it.
func testNotifyRecordFirst(e *env) {
	t := e.t
	q1, q2 := e.queue(), e.queue()
	n := e.notify(e.d)
	e.submit(q1, recordNotify(n))
	e.wait(q1)
	e.submit(q2, waitNotify(n, 0))
	e.wait(q2)
	seq := e.submit(q2, waitNotify(n, 0))
	if !pendingAfterSettle(q2, seq) {
		t.Fatal("a second wait passed on a record the first wait consumed")
	}
	e.submit(q1, recordNotify(n))
	e.wait(q2)
}

func testNotifyTimeout(e *env) {
	t := e.t
	q := e.queue()
	n := e.notify(e.d)
	const timeout = 30 * time.Millisecond
	start := time.Now()
	seq := e.submit(q, waitNotify(n, timeout))
	var ran atomic.Bool
	e.submit(q, hostTask(func() { ran.Store(true) }))
	if err := waitSeq(q, q.Submitted(), patience); err != nil {
		t.Fatalf("Wait after a notify wait timed out: %v", err)
	}
	if d := time.Since(start); d < timeout {
		t.Errorf("a notify wait with a %v timeout ended after %v", timeout, d)
	}
	if !ran.Load() {
		t.Error("the task after a timed-out notify wait did not run")
	}
	fs := q.TakeFaults(q.Submitted())
	if len(fs) != 1 || fs[0].Kind != hal.KindWaitTimeout || fs[0].Seq != seq || fs[0].Task != hal.TaskNotifyWait || fs[0].Queue != q.ID() {
		t.Errorf("faults %+v, want one %s at seq %d", fs, hal.KindWaitTimeout, seq)
	}
	e.waitHandled(1)
}

// testNotifyTimeoutStart checks that a wait's timeout counts from when the
// wait starts waiting, as on hardware: a wait queued behind work that takes
// longer than its timeout still waits its full timeout.
func testNotifyTimeoutStart(e *env) {
	t := e.t
	q, qr := e.queue(), e.queue()
	n := e.notify(e.d)
	const timeout = 150 * time.Millisecond
	g := e.gate()
	seqHead := e.submit(q, e.blocker(g))
	e.submit(q, waitNotify(n, timeout))
	var ran atomic.Bool
	e.submit(q, hostTask(func() { ran.Store(true) }))
	// The record comes just after the wait reaches the head of q.
	e.submit(qr, hostTask(func() { e.until(func() bool { return q.Completed() >= seqHead }) }))
	e.submit(qr, recordNotify(n))
	time.Sleep(timeout + 50*time.Millisecond)
	g.open()
	if err := waitSeq(q, q.Submitted(), patience); err != nil {
		t.Fatal(err)
	}
	if fs := q.TakeFaults(q.Submitted()); fs != nil {
		t.Errorf("a notify wait timed out counting from its submission, not from when it started waiting: %+v", fs)
	}
	if !ran.Load() {
		t.Error("the task after the wait did not run")
	}
	e.wait(qr)
}

func testNotifyCrossDevice(e *env) {
	if e.b.DeviceCount() < 2 {
		e.t.Skip("backend has one device")
	}
	t := e.t
	d1 := e.device(1)
	q0 := e.queue()
	q1 := e.queueOn(d1, hal.QueueConfig{Priority: d1.Props().GreatestPriority})
	for _, owner := range []hal.Device{d1, e.d} {
		n := e.notify(owner)
		var ran atomic.Bool
		e.submit(q1, waitNotify(n, 0))
		seq := e.submit(q1, hostTask(func() { ran.Store(true) }))
		if !pendingAfterSettle(q1, seq-1) {
			t.Fatal("a notify wait on device 1 passed before any record")
		}
		e.submit(q0, recordNotify(n))
		e.wait(q0)
		e.wait(q1)
		if !ran.Load() {
			t.Errorf("a record on device 0 did not release a wait on device 1 (notify of device %d)", owner.ID())
		}
	}
}

func testNotifyLimit(e *env) {
	t := e.t
	limit := e.props.NotifyLimit
	if limit > 1<<17 {
		t.Skipf("notify limit %d is too large to exhaust in a test", limit)
	}
	ns := make([]hal.Notify, 0, limit)
	defer func() {
		for _, n := range ns {
			_ = n.Close()
		}
	}()
	ids := map[uint32]bool{}
	for range limit {
		n, err := e.d.NewNotify()
		if err != nil {
			t.Fatalf("NewNotify #%d of %d: %v", len(ns)+1, limit, err)
		}
		if ids[n.ID()] {
			t.Fatalf("notify id %d handed out twice", n.ID())
		}
		ids[n.ID()] = true
		ns = append(ns, n)
	}
	_, err := e.d.NewNotify()
	wantKind(t, err, hal.KindNoNotify, "NewNotify past NotifyLimit")
	if err := ns[0].Close(); err != nil {
		t.Fatal(err)
	}
	if err := ns[0].Close(); err == nil {
		t.Error("second Close of a notify succeeded")
	}
	n, err := e.d.NewNotify()
	if err != nil {
		t.Fatalf("NewNotify after closing one at the limit: %v", err)
	}
	ns[0] = n
}
