package gocann_test

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocann/gocann"
)

// waitTimeoutCalls collects the wait timeouts the exception callback sees.
func waitTimeoutCalls(r *gocann.Runtime) *atomic.Int32 {
	var n atomic.Int32
	r.SetExceptionCallback(func(info gocann.ExceptionInfo) {
		if info.Code == gocann.CodeRTWaitTimeout {
			n.Add(1)
		}
	})
	return &n
}

func TestValueWaitTimeout(t *testing.T) {
	// aclrtSetOpWaitTimeout bounds a value wait as it bounds event and
	// notify waits: past it the wait fails with ACL_ERROR_RT_WAIT_TIMEOUT
	// and, in CONTINUE_ON_FAILURE mode, the stream goes on.
	e := setup(t)
	calls := waitTimeoutCalls(e.r)
	w := malloc(t, e.c, 8)
	writeU64(t, e.c, w, 0)
	check(t, e.r.SetOpWaitTimeout(30*time.Millisecond))
	var after atomic.Bool
	begin := time.Now()
	check(t, e.s.WaitValue(w, 1, gocann.WaitEQ))
	check(t, e.s.LaunchHostFunc(func() { after.Store(true) }))
	// The timeout is the one in force when the wait was queued.
	check(t, e.r.SetOpWaitTimeout(0))
	msg := fmt.Sprintf("value wait at %#x timed out after 30ms", uint64(w))
	wantErr(t, e.s.SynchronizeTimeout(long), gocann.CodeRTWaitTimeout, msg)
	if d := time.Since(begin); d < 30*time.Millisecond {
		t.Fatalf("the wait failed after %v, before its 30ms timeout", d)
	}
	if !after.Load() {
		t.Fatal("the stream did not go on after the value wait timed out")
	}
	if calls.Load() != 1 {
		t.Fatalf("the exception callback saw %d wait timeouts, want 1", calls.Load())
	}

	// A wait queued with no timeout in force waits for ever; one satisfied
	// within its timeout is no fault.
	check(t, e.s.WaitValue(w, 1, gocann.WaitEQ))
	stays(t, 60*time.Millisecond, "the wait holds", func() bool { return !isDone(t, e.s) })
	check(t, e.r.SetOpWaitTimeout(time.Minute))
	check(t, e.s.WaitValue(w, 1, gocann.WaitGEQ))
	s2 := e.newStream(t)
	check(t, s2.WriteValue(w, 1))
	syncOK(t, e.s)
	syncOK(t, s2)
	check(t, e.r.SetOpWaitTimeout(0))
}

func TestValueWaitTimeoutStopOnFailure(t *testing.T) {
	// STOP_ON_FAILURE: the timed-out wait stops the stream; the tasks
	// queued after it are dropped.
	e := setup(t)
	check(t, e.s.SetFailureMode(gocann.StopOnFailure))
	w := malloc(t, e.c, 8)
	writeU64(t, e.c, w, 0)
	check(t, e.r.SetOpWaitTimeout(20*time.Millisecond))
	defer func() { check(t, e.r.SetOpWaitTimeout(0)) }()
	var after atomic.Bool
	check(t, e.s.WaitValue(w, 1, gocann.WaitEQ))
	check(t, e.s.LaunchHostFunc(func() { after.Store(true) }))
	wantErr(t, e.s.SynchronizeTimeout(long), gocann.CodeRTWaitTimeout, "value wait")
	stays(t, 30*time.Millisecond, "tasks after the timeout stay dropped", func() bool { return !after.Load() })
	check(t, e.s.Abort())
	syncOK(t, e.s)
	if after.Load() {
		t.Fatal("a task after the timed-out value wait ran in STOP_ON_FAILURE mode")
	}
}

// capturedValueWait captures, under a 20 ms wait timeout, a wait for the
// word flag to be 1 followed by a kernel adding 1 to the word p; the
// timeout is 0 again once it returns.
func capturedValueWait(t *testing.T) (e env, m *gocann.ModelRI, p, flag gocann.DevPtr) {
	t.Helper()
	e = setup(t)
	k := registerKernels(t, e)
	p, flag = word(t, e, 0), word(t, e, 0)
	check(t, e.r.SetOpWaitTimeout(20*time.Millisecond))
	m, err := e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		check(t, s.WaitValue(flag, 1, gocann.WaitEQ))
		return s.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(1))
	})
	check(t, err)
	t.Cleanup(func() { m.Close() })
	check(t, e.r.SetOpWaitTimeout(0))
	return e, m, p, flag
}

func TestCapturedValueWaitTimeout(t *testing.T) {
	// A value wait captured while a wait timeout is in force keeps it in
	// the model: each run fails it after the timeout, reported by the run's
	// stream, and the model's stream moves on, as captured event and notify
	// waits do.
	e, m, p, flag := capturedValueWait(t)
	msg := fmt.Sprintf("value wait at %#x timed out after 20ms", uint64(flag))
	for i := range 2 {
		writeU64(t, e.c, p, 0)
		check(t, m.Run(e.s))
		wantErr(t, e.s.SynchronizeTimeout(long), gocann.CodeRTWaitTimeout, msg)
		wantU64(t, e, p, 1, "the task after the timed-out wait, run "+itoa(int32(i)))
	}
	// Satisfied in time, the wait is no fault.
	writeU64(t, e.c, p, 0)
	writeU64(t, e.c, flag, 1)
	check(t, m.Run(e.s))
	syncOK(t, e.s)
	wantU64(t, e, p, 1, "the task after the satisfied wait")
}

func TestCapturedValueWaitTimeoutStopOnFailure(t *testing.T) {
	// Under STOP_ON_FAILURE the run's stream stops at the model's fault:
	// the tasks queued after the run are dropped.
	e, m, _, _ := capturedValueWait(t)
	check(t, e.s.SetFailureMode(gocann.StopOnFailure))
	var after atomic.Bool
	check(t, m.Run(e.s))
	check(t, e.s.LaunchHostFunc(func() { after.Store(true) }))
	wantErr(t, e.s.SynchronizeTimeout(long), gocann.CodeRTWaitTimeout, "value wait")
	stays(t, 30*time.Millisecond, "tasks after the run stay dropped", func() bool { return !after.Load() })
	check(t, e.s.Abort())
	syncOK(t, e.s)
	if after.Load() {
		t.Fatal("a task after the failed run ran in STOP_ON_FAILURE mode")
	}
}
