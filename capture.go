package gocann

import (
	"fmt"

	"github.com/gocann/gocann/internal/rt"
	"github.com/gocann/gocann/internal/rterr"
)

// Capture turns a stream's work into a model run instance (ACL Graph):
// between BeginCapture and End, tasks queued on the stream — and on every
// stream that waits for an event recorded in the capture — are recorded,
// not run. The model replays them with ModelRI.Run.
//
// CANN defines the capture mode per OS thread. Go has no thread state, so
// the mode is the capture's: calls of the Go API come from no capturing
// thread, in GLOBAL mode. A capture begun GLOBAL refuses synchronous copies
// and memsets anywhere in the runtime (ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT)
// and is invalidated by them; THREAD_LOCAL and RELAXED captures allow them.
// Capture.SetMode changes a capture's mode, as
// aclmdlRICaptureThreadExchangeMode does for a thread. Synchronizing or
// querying a capturing stream, an event recorded in a capture, or a device
// or context with a capturing stream is refused in every mode.
type Capture struct {
	r *Runtime
	c *rt.Capture
	s *Stream
}

// CaptureMode is aclmdlRICaptureMode, with the CANN values.
type CaptureMode int32

const (
	CaptureGlobal      CaptureMode = CaptureMode(rt.CaptureGlobal)      // ACL_MODEL_RI_CAPTURE_MODE_GLOBAL
	CaptureThreadLocal CaptureMode = CaptureMode(rt.CaptureThreadLocal) // ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL
	CaptureRelaxed     CaptureMode = CaptureMode(rt.CaptureRelaxed)     // ACL_MODEL_RI_CAPTURE_MODE_RELAXED
)

func (m CaptureMode) String() string { return rt.CaptureMode(m).String() }

// CaptureStatus is aclmdlRICaptureStatus, with the CANN values.
type CaptureStatus int

const (
	CaptureNone        CaptureStatus = CaptureStatus(rt.CaptureNone)        // ACL_MODEL_RI_CAPTURE_STATUS_NONE
	CaptureActive      CaptureStatus = CaptureStatus(rt.CaptureActive)      // ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE
	CaptureInvalidated CaptureStatus = CaptureStatus(rt.CaptureInvalidated) // ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED
)

// BeginCapture starts capturing s into a new model run instance. The
// default stream cannot be captured.
//
// CANN: aclmdlRICaptureBegin.
func (s *Stream) BeginCapture(mode CaptureMode) (*Capture, error) {
	if err := s.r.require("aclmdlRICaptureBegin"); err != nil {
		return nil, err
	}
	return s.Raw().BeginCapture(CaptureThread{}, mode)
}

// BeginCapture is Stream.BeginCapture for a capture begun by thread t,
// which alone may end it unless it is RELAXED.
//
// CANN: aclmdlRICaptureBegin (by thread).
func (x RawStream) BeginCapture(t CaptureThread, mode CaptureMode) (*Capture, error) {
	if err := x.s.r.require("aclmdlRICaptureBegin"); err != nil {
		return nil, err
	}
	s := x.s
	c, err := s.s.BeginCapture(rt.CaptureMode(mode), t.rt())
	if err != nil {
		return nil, wrap("Stream.BeginCapture (aclmdlRICaptureBegin)", err)
	}
	return &Capture{r: s.r, c: c, s: s}, nil
}

// BeginCaptureInto starts capturing s into branch model m of a conditional
// task (from Stream.AddCond); End fills m.
//
// CANN: aclmdlRICaptureToModelRIBegin.
func (s *Stream) BeginCaptureInto(m *ModelRI, mode CaptureMode) (*Capture, error) {
	if err := s.r.require("aclmdlRICaptureToModelRIBegin"); err != nil {
		return nil, err
	}
	return s.Raw().BeginCaptureInto(CaptureThread{}, m, mode)
}

// BeginCaptureInto is Stream.BeginCaptureInto for a capture begun by
// thread t.
//
// CANN: aclmdlRICaptureToModelRIBegin (by thread).
func (x RawStream) BeginCaptureInto(t CaptureThread, m *ModelRI, mode CaptureMode) (*Capture, error) {
	if err := x.s.r.require("aclmdlRICaptureToModelRIBegin"); err != nil {
		return nil, err
	}
	s := x.s
	const op = "Stream.BeginCaptureInto (aclmdlRICaptureToModelRIBegin)"
	if m == nil {
		return nil, wrap(op, rterr.Errorf(rterr.KindBadArgument, "modelRI is nil"))
	}
	c, err := s.s.BeginCaptureInto(m.m, rt.CaptureMode(mode), t.rt())
	if err != nil {
		return nil, wrap(op, err)
	}
	return &Capture{r: s.r, c: c, s: s}, nil
}

// End ends the capture and returns the model. It fails if the capture was
// invalidated (with the reason), if a task group is still open, or if a
// stream pulled into the capture did not join back to the origin stream.
//
// CANN: aclmdlRICaptureEnd.
func (c *Capture) End() (*ModelRI, error) {
	if err := c.r.require("aclmdlRICaptureEnd"); err != nil {
		return nil, err
	}
	return c.s.Raw().EndCapture(CaptureThread{})
}

// EndCapture ends the capture begun on the stream, for thread t: the
// thread that began it, unless it is RELAXED.
//
// CANN: aclmdlRICaptureEnd (by thread).
func (x RawStream) EndCapture(t CaptureThread) (*ModelRI, error) {
	if err := x.s.r.require("aclmdlRICaptureEnd"); err != nil {
		return nil, err
	}
	s := x.s
	m, err := s.s.EndCapture(t.rt())
	if err != nil {
		return nil, wrap("Capture.End (aclmdlRICaptureEnd)", err)
	}
	return s.r.model(m), nil
}

// Capture captures the tasks fn queues on s and returns the model. If fn
// fails or panics, the capture ends and its model is destroyed.
//
// CANN: none.
func (s *Stream) Capture(mode CaptureMode, fn func(s *Stream) error) (m *ModelRI, err error) {
	c, err := s.BeginCapture(mode)
	if err != nil {
		return nil, err
	}
	done := false
	defer func() {
		if done {
			return
		}
		p := recover() // nil when fn called runtime.Goexit, which goes on
		c.c.Invalidate(rterr.Errorf(rterr.KindCaptureInvalidated, "the capture function did not return: %v", p))
		c.End()
		if p != nil {
			panic(p)
		}
	}()
	ferr := fn(s)
	done = true
	if ferr != nil {
		c.c.Invalidate(ferr)
		c.End()
		return nil, ferr
	}
	return c.End()
}

// Capturing returns the capture s takes part in, or nil.
//
// CANN: none.
func (s *Stream) Capturing() *Capture {
	c := s.s.Capture()
	if c == nil {
		return nil
	}
	return &Capture{r: s.r, c: c, s: s.r.stream(c.Origin())}
}

// CaptureInfo reports whether s is capturing and into which model.
//
// CANN: aclmdlRICaptureGetInfo.
func (s *Stream) CaptureInfo() (CaptureStatus, *ModelRI) {
	st, m := s.s.CaptureInfo()
	if m == nil {
		return CaptureNone, nil
	}
	return CaptureStatus(st), s.r.model(m)
}

// Stream is the origin stream, where the capture began.
//
// CANN: none.
func (c *Capture) Stream() *Stream { return c.s }

// Model is the model being captured.
//
// CANN: aclmdlRICaptureGetInfo (modelRI).
func (c *Capture) Model() *ModelRI { return c.r.model(c.c.Model()) }

// Status reports whether the capture is active or invalidated, and why it
// was invalidated.
//
// CANN: aclmdlRICaptureGetInfo (status).
func (c *Capture) Status() (CaptureStatus, error) {
	if err := c.r.require("aclmdlRICaptureGetInfo"); err != nil {
		return 0, err
	}
	st, err := c.c.Status()
	return CaptureStatus(st), wrap("Capture.Status (aclmdlRICaptureGetInfo)", err)
}

// Mode is the capture's mode.
//
// CANN: none.
func (c *Capture) Mode() CaptureMode { return CaptureMode(c.c.Mode()) }

// SetMode changes the capture's mode and returns the previous one.
//
// CANN: aclmdlRICaptureThreadExchangeMode (for this capture).
func (c *Capture) SetMode(m CaptureMode) (CaptureMode, error) {
	if err := c.r.require("aclmdlRICaptureThreadExchangeMode"); err != nil {
		return 0, err
	}
	if m < CaptureGlobal || m > CaptureRelaxed {
		return c.Mode(), wrap("Capture.SetMode (aclmdlRICaptureThreadExchangeMode)",
			rterr.Errorf(rterr.KindInvalidParam, "mode %d is invalid, expected 0 (GLOBAL), 1 (THREAD_LOCAL) or 2 (RELAXED)", m))
	}
	return CaptureMode(c.c.SetMode(rt.CaptureMode(m))), nil
}

func (c *Capture) String() string {
	st, _ := c.c.Status()
	return fmt.Sprintf("capture of stream %d (%s, status %d)", c.s.ID(), c.Mode(), st)
}
