package gocann

import (
	"time"

	"github.com/gocann/gocann/internal/callsite"
	"github.com/gocann/gocann/internal/rt"
	"github.com/gocann/gocann/internal/rterr"
)

// RecordFlag says how Stream.RecordWithFlag records (ACL_EVENT_RECORD_*).
type RecordFlag uint32

const (
	RecordDefault RecordFlag = RecordFlag(rt.RecordDefault) // ACL_EVENT_RECORD_DEFAULT: as Stream.Record
	// RecordExternal (ACL_EVENT_RECORD_EXTERNAL) records the event inside a
	// capture so that streams and models outside the captured model see it:
	// each run of the model is the event's latest record.
	RecordExternal RecordFlag = RecordFlag(rt.RecordExternal)
)

// WaitFlag says how Stream.WaitEventWithFlag waits (ACL_EVENT_WAIT_*).
type WaitFlag uint32

const (
	WaitDefault WaitFlag = WaitFlag(rt.WaitDefault) // ACL_EVENT_WAIT_DEFAULT: as Stream.WaitEventTimeout
	// WaitExternal (ACL_EVENT_WAIT_EXTERNAL) makes a capture wait, at each
	// run of the captured model, for the event's latest record outside it.
	WaitExternal WaitFlag = WaitFlag(rt.WaitExternal)
)

// RecordWithFlag is Record with a flag. An event takes one record flag for
// its life, bound by its first record (Record binds RecordDefault), and
// RecordExternal needs an event from NewEvent(EventSync), a stream that is
// capturing, and at most one external record or wait of the event per
// capture.
//
// CANN: aclrtRecordEventWithFlag.
//
//go:noinline
func (s *Stream) RecordWithFlag(e *Event, flag RecordFlag) error {
	const op = "Stream.RecordWithFlag (aclrtRecordEventWithFlag)"
	if err := s.r.require("aclrtRecordEventWithFlag"); err != nil {
		return err
	}
	if e == nil {
		return wrap(op, rterr.Errorf(rterr.KindBadArgument, "event is nil"))
	}
	return wrap(op, s.s.RecordEventWithFlag(e.e, uint32(flag), callsite.Caller()))
}

// WaitEventWithFlag is WaitEventTimeout with a flag. An event takes one wait
// flag for its life, bound by its first wait (WaitEvent binds
// WaitDefault); WaitExternal takes timeout 0 only, an event from
// NewEvent(EventSync) and a stream that is capturing.
//
// CANN: aclrtStreamWaitEventWithFlag.
//
//go:noinline
func (s *Stream) WaitEventWithFlag(e *Event, timeout time.Duration, flag WaitFlag) error {
	const op = "Stream.WaitEventWithFlag (aclrtStreamWaitEventWithFlag)"
	if err := s.r.require("aclrtStreamWaitEventWithFlag"); err != nil {
		return err
	}
	if e == nil {
		return wrap(op, rterr.Errorf(rterr.KindBadArgument, "event is nil"))
	}
	return wrap(op, s.s.WaitEventWithFlag(e.e, timeout, uint32(flag), callsite.Caller()))
}

// ID is the event's id on its device.
//
// CANN: aclrtGetEventId.
func (e *Event) ID() (uint32, error) {
	if err := e.r.require("aclrtGetEventId"); err != nil {
		return 0, err
	}
	id, err := e.e.ID()
	return id, wrap("Event.ID (aclrtGetEventId)", err)
}

// EventsAvailable is how many more events that count against the device's
// limit (those of NewDefaultEvent, and of NewEventWithFlag with EventSync or
// EventExternal) the context's device can create.
//
// CANN: aclrtGetEventAvailNum.
func (c *Context) EventsAvailable() (int, error) {
	if err := c.r.require("aclrtGetEventAvailNum"); err != nil {
		return 0, err
	}
	n, err := c.c.EventsAvailable()
	return n, wrap("Context.EventsAvailable (aclrtGetEventAvailNum)", err)
}
