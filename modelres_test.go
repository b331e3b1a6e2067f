package gocann_test

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocann/gocann"
)

// Resources a model holds, and what happens to models and captures when
// what they use goes away.

const poolConfig = `{"simulator":{"hbm_size":1073741824,"stream_limit":64}}`

func TestCaptureUsesStreamPool(t *testing.T) {
	// "Capture consumes streams ... ACL_ERROR_RT_NO_STREAM_RESOURCE": each
	// stream of a captured model holds a stream of the device's pool while
	// the model lives.
	e := setup(t, poolConfig)
	p := word(t, e, 0)
	avail := func() int {
		t.Helper()
		n, err := e.d.StreamsAvailable()
		check(t, err)
		return n
	}
	if n := avail(); n != 62 {
		t.Fatalf("StreamsAvailable = %d before any capture, want 62 (64 less the default stream and e.s)", n)
	}
	var models []*gocann.ModelRI
	var err error
	for len(models) < 100 {
		var m *gocann.ModelRI
		m, err = e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error { return s.Memset(p, 1, 8) })
		if err != nil {
			break
		}
		closeModel(t, m)
		models = append(models, m)
	}
	// The default stream and e.s hold two of the 64.
	wantErr(t, err, gocann.CodeRTNoStreamResource, "all 64 streams")
	if len(models) != 62 {
		t.Fatalf("%d models captured before the pool ran out, want 62", len(models))
	}
	if st, _ := e.s.CaptureInfo(); st != gocann.CaptureNone {
		t.Fatalf("the stream reports %v after the failed End", st)
	}
	_, err = e.c.NewStream()
	wantErr(t, err, gocann.CodeRTNoStreamResource, "all 64 streams")
	if n := avail(); n != 0 {
		t.Fatalf("StreamsAvailable = %d with the pool exhausted, want 0", n)
	}
	runOK(t, models[61], e.s) // the models still run

	// Closing a model gives its stream back.
	check(t, models[0].Close())
	if n := avail(); n != 1 {
		t.Fatalf("StreamsAvailable = %d after a model was closed, want 1", n)
	}
	m, err := e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error { return s.Memset(p, 2, 8) })
	check(t, err)
	closeModel(t, m)
	runOK(t, m, e.s)
	wantU64(t, e, p, 0x0202020202020202, "the model captured after one was closed")

	// A two-stream capture with one free stream fails whole and takes none.
	check(t, models[1].Close())
	s2 := e.newStream(t) // takes the freed stream
	check(t, models[2].Close())
	ev := newEvents(t, e, 2)
	_, err = e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		check(t, s.Record(ev[0]))
		check(t, s2.WaitEvent(ev[0]))
		check(t, s2.Record(ev[1]))
		return s.WaitEvent(ev[1])
	})
	wantErr(t, err, gocann.CodeRTNoStreamResource)
	m, err = e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error { return s.Memset(p, 3, 8) })
	check(t, err)
	closeModel(t, m)
}

func TestBuiltModelUsesItsOwnStreams(t *testing.T) {
	// A built model runs on the persistent streams bound to it; it takes
	// nothing more from the pool.
	e := setup(t, `{"simulator":{"hbm_size":1073741824,"stream_limit":4}}`)
	k := registerKernels(t, e)
	p := word(t, e, 0)
	s := e.persistent(t) // the fourth stream, with the default stream, e.s and nothing else
	_ = e.newStream(t)
	m := newBuild(t, e)
	check(t, m.Bind(s, true))
	check(t, s.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(1)))
	check(t, m.BuildEnd())
	runOK(t, m, e.s)
	wantU64(t, e, p, 1, "a built model with the pool exhausted")
}

func TestModelCloseWhileQueued(t *testing.T) {
	// "Destroying while it executes gives ACL_ERROR_RT_MODEL_RUNNING", and
	// so does a run queued behind other work, which may start any time.
	e := setup(t)
	k := registerKernels(t, e)
	p := word(t, e, 0)
	m, err := e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		return s.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(1))
	})
	check(t, err)
	other := e.newStream(t)
	g := block(t, other)
	check(t, m.Run(other))
	g.waitStarted(t)
	wantErr(t, m.Close(), gocann.CodeRTModelRunning, "model "+utoa(m.ID()), "still running")
	wantErr(t, m.Update(), gocann.CodeRTModelUpdateFailed, "running")
	g.Open()
	syncOK(t, other)
	wantU64(t, e, p, 1, "the queued run")
	check(t, m.Close())
	wantErr(t, m.Run(other), gocann.CodeRTInvalidHandle, "destroyed")
}

// within runs fn and fails the test if it does not return within long.
func within(t *testing.T, what string, fn func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- fn() }()
	select {
	case err := <-done:
		return err
	case <-time.After(long):
		t.Fatalf("%s did not return within %v", what, long)
	}
	return nil
}

func TestCaptureOriginDestroyed(t *testing.T) {
	// Destroying the stream a capture began on abandons the capture: its
	// model goes, the streams it pulled in and its events are free again.
	e := setup(t)
	k := registerKernels(t, e)
	p := word(t, e, 0)
	origin, s2 := e.newStream(t), e.newStream(t)
	ev := newEvents(t, e, 1)[0]
	c, err := origin.BeginCapture(gocann.CaptureGlobal)
	check(t, err)
	model := c.Model()
	var destroyed atomic.Bool
	check(t, model.OnDestroy(func() { destroyed.Store(true) }))
	check(t, origin.Record(ev))
	check(t, s2.WaitEvent(ev))
	check(t, s2.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(1)))
	check(t, within(t, "Stream.Close of a capturing stream", origin.Close))
	if st, reason := c.Status(); st != gocann.CaptureInvalidated || reason == nil {
		t.Fatalf("Status after the origin closed = %v, %v; want INVALIDATED with a reason", st, reason)
	}
	if !destroyed.Load() {
		t.Fatal("the abandoned capture's model was not destroyed")
	}
	wantErr(t, model.Run(e.s), gocann.CodeRTInvalidHandle, "destroyed")
	if st, _ := s2.CaptureInfo(); st != gocann.CaptureNone {
		t.Fatalf("the pulled-in stream reports %v after the origin closed", st)
	}
	check(t, s2.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(10)))
	syncOK(t, s2)
	wantU64(t, e, p, 10, "a task on the freed stream (and none of the capture's)")
	if _, err := ev.Query(); err != nil {
		t.Fatalf("the capture's event is still refused: %v", err)
	}
	// The freed stream can begin a capture of its own.
	m, err := s2.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		return s.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(100))
	})
	check(t, err)
	closeModel(t, m)
	runOK(t, m, e.s)
	wantU64(t, e, p, 110, "a capture on the freed stream")
}

func TestCapturePulledInStreamDestroyed(t *testing.T) {
	e := setup(t)
	k := registerKernels(t, e)
	p := word(t, e, 0)
	s2 := e.newStream(t)
	ev := newEvents(t, e, 1)[0]
	c, err := e.s.BeginCapture(gocann.CaptureGlobal)
	check(t, err)
	check(t, e.s.Record(ev))
	check(t, s2.WaitEvent(ev))
	check(t, within(t, "Stream.Close of a pulled-in stream", s2.Close))
	if st, _ := c.Status(); st != gocann.CaptureInvalidated {
		t.Fatalf("status after a pulled-in stream closed = %v, want INVALIDATED", st)
	}
	_, err = c.End()
	wantErr(t, err, gocann.CodeRTStreamCaptureInvalidated, "stream "+itoa(s2.ID()), "destroyed while capturing")
	check(t, e.s.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(1)))
	syncOK(t, e.s)
	wantU64(t, e, p, 1, "a task on the origin after the failed capture")
}

func TestBranchCaptureStreamDestroyed(t *testing.T) {
	// A branch capture whose stream goes away leaves the branch empty, to
	// be captured again.
	e := setup(t)
	k := registerKernels(t, e)
	p := word(t, e, 0)
	m, err := e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		h, err := s.Capturing().Model().NewCond(1, true)
		check(t, err)
		subs, err := s.AddCond(h, gocann.CondIf, 1)
		check(t, err)
		gone := e.newStream(t)
		_, err = gone.BeginCaptureInto(subs[0], gocann.CaptureGlobal)
		check(t, err)
		check(t, gone.Launch(k.store, 1, gocann.Ptr(p), gocann.U64(1)))
		check(t, within(t, "Stream.Close of a branch capture's stream", gone.Close))
		again := e.newStream(t)
		bc, err := again.BeginCaptureInto(subs[0], gocann.CaptureGlobal)
		check(t, err)
		check(t, again.Launch(k.store, 1, gocann.Ptr(p), gocann.U64(2)))
		_, err = bc.End()
		return err
	})
	check(t, err)
	closeModel(t, m)
	runOK(t, m, e.s)
	wantU64(t, e, p, 2, "the branch captured on the second stream")
}

func TestUpdateStreamDestroyed(t *testing.T) {
	// Destroying a stream in the middle of a task-group update drops the
	// update; the group can be updated again.
	e := setup(t)
	k := registerKernels(t, e)
	p, q, r := word(t, e, 0), word(t, e, 0), word(t, e, 0)
	m, g := groupModel(t, e, k, e.s, p, q, r)
	upd := e.newStream(t)
	check(t, upd.BeginUpdate(g))
	check(t, upd.Launch(k.store, 1, gocann.Ptr(q), gocann.U64(20)))
	check(t, within(t, "Stream.Close of an updating stream", upd.Close))
	upd2 := e.newStream(t)
	check(t, upd2.BeginUpdate(g))
	check(t, upd2.Launch(k.store, 1, gocann.Ptr(q), gocann.U64(30)))
	check(t, upd2.Memset(r, 1, 8))
	check(t, upd2.EndUpdate())
	check(t, m.Run(upd2))
	syncOK(t, upd2)
	wantU64(t, e, q, 30, "the update made after the dropped one")
}

func TestContextCloseWithModels(t *testing.T) {
	// Closing a context destroys its models — captured, built, and one
	// still being captured — after the runs queued on its streams.
	e := setup(t)
	k := registerKernels(t, e)
	ctx, err := e.d.NewContext()
	check(t, err)
	p := malloc(t, ctx, 8)
	check(t, ctx.Memset(p, 0, 8))
	s, err := ctx.NewStream()
	check(t, err)
	ps, err := ctx.NewStream(gocann.WithStreamFlags(gocann.StreamPersistent))
	check(t, err)
	capturing, err := ctx.NewStream()
	check(t, err)

	var log recorder
	captured, err := s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		return s.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(1))
	})
	check(t, err)
	check(t, captured.OnDestroy(func() { log.add("captured") }))
	built, err := ctx.BuildModel()
	check(t, err)
	check(t, built.Bind(ps, true))
	check(t, ps.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(10)))
	check(t, built.BuildEnd())
	check(t, built.OnDestroy(func() { log.add("built") }))
	c, err := capturing.BeginCapture(gocann.CaptureGlobal)
	check(t, err)
	check(t, c.Model().OnDestroy(func() { log.add("capturing") }))

	g := block(t, s)
	check(t, captured.Run(s))
	check(t, built.Run(s))
	closed := make(chan error, 1)
	go func() { closed <- ctx.Close() }()
	g.Open()
	select {
	case err := <-closed:
		check(t, err)
	case <-time.After(long):
		t.Fatalf("Context.Close with live models did not return within %v", long)
	}
	for _, want := range []string{"captured", "built", "capturing"} {
		found := false
		for _, got := range strings.Split(log.String(), ",") {
			found = found || got == want
		}
		if !found {
			t.Fatalf("destroy callbacks ran %q; the %s model's did not", log.String(), want)
		}
	}
	wantErr(t, captured.Run(e.s), gocann.CodeRTInvalidHandle, "destroyed")
	wantErr(t, built.Run(e.s), gocann.CodeRTInvalidHandle, "destroyed")
}

func TestRuntimeCloseWithModels(t *testing.T) {
	// A runtime closes with models alive, a run in progress and a capture
	// open.
	r, err := gocann.Open(gocann.WithConfigJSON([]byte(smallConfig)))
	check(t, err)
	d, err := r.SetDevice(0)
	check(t, err)
	ctx, err := d.Context()
	check(t, err)
	s, err := ctx.NewStream()
	check(t, err)
	s2, err := ctx.NewStream()
	check(t, err)
	var destroyed atomic.Int32
	release := make(chan struct{})
	m, err := s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		return s.LaunchHostFunc(func() { <-release })
	})
	check(t, err)
	check(t, m.OnDestroy(func() { destroyed.Add(1) }))
	check(t, m.Run(s))
	c, err := s2.BeginCapture(gocann.CaptureRelaxed)
	check(t, err)
	check(t, c.Model().OnDestroy(func() { destroyed.Add(1) }))
	go func() {
		time.Sleep(5 * time.Millisecond)
		close(release)
	}()
	check(t, within(t, "Runtime.Close", r.Close))
	if destroyed.Load() != 2 {
		t.Fatalf("%d models destroyed by Runtime.Close, want 2", destroyed.Load())
	}
}
