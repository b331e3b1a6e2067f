package gocann

import (
	"context"
	"time"

	"github.com/gocann/gocann/internal/callsite"
	"github.com/gocann/gocann/internal/rt"
	"github.com/gocann/gocann/internal/rterr"
)

// EventFlags are event creation flags (ACL_EVENT_*).
type EventFlags uint32

const (
	EventSync            EventFlags = EventFlags(rt.EventSync)            // ACL_EVENT_SYNC: streams may wait for it
	EventCaptureProgress EventFlags = EventFlags(rt.EventCaptureProgress) // ACL_EVENT_CAPTURE_STREAM_PROGRESS
	EventTimeLine        EventFlags = EventFlags(rt.EventTimeLine)        // ACL_EVENT_TIME_LINE: keeps a timestamp
	EventDeviceOnly      EventFlags = EventFlags(rt.EventDeviceOnly)      // ACL_EVENT_DEVICE_USE_ONLY: no host query or wait
	EventExternal        EventFlags = EventFlags(rt.EventExternal)        // ACL_EVENT_EXTERNAL: a flag that a record sets and Stream.ResetEvent clears, shared between a model and the streams outside it (task update)
)

// Event marks a point in a stream: other streams can wait for it, the host
// can wait for or query it, and with EventTimeLine it carries the time the
// device reached it.
type Event struct {
	r *Runtime
	e *rt.Event
}

func (r *Runtime) event(e *rt.Event) *Event {
	ev := &Event{r: r, e: e}
	e.Front.Store(ev)
	return ev
}

// NewEvent creates a reusable event: each Record replaces the previous one,
// and a wait uses the record that was latest when the wait was queued.
//
// CANN: aclrtCreateEventExWithFlag.
func (c *Context) NewEvent(flags EventFlags) (*Event, error) {
	if err := c.r.require("aclrtCreateEventExWithFlag"); err != nil {
		return nil, err
	}
	e, err := c.c.NewEvent(uint32(flags), rt.EventEx)
	if err != nil {
		return nil, wrap("Context.NewEvent (aclrtCreateEventExWithFlag)", err)
	}
	return c.r.event(e), nil
}

// NewEventWithFlag creates an event with the older semantics: reused after
// Stream.ResetEvent (which needs EventSync).
//
// CANN: aclrtCreateEventWithFlag.
func (c *Context) NewEventWithFlag(flags EventFlags) (*Event, error) {
	if err := c.r.require("aclrtCreateEventWithFlag"); err != nil {
		return nil, err
	}
	e, err := c.c.NewEvent(uint32(flags), rt.EventWithFlag)
	if err != nil {
		return nil, wrap("Context.NewEventWithFlag (aclrtCreateEventWithFlag)", err)
	}
	return c.r.event(e), nil
}

// NewDefaultEvent creates an event for timing and stream waits.
//
// CANN: aclrtCreateEvent.
func (c *Context) NewDefaultEvent() (*Event, error) {
	if err := c.r.require("aclrtCreateEvent"); err != nil {
		return nil, err
	}
	e, err := c.c.NewEvent(0, rt.EventPlain)
	if err != nil {
		return nil, wrap("Context.NewDefaultEvent (aclrtCreateEvent)", err)
	}
	return c.r.event(e), nil
}

// Flags are the creation flags.
//
// CANN: none.
func (e *Event) Flags() EventFlags { return EventFlags(e.e.Flags()) }

// Close destroys the event. Tasks already queued that use it still run.
//
// CANN: aclrtDestroyEvent.
func (e *Event) Close() error {
	if err := e.r.require("aclrtDestroyEvent"); err != nil {
		return err
	}
	return wrap("Event.Close (aclrtDestroyEvent)", e.e.Destroy())
}

// Synchronize waits for the event's latest record and reports the first
// fault, not reported before, of the tasks before it on its stream. An
// event never recorded returns at once.
//
// CANN: aclrtSynchronizeEvent.
func (e *Event) Synchronize(ctx context.Context) error {
	if err := e.r.require("aclrtSynchronizeEvent"); err != nil {
		return err
	}
	return wrap("Event.Synchronize (aclrtSynchronizeEvent)", e.e.Synchronize(ctx, 0))
}

// SynchronizeTimeout is Synchronize bounded by timeout (0: no bound); an
// expired wait fails with ACL_ERROR_RT_EVENT_SYNC_TIMEOUT.
//
// CANN: aclrtSynchronizeEventWithTimeout.
func (e *Event) SynchronizeTimeout(timeout time.Duration) error {
	if err := e.r.require("aclrtSynchronizeEventWithTimeout"); err != nil {
		return err
	}
	return wrap("Event.SynchronizeTimeout (aclrtSynchronizeEventWithTimeout)", e.e.Synchronize(context.Background(), timeout))
}

// Query reports whether the latest record is done. An event never recorded
// is done if it came from NewEvent, not done otherwise.
//
// CANN: aclrtQueryEventStatus.
func (e *Event) Query() (done bool, err error) {
	if err := e.r.require("aclrtQueryEventStatus"); err != nil {
		return false, err
	}
	done, err = e.e.Query()
	return done, wrap("Event.Query (aclrtQueryEventStatus)", err)
}

// QueryLegacy is Query with the older call's rule: events from NewEvent are
// refused.
//
// CANN: aclrtQueryEvent.
func (e *Event) QueryLegacy() (done bool, err error) {
	done, err = e.e.QueryLegacy()
	return done, wrap("Event.QueryLegacy (aclrtQueryEvent)", err)
}

// QueryWait reports whether the latest stream wait on the event is done;
// not for events from NewEvent.
//
// CANN: aclrtQueryEventWaitStatus.
func (e *Event) QueryWait() (done bool, err error) {
	if err := e.r.require("aclrtQueryEventWaitStatus"); err != nil {
		return false, err
	}
	done, err = e.e.QueryWait()
	return done, wrap("Event.QueryWait (aclrtQueryEventWaitStatus)", err)
}

// Timestamp is the device time at which the latest record ran.
//
// CANN: aclrtEventGetTimestamp.
func (e *Event) Timestamp() (time.Duration, error) {
	if err := e.r.require("aclrtEventGetTimestamp"); err != nil {
		return 0, err
	}
	ts, err := e.e.Timestamp()
	return time.Duration(ts), wrap("Event.Timestamp (aclrtEventGetTimestamp)", err)
}

// Elapsed is the device time between two events' latest records.
//
// CANN: aclrtEventElapsedTime.
func Elapsed(start, end *Event) (time.Duration, error) {
	if start == nil || end == nil {
		return 0, wrap("Elapsed (aclrtEventElapsedTime)", rterr.Errorf(rterr.KindBadArgument, "event is nil"))
	}
	if err := start.r.require("aclrtEventElapsedTime"); err != nil {
		return 0, err
	}
	d, err := rt.Elapsed(start.e, end.e)
	return d, wrap("Elapsed (aclrtEventElapsedTime)", err)
}

// Record queues a record of e: it completes when every task queued on the
// stream before it is done.
//
// CANN: aclrtRecordEvent.
//
//go:noinline
func (s *Stream) Record(e *Event) error {
	if err := s.r.require("aclrtRecordEvent"); err != nil {
		return err
	}
	const op = "Stream.Record (aclrtRecordEvent)"
	if e == nil {
		return wrap(op, rterr.Errorf(rterr.KindBadArgument, "event is nil"))
	}
	return wrap(op, s.s.RecordEvent(e.e, callsite.Caller()))
}

// WaitEvent holds later tasks of the stream until e's latest record (as of
// this call) is done. An event never recorded does not hold the stream.
//
// CANN: aclrtStreamWaitEvent.
//
//go:noinline
func (s *Stream) WaitEvent(e *Event) error {
	if err := s.r.require("aclrtStreamWaitEvent"); err != nil {
		return err
	}
	const op = "Stream.WaitEvent (aclrtStreamWaitEvent)"
	if e == nil {
		return wrap(op, rterr.Errorf(rterr.KindBadArgument, "event is nil"))
	}
	return wrap(op, s.s.WaitEvent(e.e, callsite.Caller()))
}

// WaitEventTimeout is WaitEvent whose wait fails after timeout (0: never)
// once reached; the timeout is a task fault (ACL_ERROR_RT_WAIT_TIMEOUT)
// reported at the next synchronizing call, and the stream moves on.
//
// CANN: aclrtStreamWaitEventWithTimeout.
//
//go:noinline
func (s *Stream) WaitEventTimeout(e *Event, timeout time.Duration) error {
	if err := s.r.require("aclrtStreamWaitEventWithTimeout"); err != nil {
		return err
	}
	const op = "Stream.WaitEventTimeout (aclrtStreamWaitEventWithTimeout)"
	if e == nil {
		return wrap(op, rterr.Errorf(rterr.KindBadArgument, "event is nil"))
	}
	return wrap(op, s.s.WaitEventTimeout(e.e, timeout, callsite.Caller()))
}

// ResetEvent queues a reset of e to its never-recorded state, for events
// from NewEventWithFlag with EventSync.
//
// CANN: aclrtResetEvent.
//
//go:noinline
func (s *Stream) ResetEvent(e *Event) error {
	if err := s.r.require("aclrtResetEvent"); err != nil {
		return err
	}
	const op = "Stream.ResetEvent (aclrtResetEvent)"
	if e == nil {
		return wrap(op, rterr.Errorf(rterr.KindBadArgument, "event is nil"))
	}
	return wrap(op, s.s.ResetEvent(e.e, callsite.Caller()))
}

// Notify is a one-shot signal between streams, possibly of different
// devices: one record releases exactly one wait, which resets it.
type Notify struct {
	r *Runtime
	n *rt.Notify
}

// NewNotify creates a notify.
//
// CANN: aclrtCreateNotify.
func (c *Context) NewNotify() (*Notify, error) {
	if err := c.r.require("aclrtCreateNotify"); err != nil {
		return nil, err
	}
	n, err := c.c.NewNotify()
	if err != nil {
		return nil, wrap("Context.NewNotify (aclrtCreateNotify)", err)
	}
	f := &Notify{r: c.r, n: n}
	n.Front.Store(f)
	return f, nil
}

// ID is the notify's id.
//
// CANN: aclrtGetNotifyId.
func (n *Notify) ID() uint32 { return n.n.ID() }

// Close destroys the notify; tasks already queued that use it still run.
//
// CANN: aclrtDestroyNotify.
func (n *Notify) Close() error {
	if err := n.r.require("aclrtDestroyNotify"); err != nil {
		return err
	}
	return wrap("Notify.Close (aclrtDestroyNotify)", n.n.Destroy())
}

// RecordNotify queues a record of n.
//
// CANN: aclrtRecordNotify.
//
//go:noinline
func (s *Stream) RecordNotify(n *Notify) error {
	if err := s.r.require("aclrtRecordNotify"); err != nil {
		return err
	}
	const op = "Stream.RecordNotify (aclrtRecordNotify)"
	if n == nil {
		return wrap(op, rterr.Errorf(rterr.KindBadArgument, "notify is nil"))
	}
	return wrap(op, s.s.RecordNotify(n.n, callsite.Caller()))
}

// WaitNotify holds later tasks of the stream until n is recorded, then
// resets n. With timeout > 0 a wait that expires becomes a task fault
// (ACL_ERROR_RT_WAIT_TIMEOUT) reported at the next synchronizing call, and
// the stream moves on.
//
// CANN: aclrtWaitAndResetNotify.
//
//go:noinline
func (s *Stream) WaitNotify(n *Notify, timeout time.Duration) error {
	if err := s.r.require("aclrtWaitAndResetNotify"); err != nil {
		return err
	}
	const op = "Stream.WaitNotify (aclrtWaitAndResetNotify)"
	if n == nil {
		return wrap(op, rterr.Errorf(rterr.KindBadArgument, "notify is nil"))
	}
	return wrap(op, s.s.WaitNotify(n.n, timeout, callsite.Caller()))
}
