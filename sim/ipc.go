package sim

import (
	"errors"
	"sync"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/sim/shared"
)

// The IPC capability (hal.IPC): what a backend exports to the other
// processes of its machine and what it imports from them. The protocol is
// sim/shared's; this side keeps which exports are the backend's own and
// ties them to its objects.

var _ hal.IPC = (*device)(nil)

// ipcTable is a backend's own exports, by key.
type ipcTable struct {
	mu  sync.Mutex
	own map[hal.IPCKey]*ownExport
}

// ownExport is one export of this backend and the object it shares.
type ownExport struct {
	ex shared.Export
	ev *event  // KindEvent
	n  *notify // KindNotify
}

func (d *device) machine() (*shared.Machine, error) {
	if m := d.b.machine; m != nil {
		return m, nil
	}
	return nil, hal.Errorf(hal.KindNotSupported,
		"device %d is not on a shared machine, expected one named by GOCANN_MACHINE or simulator.machine", d.id)
}

func (d *device) physical() int { return d.b.ident.ids[d.id].Physical }

func (d *device) BareTgid() int32 { return d.b.BareTgid() }

// publish exports desc and keeps it as the backend's own.
func (d *device) publish(desc shared.Desc, o hal.ExportOpts, own ownExport) (hal.IPCKey, error) {
	p, err := d.publishOwn(desc, o, own)
	if err != nil {
		return hal.IPCKey{}, err
	}
	return p.ex.Key, nil
}

// publishOwn is publish returning the backend's record of the export.
func (d *device) publishOwn(desc shared.Desc, o hal.ExportOpts, own ownExport) (*ownExport, error) {
	m, err := d.machine()
	if err != nil {
		return nil, err
	}
	if o.NoPidCheck {
		desc.Flags |= shared.FlagNoPidCheck
	}
	desc.Device = int32(d.physical())
	n := shared.KeySize
	if o.ShortKey {
		n = shared.ShortKey
	}
	ex, err := m.Publish(desc, n)
	if err != nil {
		return nil, hal.Wrap(hal.KindOutOfMemory, err, "exporting to the machine's other processes")
	}
	own.ex = ex
	t := &d.b.ipc
	t.mu.Lock()
	if t.own == nil {
		t.own = map[hal.IPCKey]*ownExport{}
	}
	t.own[ex.Key] = &own
	t.mu.Unlock()
	return &own, nil
}

// mine returns an export of this backend.
func (d *device) mine(k hal.IPCKey) (*ownExport, error) {
	t := &d.b.ipc
	t.mu.Lock()
	defer t.mu.Unlock()
	if o := t.own[k]; o != nil {
		return o, nil
	}
	return nil, hal.Errorf(hal.KindInvalidParam, "key %x is not an export of this process", k[:4])
}

func (d *device) AllowImport(k hal.IPCKey, pids []int32) error {
	o, err := d.mine(k)
	if err != nil {
		return err
	}
	if err := o.ex.Allow(pids); err != nil {
		return hal.Wrap(hal.KindInvalidParam, err, "adding %d processes to the whitelist", len(pids))
	}
	return nil
}

func (d *device) Withdraw(k hal.IPCKey) error {
	o, err := d.mine(k)
	if err != nil {
		return err
	}
	d.b.ipc.withdraw(o)
	return nil
}

// withdraw ends export o and unties it from its object, if it is the
// object's export: one that lost a race to export the object is not.
func (t *ipcTable) withdraw(o *ownExport) {
	t.mu.Lock()
	if t.own[o.ex.Key] == o {
		delete(t.own, o.ex.Key)
	}
	t.mu.Unlock()
	// The export may already be gone with its slot; nothing is left to do.
	_ = o.ex.Withdraw()
	if o.ev != nil {
		o.ev.s.mu.Lock()
		if o.ev.ipc == &o.ex {
			o.ev.ipc = nil
		}
		o.ev.s.mu.Unlock()
	}
	if o.n != nil {
		o.n.mu.Lock()
		if o.n.ex == &o.ex {
			o.n.ipc, o.n.ex = false, nil
		}
		o.n.mu.Unlock()
	}
}

// withdrawKey ends export k of an event or notify being closed, if it
// still stands.
func (t *ipcTable) withdrawKey(k hal.IPCKey) {
	t.mu.Lock()
	o := t.own[k]
	t.mu.Unlock()
	if o != nil {
		t.withdraw(o)
	}
}

var kindNames = map[shared.Kind]string{
	shared.KindMemory: "IPC memory", shared.KindPhysical: "physical memory",
	shared.KindEvent: "IPC event", shared.KindNotify: "IPC notify",
}

// find returns export k, of kind want, that this process may import.
func (d *device) find(k hal.IPCKey, want shared.Kind) (shared.Export, error) {
	m, err := d.machine()
	if err != nil {
		return shared.Export{}, err
	}
	ex, err := m.Find(k)
	switch {
	case errors.Is(err, shared.ErrNoExport):
		return ex, hal.Errorf(hal.KindInvalidParam, "key %x... names no live export on machine %q, expected the key of a live %s export", k[:4], d.b.cfg.Machine, kindNames[want])
	case errors.Is(err, shared.ErrOwnerGone):
		return ex, hal.Errorf(hal.KindInvalidParam, "key %x...: the process that exported it has exited", k[:4])
	case err != nil:
		return ex, hal.Wrap(hal.KindInternal, err, "looking up key %x...", k[:4])
	case ex.Kind != want:
		return ex, hal.Errorf(hal.KindInvalidParam, "key %x... names a %s export, expected %s", k[:4], kindNames[ex.Kind], kindNames[want])
	case !ex.Permits(m.Pid()):
		return ex, hal.Errorf(hal.KindNoPermission, "process %d is not on the whitelist of the %s that process %d exported", m.Pid(), kindNames[want], ex.Pid)
	}
	return ex, nil
}

func (d *device) Exported(k hal.IPCKey) (hal.ExportInfo, error) {
	m, err := d.machine()
	if err != nil {
		return hal.ExportInfo{}, err
	}
	ex, err := m.Find(k)
	if err != nil {
		return hal.ExportInfo{}, hal.Wrap(hal.KindInvalidParam, err, "key %x...", k[:4])
	}
	return hal.ExportInfo{Kind: hal.ExportKind(ex.Kind), Pid: ex.Pid, Physical: int(ex.Device), Size: ex.Size, PageSize: ex.PageSize}, nil
}

// errClosedObj is the error of an operation on a closed imported object.
func errClosedObj(what string, id uint32) error {
	return hal.Errorf(hal.KindInvalidHandle, "%s %d is already closed", what, id)
}

// marks returns each queue of the scheduler with work still to do and
// the sequence number it has submitted.
func (s *scheduler) marks() map[*queue]uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	var m map[*queue]uint64
	for _, q := range s.queues {
		if sub := q.Submitted(); q.Completed() < sub {
			if m == nil {
				m = map[*queue]uint64{}
			}
			m[q] = sub
		}
	}
	return m
}
