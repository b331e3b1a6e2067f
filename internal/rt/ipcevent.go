package rt

import (
	"time"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
	"github.com/gocann/gocann/internal/support"
)

// IPC events (aclrtIpcGetEventHandle, aclrtIpcOpenEventHandle). An event
// created with ACL_EVENT_IPC is an ordinary device event of its process
// until its handle is asked for: then the device exports it to the
// machine's other processes, without a whitelist (CANN has no whitelist
// for events). Opening the handle elsewhere makes an event of that
// process whose waits wait for the exporter's records.

// eventIPC is the IPC side of an event.
type eventIPC struct {
	// key is the export's key (exported is set, e.mu held), or the key the
	// event was opened with (remote is set).
	key      hal.IPCKey
	exported bool
	// remote is the exporter's event, for an event opened here; e.h is
	// then an event of this process holding the records made here.
	remote hal.RemoteEvent
}

// ErrNotShared is the message of an IPC call on a backend whose devices are
// not on a machine shared with other processes.
const ErrNotShared = "the devices are not on a shared machine (GOCANN_MACHINE / simulator.machine)"

// ipcSync returns the IPC capability of c's device.
func (c *Context) ipcSync() (hal.IPC, error) {
	ipc, ok := c.hd.(hal.IPC)
	if !ok {
		return nil, rterr.Errorf(rterr.KindNotSupported, ErrNotShared)
	}
	return ipc, nil
}

// ipcEventsSupported refuses ACL_EVENT_IPC on a product without IPC events
// (those of aclrtIpcGetEventHandle's support list).
func (c *Context) ipcEventsSupported() error {
	p, ok := support.ProductOf(c.d.props.SoCName)
	if !ok {
		return nil
	}
	if yes, _ := support.Supported("aclrtIpcGetEventHandle", p); !yes {
		return rterr.Errorf(rterr.KindNotSupported, "event flag ACL_EVENT_IPC is not supported on %s (%s): its events cannot be shared between processes", c.d.props.SoCName, p)
	}
	return nil
}

// ipcRefuses refuses operation op on an IPC event, which CANN does not
// offer for them.
func (e *Event) ipcRefuses(op string) error {
	if e.flags&EventIPC == 0 {
		return nil
	}
	what := "an ACL_EVENT_IPC event"
	if e.ipc.remote != nil {
		what = "an event opened with aclrtIpcOpenEventHandle"
	}
	return rterr.Errorf(rterr.KindNotSupported, "%s does not accept %s", op, what)
}

// ipcUndiverted refuses a record or wait (op) of an IPC event on a stream
// that is capturing or bound to a model.
func (s *Stream) ipcUndiverted(e *Event, op string) error {
	if e.flags&EventIPC == 0 || !s.diverted() {
		return nil
	}
	return rterr.Errorf(rterr.KindNotSupported, "%s of an ACL_EVENT_IPC event is not supported on stream %d, which is capturing or bound to a model", op, s.id)
}

// IPCHandle exports e to the machine's other processes and returns its
// key (aclrtIpcGetEventHandle); every call returns the same key. An event
// opened here returns the key it was opened with.
func (e *Event) IPCHandle() (hal.IPCKey, error) {
	if err := e.check(); err != nil {
		return hal.IPCKey{}, err
	}
	if e.flags != EventIPC {
		return hal.IPCKey{}, rterr.Errorf(rterr.KindInvalidParam, "event flags %#x are not ACL_EVENT_IPC: only an event from aclrtCreateEventExWithFlag(ACL_EVENT_IPC) has an IPC handle", e.flags)
	}
	if e.ipc.remote != nil {
		return e.ipc.key, nil
	}
	ipc, err := e.c.ipcSync()
	if err != nil {
		return hal.IPCKey{}, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	// Destroy marks the event dead, then takes e.mu to end its export: an
	// event still alive here is one whose Destroy ends the export made now.
	if err := e.check(); err != nil {
		return hal.IPCKey{}, err
	}
	if e.ipc.exported {
		return e.ipc.key, nil
	}
	k, err := ipc.ExportEvent(e.h, hal.ExportOpts{NoPidCheck: true})
	if err != nil {
		return hal.IPCKey{}, rterr.Wrap(rterr.KindOf(err), err, "exporting the event")
	}
	e.ipc.key, e.ipc.exported = k, true
	return k, nil
}

// OpenIPCEvent opens the event another process exported with key k
// (aclrtIpcOpenEventHandle): a new event of c whose stream waits,
// synchronizations and queries follow the exporter's records. Records
// made here are this process's own: its waits and synchronizations wait
// for them too, the exporter does not see them.
func (c *Context) OpenIPCEvent(k hal.IPCKey) (*Event, error) {
	c.d.r.waitUnlocked()
	if err := c.check(); err != nil {
		return nil, err
	}
	ipc, err := c.ipcSync()
	if err != nil {
		return nil, err
	}
	if k == (hal.IPCKey{}) {
		// What a handle read short into zeroed memory holds, such as one
		// read from a file before its writer wrote it.
		return nil, rterr.Errorf(rterr.KindInvalidParam, "handle's first %d bytes, its key, are all zeros, expected the bytes aclrtIpcGetEventHandle wrote: no export's key is zero", len(k))
	}
	re, err := ipc.OpenEvent(k)
	if err != nil {
		return nil, rterr.Wrap(rterr.KindOf(err), err, "opening IPC event handle %x...", k[:4])
	}
	h, err := c.hd.NewEvent(hal.EventConfig{})
	if err != nil {
		re.Close()
		return nil, err
	}
	e := &Event{c: c, h: h, flags: EventIPC, api: EventEx, id: c.d.eventID.Add(1) - 1}
	e.ipc.key, e.ipc.remote = k, re
	c.mu.Lock()
	if c.events == nil {
		c.mu.Unlock()
		e.release()
		return nil, rterr.Errorf(rterr.KindInvalidHandle, "context %d was destroyed", c.id)
	}
	c.events[e] = struct{}{}
	c.mu.Unlock()
	return e, nil
}

// Opened reports whether e was opened from another process's handle.
func (e *Event) Opened() bool { return e.ipc.remote != nil }

// endIPC withdraws e's export, or closes the exporter's event e opened.
func (e *Event) endIPC() {
	if e.ipc.remote != nil {
		e.ipc.remote.Close()
		return
	}
	e.mu.Lock()
	exported, k := e.ipc.exported, e.ipc.key
	e.ipc.exported = false
	e.mu.Unlock()
	if exported {
		if ipc, err := e.c.ipcSync(); err == nil {
			// The device may have withdrawn it already, when the event
			// closes; nothing else can fail.
			_ = ipc.Withdraw(k)
		}
	}
}

// waitOpened queues, on s, a wait for the exporter's records of opened
// event e, then one for e's latest record made here, if any.
func (s *Stream) waitOpened(e *Event, timeout time.Duration, site uintptr) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	seq, err := s.submit(&hal.Task{Kind: hal.TaskEventWait, Event: e.ipc.remote, Timeout: timeout, Site: site})
	if err != nil {
		return err
	}
	if e.last != nil {
		if seq, err = s.submit(&hal.Task{Kind: hal.TaskEventWait, Event: e.h, Timeout: timeout, Site: site}); err != nil {
			return err
		}
	}
	e.waited, e.waitSeq = s, seq
	return nil
}

// waitRemote waits for the exporter's records of opened event e, for at
// most timeout (0: no bound), and returns what is left of timeout for the
// records made here.
func (e *Event) waitRemote(timeout time.Duration) (time.Duration, error) {
	start := time.Now()
	err := e.ipc.remote.Wait(timeout)
	if err != nil {
		if rterr.KindOf(err) == rterr.KindWaitTimeout {
			return 0, &rterr.Error{Kind: rterr.KindEventSyncTimeout, Msg: "event: the exporting process's records did not complete in " + timeout.String(), Err: err}
		}
		return 0, rterr.Wrap(rterr.KindOf(err), err, "waiting for the records of the process that exported the event")
	}
	if timeout > 0 {
		timeout -= time.Since(start)
		if timeout <= 0 {
			timeout = time.Nanosecond
		}
	}
	return timeout, nil
}
