package rt

import (
	"sync"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// IPC notifies (aclrtNotifyGetExportKey, aclrtNotifySetImportPid,
// aclrtNotifySetImportPidInterServer, aclrtNotifyImportByKey). The process
// that created a notify exports it; another process imports it and
// records it, which signals the creator's notify, and only the creator
// waits on it.

// Notify export and import flags, with the CANN values.
const (
	NotifyExportNoPidCheck uint64 = 0x2 // ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION
	NotifyImportDownload   uint64 = 0x1 // CANN's internal RT_NOTIFY_FLAG_DOWNLOAD_TO_DEV
	NotifyImportPeerAccess uint64 = 0x2 // ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS
	notifyImportFlagsKnown        = NotifyImportDownload | NotifyImportPeerAccess
	notifyRoleNone         uint8  = 0
	notifyRoleExporter     uint8  = 1
	notifyRoleImporter     uint8  = 2
)

// notifyIPC is the IPC side of a notify.
type notifyIPC struct {
	mu   sync.Mutex
	role uint8      // notifyRole*
	key  hal.IPCKey // the export's key, or the key it was imported with
}

func (n *Notify) ipcRole() uint8 {
	n.ipc.mu.Lock()
	defer n.ipc.mu.Unlock()
	return n.ipc.role
}

// Imported reports whether n was imported from another process.
func (n *Notify) Imported() bool { return n.ipcRole() == notifyRoleImporter }

// ExportKey exports n to the machine's other processes and returns its key
// (aclrtNotifyGetExportKey). flags is 0 or NotifyExportNoPidCheck (any
// process may import); otherwise only the processes AllowImport names may.
// A notify is exported once; an imported one is not exported again.
func (n *Notify) ExportKey(flags uint64) (hal.IPCKey, error) {
	if err := n.check(); err != nil {
		return hal.IPCKey{}, err
	}
	if flags != 0 && flags != NotifyExportNoPidCheck {
		return hal.IPCKey{}, rterr.Errorf(rterr.KindInvalidParam, "flags %#x is invalid, expected ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT (0) or ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION (0x2)", flags)
	}
	if n.counting {
		return hal.IPCKey{}, rterr.Errorf(rterr.KindInvalidParam, "a counting notify cannot be exported")
	}
	n.ipc.mu.Lock()
	defer n.ipc.mu.Unlock()
	// As for events (Event.IPCHandle): a Destroy racing this call ends
	// the export made here.
	if err := n.check(); err != nil {
		return hal.IPCKey{}, err
	}
	switch n.ipc.role {
	case notifyRoleExporter:
		return hal.IPCKey{}, rterr.Errorf(rterr.KindInternal, "notify is already an IPC notify: it was exported before (key %x...); a notify is exported once", n.ipc.key[:4])
	case notifyRoleImporter:
		return hal.IPCKey{}, rterr.Errorf(rterr.KindInternal, "notify is already an IPC notify: it was imported (aclrtNotifyImportByKey); only the process that created it exports it")
	}
	ipc, err := n.c.ipcSync()
	if err != nil {
		return hal.IPCKey{}, err
	}
	k, err := ipc.ExportNotify(n.h, hal.ExportOpts{NoPidCheck: flags&NotifyExportNoPidCheck != 0})
	if err != nil {
		return hal.IPCKey{}, rterr.Wrap(rterr.KindOf(err), err, "exporting the notify")
	}
	n.ipc.role, n.ipc.key = notifyRoleExporter, k
	return k, nil
}

// exportKey is the key of n, which this process exported, for a
// whitelist call.
func (n *Notify) exportKey(fn string) (hal.IPCKey, error) {
	n.ipc.mu.Lock()
	defer n.ipc.mu.Unlock()
	switch n.ipc.role {
	case notifyRoleNone:
		return hal.IPCKey{}, rterr.Errorf(rterr.KindInvalidParam, "notify was not exported: call aclrtNotifyGetExportKey before %s", fn)
	case notifyRoleImporter:
		return hal.IPCKey{}, rterr.Errorf(rterr.KindInvalidParam, "notify was imported (aclrtNotifyImportByKey): only the process that created and exported it sets its whitelist (%s)", fn)
	}
	return n.ipc.key, nil
}

// AllowImport adds processes pids (bare tgids) to the whitelist of
// exported notify n (aclrtNotifySetImportPid).
func (n *Notify) AllowImport(pids []int32) error {
	if err := n.check(); err != nil {
		return err
	}
	if len(pids) == 0 {
		return rterr.Errorf(rterr.KindInvalidParam, "num is 0, expected (0, 2147483647]")
	}
	if err := n.c.check(); err != nil {
		return err
	}
	k, err := n.exportKey("aclrtNotifySetImportPid")
	if err != nil {
		return err
	}
	ipc, err := n.c.ipcSync()
	if err != nil {
		return err
	}
	if err := ipc.AllowImport(k, pids); err != nil {
		return rterr.Wrap(rterr.KindOf(err), err, "adding %d processes to the notify's whitelist", len(pids))
	}
	return nil
}

// AllowImportInterServer adds the processes of servers to the whitelist of
// exported notify n (aclrtNotifySetImportPidInterServer), entry by entry:
// each names exactly one process. All processes of a simulated machine are
// on one host, so the server id is not checked against anything.
// It stops at the first entry refused; the entries before stay applied.
func (n *Notify) AllowImportInterServer(servers []ServerPids) error {
	if err := n.check(); err != nil {
		return err
	}
	if len(servers) == 0 {
		return rterr.Errorf(rterr.KindInvalidParam, "num is 0, expected at least one aclrtServerPid")
	}
	for i, sp := range servers {
		if sp.Pids == nil {
			return rterr.Errorf(rterr.KindInvalidParam, "serverPids[%d].pid is NULL, expected a pid", i)
		}
		if len(sp.Pids) != 1 {
			return rterr.Errorf(rterr.KindInvalidParam, "serverPids[%d].num is %d, expected 1 (a notify takes one pid per server)", i, len(sp.Pids))
		}
		if err := n.AllowImport(sp.Pids); err != nil {
			return rterr.Wrap(rterr.KindOf(err), err, "serverPids[%d] (sdid %d)", i, sp.SDID)
		}
	}
	return nil
}

// ImportNotify imports the notify another process exported with key k
// (aclrtNotifyImportByKey): a new notify of c whose records signal the
// exporter's. flags is a combination of NotifyImportDownload and
// NotifyImportPeerAccess, neither of which changes anything here (every
// device of the machine reaches every other).
func (c *Context) ImportNotify(k hal.IPCKey, flags uint64) (*Notify, error) {
	c.d.r.waitUnlocked()
	if flags&^notifyImportFlagsKnown != 0 {
		return nil, rterr.Errorf(rterr.KindInvalidParam, "flags %#x is invalid, expected a combination of ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS (0x2) and 0x1, at most 0x3", flags)
	}
	if err := c.check(); err != nil {
		return nil, err
	}
	ipc, err := c.ipcSync()
	if err != nil {
		return nil, err
	}
	h, err := ipc.ImportNotify(k)
	if err != nil {
		return nil, rterr.Wrap(rterr.KindOf(err), err, "importing the notify of key %x...", k[:4])
	}
	n := &Notify{c: c, h: h}
	n.ipc.role, n.ipc.key = notifyRoleImporter, k
	return c.adoptNotify(n)
}

// ipcWaitable refuses a wait on an imported notify, and a wait on an
// exported one from another device than its own.
func (s *Stream) ipcWaitable(n *Notify) error {
	switch n.ipcRole() {
	case notifyRoleImporter:
		return rterr.Errorf(rterr.KindInvalidParam, "notify was imported from another process (aclrtNotifyImportByKey): only the process that created it waits on it (只能在创建端Wait); record it instead")
	case notifyRoleExporter:
		if s.c.d != n.c.d {
			return rterr.Errorf(rterr.KindInvalidParam, "notify wait task must be delivered on the device where the IPC notify was created (device %d), not on stream %d of device %d", n.c.d.id, s.id, s.c.d.id)
		}
	}
	return nil
}

// ipcResettable refuses a reset of an exported or imported notify.
func (n *Notify) ipcResettable() error {
	if n.ipcRole() != notifyRoleNone {
		return rterr.Errorf(rterr.KindTaskTypeNotSupport, "an IPC notify (exported or imported) cannot be reset")
	}
	return nil
}

// endIPC withdraws n's export, if it has one.
func (n *Notify) endIPC() {
	n.ipc.mu.Lock()
	role, k := n.ipc.role, n.ipc.key
	n.ipc.mu.Unlock()
	if role != notifyRoleExporter {
		return
	}
	if ipc, err := n.c.ipcSync(); err == nil {
		// The device may have withdrawn it already, when the notify closes.
		_ = ipc.Withdraw(k)
	}
}
