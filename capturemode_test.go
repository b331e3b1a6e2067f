package gocann_test

import (
	"context"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/gocann/gocann"
)

func TestCaptureSyncRefusedInEveryMode(t *testing.T) {
	// "Sync or query of a Stream, Event, Device or Context during capture
	// is illegal in every mode", and it makes the capture fail.
	e := setup(t)
	p := word(t, e, 0)
	ev, err := e.c.NewEvent(gocann.EventSync)
	check(t, err)
	legacy, err := e.c.NewEventWithFlag(gocann.EventSync)
	check(t, err)
	ops := []struct {
		name string
		call func(s *gocann.Stream) error
		msg  string
	}{
		{"Stream.Synchronize", func(s *gocann.Stream) error { return s.Synchronize(context.Background()) }, "synchronizing a capturing stream"},
		{"Stream.SynchronizeTimeout", func(s *gocann.Stream) error { return s.SynchronizeTimeout(long) }, "synchronizing a capturing stream"},
		{"Stream.Query", func(s *gocann.Stream) error { _, err := s.Query(); return err }, "querying a capturing stream"},
		{"Event.Synchronize", func(*gocann.Stream) error { return ev.SynchronizeTimeout(long) }, "event recorded in a capture"},
		{"Event.Query", func(*gocann.Stream) error { _, err := ev.Query(); return err }, "event recorded in a capture"},
		{"Event.QueryLegacy", func(*gocann.Stream) error { _, err := legacy.QueryLegacy(); return err }, "event recorded in a capture"},
		{"Event.QueryWait", func(*gocann.Stream) error { _, err := legacy.QueryWait(); return err }, "event recorded in a capture"},
		{"Context.Synchronize", func(*gocann.Stream) error { return e.c.SynchronizeTimeout(long) }, "context with a capturing stream"},
		{"Device.Synchronize", func(*gocann.Stream) error { return e.d.SynchronizeTimeout(long) }, "context with a capturing stream"},
	}
	for _, mode := range []gocann.CaptureMode{gocann.CaptureGlobal, gocann.CaptureThreadLocal, gocann.CaptureRelaxed} {
		for _, op := range ops {
			t.Run(mode.String()+"/"+op.name, func(t *testing.T) {
				endCaptures(t, e.s)
				c, err := e.s.BeginCapture(mode)
				check(t, err)
				check(t, e.s.Memset(p, 1, 8))
				check(t, e.s.Record(ev))
				check(t, e.s.Record(legacy))
				refusal := wantErr(t, op.call(e.s), gocann.CodeRTCaptureModeNotSupport, op.msg, "stream "+itoa(e.s.ID()))
				// The capture is invalidated, reports why, and takes no
				// more tasks.
				st, reason := c.Status()
				if st != gocann.CaptureInvalidated || reason == nil || !strings.Contains(reason.Error(), refusal.Msg) {
					t.Fatalf("Status after a refused %s = %v, %v; want INVALIDATED with the refusal", op.name, st, reason)
				}
				if st, m := e.s.CaptureInfo(); st != gocann.CaptureInvalidated || m != c.Model() {
					t.Fatalf("CaptureInfo = %v, %v; want INVALIDATED and the capture's model", st, m)
				}
				wantErr(t, e.s.Memset(p, 2, 8), gocann.CodeRTStreamCaptureInvalidated, "invalidated")
				model := c.Model()
				_, err = c.End()
				wantErr(t, err, gocann.CodeRTStreamCaptureInvalidated, "stream "+itoa(e.s.ID()), "invalidated", op.msg)
				wantErr(t, model.Run(e.s), gocann.CodeRTInvalidHandle, "destroyed")
				// The stream is free again and nothing captured ran.
				if st, m := e.s.CaptureInfo(); st != gocann.CaptureNone || m != nil {
					t.Fatalf("CaptureInfo after End = %v, %v; want NONE", st, m)
				}
				syncOK(t, e.s)
				wantU64(t, e, p, 0, "a task of the invalidated capture ran")
			})
		}
	}
}

func TestCaptureModesAndUnsafeCalls(t *testing.T) {
	// Synchronous copies and memsets, and asynchronous copies with pageable
	// memory, are "unsafe": a GLOBAL capture refuses them from any caller
	// (and fails); THREAD_LOCAL and RELAXED captures let a caller that
	// does not own the capture make them, and they run at once, uncaptured.
	e := setup(t)
	p, q := word(t, e, 0), word(t, e, 0)
	other := e.newStream(t)
	var buf [8]byte
	ops := []struct {
		name string
		call func() error
		ran  func(t *testing.T) // checks the call's effect after it was allowed
	}{
		{"Context.CopyToDevice", func() error { return e.c.CopyToDevice(p, []byte{1, 2, 3, 4, 5, 6, 7, 8}) },
			func(t *testing.T) { wantU64(t, e, p, 0x0807060504030201, "the copy") }},
		{"Context.CopyFromDevice", func() error { return e.c.CopyFromDevice(buf[:], q) },
			func(t *testing.T) {
				if binary.LittleEndian.Uint64(buf[:]) != 42 {
					t.Fatalf("the copy read %v", buf)
				}
			}},
		{"Context.CopyDevice", func() error { return e.c.CopyDevice(p, q, 8) },
			func(t *testing.T) { wantU64(t, e, p, 42, "the device copy") }},
		{"Context.Memset", func() error { return e.c.Memset(p, 9, 8) },
			func(t *testing.T) { wantU64(t, e, p, 0x0909090909090909, "the memset") }},
		{"Context.Copy2DToDevice", func() error { return e.c.Copy2DToDevice(p, 4, []byte{7, 7, 7, 7, 7, 7, 7, 7}, 4, 4, 2) },
			func(t *testing.T) { wantU64(t, e, p, 0x0707070707070707, "the 2-D copy") }},
		{"Stream.CopyToDevice (pageable, another stream)", func() error {
			if err := other.CopyToDevice(p, []byte{3, 0, 0, 0, 0, 0, 0, 0}); err != nil {
				return err
			}
			return other.SynchronizeTimeout(long)
		}, func(t *testing.T) { wantU64(t, e, p, 3, "the pageable asynchronous copy") }},
	}
	for _, op := range ops {
		t.Run("GLOBAL/"+op.name, func(t *testing.T) {
			endCaptures(t, e.s)
			writeU64(t, e.c, p, 0)
			writeU64(t, e.c, q, 42)
			c, err := e.s.BeginCapture(gocann.CaptureGlobal)
			check(t, err)
			wantErr(t, op.call(), gocann.CodeRTCaptureModeNotSupport, "capturing in GLOBAL mode", "stream "+itoa(e.s.ID()), "RELAXED")
			if st, _ := c.Status(); st != gocann.CaptureInvalidated {
				t.Fatalf("status after a refused call = %v, want INVALIDATED", st)
			}
			_, err = c.End()
			wantErr(t, err, gocann.CodeRTStreamCaptureInvalidated, "invalidated", "GLOBAL")
			wantU64(t, e, p, 0, "the refused call ran")
		})
		for _, mode := range []gocann.CaptureMode{gocann.CaptureThreadLocal, gocann.CaptureRelaxed, gocann.CaptureGlobal} {
			name := mode.String()
			if mode == gocann.CaptureGlobal {
				name = "GLOBAL switched to RELAXED"
			}
			t.Run(name+"/"+op.name, func(t *testing.T) {
				endCaptures(t, e.s)
				writeU64(t, e.c, p, 0)
				writeU64(t, e.c, q, 42)
				c, err := e.s.BeginCapture(mode)
				check(t, err)
				if mode == gocann.CaptureGlobal {
					prev, err := c.SetMode(gocann.CaptureRelaxed)
					check(t, err)
					if prev != gocann.CaptureGlobal || c.Mode() != gocann.CaptureRelaxed {
						t.Fatalf("SetMode returned %v and left %v; want GLOBAL, then RELAXED", prev, c.Mode())
					}
				}
				check(t, e.s.Memset(p, 0x55, 8)) // captured, not run
				check(t, op.call())
				op.ran(t)
				if st, err := c.Status(); st != gocann.CaptureActive || err != nil {
					t.Fatalf("status after an allowed call = %v, %v; want ACTIVE", st, err)
				}
				m, err := c.End()
				check(t, err)
				closeModel(t, m)
				// The allowed call was not captured: a run replays only the
				// memset.
				writeU64(t, e.c, p, 0)
				writeU64(t, e.c, q, 0)
				runOK(t, m, e.s)
				wantU64(t, e, p, 0x5555555555555555, "the run")
				wantU64(t, e, q, 0, "the run replayed the uncaptured call")
			})
		}
	}
}

func TestCaptureSetMode(t *testing.T) {
	e := setup(t)
	p := word(t, e, 0)
	c, err := e.s.BeginCapture(gocann.CaptureRelaxed)
	check(t, err)
	prev, err := c.SetMode(gocann.CaptureMode(7))
	wantErr(t, err, gocann.CodeRTParamInvalid, "mode 7 is invalid")
	if prev != gocann.CaptureRelaxed || c.Mode() != gocann.CaptureRelaxed {
		t.Fatalf("a refused SetMode returned %v and left %v; want RELAXED both", prev, c.Mode())
	}
	check(t, e.c.Memset(p, 1, 8))
	// Back to GLOBAL: the same call is refused again.
	prev, err = c.SetMode(gocann.CaptureGlobal)
	check(t, err)
	if prev != gocann.CaptureRelaxed {
		t.Fatalf("SetMode returned %v, want RELAXED", prev)
	}
	wantErr(t, e.c.Memset(p, 2, 8), gocann.CodeRTCaptureModeNotSupport, "GLOBAL")
	_, err = c.End()
	wantErr(t, err, gocann.CodeRTStreamCaptureInvalidated, "a synchronous memset")
	wantU64(t, e, p, 0x0101010101010101, "memset in RELAXED mode")
}

func TestCaptureThreadModes(t *testing.T) {
	// For callers with an OS thread (the C ABI): the thread that began a
	// capture that is not RELAXED may not make unsafe calls, other threads
	// may in THREAD_LOCAL mode; only a RELAXED capture ends on another
	// thread.
	e := setup(t)
	h, err := e.r.MallocHost(8)
	check(t, err)
	owner := gocann.CaptureThread{ID: 1, Mode: gocann.CaptureGlobal}
	stranger := gocann.CaptureThread{ID: 2, Mode: gocann.CaptureGlobal}
	c, err := e.s.Raw().BeginCapture(owner, gocann.CaptureThreadLocal)
	check(t, err)
	check(t, e.c.Raw().Memset(stranger, h.Pointer(), 8, 5, 8))
	if h.Bytes()[7] != 5 {
		t.Fatalf("another thread's memset during a THREAD_LOCAL capture did not run: %v", h.Bytes())
	}
	_, err = e.s.Raw().EndCapture(stranger)
	wantErr(t, err, gocann.CodeRTStreamCaptureWrongThread, "thread 1", "not 2", "RELAXED")
	if st, _ := c.Status(); st != gocann.CaptureActive {
		t.Fatalf("an End from the wrong thread changed the capture: %v", st)
	}
	wantErr(t, e.c.Raw().Memset(owner, h.Pointer(), 8, 6, 8), gocann.CodeRTCaptureModeNotSupport, "THREAD_LOCAL")
	if h.Bytes()[7] != 5 {
		t.Fatal("the refused memset ran")
	}
	_, err = e.s.Raw().EndCapture(owner)
	wantErr(t, err, gocann.CodeRTStreamCaptureInvalidated, "a synchronous memset")

	// The owner in RELAXED mode may; a RELAXED capture ends anywhere.
	c, err = e.s.Raw().BeginCapture(owner, gocann.CaptureRelaxed)
	check(t, err)
	check(t, e.c.Raw().Memset(owner, h.Pointer(), 8, 7, 8))
	check(t, e.c.Raw().Memset(gocann.CaptureThread{ID: 1, Mode: gocann.CaptureRelaxed}, h.Pointer(), 8, 7, 8))
	m, err := e.s.Raw().EndCapture(stranger)
	check(t, err)
	closeModel(t, m)
	if h.Bytes()[7] != 7 || c.Model() != m {
		t.Fatal("RELAXED capture: memset did not run or End returned another model")
	}
}

func TestCapturePageableCopyRefused(t *testing.T) {
	// "A captured async copy involving host memory requires pinned memory";
	// one with pageable memory degrades to a synchronous copy and is
	// refused (ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC), failing the capture.
	e := setup(t)
	p := word(t, e, 0)
	for _, mode := range []gocann.CaptureMode{gocann.CaptureGlobal, gocann.CaptureRelaxed} {
		for name, call := range map[string]func() error{
			"CopyToDevice":   func() error { return e.s.CopyToDevice(p, make([]byte, 8)) },
			"CopyFromDevice": func() error { return e.s.CopyFromDevice(make([]byte, 8), p) },
		} {
			t.Run(mode.String()+"/"+name, func(t *testing.T) {
				endCaptures(t, e.s)
				c, err := e.s.BeginCapture(mode)
				check(t, err)
				wantErr(t, call(), gocann.CodeRTCaptureModeBlockAsync, "pageable", "stream "+itoa(e.s.ID()), "aclrtMallocHost")
				_, err = c.End()
				wantErr(t, err, gocann.CodeRTStreamCaptureInvalidated, "pageable")
			})
		}
	}
}
