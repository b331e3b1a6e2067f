package rt

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// Event flags, with the CANN values.
const (
	EventSync            uint32 = 0x01
	EventCaptureProgress uint32 = 0x02
	EventTimeLine        uint32 = 0x08
	EventDeviceOnly      uint32 = 0x10
	EventExternal        uint32 = 0x20
	EventIPC             uint32 = 0x40
	eventFlagsKnown             = EventSync | EventCaptureProgress | EventTimeLine | EventDeviceOnly | EventExternal | EventIPC
)

// EventAPI says which CANN call created an event; the calls differ in what
// the event may be used for afterwards.
type EventAPI uint8

const (
	EventPlain    EventAPI = iota // aclrtCreateEvent: timing and stream waits
	EventWithFlag                 // aclrtCreateEventWithFlag: reset with aclrtResetEvent to reuse
	EventEx                       // aclrtCreateEventExWithFlag: each record replaces the last
)

// Event is a CANN event.
type Event struct {
	// Front holds the API layer's object for this one, set once.
	Front atomic.Value

	c     *Context
	h     hal.Event
	flags uint32
	api   EventAPI
	id    uint32
	dead  atomic.Bool

	// mu guards the fields below.
	mu      sync.Mutex
	last    *Stream // stream of the latest record, nil if none since creation or reset
	lastSeq uint64
	waited  *Stream // stream of the latest wait
	waitSeq uint64
	capture *Capture // active capture that recorded it
	opFlags opFlags  // the operation flags its records and waits took first

	ipc eventIPC // ACL_EVENT_IPC events: the export, or the event opened
}

// NewEvent creates an event in c.
func (c *Context) NewEvent(flags uint32, api EventAPI) (*Event, error) {
	c.d.r.waitUnlocked()
	if err := c.check(); err != nil {
		return nil, err
	}
	if api == EventPlain {
		flags = EventSync | EventTimeLine
	}
	if flags&^eventFlagsKnown != 0 {
		return nil, rterr.Errorf(rterr.KindInvalidParam, "event flag %#x is invalid, expected a combination of ACL_EVENT_* flags", flags)
	}
	switch {
	case flags&(EventExternal|EventIPC) != 0 && flags&^(EventExternal|EventIPC) != 0,
		flags&EventExternal != 0 && flags&EventIPC != 0:
		return nil, rterr.Errorf(rterr.KindInvalidParam, "event flag %#x is invalid: ACL_EVENT_EXTERNAL and ACL_EVENT_IPC cannot be combined with other flags", flags)
	case flags&EventExternal != 0 && api != EventWithFlag:
		return nil, rterr.Errorf(rterr.KindInvalidParam, "ACL_EVENT_EXTERNAL is only accepted by aclrtCreateEventWithFlag")
	case flags&EventIPC != 0 && api != EventEx:
		return nil, rterr.Errorf(rterr.KindInvalidParam, "ACL_EVENT_IPC is only accepted by aclrtCreateEventExWithFlag")
	case flags&EventDeviceOnly != 0 && api != EventWithFlag:
		return nil, rterr.Errorf(rterr.KindInvalidParam, "ACL_EVENT_DEVICE_USE_ONLY is only accepted by aclrtCreateEventWithFlag")
	case flags&EventIPC != 0:
		if err := c.ipcEventsSupported(); err != nil {
			return nil, err
		}
	}
	external := flags&EventExternal != 0
	counted := api == EventPlain || (api == EventWithFlag && flags&(EventSync|EventExternal) != 0)
	h, err := c.hd.NewEvent(hal.EventConfig{Counted: counted, Flag: external})
	if err != nil {
		return nil, err
	}
	e := &Event{c: c, h: h, flags: flags, api: api, id: c.d.eventID.Add(1) - 1}
	c.mu.Lock()
	if c.events == nil {
		c.mu.Unlock()
		h.Close()
		return nil, rterr.Errorf(rterr.KindInvalidHandle, "context %d was destroyed", c.id)
	}
	c.events[e] = struct{}{}
	c.mu.Unlock()
	return e, nil
}

func (e *Event) Flags() uint32     { return e.flags }
func (e *Event) API() EventAPI     { return e.api }
func (e *Event) Context() *Context { return e.c }

func (e *Event) check() error {
	if e.dead.Load() {
		return rterr.Errorf(rterr.KindInvalidHandle, "event was destroyed")
	}
	return nil
}

// Destroy destroys the event (aclrtDestroyEvent). Tasks already queued that
// use it still run.
func (e *Event) Destroy() error {
	e.c.d.r.waitUnlocked()
	c := e.c
	c.mu.Lock()
	if _, ok := c.events[e]; !ok {
		c.mu.Unlock()
		return rterr.Errorf(rterr.KindInvalidHandle, "event was already destroyed")
	}
	delete(c.events, e)
	c.mu.Unlock()
	e.release()
	return nil
}

func (e *Event) release() {
	if !e.dead.Swap(true) {
		e.endIPC()
		e.h.Close()
	}
}

// sameDevice refuses an event of another device.
func (s *Stream) sameDevice(e *Event) error {
	if e.c.d != s.c.d {
		return rterr.Errorf(rterr.KindInvalidParam, "event of device %d used on stream %d of device %d", e.c.d.id, s.id, s.c.d.id)
	}
	return nil
}

// RecordEvent queues a record of e (aclrtRecordEvent): e completes when
// every task queued on s before it is done.
func (s *Stream) RecordEvent(e *Event, site uintptr) error {
	if err := e.check(); err != nil {
		return err
	}
	if err := e.takeFlag(false, RecordDefault); err != nil {
		return err
	}
	if err := s.sameDevice(e); err != nil {
		return err
	}
	if err := s.ipcUndiverted(e, "aclrtRecordEvent"); err != nil {
		return err
	}
	if d := s.divert.Load(); d != nil {
		return s.divertEvent(d, e, &hal.Task{Kind: hal.TaskEventRecord, Event: e.h, Site: site})
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	seq, err := s.submit(&hal.Task{Kind: hal.TaskEventRecord, Event: e.h, Site: site})
	if err != nil {
		return err
	}
	e.last, e.lastSeq = s, seq
	return nil
}

// WaitEvent makes s wait for e's latest record (aclrtStreamWaitEvent). An
// event never recorded does not hold s.
func (s *Stream) WaitEvent(e *Event, site uintptr) error { return s.WaitEventTimeout(e, 0, site) }

// WaitEventTimeout is WaitEvent whose wait, once reached, fails with a
// timeout fault after timeout (0: never), reported at the next
// synchronizing call (aclrtStreamWaitEventWithTimeout).
func (s *Stream) WaitEventTimeout(e *Event, timeout time.Duration, site uintptr) error {
	if err := e.check(); err != nil {
		return err
	}
	if err := e.takeFlag(true, WaitDefault); err != nil {
		return err
	}
	if err := s.sameDevice(e); err != nil {
		return err
	}
	// An ACL_EVENT_EXTERNAL event is made to be waited for: the task-update
	// flow captures a wait for one.
	if e.api != EventPlain && e.flags&(EventSync|EventExternal|EventIPC) == 0 {
		return rterr.Errorf(rterr.KindInvalidParam, "event flags %#x lack ACL_EVENT_SYNC (or ACL_EVENT_EXTERNAL), which a stream wait needs", e.flags)
	}
	if timeout < 0 {
		return rterr.Errorf(rterr.KindInvalidParam, "timeout %v is invalid, expected >= 0", timeout)
	}
	if err := s.ipcUndiverted(e, "aclrtStreamWaitEvent"); err != nil {
		return err
	}
	timeout = s.c.d.r.waitTimeout(timeout)
	if e.ipc.remote != nil {
		return s.waitOpened(e, timeout, site)
	}
	t := &hal.Task{Kind: hal.TaskEventWait, Event: e.h, Timeout: timeout, Site: site}
	if d := s.divert.Load(); d != nil {
		return s.divertEvent(d, e, t)
	}
	if c := s.c.d.r.captureOfEvent(e); c != nil && !e.external() {
		return c.waitEvent(s, e, timeout) // s joins the capture that recorded e
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	seq, err := s.submit(t)
	if err != nil {
		return err
	}
	e.waited, e.waitSeq = s, seq
	s.poolWaited(e.last, e.lastSeq)
	return nil
}

// ResetEvent queues a reset of e on s (aclrtResetEvent): e returns to the
// never-recorded state, for events from aclrtCreateEventWithFlag with
// ACL_EVENT_SYNC.
func (s *Stream) ResetEvent(e *Event, site uintptr) error {
	if err := e.check(); err != nil {
		return err
	}
	if err := e.ipcRefuses("aclrtResetEvent"); err != nil {
		return err
	}
	if err := s.sameDevice(e); err != nil {
		return err
	}
	if err := s.resettable(e); err != nil {
		return err
	}
	if s.resetIsNoop(e) {
		return nil
	}
	if d := s.divert.Load(); d != nil {
		return s.divertEvent(d, e, &hal.Task{Kind: hal.TaskEventReset, Event: e.h, Site: site})
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, err := s.submit(&hal.Task{Kind: hal.TaskEventReset, Event: e.h, Site: site}); err != nil {
		return err
	}
	e.last, e.lastSeq = nil, 0
	return nil
}

func (a EventAPI) String() string {
	switch a {
	case EventPlain:
		return "aclrtCreateEvent"
	case EventWithFlag:
		return "aclrtCreateEventWithFlag"
	}
	return "aclrtCreateEventExWithFlag"
}

func (e *Event) latest() (*Stream, uint64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.last, e.lastSeq
}

func (e *Event) hostUsable() error {
	if err := e.check(); err != nil {
		return err
	}
	if e.flags&EventDeviceOnly != 0 {
		return rterr.Errorf(rterr.KindInvalidParam, "event has ACL_EVENT_DEVICE_USE_ONLY; the host cannot query or wait for it")
	}
	return nil
}

// Synchronize waits for e's latest record (aclrtSynchronizeEvent) and
// reports the first unreported fault of the tasks before it.
func (e *Event) Synchronize(ctx context.Context, timeout time.Duration) error {
	if err := e.hostUsable(); err != nil {
		return err
	}
	if c := e.c.d.r.captureOfEvent(e); c != nil {
		return refuseInCapture(c, "synchronizing an event recorded in a capture")
	}
	if e.ipc.remote != nil {
		var err error
		if timeout, err = e.waitRemote(timeout); err != nil {
			return err
		}
	}
	s, seq := e.latest()
	if s == nil {
		return nil
	}
	if err := s.q.Wait(ctx, seq, timeout); err != nil {
		if he, ok := err.(*hal.Error); ok && he.Kind == hal.KindStreamSyncTimeout {
			return &rterr.Error{Kind: rterr.KindEventSyncTimeout, Msg: "event: " + he.Msg, Err: he.Err}
		}
		return s.stopFault(err, seq)
	}
	return s.takeFault(seq)
}

// Query reports whether e's latest record is done (aclrtQueryEventStatus).
// An event never recorded is complete if it came from
// aclrtCreateEventExWithFlag, not ready otherwise.
func (e *Event) Query() (bool, error) {
	if err := e.hostUsable(); err != nil {
		return false, err
	}
	if c := e.c.d.r.captureOfEvent(e); c != nil {
		return false, refuseInCapture(c, "querying an event recorded in a capture")
	}
	if e.ipc.remote != nil && !e.ipc.remote.Done() {
		return false, nil
	}
	s, seq := e.latest()
	if s == nil {
		return e.api == EventEx, nil
	}
	if s.q.Completed() < seq {
		return false, nil
	}
	return true, s.takeFault(seq)
}

// QueryLegacy is aclrtQueryEvent, refused for aclrtCreateEventExWithFlag events.
func (e *Event) QueryLegacy() (bool, error) {
	if err := e.ipcRefuses("aclrtQueryEvent"); err != nil {
		return false, err
	}
	if e.api == EventEx {
		return false, rterr.Errorf(rterr.KindInvalidParam, "aclrtQueryEvent does not accept events from aclrtCreateEventExWithFlag; use aclrtQueryEventStatus")
	}
	return e.Query()
}

// QueryWait reports whether the latest stream wait on e is done
// (aclrtQueryEventWaitStatus).
func (e *Event) QueryWait() (bool, error) {
	if err := e.hostUsable(); err != nil {
		return false, err
	}
	if err := e.ipcRefuses("aclrtQueryEventWaitStatus"); err != nil {
		return false, err
	}
	if e.api == EventEx {
		return false, rterr.Errorf(rterr.KindInvalidParam, "aclrtQueryEventWaitStatus does not accept events from aclrtCreateEventExWithFlag")
	}
	if c := e.c.d.r.captureOfEvent(e); c != nil {
		return false, refuseInCapture(c, "querying the wait status of an event recorded in a capture")
	}
	e.mu.Lock()
	s, seq := e.waited, e.waitSeq
	e.mu.Unlock()
	return s == nil || s.q.Completed() >= seq, nil
}

// Timestamp is the device time, in nanoseconds, at which e's latest record
// ran (aclrtEventGetTimestamp).
func (e *Event) Timestamp() (int64, error) {
	if err := e.hostUsable(); err != nil {
		return 0, err
	}
	if err := e.ipcRefuses("aclrtEventGetTimestamp"); err != nil {
		return 0, err
	}
	if e.api != EventPlain && e.flags&EventTimeLine == 0 {
		return 0, rterr.Errorf(rterr.KindEventTimestamp, "event flags %#x lack ACL_EVENT_TIME_LINE, so it keeps no timestamp", e.flags)
	}
	s, seq := e.latest()
	if s == nil {
		return 0, rterr.Errorf(rterr.KindEventTimestamp, "event was never recorded, so it has no timestamp")
	}
	if s.q.Completed() < seq {
		return 0, rterr.Errorf(rterr.KindEventNotComplete, "event's record (task %d on stream %d) has not run yet", seq, s.id)
	}
	ts, ok := e.h.Timestamp()
	if !ok {
		return 0, rterr.Errorf(rterr.KindEventTimestamp, "event's record was dropped by an abort, so it has no timestamp")
	}
	return ts, nil
}

// Elapsed is the time between two events' records (aclrtEventElapsedTime).
func Elapsed(start, end *Event) (time.Duration, error) {
	for _, e := range [2]*Event{start, end} {
		if e.check() == nil && e.flags&EventIPC != 0 {
			return 0, e.ipcRefuses("aclrtEventElapsedTime")
		}
	}
	t0, err := start.Timestamp()
	if err != nil {
		return 0, rterr.Wrap(rterr.KindOf(err), err, "start event")
	}
	t1, err := end.Timestamp()
	if err != nil {
		return 0, rterr.Wrap(rterr.KindOf(err), err, "end event")
	}
	if t1 < t0 {
		return 0, rterr.Errorf(rterr.KindEventTimestampReversal, "end event ran %v before the start event", time.Duration(t0-t1))
	}
	return time.Duration(t1 - t0), nil
}

// external reports whether e is an ACL_EVENT_EXTERNAL event: a flag that a
// record sets and a reset clears, usable across a model's boundary.
func (e *Event) external() bool { return e.flags&EventExternal != 0 }

// divertEvent records an event task of a stream that is capturing, bound or
// updating. Inside a capture or a built model an ordinary event becomes a
// graph event, private to each run; an external event stays a device event
// the model shares with streams outside it.
func (s *Stream) divertEvent(d *divert, e *Event, t *hal.Task) error {
	if d.update != nil {
		return rterr.Errorf(rterr.KindTaskTypeNotSupport, "a task-group update holds single tasks, not a %s", t.Kind)
	}
	if e.external() {
		return d.addOp(s, hal.Op{Kind: hal.OpTask, Task: *t}, e)
	}
	if c := d.capture; c != nil {
		switch t.Kind {
		case hal.TaskEventRecord:
			return c.recordEvent(s, d.ms, e)
		case hal.TaskEventWait:
			return c.waitEvent(s, e, t.Timeout)
		}
		c.mu.Lock()
		ce := c.events[e]
		c.mu.Unlock()
		if ce == nil {
			return d.addOp(s, hal.Op{Kind: hal.OpTask, Task: *t}, e)
		}
		return c.add(s, d.ms, hal.Op{Kind: hal.OpReset, Event: ce.ge}, e)
	}
	m := d.ms.m
	m.mu.Lock()
	ge, ok := m.events[e]
	if !ok && t.Kind == hal.TaskEventRecord {
		ge, ok = m.nEvents, true
		m.nEvents++
		m.events[e] = ge
	}
	m.mu.Unlock()
	if !ok {
		return d.addOp(s, hal.Op{Kind: hal.OpTask, Task: *t}, e) // an event of the world outside the model
	}
	kind := hal.OpReset
	switch t.Kind {
	case hal.TaskEventRecord:
		kind = hal.OpRecord
	case hal.TaskEventWait:
		kind = hal.OpWait
	}
	return m.addBound(d.ms, hal.Op{Kind: kind, Event: ge, Timeout: t.Timeout}, e)
}
