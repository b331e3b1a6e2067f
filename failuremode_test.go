package gocann_test

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocann/gocann"
)

func panicKernel(t *testing.T, r *gocann.Runtime, name string) *gocann.Kernel {
	t.Helper()
	k, err := r.RegisterKernel(name, func(*gocann.Block) { panic(name + " failed") })
	check(t, err)
	return k
}

func TestContinueOnFailure(t *testing.T) {
	// ACL_CONTINUE_ON_FAILURE (the default): "after a task fails, continue
	// with next task"; the fault is reported once, at the next sync.
	e := setup(t)
	if e.s.FailureMode() != gocann.ContinueOnFailure {
		t.Fatal("default failure mode is not CONTINUE_ON_FAILURE")
	}
	bad := panicKernel(t, e.r, "bad")
	p := malloc(t, e.c, 8)
	var after atomic.Bool
	check(t, e.s.Launch(bad, 2))
	check(t, e.s.LaunchHostFunc(func() { after.Store(true) }))
	check(t, e.s.WriteValue(p, 42))
	wantErr(t, e.s.SynchronizeTimeout(long), gocann.CodeRTAICoreException, `"bad"`)
	if !after.Load() || readU64(t, e.c, p) != 42 {
		t.Fatal("tasks after a fault did not run in CONTINUE_ON_FAILURE mode")
	}
	syncOK(t, e.s) // reported once
	check(t, e.s.WriteValue(p, 43))
	syncOK(t, e.s)
	if readU64(t, e.c, p) != 43 {
		t.Fatal("stream unusable after a fault in CONTINUE_ON_FAILURE mode")
	}
}

func TestStopOnFailure(t *testing.T) {
	// ACL_STOP_ON_FAILURE: a fault "stops executing the tasks on all streams
	// of the Context"; "after it triggers, new tasks can no longer be
	// submitted"; streams of other contexts carry on.
	e := setup(t)
	s1, s2 := e.s, e.newStream(t)
	other, err := e.d.NewContext()
	check(t, err)
	defer other.Close()
	s3, err := other.NewStream()
	check(t, err)

	check(t, s1.SetFailureMode(gocann.StopOnFailure))
	if s2.FailureMode() != gocann.StopOnFailure {
		t.Fatal("STOP_ON_FAILURE on one stream did not apply to the other stream of its context")
	}
	if s3.FailureMode() != gocann.ContinueOnFailure {
		t.Fatal("STOP_ON_FAILURE leaked into another context")
	}
	bad := panicKernel(t, e.r, "bad")
	g := block(t, s2)
	var s1After, s2After, s3After atomic.Bool
	check(t, s2.LaunchHostFunc(func() { s2After.Store(true) }))
	g.waitStarted(t)
	g1 := block(t, s1) // queue the fault and what follows it before it can stop s1
	check(t, s1.Launch(bad, 1))
	check(t, s1.LaunchHostFunc(func() { s1After.Store(true) }))
	g1.Open()
	wantErr(t, s1.SynchronizeTimeout(long), gocann.CodeRTAICoreException, `"bad"`)

	// s2's running task finishes; the one after it never starts.
	g.Open()
	wantErr(t, s2.SynchronizeTimeout(long), gocann.CodeRTAICoreException, "STOP_ON_FAILURE")
	wantErr(t, s2.LaunchHostFunc(func() {}), gocann.CodeRTAICoreException, "stopped")
	wantErr(t, s1.LaunchHostFunc(func() {}), gocann.CodeRTAICoreException, "stopped")
	check(t, s3.LaunchHostFunc(func() { s3After.Store(true) }))
	syncOK(t, s3)
	if !s3After.Load() {
		t.Fatal("a stream of another context stopped")
	}
	time.Sleep(10 * time.Millisecond)
	if s1After.Load() || s2After.Load() {
		t.Fatalf("tasks ran after the fault: stream 1 %v, stream 2 %v", s1After.Load(), s2After.Load())
	}

	// Recovery: abort each stream; the dropped tasks never run.
	check(t, s1.Abort())
	check(t, s2.Abort())
	for _, s := range []*gocann.Stream{s1, s2} {
		var ran atomic.Bool
		check(t, s.LaunchHostFunc(func() { ran.Store(true) }))
		syncOK(t, s)
		if !ran.Load() {
			t.Fatalf("stream %d does not run work after Abort", s.ID())
		}
	}
	if s1After.Load() || s2After.Load() {
		t.Fatal("Abort ran the stopped tasks instead of dropping them")
	}
}

func TestStopOnFailureRecoveredByReset(t *testing.T) {
	// A device reset ends the stopped default context; the next SetDevice
	// brings a working one.
	r := newRuntime(t, smallConfig)
	d, err := r.SetDevice(0)
	check(t, err)
	c, err := d.Context()
	check(t, err)
	s, err := c.DefaultStream()
	check(t, err)
	check(t, s.SetFailureMode(gocann.StopOnFailure))
	wantErr(t, s.SetFailureMode(gocann.StopOnFailure), gocann.CodeRTParamInvalid, "once per stream")
	check(t, s.Launch(panicKernel(t, r, "bad"), 1))
	wantErr(t, s.SynchronizeTimeout(long), gocann.CodeRTAICoreException, `kernel "bad"`)
	wantErr(t, s.LaunchHostFunc(func() {}), gocann.CodeRTAICoreException, "stopped")
	check(t, d.ResetForce())
	_, err = r.SetDevice(0)
	check(t, err)
	c, err = d.Context()
	check(t, err)
	s, err = c.DefaultStream()
	check(t, err)
	var ran atomic.Bool
	check(t, s.LaunchHostFunc(func() { ran.Store(true) }))
	syncOK(t, s)
	if !ran.Load() || s.FailureMode() != gocann.ContinueOnFailure {
		t.Fatalf("after reset: ran %v, mode %v", ran.Load(), s.FailureMode())
	}
}

func TestAbortEndsWaitsAndDropsTasks(t *testing.T) {
	// aclrtStreamAbort "discards submitted-but-unexecuted tasks"; concurrent
	// synchronize calls "exit with ACL_ERROR_RT_STREAM_ABORT (107023)". The
	// running task cannot be taken back: Abort waits for it.
	e := setup(t)
	g := block(t, e.s)
	var ran atomic.Bool
	check(t, e.s.LaunchHostFunc(func() { ran.Store(true) }))
	ev, err := e.c.NewEvent(gocann.EventSync)
	check(t, err)
	check(t, e.s.Record(ev))
	g.waitStarted(t)
	waits := make(chan error, 2)
	go func() { waits <- e.s.SynchronizeTimeout(long) }()
	go func() { waits <- ev.SynchronizeTimeout(long) }()
	time.Sleep(50 * time.Millisecond) // let both waits begin
	aborted := make(chan error, 1)
	go func() { aborted <- e.s.Abort() }()
	for range 2 {
		select {
		case err := <-waits:
			wantErr(t, err, gocann.CodeRTStreamAbort, "aborted while waiting")
		case <-time.After(long):
			t.Fatal("a wait did not end when its stream was aborted")
		}
	}
	select {
	case err := <-aborted:
		t.Fatalf("Abort returned (%v) while a task was still running", err)
	case <-time.After(10 * time.Millisecond):
	}
	g.Open()
	check(t, <-aborted)
	syncOK(t, e.s)
	if ran.Load() {
		t.Fatal("a task queued before Abort ran")
	}
	check(t, e.s.LaunchHostFunc(func() { ran.Store(true) }))
	syncOK(t, e.s)
	if !ran.Load() {
		t.Fatal("stream does not run work after Abort")
	}
}
