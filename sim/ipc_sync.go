package sim

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/sim/shared"
)

// Events and notifies across processes. An exported event publishes, in
// its export, the number of its last record submitted and the record up
// to which every record completed (event.publish); an importer's queue
// waits on those words, woken through the export's futex. An exported
// notify receives the records importers make through its process's
// doorbell watcher (shared.Export.OnSignal).

func (d *device) ExportEvent(ev hal.Event, o hal.ExportOpts) (hal.IPCKey, error) {
	e, err := d.s.ownEvent(ev)
	if err != nil {
		return hal.IPCKey{}, err
	}
	if e.flagMode {
		return hal.IPCKey{}, hal.Errorf(hal.KindInvalidParam, "a flag event cannot be exported, expected an event created for IPC")
	}
	if k, err := e.exportKey(); err != nil || k != (hal.IPCKey{}) {
		return k, err
	}
	own, err := d.publishOwn(shared.Desc{Kind: shared.KindEvent}, o, ownExport{ev: e})
	if err != nil {
		return hal.IPCKey{}, err
	}
	// The event may have closed, or a racing call exported it, while the
	// export was made: an export must not outlive its event, nor be its
	// second.
	d.s.mu.Lock()
	if e.closed || e.ipc != nil {
		k, err := e.exportKeyLocked()
		d.s.mu.Unlock()
		d.b.ipc.withdraw(own)
		return k, err
	}
	e.ipc = &own.ex
	own.ex.Submitted(e.submitted)
	e.publish()
	d.s.mu.Unlock()
	return own.ex.Key, nil
}

// exportKey is the key of e's export, zero if it has none, or an error
// once it is closed.
func (e *event) exportKey() (hal.IPCKey, error) {
	e.s.mu.Lock()
	defer e.s.mu.Unlock()
	return e.exportKeyLocked()
}

// exportKeyLocked is exportKey with e.s.mu held.
func (e *event) exportKeyLocked() (hal.IPCKey, error) {
	switch {
	case e.closed:
		return hal.IPCKey{}, hal.Errorf(hal.KindInvalidHandle, "event is closed, expected a live event to export")
	case e.ipc != nil:
		return e.ipc.Key, nil
	}
	return hal.IPCKey{}, nil
}

func (d *device) ExportNotify(hn hal.Notify, o hal.ExportOpts) (hal.IPCKey, error) {
	n, ok := hn.(*notify)
	if !ok || n == nil || n.owner != d.s {
		return hal.IPCKey{}, hal.Errorf(hal.KindInvalidHandle, "notify %v is not a notify of device %d, expected one it created", hn, d.id)
	}
	if err := n.unshared(); err != nil {
		return hal.IPCKey{}, err
	}
	own, err := d.publishOwn(shared.Desc{Kind: shared.KindNotify, Local: n.id}, o, ownExport{n: n})
	if err != nil {
		return hal.IPCKey{}, err
	}
	// A record from another process is delivered as one of the device's
	// own: under its scheduler's lock, rechecking its blocked heads at
	// once rather than through the poller.
	s := d.s
	own.ex.OnSignal(func() {
		s.mu.Lock()
		n.signal(s)
		s.mu.Unlock()
	}, s.wakePoller)
	// As for events: the notify may have closed, or been exported by a
	// racing call, meanwhile.
	n.mu.Lock()
	if err := n.unsharedLocked(); err != nil {
		n.mu.Unlock()
		d.b.ipc.withdraw(own)
		return hal.IPCKey{}, err
	}
	n.ipc, n.ex = true, &own.ex
	n.mu.Unlock()
	return own.ex.Key, nil
}

// unshared refuses a notify that is closed or already exported.
func (n *notify) unshared() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.unsharedLocked()
}

// unsharedLocked is unshared with n.mu held.
func (n *notify) unsharedLocked() error {
	if n.closed || n.ipc {
		return hal.Errorf(hal.KindInternal, "notify %d is closed or already exported, expected a notify not yet shared", n.id)
	}
	return nil
}

// remoteNotify is a notify another process exported, imported here: a
// record signals the exporter's notify.
type remoteNotify struct {
	id     uint32
	s      *scheduler
	ex     shared.Export
	closed bool // guarded by s.mu
}

func (d *device) ImportNotify(k hal.IPCKey) (hal.Notify, error) {
	ex, err := d.find(k, shared.KindNotify)
	if err != nil {
		return nil, err
	}
	id, err := d.s.takeNotify()
	if err != nil {
		return nil, err
	}
	ex.Register()
	return &remoteNotify{id: id, s: d.s, ex: ex}, nil
}

func (n *remoteNotify) ID() uint32 { return n.id }

func (n *remoteNotify) Close() error {
	s := n.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if n.closed {
		return errClosedObj("imported notify", n.id)
	}
	n.closed = true
	s.notifies--
	return nil
}

// signal records the exporter's notify once, if the export still stands.
func (n *remoteNotify) signal() { n.ex.Signal() }

// remoteEvent is an event another process exported, opened here.
type remoteEvent struct {
	d      *device
	ex     shared.Export
	closed atomic.Bool
	// watching are the record numbers a goroutine waits for on behalf of
	// blocked queue heads; guarded by d.s.mu.
	watching map[uint64]bool
}

var _ hal.RemoteEvent = (*remoteEvent)(nil)

func (d *device) OpenEvent(k hal.IPCKey) (hal.RemoteEvent, error) {
	ex, err := d.find(k, shared.KindEvent)
	if err != nil {
		return nil, err
	}
	return &remoteEvent{d: d, ex: ex, watching: map[uint64]bool{}}, nil
}

func (e *remoteEvent) Timestamp() (int64, bool) { return 0, false }

func (e *remoteEvent) Close() error {
	if e.closed.Swap(true) {
		return hal.Errorf(hal.KindInvalidHandle, "opened IPC event is already closed")
	}
	return nil
}

func (e *remoteEvent) Done() bool {
	subm, done := e.ex.Records()
	return done >= subm
}

func (e *remoteEvent) gone() error {
	return hal.Errorf(hal.KindInvalidParam, "the IPC event's exporter, process %d, has exited or destroyed it", e.ex.Pid)
}

func (e *remoteEvent) Wait(timeout time.Duration) error {
	subm, _ := e.ex.Records()
	var deadline time.Time
	if timeout > 0 {
		deadline = time.Now().Add(timeout)
	}
	for {
		step := time.Now().Add(shared.LivenessPeriod)
		if !deadline.IsZero() && deadline.Before(step) {
			step = deadline
		}
		if e.ex.WaitDone(subm, step) {
			return nil
		}
		switch {
		case !e.ex.Live():
			return e.gone()
		case !deadline.IsZero() && !time.Now().Before(deadline):
			return hal.Errorf(hal.KindWaitTimeout, "IPC event wait timed out after %v", timeout)
		}
	}
}

// runRemoteWait runs a queue head waiting on an opened event. s.mu must
// be held.
func (s *scheduler) runRemoteWait(q *queue, sl *slot, e *remoteEvent, now int64) (bool, *hal.Fault) {
	if _, done := e.ex.Records(); done >= sl.rec {
		return true, nil
	}
	if !e.ex.Live() {
		return true, s.newFault(q, q.done+1, &sl.t, hal.KindWaitTimeout, fmt.Sprintf("IPC event wait: %v", e.gone()), nil)
	}
	if f := s.expired(q, sl, now, "IPC event wait"); f != nil {
		return true, f
	}
	s.poll(q, sl)
	if !e.watching[sl.rec] {
		e.watching[sl.rec] = true
		go s.watchRemote(e, sl.rec)
	}
	return false, nil
}

// watchRemote sleeps until record rec of an opened event completes, its
// exporter goes or the device closes, then has the poller look again.
func (s *scheduler) watchRemote(e *remoteEvent, rec uint64) {
	for {
		done := e.ex.WaitDone(rec, time.Now().Add(shared.LivenessPeriod))
		s.mu.Lock()
		stop := done || s.closed || !e.ex.Live()
		if stop {
			delete(e.watching, rec)
		}
		s.mu.Unlock()
		if stop {
			s.wakePoller()
			return
		}
	}
}

// admitRemote admits a task on an opened event: only a wait, for the
// records its exporter submitted so far. s.mu must be held.
func (s *scheduler) admitRemote(sl *slot, e *remoteEvent) error {
	if sl.t.Kind != hal.TaskEventWait {
		return hal.Errorf(hal.KindInvalidHandle, "an IPC event opened from process %d can only be waited on here, not %s", e.ex.Pid, sl.t.Kind)
	}
	if e.d.s != s {
		return hal.Errorf(hal.KindInvalidParam, "the IPC event was opened on device %d, the stream is on device %d", e.d.id, s.dev.id)
	}
	sl.rec, sl.deadline = 0, 0
	sl.rec, _ = e.ex.Records()
	return nil
}

// admitRemoteNotify admits a task on an imported notify: records only,
// since only the process that created a notify waits on it.
func admitRemoteNotify(t *hal.Task, n *remoteNotify) error {
	if t.Kind != hal.TaskNotifyRecord {
		return hal.Errorf(hal.KindInvalidParam, "notify %d was imported from process %d: only the process that created it waits on it", n.id, n.ex.Pid)
	}
	return nil
}

// abandoned fails a wait on an exported notify once every process that
// imported it has exited: no record can come any more. It looks at most
// every LivenessPeriod. s.mu must be held.
func (s *scheduler) abandoned(q *queue, sl *slot, n *notify, now int64) *hal.Fault {
	n.mu.Lock()
	ex, due := n.ex, now-n.checked >= int64(shared.LivenessPeriod)
	if ex != nil && due {
		n.checked = now
	}
	n.mu.Unlock()
	if ex == nil || !due {
		return nil
	}
	if gone, pids := ex.Abandoned(); gone {
		return s.newFault(q, q.done+1, &sl.t, hal.KindWaitTimeout,
			fmt.Sprintf("notify %d wait: every process that imported it has exited (pids %v)", n.id, pids), nil)
	}
	return nil
}
