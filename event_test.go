package gocann_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocann/gocann"
	"github.com/gocann/gocann/hal"
)

func TestEventFlags(t *testing.T) {
	e := setup(t)
	for _, tc := range []struct {
		name  string
		new   func(gocann.EventFlags) (*gocann.Event, error)
		flags gocann.EventFlags
	}{
		{"NewEvent", e.c.NewEvent, 0},
		{"NewEvent", e.c.NewEvent, gocann.EventSync | gocann.EventTimeLine},
		{"NewEvent", e.c.NewEvent, gocann.EventSync | gocann.EventCaptureProgress},
		{"NewEventWithFlag", e.c.NewEventWithFlag, gocann.EventTimeLine},
		{"NewEventWithFlag", e.c.NewEventWithFlag, gocann.EventDeviceOnly | gocann.EventSync},
	} {
		ev, err := tc.new(tc.flags)
		if err != nil {
			t.Errorf("%s(%#x): %v", tc.name, tc.flags, err)
			continue
		}
		if ev.Flags() != tc.flags {
			t.Errorf("%s(%#x).Flags() = %#x", tc.name, tc.flags, ev.Flags())
		}
	}
	ev, err := e.c.NewDefaultEvent()
	check(t, err)
	if ev.Flags() != gocann.EventSync|gocann.EventTimeLine {
		t.Errorf("NewDefaultEvent().Flags() = %#x, want SYNC|TIME_LINE", ev.Flags())
	}

	const external, ipc = gocann.EventFlags(0x20), gocann.EventFlags(0x40)
	for _, tc := range []struct {
		name string
		new  func(gocann.EventFlags) (*gocann.Event, error)
		f    gocann.EventFlags
		code gocann.Code
		subs []string
	}{
		{"NewEvent", e.c.NewEvent, external, gocann.CodeRTParamInvalid, []string{"ACL_EVENT_EXTERNAL", "aclrtCreateEventWithFlag"}},
		{"NewEventWithFlag", e.c.NewEventWithFlag, ipc, gocann.CodeRTParamInvalid, []string{"ACL_EVENT_IPC", "aclrtCreateEventExWithFlag"}},
		// "Cannot be OR-ed with other flags."
		{"NewEventWithFlag", e.c.NewEventWithFlag, external | gocann.EventSync, gocann.CodeRTParamInvalid, []string{"0x21", "cannot be combined"}},
		{"NewEvent", e.c.NewEvent, ipc | gocann.EventTimeLine, gocann.CodeRTParamInvalid, []string{"0x48", "cannot be combined"}},
		{"NewEvent", e.c.NewEvent, gocann.EventDeviceOnly, gocann.CodeRTParamInvalid, []string{"ACL_EVENT_DEVICE_USE_ONLY", "aclrtCreateEventWithFlag"}},
		{"NewEvent", e.c.NewEvent, 0x80, gocann.CodeRTParamInvalid, []string{"event flag 0x80 is invalid"}},
		{"NewEventWithFlag", e.c.NewEventWithFlag, 0x104, gocann.CodeRTParamInvalid, []string{"event flag 0x104 is invalid"}},
	} {
		_, err := tc.new(tc.f)
		wantErr(t, err, tc.code, tc.subs...)
	}
}

func TestEventRecordWaitOrdersStreams(t *testing.T) {
	// aclrtStreamWaitEvent: "all later tasks on stream wait for the event's
	// captured tasks".
	e := setup(t)
	s2 := e.newStream(t)
	ev, err := e.c.NewEvent(gocann.EventSync)
	check(t, err)
	w := malloc(t, e.c, 16)
	g := block(t, e.s)
	check(t, e.s.WriteValue(w, 5))
	check(t, e.s.Record(ev))
	check(t, s2.WaitEvent(ev))
	add, err := e.r.RegisterKernel("add10", func(b *gocann.Block) {
		b.Store64(b.Arg(0).Ptr().Add(8), b.Load64(b.Arg(0).Ptr())+10)
	})
	check(t, err)
	check(t, s2.Launch(add, 1, gocann.Ptr(w)))
	stays(t, 20*time.Millisecond, "waiting stream held", func() bool { return !isDone(t, s2) })
	g.Open()
	syncOK(t, s2)
	if v := readU64(t, e.c, w.Add(8)); v != 15 {
		t.Fatalf("kernel after the wait computed %d, want 15 (it ran before the recorded write)", v)
	}
}

func TestEventReleasesManyWaiters(t *testing.T) {
	// "Event Wait does not reset, so one Record can release many Waits."
	e := setup(t)
	ev, err := e.c.NewEvent(gocann.EventSync)
	check(t, err)
	g := block(t, e.s)
	check(t, e.s.Record(ev))
	var ran atomic.Int32
	waiters := make([]*gocann.Stream, 3)
	for i := range waiters {
		waiters[i] = e.newStream(t)
		check(t, waiters[i].WaitEvent(ev))
		check(t, waiters[i].LaunchHostFunc(func() { ran.Add(1) }))
	}
	stays(t, 20*time.Millisecond, "waiters held", func() bool { return ran.Load() == 0 })
	g.Open()
	for _, s := range waiters {
		syncOK(t, s)
	}
	if ran.Load() != 3 {
		t.Fatalf("%d of 3 waiting streams ran after one record", ran.Load())
	}
}

func TestWaitNeverRecordedEvent(t *testing.T) {
	// A wait on an event that was never recorded has nothing to wait for.
	e := setup(t)
	for _, mk := range []func() (*gocann.Event, error){
		func() (*gocann.Event, error) { return e.c.NewEvent(gocann.EventSync) },
		func() (*gocann.Event, error) { return e.c.NewEventWithFlag(gocann.EventSync) },
		e.c.NewDefaultEvent,
	} {
		ev, err := mk()
		check(t, err)
		check(t, e.s.WaitEvent(ev))
		check(t, e.s.LaunchHostFunc(func() {}))
		syncOK(t, e.s)
	}
}

func TestEventRerecord(t *testing.T) {
	// aclrtCreateEventExWithFlag: "aclrtStreamWaitEvent uses the most recent
	// record at wait time and is not affected by later records".
	e := setup(t)
	ev, err := e.c.NewEvent(gocann.EventSync)
	check(t, err)

	// A record completed, then a record queued behind a blocked task: a wait
	// queued now waits for the second.
	check(t, e.s.Record(ev))
	syncOK(t, e.s)
	g := block(t, e.s)
	check(t, e.s.Record(ev))
	s2 := e.newStream(t)
	check(t, s2.WaitEvent(ev))
	check(t, s2.LaunchHostFunc(func() {}))
	stays(t, 20*time.Millisecond, "wait on the latest record held", func() bool { return !isDone(t, s2) })
	g.Open()
	syncOK(t, s2)
}

func TestEventWaitIgnoresLaterRecord(t *testing.T) {
	// A wait queued before a re-record keeps waiting for the record it saw,
	// even when the later one, on another stream, completes first.
	e := setup(t)
	ev, err := e.c.NewEvent(gocann.EventSync)
	check(t, err)
	g := block(t, e.s)
	check(t, e.s.Record(ev))
	s3 := e.newStream(t)
	check(t, s3.WaitEvent(ev))
	check(t, s3.LaunchHostFunc(func() {}))
	s4 := e.newStream(t)
	check(t, s4.Record(ev))
	syncOK(t, s4)
	if done, err := ev.Query(); err != nil || !done {
		t.Fatalf("Query after the latest record completed = %v, %v; want done", done, err)
	}
	stays(t, 20*time.Millisecond, "wait on the earlier record held by its stream", func() bool { return !isDone(t, s3) })
	g.Open()
	syncOK(t, s3)
}

func TestEventQuery(t *testing.T) {
	// aclrtQueryEventStatus: "Before the first record, [an ExWithFlag event]
	// returns COMPLETE"; other events are NOT_READY until recorded.
	e := setup(t)
	ex, err := e.c.NewEvent(gocann.EventSync)
	check(t, err)
	wf, err := e.c.NewEventWithFlag(gocann.EventSync)
	check(t, err)
	def, err := e.c.NewDefaultEvent()
	check(t, err)
	for _, tc := range []struct {
		name string
		ev   *gocann.Event
		want bool
	}{{"NewEvent", ex, true}, {"NewEventWithFlag", wf, false}, {"NewDefaultEvent", def, false}} {
		if done, err := tc.ev.Query(); err != nil || done != tc.want {
			t.Errorf("%s never recorded: Query = %v, %v; want %v", tc.name, done, err, tc.want)
		}
	}
	g := block(t, e.s)
	for _, ev := range []*gocann.Event{ex, wf, def} {
		check(t, e.s.Record(ev))
		if done, err := ev.Query(); err != nil || done {
			t.Errorf("Query of a record behind a blocked task = %v, %v; want not done", done, err)
		}
	}
	g.Open()
	for _, ev := range []*gocann.Event{ex, wf, def} {
		eventually(t, "event done", func() bool { done, err := ev.Query(); check(t, err); return done })
	}
	// A device-only event cannot be queried from the host.
	dev, err := e.c.NewEventWithFlag(gocann.EventDeviceOnly | gocann.EventSync)
	check(t, err)
	_, err = dev.Query()
	wantErr(t, err, gocann.CodeRTParamInvalid, "ACL_EVENT_DEVICE_USE_ONLY")
	wantErr(t, dev.SynchronizeTimeout(long), gocann.CodeRTParamInvalid, "ACL_EVENT_DEVICE_USE_ONLY")
}

func TestEventSynchronize(t *testing.T) {
	e := setup(t)
	ev, err := e.c.NewEvent(gocann.EventSync)
	check(t, err)
	check(t, ev.SynchronizeTimeout(long)) // never recorded: returns at once
	g := block(t, e.s)
	var before atomic.Bool
	check(t, e.s.LaunchHostFunc(func() { before.Store(true) }))
	check(t, e.s.Record(ev))
	after := block(t, e.s) // after the record: not waited for

	start := time.Now()
	err = ev.SynchronizeTimeout(30 * time.Millisecond)
	wantErr(t, err, gocann.CodeRTEventSyncTimeout, "event")
	if !errors.Is(err, gocann.ErrTimeout) || time.Since(start) < 30*time.Millisecond {
		t.Errorf("SynchronizeTimeout(30ms) = %v after %v", err, time.Since(start))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	err = ev.Synchronize(ctx)
	wantErr(t, err, gocann.CodeRTEventSyncTimeout, "not done within")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Synchronize(expired ctx) = %v, want DeadlineExceeded", err)
	}
	g.Open()
	check(t, ev.SynchronizeTimeout(long))
	if !before.Load() {
		t.Fatal("event synchronize returned before a task recorded before it")
	}
	after.Open()
}

func TestEventElapsed(t *testing.T) {
	// aclrtEventElapsedTime between two ACL_EVENT_TIME_LINE events recorded
	// on one stream.
	e := setup(t)
	start, err := e.c.NewEvent(gocann.EventTimeLine)
	check(t, err)
	end, err := e.c.NewEvent(gocann.EventTimeLine)
	check(t, err)
	const nap = 30 * time.Millisecond
	check(t, e.s.Record(start))
	check(t, e.s.LaunchHostFunc(func() { time.Sleep(nap) }))
	check(t, e.s.Record(end))
	syncOK(t, e.s)
	d, err := gocann.Elapsed(start, end)
	check(t, err)
	if d < nap || d > long {
		t.Fatalf("Elapsed = %v around a %v host function", d, nap)
	}
	_, err = gocann.Elapsed(end, start)
	wantErr(t, err, gocann.CodeRTEventTimestampReversal, "before the start event")

	// Without ACL_EVENT_TIME_LINE there is no timestamp.
	plain, err := e.c.NewEvent(gocann.EventSync)
	check(t, err)
	check(t, e.s.Record(plain))
	syncOK(t, e.s)
	_, err = gocann.Elapsed(start, plain)
	wantErr(t, err, gocann.CodeRTEventTimestampInvalid, "end event", "ACL_EVENT_TIME_LINE")
	// Never recorded.
	fresh, err := e.c.NewEvent(gocann.EventTimeLine)
	check(t, err)
	_, err = gocann.Elapsed(fresh, end)
	wantErr(t, err, gocann.CodeRTEventTimestampInvalid, "start event", "never recorded")
	// Recorded but not reached yet.
	g := block(t, e.s)
	check(t, e.s.Record(end))
	_, err = gocann.Elapsed(start, end)
	wantErr(t, err, gocann.CodeRTEventNotComplete, "end event", "has not run yet")
	g.Open()
	syncOK(t, e.s)
	_, err = gocann.Elapsed(nil, end)
	wantErr(t, err, gocann.CodeInvalidParam, "event is nil")
}

func TestEventTimestampFromScheduler(t *testing.T) {
	// "Event timestamps and the trace read from" the scheduler's clock: a
	// record's timestamp lies between the end of the task before it and the
	// start of the task after it.
	e := setup(t)
	ev, err := e.c.NewEvent(gocann.EventTimeLine)
	check(t, err)
	nap := func() { time.Sleep(5 * time.Millisecond) }
	check(t, e.s.LaunchHostFunc(nap))
	check(t, e.s.Record(ev))
	check(t, e.s.LaunchHostFunc(nap))
	syncOK(t, e.s)
	ts, err := ev.Timestamp()
	check(t, err)
	hf := records(t, e.d, e.s, hal.TaskHostFunc)
	rec := records(t, e.d, e.s, hal.TaskEventRecord)
	if len(hf) != 2 || len(rec) != 1 {
		t.Fatalf("trace: %d host function and %d record entries, want 2 and 1", len(hf), len(rec))
	}
	if int64(ts) < hf[0].End || int64(ts) > hf[1].Start {
		t.Fatalf("timestamp %d not between the previous task's end %d and the next task's start %d", ts, hf[0].End, hf[1].Start)
	}
	if rec[0].End != int64(ts) || rec[0].Engine != hal.EngineScheduler {
		t.Errorf("record trace entry %+v, timestamp %d", rec[0], ts)
	}
	now, err := e.d.Now()
	check(t, err)
	if int64(ts) > now {
		t.Errorf("timestamp %d is in the device clock's future (now %d)", ts, now)
	}
	// A never-recorded event has no timestamp.
	fresh, err := e.c.NewEvent(gocann.EventTimeLine)
	check(t, err)
	_, err = fresh.Timestamp()
	wantErr(t, err, gocann.CodeRTEventTimestampInvalid, "never recorded")
}

func TestResetEvent(t *testing.T) {
	// aclrtResetEvent is "only for events from aclrtCreateEventWithFlag with
	// ACL_EVENT_SYNC" and returns the event to its initial state.
	e := setup(t)
	ev, err := e.c.NewEventWithFlag(gocann.EventSync)
	check(t, err)
	check(t, e.s.Record(ev))
	syncOK(t, e.s)
	if done, _ := ev.Query(); !done {
		t.Fatal("recorded event not done")
	}
	check(t, e.s.ResetEvent(ev))
	syncOK(t, e.s)
	if done, err := ev.Query(); err != nil || done {
		t.Fatalf("Query after ResetEvent = %v, %v; want not done, as never recorded", done, err)
	}
	// A wait queued after the reset does not wait for the old record.
	s2 := e.newStream(t)
	check(t, s2.WaitEvent(ev))
	syncOK(t, s2)

	ex, err := e.c.NewEvent(gocann.EventSync)
	check(t, err)
	def, err := e.c.NewDefaultEvent()
	check(t, err)
	timeline, err := e.c.NewEventWithFlag(gocann.EventTimeLine)
	check(t, err)
	for _, bad := range []*gocann.Event{ex, timeline} {
		wantErr(t, e.s.ResetEvent(bad), gocann.CodeRTParamInvalid, "aclrtCreateEventWithFlag with ACL_EVENT_SYNC")
	}
	check(t, e.s.ResetEvent(def)) // CANN's runtime resets aclrtCreateEvent events too (eventreset_test.go)
	wantErr(t, e.s.ResetEvent(nil), gocann.CodeInvalidParam, "event is nil")
}

func TestEventQueryWait(t *testing.T) {
	// aclrtQueryEventWaitStatus: whether the stream wait on the event is
	// done; "not for ExWithFlag events".
	e := setup(t)
	ev, err := e.c.NewEventWithFlag(gocann.EventSync)
	check(t, err)
	if done, err := ev.QueryWait(); err != nil || !done {
		t.Errorf("QueryWait with no wait = %v, %v; want done", done, err)
	}
	g := block(t, e.s)
	check(t, e.s.Record(ev))
	s2 := e.newStream(t)
	check(t, s2.WaitEvent(ev))
	if done, err := ev.QueryWait(); err != nil || done {
		t.Errorf("QueryWait while the record is held = %v, %v; want not done", done, err)
	}
	g.Open()
	syncOK(t, s2)
	if done, err := ev.QueryWait(); err != nil || !done {
		t.Errorf("QueryWait after the wait = %v, %v; want done", done, err)
	}
	ex, err := e.c.NewEvent(gocann.EventSync)
	check(t, err)
	_, err = ex.QueryWait()
	wantErr(t, err, gocann.CodeRTParamInvalid, "aclrtCreateEventExWithFlag")
}

func TestEventCloseWhileQueued(t *testing.T) {
	// "aclrtDestroyEvent may be called before the event completes; does not
	// block; resources are released when the event completes."
	e := setup(t)
	s2 := e.newStream(t)
	ev, err := e.c.NewEvent(gocann.EventSync)
	check(t, err)
	g := block(t, e.s)
	check(t, e.s.Record(ev))
	check(t, s2.WaitEvent(ev))
	var after atomic.Bool
	check(t, s2.LaunchHostFunc(func() { after.Store(true) }))
	check(t, ev.Close())
	time.Sleep(10 * time.Millisecond)
	if after.Load() {
		t.Fatal("closing the event released its waiter early")
	}
	g.Open()
	syncOK(t, e.s)
	syncOK(t, s2)
	if !after.Load() {
		t.Fatal("the wait on a closed event never completed")
	}
	wantErr(t, ev.Close(), gocann.CodeRTInvalidHandle, "already destroyed")
	wantErr(t, e.s.Record(ev), gocann.CodeRTInvalidHandle, "destroyed")
	wantErr(t, s2.WaitEvent(ev), gocann.CodeRTInvalidHandle, "destroyed")
	_, err = ev.Query()
	wantErr(t, err, gocann.CodeRTInvalidHandle, "destroyed")
}

func TestEventChecks(t *testing.T) {
	e := setup(t)
	// A stream wait needs ACL_EVENT_SYNC.
	tl, err := e.c.NewEventWithFlag(gocann.EventTimeLine)
	check(t, err)
	wantErr(t, e.s.WaitEvent(tl), gocann.CodeRTParamInvalid, "lack ACL_EVENT_SYNC")
	wantErr(t, e.s.Record(nil), gocann.CodeInvalidParam, "event is nil")
	wantErr(t, e.s.WaitEvent(nil), gocann.CodeInvalidParam, "event is nil")
	// "Event and stream on different devices → fails."
	d1, err := e.r.SetDevice(1)
	check(t, err)
	c1, err := d1.Context()
	check(t, err)
	ev1, err := c1.NewEvent(gocann.EventSync)
	check(t, err)
	wantErr(t, e.s.Record(ev1), gocann.CodeRTParamInvalid, "event of device 1", "device 0")
	wantErr(t, e.s.WaitEvent(ev1), gocann.CodeRTParamInvalid, "event of device 1", "device 0")
	// Events of another context on the same device are fine.
	c2, err := e.d.NewContext()
	check(t, err)
	defer c2.Close()
	ev2, err := c2.NewEvent(gocann.EventSync)
	check(t, err)
	check(t, e.s.Record(ev2))
	syncOK(t, e.s)
}

func TestEventPool(t *testing.T) {
	// The per-device event limit counts aclrtCreateEvent events and
	// aclrtCreateEventWithFlag events with ACL_EVENT_SYNC.
	e := setup(t, `{"simulator":{"hbm_size":1073741824,"event_limit":2}}`)
	a, err := e.c.NewDefaultEvent()
	check(t, err)
	_, err = e.c.NewEventWithFlag(gocann.EventSync)
	check(t, err)
	_, err = e.c.NewDefaultEvent()
	wantErr(t, err, gocann.CodeRTNoEventResource, "all 2 events")
	if !errors.Is(err, gocann.ErrNoResource) {
		t.Errorf("errors.Is(%v, ErrNoResource) = false", err)
	}
	_, err = e.c.NewEventWithFlag(gocann.EventSync | gocann.EventTimeLine)
	wantErr(t, err, gocann.CodeRTNoEventResource, "all 2 events")
	// Not counted: without ACL_EVENT_SYNC, and aclrtCreateEventExWithFlag events.
	_, err = e.c.NewEventWithFlag(gocann.EventTimeLine)
	check(t, err)
	_, err = e.c.NewEvent(gocann.EventSync)
	check(t, err)
	check(t, a.Close())
	_, err = e.c.NewDefaultEvent()
	check(t, err)
}
