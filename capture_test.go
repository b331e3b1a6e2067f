package gocann_test

import (
	"encoding/binary"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocann/gocann"
)

// Single-stream capture (aclmdlRICaptureBegin .. aclmdlRICaptureEnd):
// "between Begin and End, tasks issued on stream are not executed. They are
// stored in an internal modelRI and run only on aclmdlRIExecuteAsync."

func TestCaptureEveryTaskKind(t *testing.T) {
	e := setup(t)
	k := registerKernels(t, e)
	a, b, c, v := word(t, e, 0), word(t, e, 0), word(t, e, 0), word(t, e, 0)
	in, err := e.r.MallocHost(8)
	check(t, err)
	out, err := e.r.MallocHost(8)
	check(t, err)
	mirror, err := e.r.MallocHost(8)
	check(t, err)
	ev, err := e.c.NewEvent(gocann.EventSync)
	check(t, err)
	n, err := e.c.NewNotify()
	check(t, err)
	var hostRuns atomic.Int32

	m, err := e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		steps := []error{
			s.Memset(a, 0x11, 8),
			s.CopyDeviceToDevice(b, a, 8),
			s.CopyHostToDevice(c, in, 0, 8),
			s.Launch(k.add, 1, gocann.Ptr(c), gocann.U64(1)),
			s.CopyDeviceToHost(out, 0, c, 8),
			s.CopyHostToHost(mirror, 0, out, 0, 8),
			s.LaunchHostFunc(func() { hostRuns.Add(1) }),
			s.Record(ev),
			s.WaitEvent(ev),
			s.RecordNotify(n),
			s.WaitNotify(n, 0),
			s.WriteValue(v, 5),
			s.WaitValue(v, 5, gocann.WaitEQ),
			s.Launch(k.add, 1, gocann.Ptr(v), gocann.U64(1)),
		}
		return errors.Join(steps...)
	})
	check(t, err)
	closeModel(t, m)

	// Nothing ran during the capture.
	for name, p := range map[string]gocann.DevPtr{"memset": a, "D2D copy": b, "H2D copy + kernel": c, "value write": v} {
		wantU64(t, e, p, 0, name+" ran during the capture")
	}
	if got := binary.LittleEndian.Uint64(mirror.Bytes()); got != 0 || hostRuns.Load() != 0 {
		t.Fatalf("capture ran its tasks: host copies gave %d, host function ran %d times", got, hostRuns.Load())
	}

	// Each replay, on whichever stream, runs every task once, reading the
	// host buffer as it is at the time of the run.
	def, err := e.c.DefaultStream()
	check(t, err)
	streams := []*gocann.Stream{e.s, e.newStream(t), def, e.s}
	for i, s := range streams {
		x := uint64(100 * (i + 1))
		binary.LittleEndian.PutUint64(in.Bytes(), x)
		writeU64(t, e.c, v, 0)
		runOK(t, m, s)
		wantU64(t, e, a, 0x1111111111111111, "memset")
		wantU64(t, e, b, 0x1111111111111111, "D2D copy")
		wantU64(t, e, c, x+1, "H2D copy then kernel")
		wantU64(t, e, v, 6, "value write, wait, then kernel")
		if got := binary.LittleEndian.Uint64(mirror.Bytes()); got != x+1 {
			t.Fatalf("run %d: D2H then H2H copy gave %d, want %d", i, got, x+1)
		}
		if hostRuns.Load() != int32(i+1) {
			t.Fatalf("run %d: host function ran %d times, want %d", i, hostRuns.Load(), i+1)
		}
	}
	// The notify recorded and waited inside the model is consumed in each
	// run: nothing is left for a wait outside.
	check(t, e.s.WaitNotify(n, 20*time.Millisecond))
	wantErr(t, e.s.SynchronizeTimeout(long), gocann.CodeRTWaitTimeout, "timed out")
}

func TestCaptureRunQueuedBehindOtherWork(t *testing.T) {
	// A run is one task of the launching stream: after its earlier tasks,
	// before its later ones, and several runs queue in order.
	e := setup(t)
	k := registerKernels(t, e)
	p := word(t, e, 0)
	m, err := e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		return s.Launch(k.shift, 1, gocann.Ptr(p), gocann.U64(1))
	})
	check(t, err)
	closeModel(t, m)
	other := e.newStream(t)
	g := block(t, other)
	check(t, other.Launch(k.shift, 1, gocann.Ptr(p), gocann.U64(7)))
	check(t, m.Run(other))
	check(t, m.Run(other))
	check(t, other.Launch(k.shift, 1, gocann.Ptr(p), gocann.U64(9)))
	g.waitStarted(t)
	wantU64(t, e, p, 0, "runs started before the stream's earlier task")
	g.Open()
	syncOK(t, other)
	wantU64(t, e, p, 7119, "store order around two runs")
}

func TestCaptureHelperErrorAndPanic(t *testing.T) {
	e := setup(t)
	p := word(t, e, 0)

	// fn's error comes back as is; the capture ends, its model is gone and
	// the stream runs tasks again.
	errStop := errors.New("stop")
	var inside *gocann.ModelRI
	m, err := e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		inside = s.Capturing().Model()
		check(t, s.Memset(p, 1, 8))
		return errStop
	})
	if m != nil || err != errStop {
		t.Fatalf("Capture with a failing fn = %v, %v; want nil, the fn's error", m, err)
	}
	if st, cm := e.s.CaptureInfo(); st != gocann.CaptureNone || cm != nil || e.s.Capturing() != nil {
		t.Fatalf("after a failed Capture the stream reports %v, %v", st, cm)
	}
	wantErr(t, inside.Run(e.s), gocann.CodeRTInvalidHandle, "model "+utoa(inside.ID()), "destroyed")
	check(t, e.s.Memset(p, 2, 8))
	syncOK(t, e.s)
	wantU64(t, e, p, 0x0202020202020202, "a memset after the failed capture")

	// A panic in fn propagates after the capture is ended.
	func() {
		defer func() {
			if v := recover(); v != "boom" {
				t.Fatalf("recovered %v, want the fn's panic value", v)
			}
		}()
		e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
			inside = s.Capturing().Model()
			check(t, s.Memset(p, 3, 8))
			panic("boom")
		})
	}()
	if e.s.Capturing() != nil {
		t.Fatal("the stream is still capturing after fn panicked")
	}
	wantErr(t, inside.Run(e.s), gocann.CodeRTInvalidHandle, "destroyed")
	check(t, e.s.Memset(p, 4, 8))
	syncOK(t, e.s)
	wantU64(t, e, p, 0x0404040404040404, "a memset after the panicking capture")

	// A capture that cannot begin reports Begin's error and runs nothing.
	def, err := e.c.DefaultStream()
	check(t, err)
	ran := false
	_, err = def.Capture(gocann.CaptureGlobal, func(*gocann.Stream) error { ran = true; return nil })
	wantErr(t, err, gocann.CodeRTStreamCaptureImplicit, "default stream")
	if ran {
		t.Fatal("fn ran although the capture could not begin")
	}
}

func TestCaptureStateErrors(t *testing.T) {
	e := setup(t)
	def, err := e.c.DefaultStream()
	check(t, err)
	_, err = def.BeginCapture(gocann.CaptureGlobal)
	wantErr(t, err, gocann.CodeRTStreamCaptureImplicit, "stream "+itoa(def.ID()), "default stream")
	_, err = e.s.BeginCapture(gocann.CaptureMode(3))
	wantErr(t, err, gocann.CodeRTParamInvalid, "capture mode 3 is invalid")
	_, err = e.persistent(t).BeginCapture(gocann.CaptureGlobal)
	wantErr(t, err, gocann.CodeRTParamInvalid, "persistent")

	_, err = e.s.Raw().EndCapture(gocann.CaptureThread{})
	wantErr(t, err, gocann.CodeRTStreamNotCaptured, "stream "+itoa(e.s.ID()), "not capturing")
	if st, m := e.s.CaptureInfo(); st != gocann.CaptureNone || m != nil {
		t.Fatalf("CaptureInfo of an idle stream = %v, %v; want NONE, nil", st, m)
	}

	c, err := e.s.BeginCapture(gocann.CaptureGlobal)
	check(t, err)
	_, err = e.s.BeginCapture(gocann.CaptureRelaxed)
	wantErr(t, err, gocann.CodeRTStreamCaptured, "stream "+itoa(e.s.ID()), "already capturing")
	if st, m := e.s.CaptureInfo(); st != gocann.CaptureActive || m != c.Model() {
		t.Fatalf("CaptureInfo while capturing = %v, %v; want ACTIVE and the capture's model", st, m)
	}
	if st, err := c.Status(); st != gocann.CaptureActive || err != nil {
		t.Fatalf("Status = %v, %v; want ACTIVE, nil", st, err)
	}
	if c.Stream() != e.s || e.s.Capturing().Model() != c.Model() || c.Mode() != gocann.CaptureGlobal {
		t.Fatal("the capture does not report its origin stream, model and mode")
	}
	// A capturing stream does not launch models, and a model in capture
	// does not run.
	other := e.newStream(t)
	wantErr(t, c.Model().Run(other), gocann.CodeRTModelCaptured, "being built or captured")
	wantErr(t, c.Model().Close(), gocann.CodeRTModelCaptured, "being captured")
	m, err := c.End()
	check(t, err)
	closeModel(t, m)
	_, err = c.End()
	wantErr(t, err, gocann.CodeRTStreamNotCaptured, "not capturing")
	if st, cm := e.s.CaptureInfo(); st != gocann.CaptureNone || cm != nil {
		t.Fatalf("CaptureInfo after End = %v, %v; want NONE, nil", st, cm)
	}
	// A capturing stream cannot launch a model.
	c2, err := other.BeginCapture(gocann.CaptureRelaxed)
	check(t, err)
	wantErr(t, m.Run(other), gocann.CodeRTCaptureModeNotSupport, "stream "+itoa(other.ID()), "capturing")
	m2, err := c2.End()
	check(t, err)
	closeModel(t, m2)
	runOK(t, m, e.s) // an empty model runs
	runOK(t, m2, other)
}

func TestCapturedWaitTimeouts(t *testing.T) {
	// A captured wait with a timeout behaves as it does on a stream: once
	// reached, it fails after the timeout with ACL_ERROR_RT_WAIT_TIMEOUT,
	// reported by the run's stream, and the model's stream moves on.
	e := setup(t)
	k := registerKernels(t, e)
	p, flag := word(t, e, 0), word(t, e, 0)
	n, err := e.c.NewNotify()
	check(t, err)
	ext, err := e.c.NewEventWithFlag(gocann.EventExternal)
	check(t, err)
	ev := newEvents(t, e, 2)
	s2 := e.newStream(t)
	cases := []struct {
		name    string
		capture func(s *gocann.Stream) error
		msg     string
	}{
		{"notify", func(s *gocann.Stream) error {
			check(t, s.WaitNotify(n, 20*time.Millisecond))
			return s.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(1))
		}, "notify " + utoa(n.ID()) + " wait timed out after 20ms"},
		{"external event", func(s *gocann.Stream) error {
			check(t, s.WaitEventTimeout(ext, 20*time.Millisecond))
			return s.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(1))
		}, "event wait timed out after 20ms"},
		{"event of another captured stream", func(s *gocann.Stream) error {
			// The origin records only once s2 has given up waiting for it.
			check(t, s.Record(ev[0]))
			check(t, s2.WaitEvent(ev[0]))
			check(t, s.WaitValue(flag, 1, gocann.WaitEQ))
			check(t, s.Record(ev[1]))
			check(t, s2.WaitEventTimeout(ev[1], 20*time.Millisecond))
			check(t, s2.WriteValue(flag, 1))
			check(t, s2.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(1)))
			check(t, s2.Record(ev[0]))
			return s.WaitEvent(ev[0])
		}, "event wait timed out after 20ms"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := e.s.Capture(gocann.CaptureGlobal, c.capture)
			check(t, err)
			defer m.Close()
			for i := range 2 {
				writeU64(t, e.c, p, 0)
				writeU64(t, e.c, flag, 0)
				check(t, m.Run(e.s))
				wantErr(t, e.s.SynchronizeTimeout(long), gocann.CodeRTWaitTimeout, c.msg)
				wantU64(t, e, p, 1, "the task after the timed-out wait, run "+itoa(int32(i)))
			}
		})
	}

	// A wait satisfied within its timeout is no fault.
	m, err := e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		check(t, s.WaitNotify(n, long))
		return s.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(1))
	})
	check(t, err)
	closeModel(t, m)
	writeU64(t, e.c, p, 0)
	check(t, m.Run(e.s))
	check(t, s2.RecordNotify(n))
	syncOK(t, e.s)
	wantU64(t, e, p, 1, "the task after the satisfied wait")
}
