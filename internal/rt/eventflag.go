package rt

import (
	"time"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
	"github.com/gocann/gocann/internal/support"
)

// Operation flags of aclrtRecordEventWithFlag and
// aclrtStreamWaitEventWithFlag, with the CANN values.
const (
	RecordDefault  uint32 = 0 // ACL_EVENT_RECORD_DEFAULT
	RecordExternal uint32 = 1 // ACL_EVENT_RECORD_EXTERNAL: a captured record the world outside the model sees
	WaitDefault    uint32 = 0 // ACL_EVENT_WAIT_DEFAULT
	WaitExternal   uint32 = 1 // ACL_EVENT_WAIT_EXTERNAL: a captured wait for a record outside the model
)

// opFlags are the operation flags an event's first record and first wait
// took: CANN binds an event to them for its life, at the call's entry,
// whether the call then succeeds or not.
type opFlags struct {
	record, wait       uint32
	hasRecord, hasWait bool
}

// takeFlag binds e to operation flag f of its records (wait false) or
// waits, or refuses f if e is bound to the other one.
func (e *Event) takeFlag(wait bool, f uint32) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	bound, has, what := &e.opFlags.record, &e.opFlags.hasRecord, "record"
	if wait {
		bound, has, what = &e.opFlags.wait, &e.opFlags.hasWait, "wait"
	}
	if *has && *bound != f {
		return rterr.Errorf(rterr.KindInvalidParam, "event's %ss took flag %s first; its %s flag %s cannot change", what, opFlagName(wait, *bound), what, opFlagName(wait, f))
	}
	*bound, *has = f, true
	return nil
}

func opFlagName(wait bool, f uint32) string {
	switch {
	case wait && f == WaitExternal:
		return "ACL_EVENT_WAIT_EXTERNAL"
	case wait:
		return "ACL_EVENT_WAIT_DEFAULT"
	case f == RecordExternal:
		return "ACL_EVENT_RECORD_EXTERNAL"
	}
	return "ACL_EVENT_RECORD_DEFAULT"
}

// externalUsable refuses an EXTERNAL operation on an event that is not
// from aclrtCreateEventExWithFlag with exactly ACL_EVENT_SYNC.
func (e *Event) externalUsable(what string) error {
	if e.api != EventEx || e.flags != EventSync {
		return rterr.Errorf(rterr.KindNotSupported, "%s needs an event from aclrtCreateEventExWithFlag with ACL_EVENT_SYNC alone; this one has flags %#x from %s", what, e.flags, e.api)
	}
	return nil
}

// RecordEventWithFlag is RecordEvent with an operation flag
// (aclrtRecordEventWithFlag): RecordExternal records e inside the capture
// s takes part in, as a record the streams and models outside see at each
// run.
func (s *Stream) RecordEventWithFlag(e *Event, flag uint32, site uintptr) error {
	if flag != RecordDefault && flag != RecordExternal {
		return rterr.Errorf(rterr.KindBadArgument, "flag %d is invalid, expected ACL_EVENT_RECORD_DEFAULT (0) or ACL_EVENT_RECORD_EXTERNAL (1)", flag)
	}
	if flag == RecordDefault {
		return s.RecordEvent(e, site)
	}
	if err := e.check(); err != nil {
		return err
	}
	if err := e.externalUsable("ACL_EVENT_RECORD_EXTERNAL"); err != nil {
		return err
	}
	if err := e.takeFlag(false, flag); err != nil {
		return err
	}
	if err := s.sameDevice(e); err != nil {
		return err
	}
	c, d, err := s.externalCapture("ACL_EVENT_RECORD_EXTERNAL")
	if err != nil {
		return err
	}
	return c.external(s, d.ms, e, false, &hal.Task{Kind: hal.TaskEventRecord, Event: e.h, Site: site})
}

// WaitEventWithFlag is WaitEventTimeout with an operation flag
// (aclrtStreamWaitEventWithFlag): WaitExternal makes the capture s takes
// part in wait, at each run, for e's latest record outside the model.
func (s *Stream) WaitEventWithFlag(e *Event, timeout time.Duration, flag uint32, site uintptr) error {
	if flag != WaitDefault && flag != WaitExternal {
		return rterr.Errorf(rterr.KindBadArgument, "flag %d is invalid, expected ACL_EVENT_WAIT_DEFAULT (0) or ACL_EVENT_WAIT_EXTERNAL (1)", flag)
	}
	if flag == WaitDefault {
		return s.WaitEventTimeout(e, timeout, site)
	}
	if timeout != 0 {
		return rterr.Errorf(rterr.KindBadArgument, "timeout %v is invalid with ACL_EVENT_WAIT_EXTERNAL, expected 0 (no timeout)", timeout)
	}
	if err := e.check(); err != nil {
		return err
	}
	if err := e.externalUsable("ACL_EVENT_WAIT_EXTERNAL"); err != nil {
		return err
	}
	if err := e.takeFlag(true, flag); err != nil {
		return err
	}
	if err := s.sameDevice(e); err != nil {
		return err
	}
	c, d, err := s.externalCapture("ACL_EVENT_WAIT_EXTERNAL")
	if err != nil {
		return err
	}
	return c.external(s, d.ms, e, true, &hal.Task{Kind: hal.TaskEventWait, Event: e.h, Site: site})
}

// externalCapture is the capture an EXTERNAL operation of s goes into.
func (s *Stream) externalCapture(what string) (*Capture, *divert, error) {
	d := s.divert.Load()
	if d == nil || d.capture == nil {
		return nil, nil, rterr.Errorf(rterr.KindStreamNotCaptured, "%s needs a capturing stream; stream %d is not capturing", what, s.id)
	}
	if d.capture.m.kind == modelSub {
		return nil, nil, rterr.Errorf(rterr.KindNotSupported, "%s is not supported in a conditional branch's capture (aclmdlRICaptureToModelRIBegin)", what)
	}
	return d.capture, d, nil
}

// external adds an EXTERNAL record or wait of e, task t, to the capture.
// An event takes one EXTERNAL operation per model. c.mu not held.
func (c *Capture) external(s *Stream, ms *mstream, e *Event, wait bool, t *hal.Task) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.live(); err != nil {
		return err
	}
	for _, x := range c.extOps {
		if x.e != e {
			continue
		}
		if x.wait == wait {
			return rterr.Errorf(rterr.KindInvalidParam, "event already has an %s in this capture; use another event", opFlagName(wait, 1))
		}
		return rterr.Errorf(rterr.KindInvalidParam, "event already has an %s in this capture; one event cannot both record and wait across the model's boundary", opFlagName(!wait, 1))
	}
	op := hal.Op{Kind: hal.OpTask, Task: *t}
	if err := c.checkGroup(s, ms, op); err != nil {
		return err
	}
	ms.push(op, e)
	c.extOps = append(c.extOps, extOp{e: e, wait: wait})
	if !wait {
		c.m.mu.Lock()
		c.m.extRecords = append(c.m.extRecords, e)
		c.m.mu.Unlock()
	}
	return nil
}

// extOp is an EXTERNAL operation in a capture.
type extOp struct {
	e    *Event
	wait bool
}

// noteExternalRecords makes a run of m on s, task seq, the latest record
// of each event m records for the world outside. m.mu held.
func (m *Model) noteExternalRecords(s *Stream, seq uint64) {
	for _, e := range m.extRecords {
		e.mu.Lock()
		e.last, e.lastSeq = s, seq
		e.mu.Unlock()
	}
}

// resettable refuses an aclrtResetEvent of an event that cannot be reset:
// one from aclrtCreateEventExWithFlag, one from aclrtCreateEventWithFlag
// without ACL_EVENT_SYNC (or ACL_EVENT_EXTERNAL), and, as CANN's runtime
// refuses it, one from aclrtCreateEvent on a stream bound to a model.
func (s *Stream) resettable(e *Event) error {
	switch {
	case e.api == EventPlain && s.persistent:
		return rterr.Errorf(rterr.KindNotSupported, "aclrtResetEvent of an event from aclrtCreateEvent is not supported on stream %d, which is bound to a model", s.id)
	case e.api == EventPlain:
		return nil
	case e.api != EventWithFlag || e.flags&(EventSync|EventExternal) == 0:
		return rterr.Errorf(rterr.KindInvalidParam, "aclrtResetEvent needs an event from aclrtCreateEvent, or from aclrtCreateEventWithFlag with ACL_EVENT_SYNC or ACL_EVENT_EXTERNAL; this one has flags %#x from %s", e.flags, e.api)
	}
	return nil
}

// resetIsNoop reports whether resetting e on s queues nothing: a plain
// event on an Ascend 950, outside a capture, where CANN's runtime keeps
// the reset a no-op (the chip's events need none).
func (s *Stream) resetIsNoop(e *Event) bool {
	if e.api != EventPlain || s.diverted() {
		return false
	}
	p, ok := support.ProductOf(s.c.d.props.SoCName)
	return ok && (p == support.Ascend950PR || p == support.Ascend950DT)
}

// ID is the event's id on its device (aclrtGetEventId).
func (e *Event) ID() (uint32, error) {
	if err := e.check(); err != nil {
		return 0, err
	}
	if e.flags&EventIPC != 0 {
		return 0, rterr.Errorf(rterr.KindNotSupported, "an ACL_EVENT_IPC event has no id")
	}
	return e.id, nil
}

// EventsAvailable is how many more events counted against the device's
// limit can be created (aclrtGetEventAvailNum).
func (c *Context) EventsAvailable() (int, error) {
	if err := c.check(); err != nil {
		return 0, err
	}
	ec, ok := c.hd.(hal.EventCounter)
	if !ok {
		return 0, rterr.Errorf(rterr.KindNotSupported, "this device does not report its events in use")
	}
	return max(c.d.props.EventLimit-ec.EventsInUse(), 0), nil
}
