package gocann_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocann/gocann"
	"github.com/gocann/gocann/hal"
)

func TestStreamCreateAndClose(t *testing.T) {
	e := setup(t)
	s2 := e.newStream(t)
	if s2.ID() == e.s.ID() || s2.IsDefault() || s2.Context() != e.c {
		t.Fatalf("new stream: id %d (other %d), IsDefault %v", s2.ID(), e.s.ID(), s2.IsDefault())
	}
	ds, err := e.c.DefaultStream()
	check(t, err)
	if ds.ID() == s2.ID() || ds.ID() == e.s.ID() {
		t.Fatal("a created stream shares the default stream's id")
	}
	check(t, s2.Close())
	wantErr(t, s2.Close(), gocann.CodeRTInvalidHandle, "already destroyed")
	wantErr(t, s2.LaunchHostFunc(func() {}), gocann.CodeRTInvalidHandle, "destroyed")
	wantErr(t, s2.SynchronizeTimeout(long), gocann.CodeRTInvalidHandle, "destroyed")
	_, err = s2.Query()
	wantErr(t, err, gocann.CodeRTInvalidHandle, "destroyed")
}

func TestStreamCloseWaitsForTasks(t *testing.T) {
	// aclrtDestroyStream: "If tasks are unfinished, waits for them, then
	// destroys".
	e := setup(t)
	s := e.newStream(t)
	var finished atomic.Bool
	check(t, s.LaunchHostFunc(func() { time.Sleep(30 * time.Millisecond) }))
	check(t, s.LaunchHostFunc(func() { finished.Store(true) }))
	check(t, s.Close())
	if !finished.Load() {
		t.Fatal("Stream.Close returned before the stream's tasks finished")
	}
}

func TestStreamCloseForce(t *testing.T) {
	// CloseForce drops tasks not yet started and waits for the running one.
	e := setup(t)
	s := e.newStream(t)
	g := block(t, s)
	var queuedRan atomic.Bool
	check(t, s.LaunchHostFunc(func() { queuedRan.Store(true) }))
	g.waitStarted(t)
	closed := make(chan error, 1)
	go func() { closed <- s.CloseForce() }()
	// The stream reads as destroyed as soon as CloseForce marks it, just
	// before it drops the queued task.
	eventually(t, "stream destroyed", func() bool { _, err := s.Query(); return err != nil })
	time.Sleep(20 * time.Millisecond)
	select {
	case err := <-closed:
		t.Fatalf("CloseForce returned (%v) while a task was still running", err)
	default:
	}
	g.Open()
	select {
	case err := <-closed:
		check(t, err)
	case <-time.After(long):
		t.Fatal("CloseForce did not return after the running task ended")
	}
	// The dropped task never runs, even later.
	check(t, e.d.SynchronizeTimeout(long))
	if queuedRan.Load() {
		t.Fatal("a task queued behind the running one ran despite CloseForce")
	}
}

func TestStreamQuery(t *testing.T) {
	// aclrtStreamQuery: COMPLETE when every task is done, NOT_READY while one
	// is pending.
	e := setup(t)
	if !isDone(t, e.s) {
		t.Fatal("an empty stream is not complete")
	}
	g := block(t, e.s)
	check(t, e.s.LaunchHostFunc(func() {}))
	stays(t, 20*time.Millisecond, "stream not ready while blocked", func() bool { return !isDone(t, e.s) })
	g.Open()
	eventually(t, "stream complete", func() bool { return isDone(t, e.s) })
}

func TestStreamSynchronize(t *testing.T) {
	e := setup(t)
	const n = 1 << 20
	p := malloc(t, e.c, n)
	hb, err := e.r.MallocHost(n)
	check(t, err)
	for i := range 10 {
		check(t, e.s.Memset(p, byte(i), n))
	}
	check(t, e.s.CopyDeviceToHost(hb, 0, p, n))
	check(t, e.s.Synchronize(context.Background()))
	for i, b := range hb.Bytes() {
		if b != 9 {
			t.Fatalf("byte %d = %d after Synchronize, want 9 (the last memset)", i, b)
		}
	}
}

func TestStreamSynchronizeTimeout(t *testing.T) {
	// aclrtSynchronizeStreamWithTimeout: ACL_ERROR_RT_STREAM_SYNC_TIMEOUT
	// when the stream's tasks are not all done in time. The wait ends, the
	// work does not.
	e := setup(t)
	g := block(t, e.s)
	start := time.Now()
	err := e.s.SynchronizeTimeout(40 * time.Millisecond)
	wantErr(t, err, gocann.CodeRTStreamSyncTimeout, "not done within 40ms")
	if el := time.Since(start); el < 40*time.Millisecond {
		t.Errorf("SynchronizeTimeout(40ms) gave up after %v", el)
	}
	if !errors.Is(err, gocann.ErrTimeout) {
		t.Errorf("errors.Is(%v, ErrTimeout) = false", err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	err = e.s.Synchronize(ctx)
	wantErr(t, err, gocann.CodeRTStreamSyncTimeout, "not done within")
	if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, gocann.ErrTimeout) {
		t.Errorf("Synchronize(expired ctx) = %v: want DeadlineExceeded and ErrTimeout", err)
	}
	cctx, ccancel := context.WithCancel(context.Background())
	ccancel()
	if err := e.s.Synchronize(cctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Synchronize(cancelled ctx) = %v, want context.Canceled", err)
	}

	g.Open()
	syncOK(t, e.s)
}

func TestStreamPriority(t *testing.T) {
	// aclrtCreateStream: "default priority is highest"; the C++ form clamps
	// out-of-range values to [0,7].
	e := setup(t)
	for _, tc := range []struct {
		opts []gocann.StreamOption
		want int
	}{
		{nil, 0},
		{[]gocann.StreamOption{gocann.WithPriority(3)}, 3},
		{[]gocann.StreamOption{gocann.WithPriority(7)}, 7},
		{[]gocann.StreamOption{gocann.WithPriority(100)}, 7},
		{[]gocann.StreamOption{gocann.WithPriority(-4)}, 0},
	} {
		if p := e.newStream(t, tc.opts...).Priority(); p != tc.want {
			t.Errorf("priority %d, want %d", p, tc.want)
		}
	}
	ds, err := e.c.DefaultStream()
	check(t, err)
	if ds.Priority() != 0 {
		t.Errorf("default stream priority %d, want 0 (highest)", ds.Priority())
	}
	check(t, e.s.SetPriority(5))
	if e.s.Priority() != 5 {
		t.Errorf("SetPriority(5) then Priority() = %d", e.s.Priority())
	}
	wantErr(t, e.s.SetPriority(8), gocann.CodeRTParamInvalid, "priority 8 is invalid", "0..7")
	wantErr(t, e.s.SetPriority(-1), gocann.CodeRTParamInvalid, "priority -1 is invalid")
}

func TestStreamPriorityOrdersReadyTasks(t *testing.T) {
	// "High-priority pending tasks are scheduled first but do not preempt
	// running lower-priority tasks." One AI core: a long kernel holds it
	// while kernel A is queued on a low-priority stream, then kernel B on a
	// high-priority one; B must start first, both after the long one ends.
	e := setup(t, `{"simulator":{"hbm_size":1073741824,"aicore_num":1}}`)
	low := e.newStream(t, gocann.WithPriority(7))
	high := e.newStream(t, gocann.WithPriority(0))
	var log recorder
	started, release := make(chan struct{}), make(chan struct{})
	hold, err := e.r.RegisterKernel("hold", func(*gocann.Block) {
		log.add("hold")
		close(started)
		<-release
		log.add("hold-end")
	})
	check(t, err)
	ka, err := e.r.RegisterKernel("a", func(*gocann.Block) { log.add("A") })
	check(t, err)
	kb, err := e.r.RegisterKernel("b", func(*gocann.Block) { log.add("B") })
	check(t, err)
	check(t, low.Launch(hold, 1))
	<-started
	check(t, low.Launch(ka, 1))
	check(t, high.Launch(kb, 1))
	close(release)
	syncOK(t, low)
	syncOK(t, high)
	if got, want := log.String(), "hold,hold-end,B,A"; got != want {
		t.Fatalf("kernels ran in order %s, want %s", got, want)
	}
}

// panicKernel registers a kernel whose every block panics with msg.
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

func TestStreamAttributes(t *testing.T) {
	e := setup(t)
	s := e.newStream(t, gocann.WithPriority(2))
	for _, tc := range []struct {
		attr gocann.StreamAttr
		def  uint64
		good []uint64
	}{
		{gocann.StreamAttrFailureMode, 0, []uint64{1, 0}},
		{gocann.StreamAttrOverflowCheck, 0, []uint64{1, 0}},
		{gocann.StreamAttrUserTag, 0, []uint64{1 << 31, 0xFFFFFFFF, 7}},
		{gocann.StreamAttrCacheOpInfo, 0, []uint64{1, 0}},
		{gocann.StreamAttrPriority, 2, []uint64{7, 0, 4}},
	} {
		v, err := s.Attr(tc.attr)
		if err != nil || v != tc.def {
			t.Errorf("Attr(%d) = %d, %v; want %d", tc.attr, v, err, tc.def)
		}
		for _, good := range tc.good {
			check(t, s.SetAttr(tc.attr, good))
			if v, err := s.Attr(tc.attr); err != nil || v != good {
				t.Errorf("SetAttr(%d, %d) then Attr = %d, %v", tc.attr, good, v, err)
			}
		}
	}
	if s.Priority() != 4 {
		t.Errorf("priority attribute 4, Priority() = %d", s.Priority())
	}
	for _, tc := range []struct {
		attr gocann.StreamAttr
		v    uint64
		subs []string
	}{
		{gocann.StreamAttrFailureMode, 2, []string{"failure mode 2", "ACL_STOP_ON_FAILURE"}},
		{gocann.StreamAttrOverflowCheck, 2, []string{"value 2", "0 or 1"}},
		{gocann.StreamAttrCacheOpInfo, 9, []string{"value 9", "0 or 1"}},
		{gocann.StreamAttrUserTag, 1 << 32, []string{"user tag 4294967296", "32-bit"}},
		{gocann.StreamAttrPriority, 8, []string{"priority 8", "0..7"}},
		{gocann.StreamAttr(0), 0, []string{"stream attribute 0", "1..5"}},
		{gocann.StreamAttr(6), 0, []string{"stream attribute 6", "1..5"}},
	} {
		wantErr(t, s.SetAttr(tc.attr, tc.v), gocann.CodeRTParamInvalid, tc.subs...)
	}
	_, err := s.Attr(gocann.StreamAttr(6))
	wantErr(t, err, gocann.CodeRTParamInvalid, "stream attribute 6")
	// Bad values leave the attributes as they were.
	if v, _ := s.Attr(gocann.StreamAttrUserTag); v != 7 {
		t.Errorf("user tag %d after a refused SetAttr, want 7", v)
	}
	check(t, s.Close())
	_, err = s.Attr(gocann.StreamAttrPriority)
	wantErr(t, err, gocann.CodeRTInvalidHandle, "destroyed")
	wantErr(t, s.SetAttr(gocann.StreamAttrPriority, 1), gocann.CodeRTInvalidHandle, "destroyed")
}

func TestStreamFlags(t *testing.T) {
	e := setup(t)
	s := e.newStream(t, gocann.WithStreamFlags(gocann.StreamFastLaunch|gocann.StreamFastSync))
	if s.Flags() != 3 {
		t.Errorf("Flags() = %#x, want 0x3", s.Flags())
	}
	if f := e.newStream(t, gocann.WithStreamFlags(gocann.StreamHuge)).Flags(); f != gocann.StreamHuge {
		t.Errorf("Flags() = %#x, want ACL_STREAM_HUGE", f)
	}
	// "Other values → equivalent to aclrtCreateStream."
	if f := e.newStream(t, gocann.WithStreamFlags(0x100)).Flags(); f != 0 {
		t.Errorf("unknown flag kept: Flags() = %#x", f)
	}
	// ACL_STREAM_PERSISTENT keeps its tasks for a model; unbound, it takes
	// none.
	p := e.newStream(t, gocann.WithStreamFlags(gocann.StreamPersistent))
	if p.Flags() != gocann.StreamPersistent {
		t.Errorf("Flags() = %#x, want ACL_STREAM_PERSISTENT", p.Flags())
	}
	wantErr(t, p.Memset(malloc(t, e.c, 8), 0, 8), gocann.CodeRTStreamModel, "aclmdlRIBindStream")
}

func TestStreamPool(t *testing.T) {
	// Stream limits are per device and "include default streams";
	// exhaustion is ACL_ERROR_RT_NO_STREAM_RESOURCE.
	e := setup(t, `{"simulator":{"hbm_size":1073741824,"stream_limit":8}}`)
	streams := []*gocann.Stream{e.s}
	for len(streams) < 7 { // with the default stream, 8 in all
		streams = append(streams, e.newStream(t))
	}
	_, err := e.c.NewStream()
	wantErr(t, err, gocann.CodeRTNoStreamResource, "all 8 streams")
	if !errors.Is(err, gocann.ErrNoResource) {
		t.Errorf("errors.Is(%v, ErrNoResource) = false", err)
	}
	// A context needs a default stream too.
	_, err = e.d.NewContext()
	wantErr(t, err, gocann.CodeRTNoStreamResource, "all 8 streams")
	// The limit is per device.
	d1, err := e.r.SetDevice(1)
	check(t, err)
	c1, err := d1.Context()
	check(t, err)
	_, err = c1.NewStream()
	check(t, err)

	check(t, streams[3].Close())
	s := e.newStream(t)
	check(t, s.LaunchHostFunc(func() {}))
	syncOK(t, s)
	_, err = e.c.NewStream()
	wantErr(t, err, gocann.CodeRTNoStreamResource, "all 8 streams")
}

func TestStreamsRunConcurrently(t *testing.T) {
	// Different streams run in parallel; a blocked stream does not hold
	// another.
	e := setup(t)
	block(t, e.s)
	s2 := e.newStream(t)
	var ran atomic.Bool
	check(t, s2.LaunchHostFunc(func() { ran.Store(true) }))
	syncOK(t, s2)
	if !ran.Load() || isDone(t, e.s) {
		t.Fatal("a blocked stream held back another stream")
	}
}

func TestCopyOverlapsKernel(t *testing.T) {
	// "The DMA engine is independent of compute": a copy on one stream runs
	// while a kernel on another does. The kernel starts, then polls for a
	// word the copy delivers, so the copy must start within the kernel's run.
	e := setup(t)
	s2 := e.newStream(t)
	const n = 1 << 20
	src := malloc(t, e.c, n)
	dst := malloc(t, e.c, n)
	writeU64(t, e.c, src.Add(n-8), 0xC0FFEE)
	started := make(chan struct{})
	k, err := e.r.RegisterKernel("poll", func(b *gocann.Block) {
		close(started)
		deadline := time.Now().Add(long)
		for b.Load64(b.Arg(0).Ptr()) != 0xC0FFEE {
			if time.Now().After(deadline) {
				b.Trap("copy never arrived")
			}
			time.Sleep(10 * time.Microsecond)
		}
	})
	check(t, err)
	check(t, e.s.Launch(k, 1, gocann.Ptr(dst.Add(n-8))))
	<-started
	check(t, s2.CopyDeviceToDevice(dst, src, n))
	syncOK(t, s2)
	syncOK(t, e.s)
	kr := records(t, e.d, e.s, hal.TaskKernel)
	cr := records(t, e.d, s2, hal.TaskCopy)
	if len(kr) != 1 || len(cr) != 1 {
		t.Fatalf("trace holds %d kernel and %d copy records, want 1 and 1", len(kr), len(cr))
	}
	kern, cp := kr[0], cr[0]
	if kern.Engine != hal.EngineAICore || cp.Engine != hal.EngineDMA {
		t.Errorf("engines: kernel %v, copy %v", kern.Engine, cp.Engine)
	}
	for _, r := range []gocann.TaskRecord{kern, cp} {
		if r.Submit > r.Start || r.Start > r.End || r.Failed {
			t.Errorf("trace record %+v: want submit <= start <= end, not failed", r)
		}
	}
	if cp.Start > kern.End || kern.Start > cp.End {
		t.Fatalf("copy [%d, %d] and kernel [%d, %d] do not overlap", cp.Start, cp.End, kern.Start, kern.End)
	}
}

func TestConcurrentUse(t *testing.T) {
	// Handles may be used from any goroutine: launches, allocations, events
	// and synchronizes from eight goroutines on three streams lose nothing.
	e := setup(t)
	w := malloc(t, e.c, 8)
	inc, err := e.r.RegisterKernel("inc", func(b *gocann.Block) { b.Add64(b.Arg(0).Ptr(), 1) })
	check(t, err)
	streams := []*gocann.Stream{e.s, e.newStream(t), e.newStream(t)}
	const goroutines, launches = 8, 200
	errs := make(chan error, goroutines)
	for g := range goroutines {
		go func() {
			errs <- func() error {
				s, next := streams[g%3], streams[(g+1)%3]
				for i := range launches {
					if err := s.Launch(inc, 2, gocann.Ptr(w)); err != nil {
						return err
					}
					if i%40 != 0 {
						continue
					}
					p, err := e.c.Malloc(4096, gocann.NormalOnly)
					if err != nil {
						return err
					}
					ev, err := e.c.NewEvent(gocann.EventSync)
					if err != nil {
						return err
					}
					for _, err := range []error{e.c.Free(p), s.Record(ev), next.WaitEvent(ev), ev.Close(), s.SynchronizeTimeout(long)} {
						if err != nil {
							return err
						}
					}
				}
				return nil
			}()
		}()
	}
	for range goroutines {
		check(t, <-errs)
	}
	check(t, e.d.SynchronizeTimeout(long))
	if got := readU64(t, e.c, w); got != goroutines*launches*2 {
		t.Fatalf("counter %d, want %d", got, goroutines*launches*2)
	}
}

// TestDestroyRacingLaunches destroys streams while other goroutines launch
// onto them: the destroy succeeds, the stream is gone, and each launch was
// either taken, refused as a launch on a destroyed stream, or ended by the
// destroy's abort while it waited for room. A launch that
// passed its check just before the destroy used to land after the queue was
// emptied, and the destroy then failed with 507000 and left the stream
// behind.
func TestDestroyRacingLaunches(t *testing.T) {
	e := setup(t)
	k, err := e.r.RegisterKernel("nop", func(*gocann.Block) {})
	check(t, err)
	for round := 0; round < 200; round++ {
		s := e.newStream(t)
		var wg sync.WaitGroup
		errs := make(chan error, 4)
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					if err := s.Launch(k, 1); err != nil {
						errs <- err
						return
					}
				}
			}()
		}
		time.Sleep(100 * time.Microsecond)
		if err := s.Close(); err != nil {
			t.Fatalf("round %d: destroy while launching: %v", round, err)
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if !errors.Is(err, gocann.ErrClosed) && !errors.Is(err, gocann.CodeRTStreamAbort) {
				t.Fatalf("round %d: a launch racing the destroy failed with %v, expected ErrClosed or 107023", round, err)
			}
		}
		if err := s.Launch(k, 1); !errors.Is(err, gocann.ErrClosed) {
			t.Fatalf("round %d: launch after the destroy: %v, expected ErrClosed", round, err)
		}
	}
}
