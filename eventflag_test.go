package gocann_test

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocann/gocann"
)

func TestEventWithFlagRefusals(t *testing.T) {
	e := setup(t)
	ex, err := e.c.NewEvent(gocann.EventSync)
	check(t, err)
	// The flag values are checked first, by the ACL layer (ACL_ERROR_INVALID_PARAM).
	wantErr(t, e.s.RecordWithFlag(ex, 2), gocann.CodeInvalidParam, "flag 2 is invalid", "ACL_EVENT_RECORD_EXTERNAL (1)")
	wantErr(t, e.s.WaitEventWithFlag(ex, 0, 7), gocann.CodeInvalidParam, "flag 7 is invalid", "ACL_EVENT_WAIT_EXTERNAL (1)")
	wantErr(t, e.s.WaitEventWithFlag(ex, time.Second, gocann.WaitExternal), gocann.CodeInvalidParam, "timeout 1s is invalid with ACL_EVENT_WAIT_EXTERNAL")
	wantErr(t, e.s.RecordWithFlag(nil, gocann.RecordDefault), gocann.CodeInvalidParam, "event is nil")
	// EXTERNAL takes only aclrtCreateEventExWithFlag(ACL_EVENT_SYNC) events.
	plain, err := e.c.NewDefaultEvent()
	check(t, err)
	timed, err := e.c.NewEvent(gocann.EventSync | gocann.EventTimeLine)
	check(t, err)
	for _, bad := range []*gocann.Event{plain, timed} {
		wantErr(t, e.s.RecordWithFlag(bad, gocann.RecordExternal), gocann.CodeRTFeatureNotSupport, "ACL_EVENT_RECORD_EXTERNAL needs an event from aclrtCreateEventExWithFlag with ACL_EVENT_SYNC alone")
		wantErr(t, e.s.WaitEventWithFlag(bad, 0, gocann.WaitExternal), gocann.CodeRTFeatureNotSupport, "ACL_EVENT_WAIT_EXTERNAL needs")
	}
	// Outside a capture an EXTERNAL operation has nothing to cross.
	wantErr(t, e.s.RecordWithFlag(ex, gocann.RecordExternal), gocann.CodeRTStreamNotCaptured, "needs a capturing stream")
	// That refused record still bound the event's record flag, as CANN's
	// runtime binds it at the call's entry.
	wantErr(t, e.s.Record(ex), gocann.CodeRTParamInvalid, "took flag ACL_EVENT_RECORD_EXTERNAL first", "ACL_EVENT_RECORD_DEFAULT cannot change")
	wantErr(t, e.s.RecordWithFlag(ex, gocann.RecordDefault), gocann.CodeRTParamInvalid, "cannot change")
	// A default wait binds the wait flag the same way.
	other, err := e.c.NewEvent(gocann.EventSync)
	check(t, err)
	check(t, e.s.WaitEventWithFlag(other, 0, gocann.WaitDefault))
	wantErr(t, e.s.WaitEventWithFlag(other, 0, gocann.WaitExternal), gocann.CodeRTParamInvalid, "took flag ACL_EVENT_WAIT_DEFAULT first")
	// The default flags are the plain calls.
	check(t, e.s.RecordWithFlag(other, gocann.RecordDefault))
	check(t, e.newStream(t).WaitEventWithFlag(other, 5*time.Second, gocann.WaitDefault))
	syncOK(t, e.s)
}

func TestEventExternalAcrossModel(t *testing.T) {
	// A captured model waits, at each run, for an outside record (WAIT_EXTERNAL)
	// and records an event outside streams wait for (RECORD_EXTERNAL); a
	// wait queued after the run is queued waits for the run's record.
	e := setup(t)
	in, err := e.c.NewEvent(gocann.EventSync)
	check(t, err)
	out, err := e.c.NewEvent(gocann.EventSync)
	check(t, err)
	var inside, after atomic.Int32
	cs := e.newStream(t)
	m, err := cs.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		check(t, s.WaitEventWithFlag(in, 0, gocann.WaitExternal))
		check(t, s.LaunchHostFunc(func() { inside.Add(1) }))
		check(t, s.RecordWithFlag(out, gocann.RecordExternal))
		// One EXTERNAL operation per event and model.
		wantErr(t, s.RecordWithFlag(out, gocann.RecordExternal), gocann.CodeRTParamInvalid, "already has an ACL_EVENT_RECORD_EXTERNAL in this capture")
		third, err := e.c.NewEvent(gocann.EventSync)
		check(t, err)
		check(t, s.WaitEventWithFlag(third, 0, gocann.WaitExternal)) // never recorded: holds nothing
		wantErr(t, s.RecordWithFlag(third, gocann.RecordExternal), gocann.CodeRTParamInvalid, "cannot both record and wait")
		return nil
	})
	check(t, err)
	t.Cleanup(func() { m.Close() })

	gate := make(chan struct{})
	feeder, runner, consumer := e.newStream(t), e.newStream(t), e.newStream(t)
	check(t, feeder.LaunchHostFunc(func() { <-gate }))
	check(t, feeder.Record(in))
	check(t, m.Run(runner))
	check(t, consumer.WaitEvent(out))
	check(t, consumer.LaunchHostFunc(func() { after.Store(inside.Load()) }))
	stays(t, 30*time.Millisecond, "the model waits for the outside record", func() bool { return inside.Load() == 0 })
	if done, err := out.Query(); err != nil || done {
		t.Fatalf("out.Query() before the run = %v, %v; want not done: the run is its latest record", done, err)
	}
	close(gate)
	syncOK(t, consumer)
	if got := after.Load(); got != 1 {
		t.Fatalf("the consumer ran after %d model runs' host functions, want 1: it must wait for the model's record", got)
	}
	check(t, out.SynchronizeTimeout(long))

	// A second run waits for in's latest record again: recorded already.
	check(t, m.Run(runner))
	syncOK(t, runner)
	if inside.Load() != 2 {
		t.Fatalf("host function ran %d times in two runs", inside.Load())
	}
}

func TestEventExternalNotInBranch(t *testing.T) {
	e := setup(t, profileConfig("Ascend910B1"))
	ev, err := e.c.NewEvent(gocann.EventSync)
	check(t, err)
	branch := e.newStream(t)
	var refused error
	m, err := e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		h, err := s.Capturing().Model().NewCond(0, false)
		check(t, err)
		subs, err := s.AddCond(h, gocann.CondIf, 1)
		check(t, err)
		c, err := branch.BeginCaptureInto(subs[0], gocann.CaptureGlobal)
		check(t, err)
		refused = branch.RecordWithFlag(ev, gocann.RecordExternal)
		_, err = c.End()
		return err
	})
	check(t, err)
	m.Close()
	wantErr(t, refused, gocann.CodeRTFeatureNotSupport, "not supported in a conditional branch's capture")
}

func TestEventWithFlagProducts(t *testing.T) {
	// The Atlas 200I/500 A2 lacks both calls.
	e := setup(t, profileConfig("Ascend310B1"))
	ev, err := e.c.NewEvent(gocann.EventSync)
	check(t, err)
	wantErr(t, e.s.RecordWithFlag(ev, gocann.RecordDefault), gocann.CodeRTFeatureNotSupport, "aclrtRecordEventWithFlag", "Ascend310B1")
	wantErr(t, e.s.WaitEventWithFlag(ev, 0, gocann.WaitDefault), gocann.CodeRTFeatureNotSupport, "aclrtStreamWaitEventWithFlag")
}

func TestEventIDAndAvailable(t *testing.T) {
	e := setup(t)
	before, err := e.c.EventsAvailable()
	check(t, err)
	if limit := e.d.Props().EventLimit; before <= 0 || before > limit {
		t.Fatalf("EventsAvailable = %d, want within (0, %d]", before, limit)
	}
	a, err := e.c.NewDefaultEvent()
	check(t, err)
	b, err := e.c.NewEventWithFlag(gocann.EventSync)
	check(t, err)
	free, err := e.c.NewEventWithFlag(gocann.EventTimeLine) // not counted: no stream waits for it
	check(t, err)
	if n, _ := e.c.EventsAvailable(); n != before-2 {
		t.Fatalf("EventsAvailable = %d after two counted events, want %d", n, before-2)
	}
	ids := map[uint32]bool{}
	for _, ev := range []*gocann.Event{a, b, free} {
		id, err := ev.ID()
		check(t, err)
		if ids[id] {
			t.Fatalf("event id %d given twice", id)
		}
		ids[id] = true
	}
	check(t, a.Close())
	if n, _ := e.c.EventsAvailable(); n != before-1 {
		t.Fatalf("EventsAvailable = %d after destroying one, want %d", n, before-1)
	}
	_, err = a.ID()
	wantErr(t, err, gocann.CodeRTInvalidHandle, "destroyed")
}

func TestEventExternalRecordDropped(t *testing.T) {
	// A run dropped before it starts (aclrtStreamAbort) never records: a
	// wait queued for its record goes on, as a wait for a dropped record
	// does, instead of holding its stream for ever.
	e := setup(t)
	out, err := e.c.NewEvent(gocann.EventSync)
	check(t, err)
	var ran atomic.Int32
	cs := e.newStream(t)
	m, err := cs.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		check(t, s.LaunchHostFunc(func() { ran.Add(1) }))
		check(t, s.RecordWithFlag(out, gocann.RecordExternal))
		return nil
	})
	check(t, err)
	defer m.Close()
	gate := make(chan struct{})
	runner, waiter := e.newStream(t), e.newStream(t)
	check(t, runner.LaunchHostFunc(func() { <-gate }))
	check(t, m.Run(runner))
	check(t, waiter.WaitEvent(out))
	stays(t, 20*time.Millisecond, "the waiter waits for the run's record", func() bool { d, _ := waiter.Query(); return !d })
	go func() { time.Sleep(20 * time.Millisecond); close(gate) }()
	check(t, runner.Abort())
	syncOK(t, waiter)
	if ran.Load() != 0 {
		t.Fatal("the aborted run ran")
	}
}
