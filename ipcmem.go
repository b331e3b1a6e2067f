package gocann

import (
	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rt"
	"github.com/gocann/gocann/internal/rterr"
)

// Sharing device memory with other processes (IPC memory). The processes
// must be attached to one simulated machine: the same machine name in the
// simulator section of their configurations ({"simulator":{"machine":
// "name"}}) or in GOCANN_MACHINE; a Go runtime joins one only when told
// (C programs join "default" unless told otherwise). Elsewhere every call
// here but BareTgid is refused with ACL_ERROR_RT_FEATURE_NOT_SUPPORT.
//
// A key is 64 lowercase hexadecimal digits, random, naming one export.

// IPCKeyLen is the length of a key; C buffers for one take a NUL more.
const IPCKeyLen = rt.KeyLen

// IPC memory export flags (aclrtIpcMemGetExportKey) and import flags
// (aclrtIpcMemImportByKey).
const (
	IPCMemExportDefault          = 0 // ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT: only whitelisted processes may import
	IPCMemExportNoPidValidation  = 1 // ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION: any process may
	IPCMemImportDefault          = 0 // ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT
	IPCMemImportEnablePeerAccess = 1 // ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS
)

// ServerPids is aclrtServerPid: processes of server SDID of a SuperPOD.
type ServerPids = rt.ServerPids

// IPCMemExportKey exports [p, p+size) of memory from Malloc on the
// context's device to the machine's other processes and returns the key
// they import it by. p is the start of its allocation or a multiple of
// its page size into it. With IPCMemExportDefault only the processes
// named by IPCMemSetImportPid may import it; with
// IPCMemExportNoPidValidation any may.
//
// CANN: aclrtIpcMemGetExportKey.
func (c *Context) IPCMemExportKey(p DevPtr, size uint64, flags uint64) (string, error) {
	const op = "Context.IPCMemExportKey (aclrtIpcMemGetExportKey)"
	if err := rt.CheckExportArgs(size, uint64(IPCKeyLen+1), flags); err != nil {
		return "", wrap(op, err)
	}
	if err := c.r.require("aclrtIpcMemGetExportKey"); err != nil {
		return "", err
	}
	k, err := c.c.IpcMemExport(uint64(p), size, flags)
	if err != nil {
		return "", wrap(op, err)
	}
	return rt.KeyString(k), nil
}

// parseKey reads a key for op.
func parseKey(op, key string) (hal.IPCKey, error) {
	k, err := rt.ParseKey(key)
	return k, wrap(op, err)
}

// IPCMemSetImportPid lets the processes pids (bare tgids, from
// BareTgid in each) import the memory this process exported as key.
//
// CANN: aclrtIpcMemSetImportPid.
func (c *Context) IPCMemSetImportPid(key string, pids ...int32) error {
	const op = "Context.IPCMemSetImportPid (aclrtIpcMemSetImportPid)"
	if err := rt.CheckPidCount(uint64(len(pids))); err != nil {
		return wrap(op, err)
	}
	if err := c.r.require("aclrtIpcMemSetImportPid"); err != nil {
		return err
	}
	k, err := parseKey(op, key)
	if err != nil {
		return err
	}
	return wrap(op, c.c.IpcMemSetImportPid(k, pids))
}

// IPCMemImportPidInterServer lets processes of other servers of a
// SuperPOD import the memory exported as key. The simulated machine is one
// server: every entry's processes may import, whatever its SDID.
// Atlas A3 only.
//
// CANN: aclrtIpcMemImportPidInterServer.
func (c *Context) IPCMemImportPidInterServer(key string, servers []ServerPids) error {
	const op = "Context.IPCMemImportPidInterServer (aclrtIpcMemImportPidInterServer)"
	if err := c.r.require("aclrtIpcMemImportPidInterServer"); err != nil {
		return err
	}
	k, err := parseKey(op, key)
	if err != nil {
		return err
	}
	return wrap(op, c.c.IpcMemImportPidInterServer(k, servers))
}

// IPCMemImport maps memory another process exported as key into this
// process for the context's device and returns its address, which copies,
// memsets and kernels of this process take. With
// IPCMemImportEnablePeerAccess the context's device gets peer access to
// the exporter's; without, memory of another device needs it turned on
// first (Device.EnablePeerAccess). Memory of another device takes
// asynchronous device-to-device copies only. Each import is closed by one
// IPCMemClose.
//
// CANN: aclrtIpcMemImportByKey.
func (c *Context) IPCMemImport(key string, flags uint64) (DevPtr, error) {
	const op = "Context.IPCMemImport (aclrtIpcMemImportByKey)"
	if flags > 1 {
		return 0, wrap(op, rterr.Errorf(rterr.KindInvalidParam,
			"flags %d is invalid, expected ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT (0) or _ENABLE_PEER_ACCESS (1)", flags))
	}
	if err := c.r.require("aclrtIpcMemImportByKey"); err != nil {
		return 0, err
	}
	k, err := parseKey(op, key)
	if err != nil {
		return 0, err
	}
	a, err := c.c.IpcMemImport(k, flags)
	return DevPtr(a), wrap(op, err)
}

// IPCMemSetAttr sets the link this process's later imports of key use:
// attrType 0 (ACL_RT_IPC_MEM_ATTR_ACCESS_LINK), attr SIO (0) or HCCS (1).
// Atlas A3 only.
//
// CANN: aclrtIpcMemSetAttr.
func (c *Context) IPCMemSetAttr(key string, attrType uint32, attr uint64) error {
	const op = "Context.IPCMemSetAttr (aclrtIpcMemSetAttr)"
	if err := rt.CheckIpcAttr(attrType, attr); err != nil {
		return wrap(op, err)
	}
	if err := c.r.require("aclrtIpcMemSetAttr"); err != nil {
		return err
	}
	k, err := parseKey(op, key)
	if err != nil {
		return err
	}
	return wrap(op, c.c.IpcMemSetAttr(k, attrType, attr))
}

// IPCMemClose closes key: the oldest import of it this process holds, or,
// with none, this process's export of it, which no process can import
// from then on (imports made before keep working). Importers close first;
// the exporter then frees the memory.
//
// CANN: aclrtIpcMemClose.
func (c *Context) IPCMemClose(key string) error {
	const op = "Context.IPCMemClose (aclrtIpcMemClose)"
	if err := c.r.require("aclrtIpcMemClose"); err != nil {
		return err
	}
	k, err := parseKey(op, key)
	if err != nil {
		return err
	}
	return wrap(op, c.c.IpcMemClose(k))
}

// BareTgid is this process's id as the devices know it, the one the
// whitelists of other processes' exports name. It needs no device.
//
// CANN: aclrtDeviceGetBareTgid.
func (r *Runtime) BareTgid() (int32, error) {
	if err := r.require("aclrtDeviceGetBareTgid"); err != nil {
		return 0, err
	}
	return r.rt.BareTgid(), nil
}

// CheckIPCMemExportArgs is what CANN checks of aclrtIpcMemGetExportKey's
// size, key buffer length and flags before anything else, for the C ABI.
//
// CANN: none (part of aclrtIpcMemGetExportKey).
func CheckIPCMemExportArgs(size, keyLen, flags uint64) error {
	return wrap("aclrtIpcMemGetExportKey", rt.CheckExportArgs(size, keyLen, flags))
}
