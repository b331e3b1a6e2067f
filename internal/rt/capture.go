package rt

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// CaptureMode restricts calls that would break a capture, with the CANN
// values (aclmdlRICaptureMode).
type CaptureMode int32

const (
	CaptureGlobal      CaptureMode = 0
	CaptureThreadLocal CaptureMode = 1
	CaptureRelaxed     CaptureMode = 2
)

func (m CaptureMode) valid() bool { return m >= CaptureGlobal && m <= CaptureRelaxed }

// Caller says who makes a call, for the capture-mode rules: the C ABI's OS
// thread and that thread's mode. Go calls pass the zero Caller: thread 0,
// which owns no capture, in global mode.
type Caller struct {
	Thread uint64
	Mode   CaptureMode
}

// CaptureStatus is what aclmdlRICaptureGetInfo reports, with CANN values.
type CaptureStatus int

const (
	CaptureNone        CaptureStatus = 0
	CaptureActive      CaptureStatus = 1
	CaptureInvalidated CaptureStatus = 2
)

// Capture is a stream capture: tasks queued on its streams are recorded
// into a model instead of running.
type Capture struct {
	m      *Model
	origin *Stream
	mode   atomic.Int32 // CaptureMode
	owner  uint64       // thread that began it; Go captures get an id no thread has

	// mu guards the fields below and the model's recorded streams.
	mu      sync.Mutex
	status  CaptureStatus
	reason  error // why it was invalidated
	members map[*Stream]*mstream
	events  map[*Event]*capEvent
	group   *TaskGroup // open task group, if any
	extOps  []extOp    // EXTERNAL records and waits, one per event
}

// capEvent is an event recorded in a capture.
type capEvent struct {
	ge   int      // graph event
	last *mstream // stream and op of its latest record
	op   int
}

// waitRef remembers which record a captured wait waits for, to check that
// captured streams join back to the origin.
type waitRef struct {
	on     *mstream
	rec    *mstream
	recOp  int
	waitOp int
}

// goCaptureIDs are capture owners for Go captures: above any thread id.
const goCaptureIDs = 1 << 62

// Capture returns the capture s takes part in, or nil.
func (s *Stream) Capture() *Capture {
	if d := s.divert.Load(); d != nil {
		return d.capture
	}
	return nil
}

// Model is the model being captured.
func (c *Capture) Model() *Model { return c.m }

// Origin is the stream the capture began on.
func (c *Capture) Origin() *Stream { return c.origin }

// Mode is the capture's mode.
func (c *Capture) Mode() CaptureMode { return CaptureMode(c.mode.Load()) }

// SetMode changes the capture's mode and returns the previous one; the Go
// counterpart of aclmdlRICaptureThreadExchangeMode.
func (c *Capture) SetMode(m CaptureMode) CaptureMode { return CaptureMode(c.mode.Swap(int32(m))) }

// Status reports whether the capture is active or invalidated.
func (c *Capture) Status() (CaptureStatus, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.status, c.reason
}

// BeginCapture starts capturing s into a new model (aclmdlRICaptureBegin).
func (s *Stream) BeginCapture(mode CaptureMode, caller Caller) (*Capture, error) {
	m := s.c.newModel(modelCaptured)
	c, err := s.beginCapture(m, mode, caller)
	if err != nil {
		m.release() // never handed out; the context must not keep it
	}
	return c, err
}

// BeginCaptureInto starts capturing s into branch model m of a conditional
// task (aclmdlRICaptureToModelRIBegin).
func (s *Stream) BeginCaptureInto(m *Model, mode CaptureMode, caller Caller) (*Capture, error) {
	m.mu.Lock()
	ok := m.kind == modelSub && m.state == modelEmpty
	if ok {
		m.state = modelBuilding // claimed: a second capture into m fails
	}
	m.mu.Unlock()
	if !ok {
		return nil, rterr.Errorf(rterr.KindInvalidParam, "model %d is not an uncaptured conditional branch (from aclmdlRIAddCondTask)", m.id)
	}
	c, err := s.beginCapture(m, mode, caller)
	if err != nil {
		m.reset() // the branch stays capturable
	}
	return c, err
}

func (s *Stream) beginCapture(m *Model, mode CaptureMode, caller Caller) (*Capture, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	switch {
	case !mode.valid():
		return nil, rterr.Errorf(rterr.KindInvalidParam, "capture mode %d is invalid, expected 0 (GLOBAL), 1 (THREAD_LOCAL) or 2 (RELAXED)", mode)
	case s.isDefault:
		return nil, rterr.Errorf(rterr.KindCaptureImplicit, "stream %d is a default stream, which cannot be captured", s.id)
	case s.persistent:
		return nil, rterr.Errorf(rterr.KindInvalidParam, "stream %d is persistent; it records tasks for aclmdlRIBindStream, not for capture", s.id)
	case m.c.d != s.c.d:
		return nil, rterr.Errorf(rterr.KindInvalidParam, "model %d is on device %d, stream %d on device %d", m.id, m.c.d.id, s.id, s.c.d.id)
	}
	c := &Capture{m: m, origin: s, owner: caller.Thread, members: map[*Stream]*mstream{}, events: map[*Event]*capEvent{}, status: CaptureActive}
	if caller.Thread == 0 {
		c.owner = goCaptureIDs + uint64(m.id)
	}
	c.mode.Store(int32(mode))
	m.mu.Lock()
	m.state = modelBuilding
	m.mu.Unlock()
	c.mu.Lock()
	ms := c.join(s)
	c.mu.Unlock()
	if !s.swapDivert(nil, &divert{capture: c, ms: ms}) {
		if s.Capture() != nil {
			return nil, rterr.Errorf(rterr.KindStreamCaptured, "stream %d is already capturing; end that capture first", s.id)
		}
		return nil, rterr.Errorf(rterr.KindInvalidParam, "stream %d is bound to a model or updating a task group", s.id)
	}
	s.c.d.r.addCapture(c)
	return c, nil
}

// join adds s to the capture as a new model stream. c.mu held.
func (c *Capture) join(s *Stream) *mstream {
	m := c.m
	m.mu.Lock()
	ms := &mstream{m: m, idx: len(m.streams), head: true, src: s}
	m.streams = append(m.streams, ms)
	m.mu.Unlock()
	c.members[s] = ms
	return ms
}

// invalidate marks the capture failed; End reports why. c.mu held.
func (c *Capture) invalidate(err error) {
	if c.status == CaptureActive {
		c.status = CaptureInvalidated
		c.reason = err
	}
}

// Invalidate marks the capture failed because of err.
func (c *Capture) Invalidate(err error) {
	c.mu.Lock()
	c.invalidate(err)
	c.mu.Unlock()
}

// lose handles the destruction of member stream s: the capture is
// invalidated and, if s is its origin, which alone could end it, abandoned.
func (c *Capture) lose(s *Stream) {
	err := rterr.Errorf(rterr.KindCaptureInvalidated, "stream %d was destroyed while capturing", s.id)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.invalidate(err)
	if s != c.origin {
		return
	}
	c.close()
	if c.m.kind == modelSub {
		c.m.reset()
	} else {
		c.m.release()
	}
}

// live refuses tasks once the capture failed. c.mu held.
func (c *Capture) live() error {
	if c.status == CaptureInvalidated {
		return rterr.Wrap(rterr.KindCaptureInvalidated, c.reason, "capture on stream %d is invalidated", c.origin.id)
	}
	return nil
}

// add records a task of member stream s, an operation on event e if e is
// not nil.
func (c *Capture) add(s *Stream, ms *mstream, op hal.Op, e *Event) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.live(); err != nil {
		return err
	}
	if err := c.checkGroup(s, ms, op); err != nil {
		return err
	}
	if ms.sk != nil {
		return superAdd(ms, op)
	}
	ms.push(op, e)
	return nil
}

// checkGroup applies an open task group's rules to a task of stream s
// (ms, nil if s has not joined the capture yet): no other stream may queue
// one, event records and waits included, and the group holds what a
// single-operator call queues — kernels, copies and memsets — nothing that
// synchronizes or calls back. c.mu held.
func (c *Capture) checkGroup(s *Stream, ms *mstream, op hal.Op) error {
	if ms != nil && ms.sk != nil && (op.Kind != hal.OpTask || op.Task.Kind != hal.TaskKernel) {
		return superRefuse(ms, op) // what is not a kernel launch never reaches superAdd
	}
	g := c.group
	switch {
	case g == nil:
		return nil
	case g.ms != ms:
		return rterr.Errorf(rterr.KindTaskGroupIntr, "stream %d queued a task while a task group is open on stream %d", s.id, g.ms.src.id)
	case op.Kind != hal.OpTask || !groupable(op.Task.Kind):
		return rterr.Errorf(rterr.KindTaskTypeNotSupport, "a task group holds single-operator tasks (kernels, copies, memsets); a %s cannot be in one", opName(op))
	}
	return nil
}

// groupable reports whether a task of kind k may be in a task group.
func groupable(k hal.TaskKind) bool {
	switch k {
	case hal.TaskKernel, hal.TaskCopy, hal.TaskCopy2D, hal.TaskMemset:
		return true
	}
	return false
}

func opName(op hal.Op) string {
	switch op.Kind {
	case hal.OpRecord:
		return "event record"
	case hal.OpWait:
		return "event wait"
	case hal.OpReset:
		return "event reset"
	case hal.OpCond:
		return "conditional task"
	case hal.OpTask:
		return op.Task.Kind.String()
	}
	return "control operation"
}

// recordEvent records e on captured stream s as a graph event. c.mu not held.
func (c *Capture) recordEvent(s *Stream, ms *mstream, e *Event) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.live(); err != nil {
		return err
	}
	if err := c.checkGroup(s, ms, hal.Op{Kind: hal.OpRecord}); err != nil {
		return err
	}
	if other := c.m.c.d.r.captureOfEvent(e); other != nil && other != c {
		err := rterr.Errorf(rterr.KindCaptureConflict, "event is used by another capture; streams of two captures cannot be linked")
		c.invalidate(err)
		return err
	}
	ce := c.events[e]
	if ce == nil {
		c.m.mu.Lock()
		ce = &capEvent{ge: c.m.nEvents}
		c.m.nEvents++
		c.m.mu.Unlock()
		c.events[e] = ce
	}
	ms.push(hal.Op{Kind: hal.OpRecord, Event: ce.ge}, e)
	ce.last, ce.op = ms, len(ms.ops)-1
	e.mu.Lock()
	e.capture = c
	e.mu.Unlock()
	return nil
}

// waitEvent records a wait of stream s for e, failing after timeout (0:
// never), pulling s into the capture if e was recorded in it.
func (c *Capture) waitEvent(s *Stream, e *Event, timeout time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.live(); err != nil {
		return err
	}
	ce := c.events[e]
	ms := c.members[s]
	if err := c.checkGroup(s, ms, hal.Op{Kind: hal.OpWait}); err != nil {
		return err
	}
	if other := c.m.c.d.r.captureOfEvent(e); other != nil && other != c {
		// The event has a record, in another capture: the wait would link
		// the two, which is a conflict, not a missing record.
		err := rterr.Errorf(rterr.KindCaptureConflict, "stream %d waits for an event recorded in another capture; streams of two captures cannot be linked", s.id)
		c.invalidate(err)
		return err
	}
	if ce == nil {
		err := rterr.Errorf(rterr.KindCaptureDependency, "stream %d waits for an event not recorded in the capture; record it on a captured stream first", s.id)
		c.invalidate(err)
		return err
	}
	if ms == nil {
		if s.isDefault {
			err := rterr.Errorf(rterr.KindCaptureImplicit, "default stream %d cannot join a capture", s.id)
			c.invalidate(err)
			return err
		}
		if s.persistent {
			return rterr.Errorf(rterr.KindInvalidParam, "persistent stream %d cannot join a capture", s.id)
		}
		ms = c.join(s)
		if !s.swapDivert(nil, &divert{capture: c, ms: ms}) {
			c.m.mu.Lock()
			c.m.streams = c.m.streams[:len(c.m.streams)-1]
			c.m.mu.Unlock()
			delete(c.members, s)
			err := rterr.Errorf(rterr.KindCaptureConflict, "stream %d takes part in another capture or model; two captures cannot be linked", s.id)
			c.invalidate(err)
			return err
		}
	}
	ms.push(hal.Op{Kind: hal.OpWait, Event: ce.ge, Timeout: timeout}, e)
	ms.waits = append(ms.waits, waitRef{on: ms, rec: ce.last, recOp: ce.op, waitOp: len(ms.ops) - 1})
	return nil
}

// End ends the capture on its origin stream (aclmdlRICaptureEnd) and
// returns the model, ready to run.
func (s *Stream) EndCapture(caller Caller) (*Model, error) {
	c := s.Capture()
	if c == nil {
		return nil, rterr.Errorf(rterr.KindStreamNotCaptured, "stream %d is not capturing", s.id)
	}
	if c.origin != s {
		return nil, rterr.Errorf(rterr.KindCaptureUnmatched, "stream %d joined a capture begun on stream %d; end it there", s.id, c.origin.id)
	}
	if caller.Thread != 0 && c.Mode() != CaptureRelaxed && caller.Thread != c.owner {
		return nil, rterr.Errorf(rterr.KindCaptureWrongThread, "capture on stream %d was begun on thread %d, not %d; only RELAXED captures end on another thread", s.id, c.owner, caller.Thread)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	defer c.close()
	fail := func(err error) (*Model, error) {
		if c.m.kind == modelSub {
			c.m.reset()
		} else {
			c.m.release()
		}
		return nil, err
	}
	if c.status == CaptureInvalidated {
		return fail(rterr.Wrap(rterr.KindCaptureInvalidated, c.reason, "capture on stream %d was invalidated", s.id))
	}
	if c.group != nil {
		return fail(rterr.Errorf(rterr.KindTaskGroupStatus, "task group on stream %d was begun and not ended", c.group.ms.src.id))
	}
	for st, ms := range c.members {
		if ms.sk != nil {
			return fail(rterr.Errorf(rterr.KindCaptureUnmatched, "SuperKernel %q on stream %d was begun and not ended (gocannSuperKernelEnd)", ms.sk.name, st.id))
		}
	}
	if err := c.checkJoined(); err != nil {
		return fail(err)
	}
	m := c.m
	m.mu.Lock()
	err := m.finish(true)
	m.mu.Unlock()
	if err != nil {
		return fail(err)
	}
	return m, nil
}

// close releases the capture's streams and events. c.mu held.
func (c *Capture) close() {
	for st := range c.members {
		st.clearDivert()
	}
	c.m.c.d.r.removeCapture(c)
	for e := range c.events {
		e.mu.Lock()
		if e.capture == c {
			e.capture = nil
		}
		e.mu.Unlock()
	}
}

// reset empties a branch model whose capture failed, to be captured again.
func (m *Model) reset() {
	m.mu.Lock()
	m.state, m.streams, m.nEvents = modelEmpty, nil, 0
	m.mu.Unlock()
}

// checkJoined checks every pulled-in stream ends with a record that a
// stream joined to the origin waits for. c.mu held.
func (c *Capture) checkJoined() error {
	joined := map[*mstream]bool{c.members[c.origin]: true}
	for changed := true; changed; {
		changed = false
		for _, ms := range c.members {
			if !joined[ms] {
				continue
			}
			for _, w := range ms.waits {
				rec := w.rec
				if !joined[rec] && w.recOp == len(rec.ops)-1 {
					joined[rec] = true
					changed = true
				}
			}
		}
	}
	for st, ms := range c.members {
		if !joined[ms] {
			return rterr.Errorf(rterr.KindStreamUnjoined,
				"captured stream %d does not join back to origin stream %d: its last task must be an event record that the origin (or a stream joined to it) waits for, and nothing may follow it", st.id, c.origin.id)
		}
	}
	return nil
}

// CaptureInfo reports s's capture status and model
// (aclmdlRICaptureGetInfo).
func (s *Stream) CaptureInfo() (CaptureStatus, *Model) {
	c := s.Capture()
	if c == nil {
		return CaptureNone, nil
	}
	st, _ := c.Status()
	return st, c.m
}
