package main

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocann/gocann"
	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

// directStream opens a runtime with a stream of device 0 that takes direct
// launches; the runtime closes with the test.
func directStream(t *testing.T) (*gocann.Device, *gocann.Context, *gocann.Stream, hal.Direct) {
	t.Helper()
	r, err := gocann.Open()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	dev, err := r.SetDevice(0)
	if err != nil {
		t.Fatal(err)
	}
	gctx, err := dev.Context()
	if err != nil {
		t.Fatal(err)
	}
	s, err := gctx.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	dq := s.Raw().Direct()
	if _, ok := dq.(hal.KernelNumberer); dq == nil || !ok {
		t.Skip("the device's queues take no direct launches")
	}
	return dev, gctx, s, dq
}

// A launch whose function record changes hands while the launch reads it
// runs the kernel of the handle it named or is refused. Another goroutine
// ends the record and gives its slot to a new handle, numbered for the
// other of two kernels, every 300 ns, as an unload and a load into
// the freed slot do; each kernel stores its own marker.
func TestDirectLaunchRacingRecordReuse(t *testing.T) {
	_, gctx, s, dq := directStream(t)
	const n = 60000
	words, err := gctx.Malloc(8*n, gocann.HugeFirst)
	if err != nil {
		t.Fatal(err)
	}
	var ids [2]uint64
	for i := range ids {
		k := &kernel.Func{Name: fmt.Sprint("mark", i), Fn: func(b *kernel.Block) { b.Store64(b.Arg(0), uint64(i)+1) }}
		ids[i] = uint64(dq.(hal.KernelNumberer).KernelID(k))
	}
	// The stream's record, and its handle in the table for the doorbell.
	sh, ok := proc.handles.add(kindStream, &cStream{s: s})
	if !ok {
		t.Fatal("no handle for the stream")
	}
	defer proc.handles.remove(sh, kindStream)
	ctxh := makeHandle(kindContext, 1, 4001) // no context's
	proc.direct.set(sh, uint64(ctxh), dq.SQ())

	const idx = 4000 // a record no handle uses
	var live atomic.Uint64
	stop := make(chan struct{})
	flipped := make(chan uint32)
	go func() {
		g := uint32(1)
		defer func() { flipped <- g }()
		for ; ; g++ {
			h := makeHandle(kindFunc, g, idx)
			proc.direct.set(h, ids[g%2], nil)
			live.Store(uint64(h))
			for until := time.Now().Add(300 * time.Nanosecond); time.Now().Before(until); {
			}
			select {
			case <-stop:
				return
			default:
			}
		}
	}()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	th := newThreadRecord(ctxh, 1)
	want := make([]uint64, n)
	taken := 0
	for i := range n {
		// The stream's ring may be full: then wait for it and try again.
		for try := 0; try < 2 && want[i] == 0; try++ {
			h := handle(live.Load())
			if launchDirect(th, h, 1, sh, []uint64{uint64(words) + 8*uint64(i)}) {
				want[i] = uint64(h.gen()%2) + 1
				taken++
			} else if err := s.Synchronize(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
	}
	close(stop)
	flips := <-flipped
	if err := s.Synchronize(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 8*n)
	if err := gctx.CopyFromDevice(got, words); err != nil {
		t.Fatal(err)
	}
	wrong := 0
	for i, w := range want {
		if v := binary.LittleEndian.Uint64(got[8*i:]); w != 0 && v != w {
			if wrong++; wrong <= 3 {
				t.Errorf("launch %d of the kernel storing %d stored %d", i, w, v)
			}
		}
	}
	if wrong > 0 {
		t.Fatalf("%d of %d launches taken ran another kernel", wrong, taken)
	}
	if taken == 0 {
		t.Fatal("no launch went direct")
	}
	t.Logf("%d of %d launches taken while the record changed hands %d times", taken, n, flips)
}

// directLaunchable makes s launchable by launchDirect: a kernel that does
// nothing as function record idx, which no handle uses, and s as a stream
// of a context record idx+1. It returns the context and the function and
// stream handles; the function record is cleared at the test's end.
func directLaunchable(t *testing.T, dev *gocann.Device, s *gocann.Stream, dq hal.Direct, idx uint32) (*cContext, handle, handle) {
	t.Helper()
	k := &kernel.Func{Name: "nothing", Fn: func(*kernel.Block) {}}
	fh := makeHandle(kindFunc, 1, idx)
	proc.direct.set(fh, uint64(dq.(hal.KernelNumberer).KernelID(k)), nil)
	t.Cleanup(func() { proc.direct.clear(fh.index()) })
	c := &cContext{h: makeHandle(kindContext, 1, idx+1), dev: dev.ID()}
	cs := &cStream{s: s, ctx: c}
	sh, ok := proc.handles.add(kindStream, cs)
	if !ok {
		t.Fatal("no handle for the stream")
	}
	cs.h = sh
	proc.direct.openStream(cs)
	return c, fh, sh
}

// A thread inside the direct path when its stream's record ends keeps the
// stream's queue held until it has left: the test holds the area's lock,
// so the launch waits inside, having announced its epoch and read the
// records.
func TestDirectLaunchHoldsQueueWhileInside(t *testing.T) {
	dev, _, s, dq := directStream(t)
	c, fh, sh := directLaunchable(t, dev, s, dq, 4010)

	sq := dq.SQ()
	lockSQ := func() {
		for !sq.Lock.CompareAndSwap(0, 1) {
			runtime.Gosched()
		}
	}
	lockSQ()
	done := make(chan bool)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		done <- launchDirect(newThreadRecord(c.h, 1), fh, 1, sh, nil)
	}()
	inside := func() bool { return cEpochs().oldest() != math.MaxUint64 }
	for deadline := time.Now().Add(10 * time.Second); !inside(); {
		if time.Now().After(deadline) {
			sq.Lock.Store(0)
			t.Fatal("the launch never entered the path")
		}
		runtime.Gosched()
	}
	held := func() []heldQueue {
		proc.direct.mu.Lock()
		defer proc.direct.mu.Unlock()
		proc.direct.epochs().release()
		return append([]heldQueue(nil), proc.direct.holds.held...)
	}
	proc.handles.remove(sh, kindStream) // ends the record
	if h := held(); len(h) != 1 || h[0].q != dq {
		sq.Lock.Store(0)
		t.Fatalf("with a launch inside, %d queues held, want the stream's", len(h))
	}
	sq.Lock.Store(0)
	if <-done {
		t.Error("a launch took a stream whose record had ended")
	}
	if h := held(); len(h) != 0 {
		t.Fatalf("after the launch left, %d queues held, want none", len(h))
	}
	if sq.Submitted.Load() != 0 {
		t.Error("the launch wrote into the area")
	}
}

// While the process is locked for a snapshot the direct path takes no
// launch, so each reaches Go, which waits; the lock waits for a launch
// already inside the path, which it cannot stop, to leave first.
func TestDirectLaunchDeclinedWhileLocked(t *testing.T) {
	dev, _, s, dq := directStream(t)
	c, fh, sh := directLaunchable(t, dev, s, dq, 4020)
	defer proc.handles.remove(sh, kindStream)
	defer noteSnapshot(false)

	// A launch held inside the path by the area's lock.
	sq := dq.SQ()
	for !sq.Lock.CompareAndSwap(0, 1) {
		runtime.Gosched()
	}
	launched := make(chan bool)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		launched <- launchDirect(newThreadRecord(c.h, 1), fh, 1, sh, nil)
	}()
	for deadline := time.Now().Add(10 * time.Second); cEpochs().oldest() == math.MaxUint64; {
		if time.Now().After(deadline) {
			sq.Lock.Store(0)
			t.Fatal("the launch never entered the path")
		}
		runtime.Gosched()
	}
	locked := make(chan struct{})
	go func() {
		noteSnapshot(true)
		close(locked)
	}()
	select {
	case <-locked:
		sq.Lock.Store(0)
		t.Fatal("the lock returned with a launch still inside the path")
	case <-time.After(20 * time.Millisecond):
	}
	sq.Lock.Store(0)
	if !<-launched {
		t.Error("the launch inside before the lock was refused, want it queued")
	}
	select {
	case <-locked:
	case <-time.After(10 * time.Second):
		t.Fatal("the lock still waits after the launch left the path")
	}

	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	th := newThreadRecord(c.h, 2)
	if launchDirect(th, fh, 1, sh, nil) {
		t.Error("the direct path queued a launch while the process is locked")
	}
	noteSnapshot(false)
	if !launchDirect(th, fh, 1, sh, nil) {
		t.Error("the direct path declined a launch after the unlock")
	}
	if n := sq.Submitted.Load(); n != 2 {
		t.Errorf("%d launches written into the area, want 2", n)
	}
}
