package gocann_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocann/gocann"
)

// Models built over persistent streams (aclmdlRIBuildBegin ..
// aclmdlRIBuildEnd): "Tasks issued to it are not executed immediately and
// are not destroyed after they run."

// buildTwo builds a model of a head stream that writes 1 into the decimal
// trace at p and activates a second stream that appends 2. It returns the
// model and its two persistent streams.
func buildTwo(t *testing.T, e env, k kernels, p gocann.DevPtr) (*gocann.ModelRI, *gocann.Stream, *gocann.Stream) {
	t.Helper()
	head, side := e.persistent(t), e.persistent(t)
	m := newBuild(t, e)
	check(t, m.Bind(head, true))
	check(t, m.Bind(side, false))
	check(t, head.Launch(k.shift, 1, gocann.Ptr(p), gocann.U64(1)))
	check(t, head.ActivateStream(side))
	check(t, side.Launch(k.shift, 1, gocann.Ptr(p), gocann.U64(2)))
	check(t, m.EndTask(head))
	check(t, m.EndTask(side))
	check(t, m.BuildEnd())
	return m, head, side
}

func TestBuildKeepsTasksAcrossRuns(t *testing.T) {
	e := setup(t)
	k := registerKernels(t, e)
	p := word(t, e, 0)
	m, _, _ := buildTwo(t, e, k, p)
	wantU64(t, e, p, 0, "tasks queued on bound streams ran before any run")

	// Execute runs the head stream, which starts the other one.
	check(t, m.Execute(context.Background()))
	wantU64(t, e, p, 12, "Execute")

	// Each run replays the same tasks: three runs on an ordinary stream,
	// ordered with that stream's own tasks around them.
	other := e.newStream(t)
	check(t, other.Launch(k.store, 1, gocann.Ptr(p), gocann.U64(0)))
	for range 3 {
		check(t, m.Run(other))
	}
	check(t, other.Launch(k.shift, 1, gocann.Ptr(p), gocann.U64(9)))
	syncOK(t, other)
	wantU64(t, e, p, 1212129, "three runs between a store and a shift")

	// Any stream of the device can run it, the default stream included.
	def, err := e.c.DefaultStream()
	check(t, err)
	writeU64(t, e.c, p, 0)
	runOK(t, m, def)
	runOK(t, m, e.s)
	wantU64(t, e, p, 1212, "runs on the default stream and on another stream")
	check(t, m.ExecuteTimeout(long))
	wantU64(t, e, p, 121212, "ExecuteTimeout")
}

func TestBuildNonHeadStreamWaitsForActivation(t *testing.T) {
	// A stream bound without the head flag runs only when a task of the
	// model activates it.
	e := setup(t)
	k := registerKernels(t, e)
	p := word(t, e, 0)
	head, side := e.persistent(t), e.persistent(t)
	m := newBuild(t, e)
	check(t, m.Bind(head, true))
	check(t, m.Bind(side, false))
	check(t, head.Launch(k.shift, 1, gocann.Ptr(p), gocann.U64(1)))
	check(t, side.Launch(k.shift, 1, gocann.Ptr(p), gocann.U64(2)))
	check(t, m.EndTask(head))
	check(t, m.EndTask(side))
	check(t, m.BuildEnd())
	runOK(t, m, e.s)
	wantU64(t, e, p, 1, "a never-activated stream ran")
}

func TestBuildEndTaskStopsTheStream(t *testing.T) {
	// A build ends each stream with EndTask; nothing more goes on it.
	e := setup(t)
	k := registerKernels(t, e)
	p := word(t, e, 0)
	s := e.persistent(t)
	m := newBuild(t, e)
	check(t, m.Bind(s, true))
	check(t, s.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(1)))
	check(t, m.EndTask(s))
	wantErr(t, s.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(100)), gocann.CodeRTStreamModel,
		"stream "+itoa(s.ID()), "aclmdlRIEndTask")
	check(t, m.BuildEnd())
	for i := 1; i <= 4; i++ {
		runOK(t, m, e.s)
		wantU64(t, e, p, uint64(i), "run count")
	}
}

func TestBuildRefusals(t *testing.T) {
	e := setup(t)
	k := registerKernels(t, e)
	p := word(t, e, 0)
	s := e.persistent(t)

	// A persistent stream takes tasks only when bound to a model.
	wantErr(t, s.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(1)), gocann.CodeRTStreamModel,
		"persistent stream "+itoa(s.ID()), "not bound", "aclmdlRIBindStream")
	wantErr(t, s.Memset(p, 1, 8), gocann.CodeRTStreamModel, "not bound")

	m := newBuild(t, e)
	wantErr(t, m.Run(e.s), gocann.CodeRTModelCaptured, "still being built")
	wantErr(t, m.BuildEnd(), gocann.CodeRTParamInvalid, "no bound stream")
	wantErr(t, m.Bind(e.s, true), gocann.CodeRTParamInvalid, "stream "+itoa(e.s.ID()), "ACL_STREAM_PERSISTENT")
	wantErr(t, m.Bind(nil, true), gocann.CodeInvalidParam, "stream is nil")
	check(t, m.Bind(s, true))
	wantErr(t, m.Bind(s, true), gocann.CodeRTParamInvalid, "stream "+itoa(s.ID()), "already bound")
	m2 := newBuild(t, e)
	wantErr(t, m2.Bind(s, false), gocann.CodeRTParamInvalid, "already bound")

	// EndTask and Unbind name a stream of the model.
	other := e.persistent(t)
	wantErr(t, m.EndTask(other), gocann.CodeRTStreamModel, "stream "+itoa(other.ID()), "not bound to model")
	wantErr(t, m.Unbind(other), gocann.CodeRTStreamModel, "not bound to model")

	// Bound streams are not aborted; synchronizing a persistent stream
	// does nothing and succeeds, and a query reports it done.
	wantErr(t, s.Abort(), gocann.CodeRTParamInvalid, "stream "+itoa(s.ID()), "bound to model")
	check(t, s.Synchronize(context.Background()))
	check(t, s.SynchronizeTimeout(long))
	if done, err := s.Query(); err != nil || !done {
		t.Fatalf("Query of a persistent stream = %v, %v; want true, nil", done, err)
	}
	check(t, other.Synchronize(context.Background()))

	check(t, s.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(1)))
	check(t, m.BuildEnd())
	wantErr(t, m.BuildEnd(), gocann.CodeRTParamInvalid, "not being built")
	wantErr(t, m.Bind(other, true), gocann.CodeRTParamInvalid, "before aclmdlRIBuildEnd")
	// Tasks after BuildEnd are refused, not silently dropped or run.
	wantErr(t, s.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(100)), gocann.CodeRTStreamModel, "is built", "take no more tasks")
	wantErr(t, m.EndTask(s), gocann.CodeRTStreamModel, "is built", "take no more tasks")
	// A stream bound to a model cannot launch one.
	wantErr(t, m.Run(s), gocann.CodeRTCaptureModeNotSupport, "stream "+itoa(s.ID()), "bound to a model")
	runOK(t, m, e.s)
	wantU64(t, e, p, 1, "the model ran its one task")
}

func TestBuildUnbindAndRebind(t *testing.T) {
	e := setup(t)
	k := registerKernels(t, e)
	p := word(t, e, 0)
	s := e.persistent(t)
	m, err := e.c.BuildModel()
	check(t, err)
	check(t, m.Bind(s, true))
	check(t, s.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(1)))
	var entered atomic.Int32
	g := make(chan struct{})
	t.Cleanup(func() {
		select {
		case <-g:
		default:
			close(g)
		}
	})
	check(t, s.LaunchHostFunc(func() { entered.Add(1); <-g }))
	check(t, m.EndTask(s))
	check(t, m.BuildEnd())

	// While a run is going, neither Unbind nor Close is allowed.
	check(t, m.Run(e.s))
	eventually(t, "the run reaches its host function", func() bool { return entered.Load() == 1 })
	wantErr(t, m.Unbind(s), gocann.CodeRTModelRunning, "model "+utoa(m.ID()), "running")
	wantErr(t, m.Close(), gocann.CodeRTModelRunning, "model "+utoa(m.ID()), "still running")
	close(g)
	syncOK(t, e.s)
	wantU64(t, e, p, 1, "the first run")

	// Unbinding keeps what was recorded; the stream is free again.
	check(t, m.Unbind(s))
	wantErr(t, m.Unbind(s), gocann.CodeRTStreamModel, "not bound")
	runOK(t, m, e.s)
	wantU64(t, e, p, 2, "a run after Unbind")
	wantErr(t, s.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(1)), gocann.CodeRTStreamModel, "not bound")
	m2 := newBuild(t, e)
	check(t, m2.Bind(s, true))
	check(t, s.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(10)))
	check(t, m2.BuildEnd())
	runOK(t, m2, e.s)
	wantU64(t, e, p, 12, "a second model over the same stream")

	// Closing a model unbinds what is still bound.
	check(t, m.Close())
	wantErr(t, m.Close(), gocann.CodeRTInvalidHandle, "model "+utoa(m.ID()), "destroyed")
	wantErr(t, m.Run(e.s), gocann.CodeRTInvalidHandle, "destroyed")
	check(t, m2.Close())
	wantErr(t, s.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(1)), gocann.CodeRTStreamModel, "not bound")
}

func TestBuildStreamClosedWhileBound(t *testing.T) {
	// Destroying a bound stream unbinds it; the model keeps its tasks and
	// can still run and close.
	e := setup(t)
	k := registerKernels(t, e)
	p := word(t, e, 0)
	s := e.persistent(t)
	m, err := e.c.BuildModel()
	check(t, err)
	check(t, m.Bind(s, true))
	check(t, s.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(1)))
	check(t, m.BuildEnd())
	check(t, s.Close())
	runOK(t, m, e.s)
	wantU64(t, e, p, 1, "a run after the bound stream was closed")
	check(t, m.Close())
}

func TestModelIdentity(t *testing.T) {
	e := setup(t)
	m1 := newBuild(t, e)
	m2, err := e.s.Capture(gocann.CaptureGlobal, func(*gocann.Stream) error { return nil })
	check(t, err)
	closeModel(t, m2)
	if m1.ID() == 0 || m2.ID() == 0 || m1.ID() == m2.ID() {
		t.Fatalf("model ids %d and %d: want distinct non-zero ids", m1.ID(), m2.ID())
	}
	if m1.Name() != "" {
		t.Fatalf("a new model's name is %q, want empty", m1.Name())
	}
	check(t, m1.SetName("first"))
	check(t, m1.SetName("resnet"))
	if m1.Name() != "resnet" || m2.Name() != "" {
		t.Fatalf("names %q, %q: want the last SetName on the named model only", m1.Name(), m2.Name())
	}
	long := strings.Repeat("a", 500) + strings.Repeat("b", 100)
	check(t, m2.SetName(long))
	if got := m2.Name(); got != long[:512] {
		t.Fatalf("a 600-byte name kept %d bytes, want the first 512", len(got))
	}
	// The capture's model is the model End returns.
	c, err := e.s.BeginCapture(gocann.CaptureGlobal)
	check(t, err)
	st, cm := e.s.CaptureInfo()
	if st != gocann.CaptureActive || cm != c.Model() {
		t.Fatalf("CaptureInfo = %v, %v; want ACTIVE and the capture's model", st, cm)
	}
	m3, err := c.End()
	check(t, err)
	closeModel(t, m3)
	if m3 != cm || m3.ID() != cm.ID() {
		t.Fatalf("End returned model %d, the capture held model %d", m3.ID(), cm.ID())
	}
	check(t, m1.Close())
	wantErr(t, m1.SetName("x"), gocann.CodeRTInvalidHandle, "model "+utoa(m1.ID()), "destroyed")
}

func TestModelDestroyCallbacks(t *testing.T) {
	e := setup(t)
	m, err := e.s.Capture(gocann.CaptureGlobal, func(*gocann.Stream) error { return nil })
	check(t, err)
	var log recorder
	check(t, m.OnDestroy(func() { log.add("a") }))
	check(t, m.OnDestroyKey(1, func() { log.add("b") }))
	check(t, m.OnDestroyKey(2, func() { log.add("c") }))
	check(t, m.OnDestroyKey(1, func() { log.add("d") }))
	wantErr(t, m.OnDestroy(nil), gocann.CodeInvalidParam, "callback is nil")
	check(t, m.RemoveOnDestroy(1))
	wantErr(t, m.RemoveOnDestroy(1), gocann.CodeRTParamInvalid, "no destroy callback")
	wantErr(t, m.RemoveOnDestroy(0), gocann.CodeRTParamInvalid, "key 0 is invalid")
	if log.String() != "" {
		t.Fatalf("callbacks ran before Close: %s", log.String())
	}
	check(t, m.Close())
	if got := log.String(); got != "a,c" {
		t.Fatalf("destroy callbacks ran %q, want \"a,c\" (key 1 removed) before Close returned", got)
	}
	wantErr(t, m.OnDestroy(func() {}), gocann.CodeRTInvalidHandle, "destroyed")
	wantErr(t, m.RemoveOnDestroy(2), gocann.CodeRTInvalidHandle, "destroyed")
	if got := log.String(); got != "a,c" {
		t.Fatalf("callbacks ran again: %q", got)
	}
}

func TestBuildWaitTimeout(t *testing.T) {
	// A wait of a bound stream for an event of the model that never comes
	// fails after its timeout, and the stream goes on.
	e := setup(t)
	k := registerKernels(t, e)
	p := word(t, e, 0)
	ev := newEvents(t, e, 1)[0]
	head, side := e.persistent(t), e.persistent(t)
	m := newBuild(t, e)
	check(t, m.Bind(head, true))
	check(t, m.Bind(side, false)) // never activated
	check(t, side.Record(ev))
	check(t, head.WaitEventTimeout(ev, 20*time.Millisecond))
	check(t, head.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(1)))
	check(t, m.BuildEnd())
	check(t, m.Run(e.s))
	wantErr(t, e.s.SynchronizeTimeout(long), gocann.CodeRTWaitTimeout, "event wait timed out after 20ms")
	wantU64(t, e, p, 1, "the task after the timed-out wait")
}

func TestBuildExecuteTimeout(t *testing.T) {
	// Execute waits for the run; a bounded wait that expires reports
	// ACL_ERROR_RT_STREAM_SYNC_TIMEOUT and the run goes on.
	e := setup(t)
	k := registerKernels(t, e)
	p := word(t, e, 0)
	release := make(chan struct{})
	t.Cleanup(func() {
		select {
		case <-release:
		default:
			close(release)
		}
	})
	s := e.persistent(t)
	m := newBuild(t, e)
	check(t, m.Bind(s, true))
	check(t, s.LaunchHostFunc(func() { <-release }))
	check(t, s.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(1)))
	check(t, m.BuildEnd())
	wantErr(t, m.ExecuteTimeout(10*time.Millisecond), gocann.CodeRTStreamSyncTimeout)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := m.Execute(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Execute with a cancelled context = %v, want context.Canceled", err)
	}
	close(release)
	def, err := e.c.DefaultStream()
	check(t, err)
	syncOK(t, def)
	wantU64(t, e, p, 2, "both runs went on after their waits ended")
}

func TestRunOnPersistentStreamRefused(t *testing.T) {
	// A persistent stream takes tasks only for the model it is bound to; a
	// run is a task like any other (and its Synchronize, a no-op, could not
	// wait for one).
	e := setup(t)
	m, err := e.s.Capture(gocann.CaptureGlobal, func(*gocann.Stream) error { return nil })
	check(t, err)
	closeModel(t, m)
	ps := e.persistent(t)
	wantErr(t, m.Run(ps), gocann.CodeRTStreamModel, "persistent stream "+itoa(ps.ID()), "not bound")
}

func TestPersistentCleanTasks(t *testing.T) {
	// aclrtPersistentTaskClean "clears the tasks on a PERSISTENT stream so
	// tasks can be re-issued without destroying the stream".
	e := setup(t)
	k := registerKernels(t, e)
	p := word(t, e, 0)
	wantErr(t, e.s.CleanTasks(), gocann.CodeRTParamInvalid, "stream "+itoa(e.s.ID()), "not persistent")
	s := e.persistent(t)
	check(t, s.CleanTasks()) // nothing recorded: nothing to do
	m := newBuild(t, e)
	check(t, m.Bind(s, true))
	ev, err := e.c.NewEvent(gocann.EventSync)
	check(t, err)
	check(t, s.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(100)))
	check(t, s.Record(ev))
	check(t, m.EndTask(s))
	_, err = s.BoundModelStream()
	wantErr(t, err, gocann.CodeRTModelCaptured, "still being built")
	// The cleaned stream takes tasks again, EndTask included.
	check(t, s.CleanTasks())
	check(t, s.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(1)))
	check(t, m.EndTask(s))
	check(t, m.BuildEnd())
	ms, err := s.BoundModelStream()
	check(t, err)
	if ms.Model() != m || ms.Source() != s || len(ms.Tasks()) != 2 {
		t.Fatalf("BoundModelStream: model %p, %d tasks; want the model and its kernel and end", ms.Model(), len(ms.Tasks()))
	}
	for _, tk := range ms.Tasks() {
		if got := tk.Params().Event; got != nil {
			t.Fatalf("task %d of the cleaned stream reports event %p, which only a cleaned task recorded", tk.Seq(), got)
		}
	}
	// A built model keeps its tasks.
	check(t, s.CleanTasks())
	runOK(t, m, e.s)
	runOK(t, m, e.s)
	wantU64(t, e, p, 2, "runs after a clean of the built model's stream")
	_, err = e.newStream(t).BoundModelStream()
	wantErr(t, err, gocann.CodeRTStreamModel, "not bound")
}

func TestBuildPageableCopies(t *testing.T) {
	// CANN's own model examples queue aclrtMemcpyAsync from a std::vector
	// on a bound stream: the model records the host addresses, and each run
	// reads (or writes) them, as the device's DMA would.
	e := setup(t)
	p := word(t, e, 0)
	src := make([]byte, 8)
	dst := make([]byte, 8)
	s := e.persistent(t)
	m := newBuild(t, e)
	check(t, m.Bind(s, true))
	check(t, s.CopyToDevice(p, src))
	check(t, s.CopyFromDevice(dst, p))
	check(t, m.BuildEnd())
	for _, v := range []byte{3, 9} {
		src[0] = v
		runOK(t, m, e.s)
		wantU64(t, e, p, uint64(v), "the word after a run copied the host bytes")
		if dst[0] != v {
			t.Fatalf("run with host byte %d: the device-to-host copy wrote %d", v, dst[0])
		}
	}
}
