package gocann

import (
	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rt"
	"github.com/gocann/gocann/internal/rterr"
	"github.com/gocann/gocann/internal/support"
)

// Sharing physical memory (aclrtMallocPhysical) with other processes of
// the simulated machine: the exporter hands out a shareable handle, an
// importer in another process gets physical memory of its own device over
// the same bytes and maps it (MapMem) like its own.

// Kinds of shareable handle (aclrtMemSharedHandleType).
const (
	ShareHandleDefault = 1 // ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT: a uint64
	ShareHandleFabric  = 2 // ACL_MEM_SHARE_HANDLE_TYPE_FABRIC: an aclrtMemFabricHandle, Atlas A3 only
)

// VMM export flags.
const (
	VMMExportDefault         = 0 // ACL_RT_VMM_EXPORT_FLAG_DEFAULT: only whitelisted processes may import
	VMMExportNoPidValidation = 1 // ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION: any process may
)

// FabricHandle is aclrtMemFabricHandle, the shareable handle of the
// fabric type.
type FabricHandle [rt.FabricSize]byte

// MemExportToShareableHandle exports physical memory h to the machine's
// other processes and returns the handle they import it by. handleType is
// ACL_MEM_HANDLE_TYPE_NONE (0). With VMMExportDefault only processes
// named by MemSetPidToShareableHandle may import it. FreePhysical of h
// ends the export. h is exported once.
//
// CANN: aclrtMemExportToShareableHandle.
func (r *Runtime) MemExportToShareableHandle(h PhysicalMem, handleType uint32, flags uint64) (uint64, error) {
	const op = "Runtime.MemExportToShareableHandle (aclrtMemExportToShareableHandle)"
	if handleType != 0 {
		return 0, wrap(op, rterr.Errorf(rterr.KindBadArgument, "handleType %d is invalid, expected ACL_MEM_HANDLE_TYPE_NONE (0)", handleType))
	}
	if err := r.require("aclrtMemExportToShareableHandle"); err != nil {
		return 0, err
	}
	k, err := r.rt.ExportPhysical(uint64(h), flags, true)
	if err != nil {
		return 0, wrap(op, err)
	}
	return rt.ShortHandle(k), nil
}

// MemExportToFabricHandle exports h as MemExportToShareableHandle does,
// as a fabric handle. Atlas A3 only.
//
// CANN: aclrtMemExportToShareableHandleV2 (ACL_MEM_SHARE_HANDLE_TYPE_FABRIC).
func (r *Runtime) MemExportToFabricHandle(h PhysicalMem, flags uint64) (FabricHandle, error) {
	const op = "Runtime.MemExportToFabricHandle (aclrtMemExportToShareableHandleV2)"
	if err := r.require("aclrtMemExportToShareableHandleV2"); err != nil {
		return FabricHandle{}, err
	}
	if err := r.requireFabric(op); err != nil {
		return FabricHandle{}, err
	}
	k, err := r.rt.ExportPhysical(uint64(h), flags, false)
	if err != nil {
		return FabricHandle{}, wrap(op, err)
	}
	return rt.FabricHandle(k), nil
}

// requireFabric refuses fabric handles off the Atlas A3.
func (r *Runtime) requireFabric(op string) error {
	d, err := r.rt.Device(0)
	if err != nil {
		return wrap(op, err)
	}
	soc := d.Props().SoCName
	if p, ok := support.ProductOf(soc); ok && p != support.AtlasA3 {
		return wrap(op, rterr.Errorf(rterr.KindNotSupported,
			"ACL_MEM_SHARE_HANDLE_TYPE_FABRIC is not supported on %s (%s): only an Atlas A3 (Ascend910_93xx) has fabric handles", soc, p))
	}
	return nil
}

// MemImportFromShareableHandle imports the physical memory another
// process exported as handle onto device dev, which must be open, and
// turns on dev's peer access to the exporter's device. A process cannot
// import its own export. Free the result with FreePhysical.
//
// CANN: aclrtMemImportFromShareableHandle.
func (r *Runtime) MemImportFromShareableHandle(handle uint64, dev int) (PhysicalMem, error) {
	const op = "Runtime.MemImportFromShareableHandle (aclrtMemImportFromShareableHandle)"
	if err := r.require("aclrtMemImportFromShareableHandle"); err != nil {
		return 0, err
	}
	id, err := r.rt.ImportPhysical(rt.ShortKey(handle), dev)
	return PhysicalMem(id), wrap(op, err)
}

// MemImportFromFabricHandle imports as MemImportFromShareableHandle does,
// from a fabric handle. Atlas A3 only.
//
// CANN: aclrtMemImportFromShareableHandleV2 (ACL_MEM_SHARE_HANDLE_TYPE_FABRIC).
func (r *Runtime) MemImportFromFabricHandle(f FabricHandle, dev int) (PhysicalMem, error) {
	const op = "Runtime.MemImportFromFabricHandle (aclrtMemImportFromShareableHandleV2)"
	if err := r.require("aclrtMemImportFromShareableHandleV2"); err != nil {
		return 0, err
	}
	if err := r.requireFabric(op); err != nil {
		return 0, err
	}
	k, err := rt.FabricKey(f)
	if err != nil {
		return 0, wrap(op, err)
	}
	id, err := r.rt.ImportPhysical(k, dev)
	return PhysicalMem(id), wrap(op, err)
}

// MemSetPidToShareableHandle lets the processes pids (their BareTgid)
// import the physical memory this process exported as handle.
//
// CANN: aclrtMemSetPidToShareableHandle.
func (r *Runtime) MemSetPidToShareableHandle(handle uint64, pids ...int32) error {
	if err := r.require("aclrtMemSetPidToShareableHandle"); err != nil {
		return err
	}
	return r.setPid("Runtime.MemSetPidToShareableHandle (aclrtMemSetPidToShareableHandle)", "aclrtMemSetPidToShareableHandle",
		rt.ShortKey(handle), pids)
}

// MemSetPidToFabricHandle is MemSetPidToShareableHandle for a fabric
// handle. Atlas A3 only.
//
// CANN: aclrtMemSetPidToShareableHandleV2 (ACL_MEM_SHARE_HANDLE_TYPE_FABRIC).
func (r *Runtime) MemSetPidToFabricHandle(f FabricHandle, pids ...int32) error {
	if err := r.require("aclrtMemSetPidToShareableHandleV2"); err != nil {
		return err
	}
	const op = "Runtime.MemSetPidToFabricHandle (aclrtMemSetPidToShareableHandleV2)"
	if err := r.requireFabric(op); err != nil {
		return err
	}
	k, err := rt.FabricKey(f)
	if err != nil {
		return wrap(op, err)
	}
	return r.setPid(op, "aclrtMemSetPidToShareableHandleV2", k, pids)
}

func (r *Runtime) setPid(op, fn string, k hal.IPCKey, pids []int32) error {
	if len(pids) == 0 {
		return wrap(op, rterr.Errorf(rterr.KindBadArgument, "pidNum 0 is invalid, expected at least one process"))
	}
	if err := r.require(fn); err != nil {
		return err
	}
	return wrap(op, r.rt.SetPidToShareable(k, pids))
}
