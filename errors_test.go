package gocann_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"testing"
	"time"

	"github.com/gocann/gocann"
)

func TestErrorOpNamesGoAndCANNCall(t *testing.T) {
	// Every failing call returns a *gocann.Error whose Op names the Go call
	// and the CANN call it stands for, and whose message names the
	// parameter, the value and what was expected.
	e := setup(t)
	g := block(t, e.s)
	defer g.Open()
	ev, err := e.c.NewEvent(gocann.EventSync)
	check(t, err)
	check(t, e.s.Record(ev))
	mallocErr := func() error { _, err := e.c.Malloc(0, gocann.HugeFirst); return err }
	for _, tc := range []struct {
		err  error
		op   string
		code gocann.Code
		msg  string
	}{
		{mallocErr(), "Context.Malloc (aclrtMalloc)", gocann.CodeRTParamInvalid, "size 0 is invalid, expected > 0"},
		{e.s.SynchronizeTimeout(time.Millisecond), "Stream.SynchronizeTimeout (aclrtSynchronizeStreamWithTimeout)", gocann.CodeRTStreamSyncTimeout, "not done within 1ms"},
		{e.s.Synchronize(expired()), "Stream.Synchronize (aclrtSynchronizeStream)", gocann.CodeRTStreamSyncTimeout, "not done within"},
		{ev.SynchronizeTimeout(time.Millisecond), "Event.SynchronizeTimeout (aclrtSynchronizeEventWithTimeout)", gocann.CodeRTEventSyncTimeout, "not done within 1ms"},
		{e.d.SynchronizeTimeout(time.Millisecond), "Device.SynchronizeTimeout (aclrtSynchronizeDeviceWithTimeout)", gocann.CodeRTStreamSyncTimeout, "not done within"},
		{e.s.SetPriority(9), "Stream.SetPriority (aclrtSetStreamAttribute)", gocann.CodeRTParamInvalid, "priority 9 is invalid, expected 0..7"},
		{e.s.Launch(nil, 1), "Stream.Launch (aclrtLaunchKernel)", gocann.CodeInvalidParam, "kernel is nil"},
		{e.s.WriteValue(0, 1), "Stream.WriteValue (aclrtValueWrite)", gocann.CodeRTParamInvalid, "devAddr 0x0 is not in a live device allocation"},
		{e.s.Memset(0, 1, 8), "Stream.Memset (aclrtMemsetAsync)", gocann.CodeRTParamInvalid, "devPtr 0x0"},
		{e.c.Close(), "Context.Close (aclrtDestroyContext)", gocann.CodeRTParamInvalid, "is a default context"},
		{e.c.Free(0), "Context.Free (aclrtFree)", gocann.CodeInvalidParam, "devPtr is NULL"},
		{e.r.Init(""), "Runtime.Init (aclInit)", gocann.CodeRepeatInitialize, "already initialized"},
	} {
		var ge *gocann.Error
		if !errors.As(tc.err, &ge) {
			t.Errorf("%s: error %v is not a *gocann.Error", tc.op, tc.err)
			continue
		}
		if ge.Op != tc.op || ge.Code != tc.code {
			t.Errorf("error %q: Op %q, code %d; want %q, %d", tc.err, ge.Op, ge.Code, tc.op, tc.code)
		}
		wantErr(t, tc.err, tc.code, tc.msg)
		// Error() is "Op: code NAME: message[: cause]".
		want := fmt.Sprintf("%s: %d %s: %s", ge.Op, ge.Code, ge.Code.Name(), ge.Msg)
		if ge.Err != nil {
			want += ": " + ge.Err.Error()
		}
		if tc.err.Error() != want {
			t.Errorf("Error() = %q, want %q", tc.err.Error(), want)
		}
	}
}

// expired returns a context whose deadline has passed.
func expired() context.Context {
	ctx, cancel := context.WithDeadline(context.Background(), time.Now())
	cancel()
	return ctx
}

func TestCodeOf(t *testing.T) {
	if gocann.CodeOf(nil) != 0 || gocann.CodeSuccess != 0 {
		t.Error("CodeOf(nil) is not ACL_SUCCESS (0)")
	}
	if c := gocann.CodeOf(errors.New("other")); c != 500000 {
		t.Errorf("CodeOf(foreign error) = %d, want 500000", c)
	}
	e := setup(t)
	_, err := e.c.Malloc(0, gocann.HugeFirst)
	wrapped := fmt.Errorf("loading weights: %w", err)
	if gocann.CodeOf(wrapped) != 107000 || !errors.Is(wrapped, gocann.CodeRTParamInvalid) {
		t.Errorf("a wrapped *Error lost its code: CodeOf = %d", gocann.CodeOf(wrapped))
	}
	if gocann.CodeOf(gocann.CodeRTStreamSyncTimeout) != 507046 {
		t.Error("CodeOf(Code) is not the code")
	}
	if got := gocann.CodeRTStreamSyncTimeout.Error(); got != "507046 ACL_ERROR_RT_STREAM_SYNC_TIMEOUT" {
		t.Errorf("Code.Error() = %q", got)
	}
	if errors.Is(err, gocann.CodeRTInvalidHandle) || errors.Is(err, fs.ErrNotExist) {
		t.Error("an *Error matches a code or error it does not carry")
	}
}

func TestErrorClasses(t *testing.T) {
	// Class sentinels follow CANN's bands: misuse, resources, device faults.
	e := setup(t)
	sentinels := map[string]error{
		"ErrInvalid": gocann.ErrInvalid, "ErrOutOfMemory": gocann.ErrOutOfMemory, "ErrNoResource": gocann.ErrNoResource,
		"ErrTimeout": gocann.ErrTimeout, "ErrClosed": gocann.ErrClosed, "ErrDevice": gocann.ErrDevice,
		"ErrNotSupported": gocann.ErrNotSupported,
	}
	s := e.newStream(t)
	check(t, s.Close())
	bad := panicKernel(t, e.r, "bad")
	check(t, e.s.Launch(bad, 1))
	fault := e.s.SynchronizeTimeout(long)
	g := block(t, e.s)
	timeout := e.s.SynchronizeTimeout(time.Millisecond)
	g.Open()
	for _, tc := range []struct {
		name string
		err  error
		is   []string
	}{
		{"bad size", func() error { _, err := e.c.Malloc(0, 0); return err }(), []string{"ErrInvalid"}},
		{"bad device", func() error { _, err := e.r.SetDevice(9); return err }(), []string{"ErrInvalid"}},
		{"closed stream", s.LaunchHostFunc(func() {}), []string{"ErrInvalid", "ErrClosed"}},
		{"out of memory", func() error { _, err := e.c.Malloc(4<<30, 0); return err }(), []string{"ErrOutOfMemory"}},
		{"timeout", timeout, []string{"ErrTimeout"}},
		{"kernel fault", fault, []string{"ErrDevice"}},
		{"not supported", func() error {
			ev, err := e.c.NewEvent(gocann.EventIPC) // its handle needs a shared machine
			if err != nil {
				return err
			}
			_, err = ev.IPCHandle()
			return err
		}(), []string{"ErrNotSupported"}},
	} {
		for name, sentinel := range sentinels {
			want := false
			for _, n := range tc.is {
				want = want || n == name
			}
			if got := errors.Is(tc.err, sentinel); got != want {
				t.Errorf("%s (%v): errors.Is(err, %s) = %v, want %v", tc.name, tc.err, name, got, want)
			}
		}
	}
}

func TestAsyncFaultReportedOnceByFirstCoveringCall(t *testing.T) {
	// "An asynchronous fault is reported at the first synchronizing call
	// that covers it (stream/event/device sync, query)", once; the stream
	// stays usable in CONTINUE_ON_FAILURE mode.
	for _, tc := range []struct {
		name  string
		first func(e env, ev *gocann.Event) error
	}{
		{"stream synchronize", func(e env, _ *gocann.Event) error { return e.s.SynchronizeTimeout(long) }},
		{"event synchronize", func(e env, ev *gocann.Event) error { return ev.SynchronizeTimeout(long) }},
		{"device synchronize", func(e env, _ *gocann.Event) error { return e.d.SynchronizeTimeout(long) }},
		{"context synchronize", func(e env, _ *gocann.Event) error { return e.c.SynchronizeTimeout(long) }},
		{"query", func(e env, _ *gocann.Event) error {
			deadline := time.Now().Add(long)
			for time.Now().Before(deadline) {
				done, err := e.s.Query()
				if err != nil || done {
					return err
				}
				time.Sleep(time.Millisecond)
			}
			return errors.New("stream never completed")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := setup(t)
			other := e.newStream(t)
			before, err := e.c.NewEvent(gocann.EventSync)
			check(t, err)
			ev, err := e.c.NewEvent(gocann.EventSync)
			check(t, err)
			g := block(t, e.s)
			check(t, e.s.Record(before))
			check(t, e.s.Launch(panicKernel(t, e.r, "bad"), 1))
			check(t, e.s.Record(ev))
			g.Open()
			// Calls that do not cover the faulting task report nothing.
			check(t, before.SynchronizeTimeout(long))
			syncOK(t, other)
			wantErr(t, tc.first(e, ev), gocann.CodeRTAICoreException, `kernel "bad"`)
			// Reported once: no call reports it again.
			check(t, ev.SynchronizeTimeout(long))
			syncOK(t, e.s)
			check(t, e.d.SynchronizeTimeout(long))
			if done, err := e.s.Query(); !done || err != nil {
				t.Fatalf("Query after the fault was reported = %v, %v", done, err)
			}
			// CONTINUE_ON_FAILURE: the stream keeps working.
			p := malloc(t, e.c, 8)
			check(t, e.s.WriteValue(p, 3))
			syncOK(t, e.s)
			if readU64(t, e.c, p) != 3 {
				t.Fatal("stream unusable after its fault was reported")
			}
		})
	}
}

func TestStopOnFailureFaultReportedOnce(t *testing.T) {
	// With STOP_ON_FAILURE the faulting stream's own fault is reported once
	// too: the stop is reported until an abort, the fault not again after.
	e := setup(t)
	check(t, e.s.SetFailureMode(gocann.StopOnFailure))
	g := block(t, e.s) // queue the fault and what follows it before it can stop the stream
	check(t, e.s.Launch(panicKernel(t, e.r, "bad"), 1))
	check(t, e.s.LaunchHostFunc(func() {}))
	g.Open()
	eventually(t, "query reports the fault", func() bool {
		done, err := e.s.Query()
		if done {
			t.Fatal("a stopped stream reports complete")
		}
		if err != nil {
			wantErr(t, err, gocann.CodeRTAICoreException, `kernel "bad"`)
			return true
		}
		return false
	})
	wantErr(t, e.s.SynchronizeTimeout(long), gocann.CodeRTAICoreException, "STOP_ON_FAILURE")
	check(t, e.s.Abort())
	syncOK(t, e.s)
	if done, err := e.s.Query(); !done || err != nil {
		t.Fatalf("Query after Abort = %v, %v; want done, no error", done, err)
	}
}
