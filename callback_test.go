package gocann_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocann/gocann"
	"github.com/gocann/gocann/hal"
)

func TestHostFuncOrder(t *testing.T) {
	// aclrtLaunchHostFunc: the callback runs "when all preceding tasks on
	// the stream complete" and "blocks subsequent tasks on this stream until
	// it returns".
	e := setup(t)
	w := malloc(t, e.c, 8)
	w2 := malloc(t, e.c, 8)
	in, err := e.r.MallocHost(8)
	check(t, err)
	out, err := e.r.MallocHost(8)
	check(t, err)
	var log recorder
	store, err := e.r.RegisterKernel("store", func(b *gocann.Block) {
		time.Sleep(10 * time.Millisecond) // slow enough for an early callback to show
		log.add("store")
		b.Store64(b.Arg(0).Ptr(), b.Arg(1).U64())
	})
	check(t, err)
	inc, err := e.r.RegisterKernel("inc", func(b *gocann.Block) {
		log.add("inc")
		b.Store64(b.Arg(1).Ptr(), b.Load64(b.Arg(0).Ptr())+1)
	})
	check(t, err)

	var seen uint64
	check(t, e.s.Launch(store, 1, gocann.Ptr(w), gocann.U64(42)))
	check(t, e.s.CopyDeviceToHost(out, 0, w, 8))
	check(t, e.s.LaunchHostFunc(func() {
		log.add("host")
		seen = binary.LittleEndian.Uint64(out.Bytes()) // the earlier copy's result
		time.Sleep(20 * time.Millisecond)              // later tasks must wait for this
		binary.LittleEndian.PutUint64(in.Bytes(), 7)   // the later copy's source
	}))
	check(t, e.s.CopyHostToDevice(w, in, 0, 8))
	check(t, e.s.Launch(inc, 1, gocann.Ptr(w), gocann.Ptr(w2)))
	check(t, e.s.CopyDeviceToHost(out, 0, w2, 8))
	syncOK(t, e.s)

	if seen != 42 {
		t.Errorf("host function saw %d, want 42 written by the kernel before it", seen)
	}
	if got := binary.LittleEndian.Uint64(out.Bytes()); got != 8 {
		t.Errorf("result %d, want 8: the copy after the host function must read what it wrote", got)
	}
	if got := log.String(); got != "store,host,inc" {
		t.Errorf("order %s, want store,host,inc", got)
	}
	// The trace agrees: the host function ran between its neighbours.
	hf := records(t, e.d, e.s, hal.TaskHostFunc)
	ks := records(t, e.d, e.s, hal.TaskKernel)
	if len(hf) != 1 || len(ks) != 2 {
		t.Fatalf("trace: %d host function and %d kernel records, want 1 and 2", len(hf), len(ks))
	}
	if hf[0].Start < ks[0].End || ks[1].Start < hf[0].End {
		t.Errorf("trace: store ends %d, host runs [%d, %d], inc starts %d", ks[0].End, hf[0].Start, hf[0].End, ks[1].Start)
	}
	if hf[0].Engine != hal.EngineHost {
		t.Errorf("host function ran on %v", hf[0].Engine)
	}
}

func TestHostFuncPanic(t *testing.T) {
	// A panicking callback is a task fault reported at the next synchronize,
	// not a crash; later tasks of the stream still run.
	e := setup(t)
	cause := errors.New("callback cause")
	var after atomic.Int32
	check(t, e.s.LaunchHostFunc(func() { panic("boom") }))
	check(t, e.s.LaunchHostFunc(func() { after.Add(1) }))
	err := e.s.SynchronizeTimeout(long)
	wantErr(t, err, gocann.CodeRTInternalError, "host function panicked: boom")
	if !errors.Is(err, gocann.ErrDevice) {
		t.Errorf("errors.Is(%v, ErrDevice) = false", err)
	}
	if after.Load() != 1 {
		t.Fatal("the task after a panicking host function did not run")
	}
	syncOK(t, e.s)

	// A panic with an error value keeps it as the cause.
	check(t, e.s.LaunchHostFunc(func() { panic(fmt.Errorf("wrapped: %w", cause)) }))
	check(t, e.s.LaunchHostFunc(func() { after.Add(1) }))
	err = e.s.SynchronizeTimeout(long)
	wantErr(t, err, gocann.CodeRTInternalError, "callback cause")
	if !errors.Is(err, cause) {
		t.Errorf("errors.Is(%v, cause) = false: the panic value is not the cause", err)
	}
	if after.Load() != 2 {
		t.Fatal("the task after the second panicking host function did not run")
	}
}

func TestHostFuncNil(t *testing.T) {
	e := setup(t)
	wantErr(t, e.s.LaunchHostFunc(nil), gocann.CodeInvalidParam, "fn is nil")
}

func TestHostFuncsOfStreamsRunConcurrently(t *testing.T) {
	// Each stream's callbacks run on their own: a callback blocked on one
	// stream does not hold another stream's callback.
	e := setup(t)
	s2 := e.newStream(t)
	met := make(chan struct{})
	check(t, e.s.LaunchHostFunc(func() {
		select {
		case <-met:
		case <-time.After(long):
		}
	}))
	check(t, s2.LaunchHostFunc(func() { close(met) }))
	start := time.Now()
	syncOK(t, e.s)
	if el := time.Since(start); el >= long {
		t.Fatal("the second stream's callback did not run while the first one's was blocked")
	}
}
