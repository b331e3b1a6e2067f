package gocann_test

import (
	"testing"

	"github.com/gocann/gocann"
)

// Cross-stream capture: "A sub-stream is pulled into the capture by
// aclrtRecordEvent(ev, origin) + aclrtStreamWaitEvent(sub, ev)", transitively;
// "every sub-stream must, directly or indirectly, record an event that the
// origin stream waits on".

func newEvents(t *testing.T, e env, n int) []*gocann.Event {
	t.Helper()
	evs := make([]*gocann.Event, n)
	for i := range evs {
		ev, err := e.c.NewEvent(gocann.EventSync)
		check(t, err)
		evs[i] = ev
	}
	return evs
}

func TestCrossStreamCaptureChain(t *testing.T) {
	// origin -> s2 -> s3 -> s2 -> origin, each step appending a digit to a
	// decimal trace: every run replays the chain in order.
	e := setup(t)
	k := registerKernels(t, e)
	p := word(t, e, 0)
	s1, s2, s3 := e.s, e.newStream(t), e.newStream(t)
	ev := newEvents(t, e, 4)
	shift := func(s *gocann.Stream, d uint64) { check(t, s.Launch(k.shift, 1, gocann.Ptr(p), gocann.U64(d))) }

	c, err := s1.BeginCapture(gocann.CaptureGlobal)
	check(t, err)
	shift(s1, 1)
	check(t, s1.Record(ev[0]))
	if s2.Capturing() != nil {
		t.Fatal("a stream joined the capture before waiting for one of its events")
	}
	check(t, s2.WaitEvent(ev[0]))
	if got := s2.Capturing(); got == nil || got.Model() != c.Model() || got.Stream() != s1 {
		t.Fatal("the waiting stream did not join the capture begun on the origin")
	}
	if st, m := s2.CaptureInfo(); st != gocann.CaptureActive || m != c.Model() {
		t.Fatalf("CaptureInfo of the joined stream = %v, %v", st, m)
	}
	shift(s2, 2)
	check(t, s2.Record(ev[1]))
	check(t, s3.WaitEvent(ev[1]))
	if got := s3.Capturing(); got == nil || got.Model() != c.Model() {
		t.Fatal("a stream waiting for a joined stream's event did not join the capture")
	}
	shift(s3, 3)
	check(t, s3.Record(ev[2]))
	check(t, s2.WaitEvent(ev[2]))
	shift(s2, 4)
	check(t, s2.Record(ev[3]))
	check(t, s1.WaitEvent(ev[3]))
	shift(s1, 5)

	// Ending on a joined stream is refused; the origin ends it.
	_, err = s2.Raw().EndCapture(gocann.CaptureThread{})
	wantErr(t, err, gocann.CodeRTStreamCaptureUnmatched, "stream "+itoa(s2.ID()), "begun on stream "+itoa(s1.ID()))
	m, err := c.End()
	check(t, err)
	closeModel(t, m)
	wantU64(t, e, p, 0, "captured tasks ran")
	for _, s := range []*gocann.Stream{s1, s2, s3} {
		if s.Capturing() != nil {
			t.Fatalf("stream %d still captures after End", s.ID())
		}
	}
	ss, err := m.Streams()
	check(t, err)
	if len(ss) != 3 || ss[0].Source() != s1 || ss[1].Source() != s2 || ss[2].Source() != s3 {
		t.Fatalf("model streams: %d, want the origin, s2 and s3 in the order they joined", len(ss))
	}
	other := e.newStream(t)
	for range 3 {
		writeU64(t, e.c, p, 0)
		runOK(t, m, other)
		wantU64(t, e, p, 12345, "the replayed chain")
	}
	// The joined streams run their own tasks again.
	check(t, s3.Launch(k.store, 1, gocann.Ptr(p), gocann.U64(8)))
	syncOK(t, s3)
	wantU64(t, e, p, 8, "a task on a stream that took part in the capture")
}

func TestCrossStreamCaptureRunsConcurrently(t *testing.T) {
	// A replay keeps the captured streams' parallelism: host functions on
	// two streams of the model wait for each other, which only works if
	// the streams run at the same time.
	e := setup(t)
	s1, s2 := e.s, e.newStream(t)
	ev := newEvents(t, e, 2)
	rv := newRendezvous()
	m, err := s1.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		check(t, s.Record(ev[0]))
		check(t, s2.WaitEvent(ev[0]))
		check(t, s.LaunchHostFunc(func() { rv.side(0)() }))
		check(t, s2.LaunchHostFunc(func() { rv.side(1)() }))
		check(t, s2.Record(ev[1]))
		return s.WaitEvent(ev[1])
	})
	check(t, err)
	closeModel(t, m)
	for i := range 3 {
		rv.reset()
		runOK(t, m, e.newStream(t))
		if rv.timedOut.Load() {
			t.Fatalf("run %d: the two captured streams did not run concurrently", i)
		}
	}
}

func TestCrossStreamCaptureMustJoinBack(t *testing.T) {
	e := setup(t)
	k := registerKernels(t, e)
	p := word(t, e, 0)
	s1 := e.s
	cases := []struct {
		name  string
		build func(s2 *gocann.Stream, ev []*gocann.Event)
	}{
		{"never joins back", func(s2 *gocann.Stream, ev []*gocann.Event) {
			check(t, s2.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(1)))
		}},
		{"last task is not a record", func(s2 *gocann.Stream, ev []*gocann.Event) {
			check(t, s2.Record(ev[1]))
			check(t, s1.WaitEvent(ev[1]))
			check(t, s2.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(1)))
		}},
		{"last record not waited for", func(s2 *gocann.Stream, ev []*gocann.Event) {
			check(t, s2.Record(ev[1]))
			check(t, s1.WaitEvent(ev[1]))
			check(t, s2.Record(ev[2]))
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			endCaptures(t, s1)
			s2 := e.newStream(t)
			ev := newEvents(t, e, 3)
			c, err := s1.BeginCapture(gocann.CaptureGlobal)
			check(t, err)
			check(t, s1.Record(ev[0]))
			check(t, s2.WaitEvent(ev[0]))
			tc.build(s2, ev)
			model := c.Model()
			_, err = c.End()
			wantErr(t, err, gocann.CodeRTStreamUnjoined, "captured stream "+itoa(s2.ID()), "origin stream "+itoa(s1.ID()))
			wantErr(t, model.Run(s1), gocann.CodeRTInvalidHandle, "destroyed")
			// Both streams are free and run tasks at once.
			for _, s := range []*gocann.Stream{s1, s2} {
				if st, _ := s.CaptureInfo(); st != gocann.CaptureNone {
					t.Fatalf("stream %d reports %v after the failed End", s.ID(), st)
				}
				check(t, s.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(10)))
				syncOK(t, s)
			}
			wantU64(t, e, p, 20, "tasks after the failed capture (and none of the capture's)")
			writeU64(t, e.c, p, 0)
		})
	}
}

func TestCrossStreamCaptureDependency(t *testing.T) {
	// A wait for an event that no captured stream recorded has nothing to
	// wait for in the model (ACL_ERROR_RT_CAPTURE_DEPENDENCY).
	e := setup(t)
	ev := newEvents(t, e, 2)
	other := e.newStream(t)
	check(t, other.Record(ev[0]))
	syncOK(t, other)
	for name, target := range map[string]*gocann.Event{"recorded before the capture": ev[0], "never recorded": ev[1]} {
		t.Run(name, func(t *testing.T) {
			endCaptures(t, e.s)
			c, err := e.s.BeginCapture(gocann.CaptureGlobal)
			check(t, err)
			wantErr(t, e.s.WaitEvent(target), gocann.CodeRTCaptureDependency, "stream "+itoa(e.s.ID()), "not recorded in the capture")
			_, err = c.End()
			wantErr(t, err, gocann.CodeRTStreamCaptureInvalidated, "not recorded in the capture")
		})
	}
}

func TestCrossStreamCaptureConflict(t *testing.T) {
	// "Several streams concurrently in aclmdlRICaptureBegin that get linked
	// by an Event give ACL_ERROR_STREAM_CAPTURE_CONFLICT."
	e := setup(t)
	s1, s2 := e.s, e.newStream(t)
	link := func(t *testing.T, name string, fn func(ev *gocann.Event) error) {
		t.Run(name, func(t *testing.T) {
			endCaptures(t, s1, s2)
			ev := newEvents(t, e, 1)[0]
			a, err := s1.BeginCapture(gocann.CaptureGlobal)
			check(t, err)
			b, err := s2.BeginCapture(gocann.CaptureGlobal)
			check(t, err)
			check(t, s1.Record(ev))
			wantErr(t, fn(ev), gocann.CodeStreamCaptureConflict, "two captures")
			// The capture that tried to link is invalidated; the other
			// one is not.
			if st, _ := b.Status(); st != gocann.CaptureInvalidated {
				t.Fatalf("the linking capture is %v, want INVALIDATED", st)
			}
			if st, _ := a.Status(); st != gocann.CaptureActive {
				t.Fatalf("the other capture is %v, want ACTIVE", st)
			}
			_, err = b.End()
			wantErr(t, err, gocann.CodeRTStreamCaptureInvalidated, "two captures")
			m, err := a.End()
			check(t, err)
			check(t, m.Close())
		})
	}
	link(t, "wait in another capture", func(ev *gocann.Event) error { return s2.WaitEvent(ev) })
	link(t, "record in another capture", func(ev *gocann.Event) error { return s2.Record(ev) })
}

func TestCrossStreamCaptureDefaultStream(t *testing.T) {
	// The default stream cannot join a capture (ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT).
	e := setup(t)
	def, err := e.c.DefaultStream()
	check(t, err)
	ev := newEvents(t, e, 1)[0]
	c, err := e.s.BeginCapture(gocann.CaptureGlobal)
	check(t, err)
	check(t, e.s.Record(ev))
	wantErr(t, def.WaitEvent(ev), gocann.CodeRTStreamCaptureImplicit, "default stream "+itoa(def.ID()))
	if def.Capturing() != nil {
		t.Fatal("the default stream joined the capture")
	}
	_, err = c.End()
	wantErr(t, err, gocann.CodeRTStreamCaptureInvalidated, "default stream")
	syncOK(t, def)
}
