package gocann_test

import (
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocann/gocann"
)

// How model runs behave as tasks of the streams that launch them: faults,
// concurrent runs, devices and contexts, events shared with streams outside
// the model.

func TestModelFaultsReportedByRun(t *testing.T) {
	// A fault inside a run is the run's: the launching stream reports it
	// once, naming the kernel and the line that captured it; later runs
	// are unaffected.
	e := setup(t)
	k := registerKernels(t, e)
	p := word(t, e, 0)
	var trap atomic.Bool
	trapper, err := e.r.RegisterKernel("model_trapper", func(b *gocann.Block) {
		if trap.Load() {
			b.Trap("assertion x > 0")
		}
	})
	check(t, err)
	var panics atomic.Bool
	m, err := e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		check(t, s.Launch(trapper, 2))
		check(t, s.LaunchHostFunc(func() {
			if panics.Load() {
				panic("boom")
			}
		}))
		return s.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(1))
	})
	check(t, err)
	closeModel(t, m)

	trap.Store(true)
	check(t, m.Run(e.s))
	wantErr(t, e.s.SynchronizeTimeout(long), gocann.CodeRTAICoreTrapException, `kernel "model_trapper"`, "assertion x > 0", "modelrun_test.go:")
	syncOK(t, e.s) // reported once
	trap.Store(false)
	panics.Store(true)
	check(t, m.Run(e.s))
	wantErr(t, e.s.SynchronizeTimeout(long), gocann.CodeRTInternalError, "host function panicked: boom")
	panics.Store(false)
	runOK(t, m, e.s)
	wantU64(t, e, p, 3, "every run went on after its fault")
}

func TestModelConcurrentRuns(t *testing.T) {
	// Runs of one model on two streams are independent: each has its own
	// graph events, and they run at the same time.
	e := setup(t)
	s1, s2 := e.newStream(t), e.newStream(t)
	ev := newEvents(t, e, 2)
	var arrived atomic.Int32
	rv := newRendezvous()
	m, err := e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		other := e.newStream(t)
		check(t, s.Record(ev[0]))
		check(t, other.WaitEvent(ev[0]))
		check(t, other.LaunchHostFunc(func() { rv.side(int(arrived.Add(1)-1) % 2)() }))
		check(t, other.Record(ev[1]))
		return s.WaitEvent(ev[1])
	})
	check(t, err)
	closeModel(t, m)
	check(t, m.Run(s1))
	check(t, m.Run(s2))
	syncOK(t, s1)
	syncOK(t, s2)
	if rv.timedOut.Load() || arrived.Load() != 2 {
		t.Fatalf("two runs of one model on two streams did not run together (%d arrived)", arrived.Load())
	}
}

func TestModelRunOtherContextAndDevice(t *testing.T) {
	e := setup(t)
	k := registerKernels(t, e)
	p := word(t, e, 0)
	m, err := e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		return s.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(1))
	})
	check(t, err)
	closeModel(t, m)
	// Any stream of the device, in any of its contexts.
	ctx, err := e.d.NewContext()
	check(t, err)
	t.Cleanup(func() { ctx.Close() })
	s, err := ctx.NewStream()
	check(t, err)
	runOK(t, m, s)
	wantU64(t, e, p, 1, "a run on a stream of another context")
	// Not a stream of another device.
	_, s1 := onDevice(t, e.r, 1)
	wantErr(t, m.Run(s1), gocann.CodeRTParamInvalid, "model "+utoa(m.ID())+" is on device 0", "stream "+itoa(s1.ID())+" on device 1")
	wantErr(t, m.Run(nil), gocann.CodeInvalidParam, "stream is nil")
}

func TestModelExternalEventSignalsOutside(t *testing.T) {
	// An ACL_EVENT_EXTERNAL event recorded inside a model releases a stream
	// outside it that waits for the event.
	e := setup(t)
	k := registerKernels(t, e)
	p := word(t, e, 0)
	ext, err := e.c.NewEventWithFlag(gocann.EventExternal)
	check(t, err)
	release := make(chan struct{})
	t.Cleanup(func() {
		select {
		case <-release:
		default:
			close(release)
		}
	})
	m, err := e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		check(t, s.Launch(k.store, 1, gocann.Ptr(p), gocann.U64(5)))
		check(t, s.Record(ext))
		return s.LaunchHostFunc(func() { <-release })
	})
	check(t, err)
	closeModel(t, m)
	waiter := e.newStream(t)
	check(t, waiter.WaitEvent(ext))
	check(t, waiter.Launch(k.shift, 1, gocann.Ptr(p), gocann.U64(1)))
	check(t, waiter.ResetEvent(ext))
	check(t, m.Run(e.s))
	// The waiter goes on while the model is still held by its host
	// function.
	syncOK(t, waiter)
	wantU64(t, e, p, 51, "the outside stream after the model's record")
	close(release)
	syncOK(t, e.s)
}

func TestBuildCrossStreamEvents(t *testing.T) {
	// Events recorded and waited for between bound streams order them
	// within each run.
	e := setup(t)
	k := registerKernels(t, e)
	p := word(t, e, 0)
	ev := newEvents(t, e, 1)[0]
	b := build(t, e, 2)
	s1, s2 := b.streams[0], b.streams[1]
	// Stream 1's wait is queued before stream 0's record: the streams of a
	// build are filled in any order. Stream 0 gives stream 1 a window to
	// pass its wait too early before it records.
	var early atomic.Bool
	var passed atomic.Bool
	check(t, s1.ActivateStream(s2))
	check(t, s2.WaitEvent(ev))
	check(t, s2.LaunchHostFunc(func() { passed.Store(true) }))
	check(t, s2.Launch(k.shift, 1, gocann.Ptr(p), gocann.U64(2)))
	check(t, s1.LaunchHostFunc(func() {
		for deadline := time.Now().Add(20 * time.Millisecond); time.Now().Before(deadline); {
			if passed.Load() {
				early.Store(true)
				return
			}
			runtime.Gosched()
		}
	}))
	check(t, s1.Launch(k.shift, 1, gocann.Ptr(p), gocann.U64(1)))
	check(t, s1.Record(ev))
	m := b.end()
	for range 3 {
		passed.Store(false)
		trace(t, e, m, p, 12, "stream 1 after the event of stream 0")
		if early.Load() {
			t.Fatal("stream 1 passed its wait before stream 0 recorded the event")
		}
	}
	if ss, err := m.Streams(); err != nil || ss[1].Tasks()[0].Params().Event != ev {
		t.Fatalf("the wait task does not report its event: %v", err)
	}
	ss, err := m.Streams()
	check(t, err)
	if len(ss) != 2 || ss[0].Source() != s1 {
		t.Fatalf("built model lists %d streams", len(ss))
	}
	text, err := m.Describe(false)
	check(t, err)
	for _, want := range []string{"(built)", "stream 0 task 3 -> stream 1 task 0", "end"} {
		if !strings.Contains(text, want) {
			t.Errorf("Describe of a built model does not mention %q:\n%s", want, text)
		}
	}
}

func TestLabelLoop(t *testing.T) {
	// A label switch can jump back on its own stream: a loop whose
	// counter a kernel decrements, leaving through label 0.
	e := setup(t)
	k := registerKernels(t, e)
	counter, iterations := word(t, e, 0), word(t, e, 0)
	b := build(t, e, 1)
	s := b.streams[0]
	ls := newLabels(t, e, 2)
	check(t, s.SetLabel(ls[1]))
	check(t, s.Launch(k.dec, 1, gocann.Ptr(counter), gocann.Ptr(iterations)))
	check(t, s.SwitchLabel(counter, []*gocann.Label{ls[0], ls[1]}))
	check(t, s.SetLabel(ls[0]))
	m := b.end()
	for _, n := range []uint64{1, 4, 9} {
		writeU64(t, e.c, counter, n)
		writeU64(t, e.c, iterations, 0)
		runOK(t, m, e.s)
		wantU64(t, e, iterations, n, "loop iterations")
	}
}

func TestCaptureAfterQueuedWork(t *testing.T) {
	// "Before capture starts, tasks on the stream run immediately": work
	// queued before BeginCapture is not captured and finishes on its own.
	e := setup(t)
	k := registerKernels(t, e)
	p := word(t, e, 0)
	g := block(t, e.s)
	check(t, e.s.Launch(k.shift, 1, gocann.Ptr(p), gocann.U64(1)))
	m, err := e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		return s.Launch(k.shift, 1, gocann.Ptr(p), gocann.U64(2))
	})
	check(t, err)
	closeModel(t, m)
	g.Open()
	syncOK(t, e.s)
	wantU64(t, e, p, 1, "the work queued before the capture")
	runOK(t, m, e.s)
	wantU64(t, e, p, 12, "a run after it")
}

func TestCapturedModelOutlivesItsStreams(t *testing.T) {
	// A captured model holds streams of its own; the captured streams may
	// go.
	e := setup(t)
	k := registerKernels(t, e)
	p := word(t, e, 0)
	s1, s2 := e.newStream(t), e.newStream(t)
	ev := newEvents(t, e, 2)
	m, err := s1.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		check(t, s.Record(ev[0]))
		check(t, s2.WaitEvent(ev[0]))
		check(t, s2.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(1)))
		check(t, s2.Record(ev[1]))
		return s.WaitEvent(ev[1])
	})
	check(t, err)
	closeModel(t, m)
	check(t, s1.Close())
	check(t, s2.Close())
	runOK(t, m, e.s)
	runOK(t, m, e.s)
	wantU64(t, e, p, 2, "runs after the captured streams were closed")
}

func TestBranchesReturnStreams(t *testing.T) {
	// A model's branches hold streams too, and give them back with it.
	e := setup(t, `{"simulator":{"hbm_size":1073741824,"stream_limit":8}}`)
	k := registerKernels(t, e)
	p := word(t, e, 0)
	m, _, _ := condModel(t, e, k, gocann.CondIf, 2, 0, false, p) // the model, two branches and a branch stream
	check(t, m.Close())
	// The default stream, e.s and the branch stream are left: five more fit.
	for range 5 {
		e.newStream(t)
	}
	_, err := e.c.NewStream()
	wantErr(t, err, gocann.CodeRTNoStreamResource, "all 8 streams")
}
