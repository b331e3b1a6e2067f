package gocann

import (
	"encoding/hex"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rt"
	"github.com/gocann/gocann/internal/rterr"
)

// Events and notifies shared between the processes of one simulated
// machine (GOCANN_MACHINE, or the simulator's "machine" key): an event
// created with EventIPC is exported with Event.IPCHandle and opened in
// another process with Context.OpenIPCEvent; a notify is exported with
// Notify.ExportKey and imported with Context.ImportNotify, and the
// importer's records release the creator's waits.

// EventIPC is the creation flag of an event other processes can open
// (ACL_EVENT_IPC); it is used alone, with Context.NewEvent only.
const EventIPC EventFlags = EventFlags(rt.EventIPC)

// IPCEventHandleSize is the size of an IPCEventHandle
// (ACL_IPC_EVENT_HANDLE_SIZE).
const IPCEventHandleSize = 64

// IPCEventHandle names an exported event: the export's 32-byte key, then
// zeros.
//
// CANN: aclrtIpcEventHandle.
type IPCEventHandle [IPCEventHandleSize]byte

// IPCHandle exports the event, created with EventIPC, to the machine's
// other processes, any of which may open it; every call returns the same
// handle. Closing the event ends the export: later opens fail, events
// opened before keep working.
//
// CANN: aclrtIpcGetEventHandle.
func (e *Event) IPCHandle() (IPCEventHandle, error) {
	const op = "Event.IPCHandle (aclrtIpcGetEventHandle)"
	if err := e.r.require("aclrtIpcGetEventHandle"); err != nil {
		return IPCEventHandle{}, err
	}
	k, err := e.e.IPCHandle()
	if err != nil {
		return IPCEventHandle{}, wrap(op, err)
	}
	var h IPCEventHandle
	copy(h[:], k[:])
	return h, nil
}

// OpenIPCEvent opens an event another process exported: a new event of c.
// A stream waiting for it waits for the records the exporter had queued
// when the wait was queued; Synchronize and Query follow the same
// records. Records made on it here stay this process's: its own waits and
// synchronizations wait for them too. Reset, QueryLegacy, QueryWait,
// Timestamp, Elapsed and ID are refused on IPC events, and so are records
// and waits on a capturing stream (ACL_ERROR_RT_FEATURE_NOT_SUPPORT). If
// the exporter exits, waits for it fail, naming it.
//
// CANN: aclrtIpcOpenEventHandle.
func (c *Context) OpenIPCEvent(h IPCEventHandle) (*Event, error) {
	const op = "Context.OpenIPCEvent (aclrtIpcOpenEventHandle)"
	if err := c.r.require("aclrtIpcOpenEventHandle"); err != nil {
		return nil, err
	}
	var k hal.IPCKey
	copy(k[:], h[:])
	e, err := c.c.OpenIPCEvent(k)
	if err != nil {
		return nil, wrap(op, err)
	}
	return c.r.event(e), nil
}

// Opened reports whether the event was opened with OpenIPCEvent.
//
// CANN: none.
func (e *Event) Opened() bool { return e.e.Opened() }

// NotifyExportFlags are the flags of Notify.ExportKey
// (ACL_RT_NOTIFY_EXPORT_FLAG_*).
type NotifyExportFlags uint64

const (
	NotifyExportDefault    NotifyExportFlags = 0                                            // ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT: only whitelisted processes import
	NotifyExportNoPidCheck NotifyExportFlags = NotifyExportFlags(rt.NotifyExportNoPidCheck) // ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION: any process imports
)

// NotifyImportFlags are the flags of Context.ImportNotify
// (ACL_RT_NOTIFY_IMPORT_FLAG_*).
type NotifyImportFlags uint64

const (
	NotifyImportDefault    NotifyImportFlags = 0                                            // ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT
	NotifyImportPeerAccess NotifyImportFlags = NotifyImportFlags(rt.NotifyImportPeerAccess) // ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS: nothing to do in the simulator
)

// NotifyKeyLen is the length of a notify key: 64 lowercase hexadecimal
// digits. C buffers for it hold one more byte, the terminating NUL.
const NotifyKeyLen = 64 // twice the size of hal.IPCKey

// ExportKey exports the notify to the machine's other processes and
// returns its key. With NotifyExportDefault only the processes named by
// AllowImport (and this one) may import it. A notify is exported once; an
// imported one is not exported (ACL_ERROR_RT_INTERNAL_ERROR). Closing the
// notify ends the export.
//
// CANN: aclrtNotifyGetExportKey.
func (n *Notify) ExportKey(flags NotifyExportFlags) (string, error) {
	const op = "Notify.ExportKey (aclrtNotifyGetExportKey)"
	if err := n.r.require("aclrtNotifyGetExportKey"); err != nil {
		return "", err
	}
	k, err := n.n.ExportKey(uint64(flags))
	if err != nil {
		return "", wrap(op, err)
	}
	return hex.EncodeToString(k[:]), nil
}

// AllowImport adds processes, by bare tgid (aclrtDeviceGetBareTgid; on a
// simulated machine, the process id), to the whitelist of the exported
// notify.
// An import by a process not on it fails with ACL_ERROR_RT_NO_PERMISSION.
//
// CANN: aclrtNotifySetImportPid.
func (n *Notify) AllowImport(pids ...int32) error {
	const op = "Notify.AllowImport (aclrtNotifySetImportPid)"
	if err := n.r.require("aclrtNotifySetImportPid"); err != nil {
		return err
	}
	return wrap(op, n.n.AllowImport(pids))
}

// AllowImportInterServer adds processes of SuperPOD servers to the
// whitelist of the exported notify (Atlas A3 only). Each entry names one
// process (nil Pids stands for a NULL pid pointer); the simulated machine is one host, so the server id is not
// checked. Entries are applied in order until one is refused.
//
// CANN: aclrtNotifySetImportPidInterServer.
func (n *Notify) AllowImportInterServer(servers ...ServerPids) error {
	const op = "Notify.AllowImportInterServer (aclrtNotifySetImportPidInterServer)"
	if err := n.r.require("aclrtNotifySetImportPidInterServer"); err != nil {
		return err
	}
	return wrap(op, n.n.AllowImportInterServer(servers))
}

// Imported reports whether the notify came from ImportNotify.
//
// CANN: none.
func (n *Notify) Imported() bool { return n.n.Imported() }

// parseNotifyKey checks a notify key (NotifyKeyLen lowercase hexadecimal
// digits) and returns the export's key.
func parseNotifyKey(key string) (hal.IPCKey, error) {
	var k hal.IPCKey
	ok := len(key) == NotifyKeyLen
	for i := 0; ok && i < len(key); i++ {
		c := key[i]
		ok = c >= '0' && c <= '9' || c >= 'a' && c <= 'f'
	}
	if !ok {
		q := key
		if len(q) > 80 {
			q = q[:80] + "..."
		}
		return k, rterr.Errorf(rterr.KindInvalidParam, "key %q is invalid, expected %d lowercase hexadecimal digits from aclrtNotifyGetExportKey", q, NotifyKeyLen)
	}
	hex.Decode(k[:], []byte(key))
	return k, nil
}

// ImportNotify imports a notify another process exported with ExportKey:
// a new notify of c. Recording it (Stream.RecordNotify) signals the
// creator's notify, releasing one of its waits; waiting on it is refused
// (only the creating process waits). Importing needs the exporter's
// whitelist to name this process unless it was exported with
// NotifyExportNoPidCheck (ACL_ERROR_RT_NO_PERMISSION).
//
// CANN: aclrtNotifyImportByKey.
func (c *Context) ImportNotify(key string, flags NotifyImportFlags) (*Notify, error) {
	const op = "Context.ImportNotify (aclrtNotifyImportByKey)"
	if err := c.r.require("aclrtNotifyImportByKey"); err != nil {
		return nil, err
	}
	if uint64(flags) > 3 {
		return nil, wrap(op, rterr.Errorf(rterr.KindInvalidParam, "flags %#x is invalid, expected at most 0x3 (ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS is 0x2)", uint64(flags)))
	}
	k, err := parseNotifyKey(key)
	if err != nil {
		return nil, wrap(op, err)
	}
	n, err := c.c.ImportNotify(k, uint64(flags))
	if err != nil {
		return nil, wrap(op, err)
	}
	f := &Notify{r: c.r, n: n}
	n.Front.Store(f)
	return f, nil
}

// A notify key spells out every byte of an export's key.
var _ [NotifyKeyLen]byte = [2 * len(hal.IPCKey{})]byte{}
