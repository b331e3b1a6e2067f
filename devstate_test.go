package gocann_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/gocann/gocann"
)

// The device state callbacks run, in the order of their names, before the
// SetDevice that opens a device, after every SetDevice, and around the
// Reset that ends the default context; a name is registered once.
func TestDeviceStateCallbacks(t *testing.T) {
	r := newRuntime(t, smallConfig)
	var got recorder
	cb := func(tag string) func(int, gocann.DeviceState) {
		return func(dev int, st gocann.DeviceState) { got.add(fmt.Sprintf("%s:%d:%d", tag, dev, st)) }
	}
	check(t, r.RegisterDeviceStateCallback("b", cb("b")))
	check(t, r.RegisterDeviceStateCallback("a", cb("a")))
	wantErr(t, r.RegisterDeviceStateCallback("a", cb("x")), gocann.CodeRTParamInvalid, `regName "a" is already registered`)
	wantErr(t, r.RegisterDeviceStateCallback("", cb("x")), gocann.CodeInvalidParam, "regName is empty")
	d, err := r.SetDevice(1)
	check(t, err)
	_, err = r.SetDevice(1)
	check(t, err)
	check(t, d.Reset())
	check(t, r.RegisterDeviceStateCallback("b", nil)) // removed
	check(t, d.Reset())
	want := "a:1:0,b:1:0,a:1:1,b:1:1,a:1:1,b:1:1,a:1:2,a:1:3"
	if got.String() != want {
		t.Errorf("callbacks ran %q, want %q", got.String(), want)
	}
	if d.PrimaryContextActive() {
		t.Error("PrimaryContextActive after the last Reset = true, want false")
	}
	if _, err := r.SetDevice(1); err != nil {
		t.Fatal(err)
	}
	if !d.PrimaryContextActive() {
		t.Error("PrimaryContextActive after SetDevice = false, want true")
	}
	check(t, d.ResetForce())
	if want += ",a:1:0,a:1:1,a:1:2,a:1:3"; got.String() != want {
		t.Errorf("after ResetForce callbacks ran %q, want %q", got.String(), want)
	}
}

// TaskAbort drops the queued tasks of every stream of the device, calls
// the abort callbacks before and after, and leaves the streams usable.
func TestDeviceTaskAbort(t *testing.T) {
	e := setup(t)
	s2 := e.newStream(t)
	var got recorder
	check(t, e.r.RegisterTaskAbortCallback("mod", func(dev int, st gocann.AbortStage, left time.Duration) error {
		got.add(fmt.Sprintf("%d:%d:%v", dev, st, left))
		return nil
	}))
	wantErr(t, e.r.RegisterTaskAbortCallback("mod", func(int, gocann.AbortStage, time.Duration) error { return nil }),
		gocann.CodeRTParamInvalid, `regName "mod"`)
	p := malloc(t, e.c, 8)
	g := block(t, e.s)
	g.waitStarted(t)
	check(t, e.s.WriteValue(p, 7)) // queued behind the gate, dropped
	g2 := block(t, s2)
	check(t, s2.WriteValue(p, 9)) // queued behind the second gate, dropped
	g2.waitStarted(t)
	waits := make(chan error, 2)
	go func() { waits <- e.s.SynchronizeTimeout(long) }()
	go func() { waits <- s2.SynchronizeTimeout(long) }()
	time.Sleep(50 * time.Millisecond) // let both waits begin
	done := make(chan error, 1)
	go func() { done <- e.d.TaskAbort(0) }()
	for range 2 { // both streams dropped their queued writes
		select {
		case err := <-waits:
			wantErr(t, err, gocann.CodeRTStreamAbort, "aborted while waiting")
		case <-time.After(long):
			t.Fatal("a wait did not end when the device's tasks were aborted")
		}
	}
	g.Open()
	g2.Open()
	select {
	case err := <-done:
		check(t, err)
	case <-time.After(long):
		t.Fatal("TaskAbort did not return")
	}
	if v := readU64(t, e.c, p); v != 0 {
		t.Errorf("word after the abort = %d, want 0 (the writes were dropped)", v)
	}
	if got.String() != "0:0:0s,0:1:0s" {
		t.Errorf("abort callbacks ran %q, want pre then post with no timeout", got.String())
	}
	check(t, e.s.WriteValue(p, 5))
	syncOK(t, e.s)
	if v := readU64(t, e.c, p); v != 5 {
		t.Errorf("word after a write following the abort = %d, want 5", v)
	}
	wantErr(t, e.d.TaskAbort(36*time.Minute+time.Millisecond), gocann.CodeRTParamInvalid, "timeout", "36m0s")
	// A timeout leaves the callbacks its remainder; a failing callback ends
	// the abort.
	check(t, e.r.RegisterTaskAbortCallback("mod", nil))
	boom := errors.New("boom")
	check(t, e.r.RegisterTaskAbortCallback("fail", func(int, gocann.AbortStage, time.Duration) error { return boom }))
	err := e.d.TaskAbort(time.Second)
	if wantErr(t, err, gocann.CodeRTInternalError, "stage 0"); !errors.Is(err, boom) {
		t.Errorf("TaskAbort error %v does not wrap the callback's", err)
	}
}

// The Atlas 200I/500 A2 offers neither the abort nor its callback.
func TestDeviceTaskAbortUnsupported(t *testing.T) {
	e := setup(t, profileConfig("Ascend310B1"))
	wantErr(t, e.d.TaskAbort(0), gocann.CodeRTFeatureNotSupport, "aclrtDeviceTaskAbort", "Ascend310B1")
	wantErr(t, e.r.RegisterTaskAbortCallback("x", nil), gocann.CodeRTFeatureNotSupport, "aclrtSetDeviceTaskAbortCallback")
}

// The stream state callbacks hear of explicit and default streams: after
// each is created, before each is destroyed, in the order CANN's runtime
// calls them around a device's reset.
func TestStreamStateCallbacks(t *testing.T) {
	r := newRuntime(t, smallConfig)
	var got recorder
	kind := func(s *gocann.Stream) string {
		if s.IsDefault() {
			return "def"
		}
		return "exp"
	}
	check(t, r.RegisterStreamStateCallback("s", func(s *gocann.Stream, st gocann.StreamState) {
		got.add(fmt.Sprintf("%s:%d", kind(s), st))
	}))
	check(t, r.RegisterDeviceStateCallback("d", func(dev int, st gocann.DeviceState) { got.add(fmt.Sprintf("dev:%d", st)) }))
	wantErr(t, r.RegisterStreamStateCallback("s", func(*gocann.Stream, gocann.StreamState) {}), gocann.CodeRTParamInvalid, `regName "s"`)
	d, err := r.SetDevice(0)
	check(t, err)
	c, err := d.Context()
	check(t, err)
	s, err := c.NewStream()
	check(t, err)
	var ids []int32
	check(t, r.RegisterStreamStateCallback("t", func(x *gocann.Stream, st gocann.StreamState) { ids = append(ids, x.ID()) }))
	check(t, s.Close())
	check(t, r.RegisterStreamStateCallback("t", nil))
	if len(ids) != 1 || ids[0] != s.ID() {
		t.Errorf("the callback was given streams %v, want the one destroyed (%d)", ids, s.ID())
	}
	_, err = c.NewStream()
	check(t, err)
	xc, err := d.NewContext()
	check(t, err)
	_, err = xc.NewStream()
	check(t, err)
	check(t, xc.Close())
	check(t, d.Reset())
	want := "dev:0,def:1,dev:1,exp:1,exp:2,exp:1," + // set, a stream made and closed, another made
		"def:1,exp:1,def:2,exp:2," + // an explicit context with a stream, closed
		"def:2,dev:2,exp:2,dev:3" // the reset
	if got.String() != want {
		t.Errorf("callbacks ran\n%s\nwant\n%s", got.String(), want)
	}
}
