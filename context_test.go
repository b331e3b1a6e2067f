package gocann_test

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocann/gocann"
)

func TestDefaultContext(t *testing.T) {
	// aclrtSetDevice "implicitly creates the default Context, which contains
	// one default Stream"; every SetDevice of the device shares it.
	r := newRuntime(t, smallConfig)
	d, err := r.SetDevice(0)
	check(t, err)
	c, err := d.Context()
	check(t, err)
	_, err = r.SetDevice(0)
	check(t, err)
	c2, err := d.Context()
	check(t, err)
	if c2 != c || !c.IsDefault() || c.Device() != d {
		t.Fatalf("default context: same %v, IsDefault %v, device %v", c2 == c, c.IsDefault(), c.Device())
	}
	s, err := c.DefaultStream()
	check(t, err)
	s2, err := c.DefaultStream()
	check(t, err)
	if s2 != s || !s.IsDefault() || s.Context() != c {
		t.Fatalf("default stream: same %v, IsDefault %v, context %v", s2 == s, s.IsDefault(), s.Context())
	}
	// The default stream works like any other.
	p := malloc(t, c, 8)
	check(t, s.WriteValue(p, 77))
	syncOK(t, s)
	if v := readU64(t, c, p); v != 77 {
		t.Fatalf("value written on the default stream reads %d", v)
	}
	// It ends with the device, not by Close.
	wantErr(t, s.Close(), gocann.CodeRTParamInvalid, "default stream")
	wantErr(t, s.CloseForce(), gocann.CodeRTParamInvalid, "default stream")
	syncOK(t, s)
}

func TestCloseDefaultContextRefused(t *testing.T) {
	// "The default Context cannot be destroyed with aclrtDestroyContext."
	e := setup(t)
	wantErr(t, e.c.Close(), gocann.CodeRTParamInvalid, "default context", "aclrtResetDevice")
	check(t, e.s.LaunchHostFunc(func() {}))
	syncOK(t, e.s)
}

func TestExplicitContext(t *testing.T) {
	// aclrtCreateContext: a context on the device with its own default stream.
	r := newRuntime(t, smallConfig)
	d, err := r.Device(1)
	check(t, err)
	c, err := d.NewContext() // no SetDevice: the context keeps the device open
	check(t, err)
	if c.IsDefault() || c.Device() != d || d.IsSet() {
		t.Fatalf("explicit context: IsDefault %v, device %v, device set %v", c.IsDefault(), c.Device(), d.IsSet())
	}
	ds, err := c.DefaultStream()
	check(t, err)
	if !ds.IsDefault() || ds.Context() != c {
		t.Fatal("explicit context's default stream does not belong to it")
	}
	// A second context has a default stream of its own.
	c2, err := d.NewContext()
	check(t, err)
	ds2, err := c2.DefaultStream()
	check(t, err)
	if ds2 == ds || ds2.ID() == ds.ID() {
		t.Fatalf("two contexts share default stream %d", ds.ID())
	}
	check(t, c2.Close())

	p := malloc(t, c, 16)
	check(t, ds.WriteValue(p, 5))
	syncOK(t, ds)
	if v := readU64(t, c, p); v != 5 {
		t.Fatalf("value written on an explicit context's default stream reads %d", v)
	}
	if _, _, err := d.MemInfo(); err != nil {
		t.Fatalf("MemInfo of a device held open by a context: %v", err)
	}
}

func TestContextCloseWaitsThenInvalidates(t *testing.T) {
	// Closing a context waits for its streams' tasks and ends its streams,
	// events and notifies; using any of them afterwards is an invalid handle.
	e := setup(t)
	c, err := e.d.NewContext()
	check(t, err)
	ds, err := c.DefaultStream()
	check(t, err)
	s, err := c.NewStream()
	check(t, err)
	ev, err := c.NewEvent(gocann.EventSync)
	check(t, err)
	n, err := c.NewNotify()
	check(t, err)
	var finished atomic.Int32
	for _, st := range []*gocann.Stream{ds, s} {
		check(t, st.LaunchHostFunc(func() { time.Sleep(20 * time.Millisecond); finished.Add(1) }))
	}
	check(t, c.Close())
	if finished.Load() != 2 {
		t.Fatalf("Context.Close returned with %d of 2 queued tasks finished", finished.Load())
	}

	for name, err := range map[string]error{
		"Close":         c.Close(),
		"DefaultStream": func() error { _, err := c.DefaultStream(); return err }(),
		"NewStream":     func() error { _, err := c.NewStream(); return err }(),
		"Malloc":        func() error { _, err := c.Malloc(8, gocann.NormalOnly); return err }(),
		"NewEvent":      func() error { _, err := c.NewEvent(0); return err }(),
		"NewNotify":     func() error { _, err := c.NewNotify(); return err }(),
		"Synchronize":   c.SynchronizeTimeout(long),
		"stream sync":   s.SynchronizeTimeout(long),
		"default sync":  ds.SynchronizeTimeout(long),
		"launch":        s.LaunchHostFunc(func() {}),
		"record":        e.s.Record(ev),
		"notify":        e.s.RecordNotify(n),
	} {
		t.Run(name, func(t *testing.T) { wantErr(t, err, gocann.CodeRTInvalidHandle, "destroyed") })
	}
	// The default context is unaffected.
	check(t, e.s.LaunchHostFunc(func() {}))
	syncOK(t, e.s)
}

func TestContextSynchronize(t *testing.T) {
	// A context's synchronize covers its own streams only.
	e := setup(t)
	c2, err := e.d.NewContext()
	check(t, err)
	defer c2.Close()
	s2, err := c2.NewStream()
	check(t, err)
	block(t, e.s) // the default context stays busy throughout
	g2 := block(t, s2)
	wantErr(t, c2.SynchronizeTimeout(20*time.Millisecond), gocann.CodeRTStreamSyncTimeout, "not done within")
	g2.Open()
	check(t, c2.SynchronizeTimeout(long))
	if isDone(t, e.s) {
		t.Fatal("the default context's stream finished while blocked")
	}
}
