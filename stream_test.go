package gocann_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocann/gocann"
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
	// CloseForce returns at once, with a task still running; the task
	// queued behind it still runs, and the queue goes when both are done.
	e := setup(t)
	s := e.newStream(t)
	g := block(t, s)
	var queuedRan atomic.Bool
	check(t, s.LaunchHostFunc(func() { queuedRan.Store(true) }))
	g.waitStarted(t)
	closed := make(chan error, 1)
	go func() { closed <- s.CloseForce() }()
	select {
	case err := <-closed:
		check(t, err)
	case <-time.After(long):
		t.Fatal("CloseForce waited for the running task")
	}
	if _, err := s.Query(); gocann.CodeOf(err) != gocann.CodeRTInvalidHandle {
		t.Fatalf("Query of a force-closed stream: %v, want code %d", err, gocann.CodeRTInvalidHandle)
	}
	if queuedRan.Load() {
		t.Fatal("the queued task ran before the running one ended")
	}
	g.Open()
	check(t, e.d.SynchronizeTimeout(long))
	if !queuedRan.Load() {
		t.Fatal("a task submitted before CloseForce never ran")
	}
}

// TestStreamCloseForceIdle: a force close of an idle stream, and of one
// whose tasks were aborted, closes its queue at once; a device reset
// behind a force-closed stream's tasks ends them.
func TestStreamCloseForceIdle(t *testing.T) {
	e := setup(t)
	s := e.newStream(t)
	check(t, s.CloseForce())
	s2 := e.newStream(t)
	g := block(t, s2)
	check(t, s2.LaunchHostFunc(func() {}))
	g.waitStarted(t)
	check(t, s2.CloseForce())
	g.Open()
	check(t, e.d.SynchronizeTimeout(long))
}

// TestStreamCloseForceReset: a device reset waits for the tasks of a
// force-closed stream of its default context, as for its other streams.
func TestStreamCloseForceReset(t *testing.T) {
	e := setup(t)
	s := e.newStream(t)
	g := block(t, s)
	var ran atomic.Bool
	check(t, s.LaunchHostFunc(func() { ran.Store(true) }))
	g.waitStarted(t)
	check(t, s.CloseForce())
	reset := make(chan error, 1)
	go func() { reset <- e.d.ResetForce() }()
	select {
	case err := <-reset:
		t.Fatalf("ResetForce returned (%v) with a force-closed stream's task still running", err)
	case <-time.After(20 * time.Millisecond):
	}
	g.Open()
	select {
	case err := <-reset:
		check(t, err)
	case <-time.After(long):
		t.Fatal("ResetForce did not return after the tasks ended")
	}
	if !ran.Load() {
		t.Fatal("the task queued before CloseForce did not run before the reset ended")
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
