package rt

import (
	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// divert takes a stream's tasks away from its queue: into a capture, into
// the model a persistent stream is bound to, or into a task-group update.
// Stream.submit is the one place that consults it.
type divert struct {
	capture *Capture
	ms      *mstream // the stream's model stream (capture or binding)
	update  *update
}

func (d *divert) add(s *Stream, t *hal.Task) error {
	return d.addOp(s, hal.Op{Kind: hal.OpTask, Task: *t}, nil)
}

// addOp adds op, an operation on event e if e is not nil.
func (d *divert) addOp(s *Stream, op hal.Op, e *Event) error {
	switch {
	case d.capture != nil:
		return d.capture.add(s, d.ms, op, e)
	case d.update != nil:
		return d.update.add(s, &op.Task)
	}
	return d.ms.m.addBound(d.ms, op, e)
}

// diverted reports whether s's tasks go somewhere other than its queue.
func (s *Stream) diverted() bool { return s.divert.Load() != nil }

// addCapture registers an active capture for the capture-mode checks.
func (r *Runtime) addCapture(c *Capture) {
	r.capMu.Lock()
	r.captures[c] = struct{}{}
	r.capMu.Unlock()
}

func (r *Runtime) removeCapture(c *Capture) {
	r.capMu.Lock()
	delete(r.captures, c)
	r.capMu.Unlock()
}

// activeCaptures lists the captures in progress.
func (r *Runtime) activeCaptures() []*Capture {
	r.capMu.Lock()
	defer r.capMu.Unlock()
	if len(r.captures) == 0 {
		return nil
	}
	out := make([]*Capture, 0, len(r.captures))
	for c := range r.captures {
		out = append(out, c)
	}
	return out
}

// captureOfEvent returns the active capture that recorded e, if any.
func (r *Runtime) captureOfEvent(e *Event) *Capture {
	e.mu.Lock()
	c := e.capture
	e.mu.Unlock()
	if c == nil {
		return nil
	}
	r.capMu.Lock()
	_, active := r.captures[c]
	r.capMu.Unlock()
	if !active {
		return nil
	}
	return c
}

// CheckUnsafe applies the capture-mode rules to a call that would break a
// capture (synchronous copies and memsets, asynchronous copies that block):
// a caller in RELAXED mode may make it; in THREAD_LOCAL mode it may unless
// it owns a capture not begun RELAXED; in GLOBAL mode it may unless it owns
// such a capture or another capture is GLOBAL. A refused call invalidates
// the captures that refused it.
func (r *Runtime) CheckUnsafe(caller Caller, what string) error {
	if caller.Mode == CaptureRelaxed {
		return nil
	}
	var refused error
	for _, c := range r.activeCaptures() {
		own := caller.Thread != 0 && caller.Thread == c.owner
		mode := c.Mode()
		if (own && mode != CaptureRelaxed) || (!own && caller.Mode == CaptureGlobal && mode == CaptureGlobal) {
			err := rterr.Errorf(rterr.KindCaptureModeNotSupport,
				"%s is not allowed while stream %d is capturing in %s mode (this caller's mode is %s); switch to RELAXED (aclmdlRICaptureThreadExchangeMode) to make it",
				what, c.origin.id, mode, caller.Mode)
			c.Invalidate(err)
			if refused == nil {
				refused = err
			}
		}
	}
	return refused
}

func (m CaptureMode) String() string {
	switch m {
	case CaptureGlobal:
		return "GLOBAL"
	case CaptureThreadLocal:
		return "THREAD_LOCAL"
	case CaptureRelaxed:
		return "RELAXED"
	}
	return "invalid"
}

// refuseInCapture refuses a synchronizing call that covers a capturing
// stream, invalidating its capture, as every capture mode does.
func refuseInCapture(c *Capture, what string) error {
	err := rterr.Errorf(rterr.KindCaptureModeNotSupport, "%s is not allowed while stream %d is capturing", what, c.origin.id)
	c.Invalidate(err)
	return err
}

// swapDivert replaces s's divert old with new, reporting whether it was
// old. A divert changes only with the submitters' lock of the queue held,
// together with whether the queue takes direct launches (hal.SQ): those
// bypass submit, so they are taken only while s runs eagerly.
func (s *Stream) swapDivert(old, new *divert) bool {
	var ok bool
	s.withDirect(func() bool {
		ok = s.divert.CompareAndSwap(old, new)
		return s.eager()
	})
	return ok
}

// clearDivert ends s's divert, whatever it is.
func (s *Stream) clearDivert() {
	s.withDirect(func() bool {
		s.divert.Store(nil)
		return s.eager()
	})
}

// eager reports whether s's tasks go straight to its queue, so that it may
// take direct launches: not while a data dump is on, whose tasks follow
// each kernel, nor while a core limit or a capability group bounds its
// kernels, which the direct path does not write.
func (s *Stream) eager() bool {
	return !s.persistent && !s.dead.Load() && s.divert.Load() == nil && s.c.d.r.dump.on.Load() == nil &&
		!s.res.any() && !s.c.d.res.any() && !s.overflow.Load() && s.groupOf() == 0
}

// withDirect calls f with the queue's submitters' lock held and opens the
// queue to direct launches if f reports true.
func (s *Stream) withDirect(f func() bool) {
	if d, ok := s.q.(hal.Direct); ok {
		d.Update(f)
		return
	}
	f()
}

// Direct returns s's queue as producers outside Go write it, or nil if the
// device has no such queues.
func (s *Stream) Direct() hal.Direct {
	d, _ := s.q.(hal.Direct)
	return d
}
