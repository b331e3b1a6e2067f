package haltest

import (
	"slices"
	"sync/atomic"
	"time"

	"github.com/gocann/gocann/hal"
)

func (e *env) event() hal.Event {
	e.t.Helper()
	ev, err := e.d.NewEvent(hal.EventConfig{Counted: true})
	if err != nil {
		e.t.Fatalf("NewEvent: %v", err)
	}
	e.t.Cleanup(func() { _ = ev.Close() })
	return ev
}

func record(ev hal.Event) hal.Task    { return hal.Task{Kind: hal.TaskEventRecord, Event: ev} }
func waitEvent(ev hal.Event) hal.Task { return hal.Task{Kind: hal.TaskEventWait, Event: ev} }

func testEventOrders(e *env) {
	t := e.t
	q1, q2 := e.queue(), e.queue()
	ev := e.event()
	g := e.gate()
	var o order
	e.submit(q1, e.blocker(g))
	e.submit(q1, o.task("before record"))
	e.submit(q1, record(ev))
	e.submit(q2, waitEvent(ev))
	seq := e.submit(q2, o.task("after wait"))
	if !pendingAfterSettle(q2, 1) {
		t.Fatal("a wait passed an event whose record had not run")
	}
	g.open()
	if err := waitSeq(q2, seq, patience); err != nil {
		t.Fatal(err)
	}
	e.wait(q1)
	if got, want := o.get(), []string{"before record", "after wait"}; !slices.Equal(got, want) {
		t.Errorf("ran %v, want %v", got, want)
	}
}

func testEventNeverRecorded(e *env) {
	q := e.queue()
	ev := e.event()
	var ran atomic.Bool
	e.submit(q, waitEvent(ev))
	e.submit(q, hostTask(func() { ran.Store(true) }))
	e.wait(q)
	if !ran.Load() {
		e.t.Error("the task after a wait on a never-recorded event did not run")
	}
}

func testEventTwoWaits(e *env) {
	t := e.t
	q1, q2, q3 := e.queue(), e.queue(), e.queue()
	ev := e.event()
	g := e.gate()
	e.submit(q1, e.blocker(g))
	e.submit(q1, record(ev))
	var ran2, ran3 atomic.Bool
	e.submit(q2, waitEvent(ev))
	e.submit(q2, hostTask(func() { ran2.Store(true) }))
	e.submit(q3, waitEvent(ev))
	e.submit(q3, hostTask(func() { ran3.Store(true) }))
	if !pendingAfterSettle(q2, 1) || q3.Completed() != 0 {
		t.Fatal("a wait passed an event whose record had not run")
	}
	g.open()
	e.wait(q2)
	e.wait(q3)
	if !ran2.Load() || !ran3.Load() {
		t.Error("one record did not release both waits")
	}
}

// testEventReset checks that waits submitted after a reset do not wait for
// records before it, and do wait for records after it.
func testEventReset(e *env) {
	t := e.t
	q1, q2, q3 := e.queue(), e.queue(), e.queue()
	ev := e.event()
	g1, g2 := e.gate(), e.gate()
	e.submit(q1, e.blocker(g1))
	e.submit(q1, record(ev)) // held back until g1 opens
	e.submit(q2, hal.Task{Kind: hal.TaskEventReset, Event: ev})
	e.wait(q2)
	var ran atomic.Int64
	e.submit(q3, waitEvent(ev))
	e.submit(q3, hostTask(func() { ran.Add(1) }))
	if err := waitSeq(q3, q3.Submitted(), patience); err != nil {
		t.Fatalf("a wait after a reset waited for a record before it: %v", err)
	}
	// A record after the reset is waited for again.
	e.submit(q2, e.blocker(g2))
	e.submit(q2, record(ev))
	e.submit(q3, waitEvent(ev))
	seq := e.submit(q3, hostTask(func() { ran.Add(1) }))
	if !pendingAfterSettle(q3, seq-1) {
		t.Fatal("a wait passed a record submitted after the reset that had not run")
	}
	g2.open()
	e.wait(q3)
	g1.open()
	e.wait(q1)
	e.wait(q2)
	if ran.Load() != 2 {
		t.Errorf("%d tasks after waits ran, want 2", ran.Load())
	}
}

// testEventTimestamp checks that an event has a timestamp only once a
// record completed, and that it lies between the end of the task before the
// record and the start of the task after it.
func testEventTimestamp(e *env) {
	t := e.t
	q := e.queue()
	ev := e.event()
	if _, ok := ev.Timestamp(); ok {
		t.Error("a new event has a timestamp")
	}
	g := e.gate()
	var tBefore, tAfter atomic.Int64
	e.submit(q, e.blocker(g))
	seqA := e.submit(q, hostTask(func() { time.Sleep(time.Millisecond); tBefore.Store(e.d.Now()) }))
	e.submit(q, record(ev))
	seqB := e.submit(q, hostTask(func() { tAfter.Store(e.d.Now()) }))
	time.Sleep(settle)
	if _, ok := ev.Timestamp(); ok {
		t.Error("an event whose record has not run has a timestamp")
	}
	g.open()
	e.wait(q)
	ts, ok := ev.Timestamp()
	if !ok {
		t.Fatal("no timestamp after the record completed")
	}
	if ts < tBefore.Load() || ts > tAfter.Load() {
		t.Errorf("timestamp %d outside [%d, %d], the device time at the end of the task before the record and the start of the one after",
			ts, tBefore.Load(), tAfter.Load())
	}
	if tr, ok := e.d.(hal.Tracer); ok {
		var a, b *hal.Record
		recs := tr.Trace(nil)
		for i := range recs {
			if r := &recs[i]; r.Queue == q.ID() {
				switch r.Seq {
				case seqA:
					a = r
				case seqB:
					b = r
				}
			}
		}
		if a == nil || b == nil {
			t.Fatal("the trace lacks the tasks around the record")
		}
		if ts < a.End || ts > b.Start {
			t.Errorf("timestamp %d outside [%d, %d], the traced end of the task before the record and start of the one after", ts, a.End, b.Start)
		}
	}
	// A later record moves the timestamp on.
	time.Sleep(time.Millisecond)
	e.submit(q, record(ev))
	e.wait(q)
	if ts2, ok := ev.Timestamp(); !ok || ts2 <= ts {
		t.Errorf("timestamp after a second record is %d, %v; want later than %d", ts2, ok, ts)
	}
}

// testEventClose checks that closing an event leaves queued work using it
// working.
func testEventClose(e *env) {
	t := e.t
	q1, q2 := e.queue(), e.queue()
	ev, err := e.d.NewEvent(hal.EventConfig{Counted: true})
	if err != nil {
		t.Fatal(err)
	}
	g := e.gate()
	e.submit(q1, e.blocker(g))
	e.submit(q1, record(ev))
	e.submit(q2, waitEvent(ev))
	var ran atomic.Bool
	e.submit(q2, hostTask(func() { ran.Store(true) }))
	if err := ev.Close(); err != nil {
		t.Fatal(err)
	}
	if !pendingAfterSettle(q2, 1) {
		t.Fatal("closing an event released a wait on it")
	}
	g.open()
	e.wait(q1)
	e.wait(q2)
	if !ran.Load() {
		t.Error("the task after the wait did not run")
	}
	if err := ev.Close(); err == nil {
		t.Error("second Close of an event succeeded")
	}
}

// testEventLimit exhausts the counted events; uncounted ones stay available.
func testEventLimit(e *env) {
	t := e.t
	limit := e.props.EventLimit
	if limit > 1<<17 {
		t.Skipf("event limit %d is too large to exhaust in a test", limit)
	}
	evs := make([]hal.Event, 0, limit)
	defer func() {
		for _, ev := range evs {
			_ = ev.Close()
		}
	}()
	for range limit {
		ev, err := e.d.NewEvent(hal.EventConfig{Counted: true})
		if err != nil {
			t.Fatalf("NewEvent #%d of %d: %v", len(evs)+1, limit, err)
		}
		evs = append(evs, ev)
	}
	_, err := e.d.NewEvent(hal.EventConfig{Counted: true})
	wantKind(t, err, hal.KindNoEvent, "NewEvent past EventLimit")
	free, err := e.d.NewEvent(hal.EventConfig{})
	if err != nil {
		t.Fatalf("uncounted NewEvent at the limit: %v", err)
	}
	evs = append(evs, free)
	if err := evs[0].Close(); err != nil {
		t.Fatal(err)
	}
	ev, err := e.d.NewEvent(hal.EventConfig{Counted: true})
	if err != nil {
		t.Fatalf("NewEvent after closing one at the limit: %v", err)
	}
	evs[0] = ev
}

// testEventLaterRecord checks that a wait waits for the record that was the
// latest when the wait was submitted, even if a later record of the event
// on another queue completes first.
func testEventLaterRecord(e *env) {
	t := e.t
	q1, q2, q3 := e.queue(), e.queue(), e.queue()
	ev := e.event()
	g := e.gate()
	e.submit(q1, e.blocker(g))
	e.submit(q1, record(ev)) // held back until g opens
	e.submit(q3, waitEvent(ev))
	var ran atomic.Bool
	e.submit(q3, hostTask(func() { ran.Store(true) }))
	e.submit(q2, record(ev))
	e.wait(q2)
	if !pendingAfterSettle(q3, 1) || ran.Load() {
		t.Fatal("a later record released a wait for an earlier record that had not run")
	}
	g.open()
	e.wait(q3)
	e.wait(q1)
	if !ran.Load() {
		t.Error("the task after the wait did not run")
	}
}
