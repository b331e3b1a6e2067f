package rt

import (
	"strconv"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// Shareable handles (aclrtMemExportToShareableHandle and the calls
// around it): a physical allocation exported to the machine's other
// processes, named by a uint64 (a short key) or, for the fabric type, by
// an aclrtMemFabricHandle carrying a whole key. An importer gets a
// physical allocation of its own device backed by the same bytes, which it
// maps, unmaps and frees as one of its own.

// checkVMMExportFlags is CANN's check of an export's flags.
func checkVMMExportFlags(flags uint64) error {
	if flags > 1 {
		return rterr.Errorf(rterr.KindInvalidParam,
			"flags %d is invalid, expected ACL_RT_VMM_EXPORT_FLAG_DEFAULT (0) or _DISABLE_PID_VALIDATION (1)", flags)
	}
	return nil
}

// deviceIPC is device id's sharing capability, the device open.
func (r *Runtime) deviceIPC(id int) (hal.IPC, error) {
	d, err := r.Device(id)
	if err != nil {
		return nil, err
	}
	hd, err := d.halDevice()
	if err != nil {
		return nil, rterr.Errorf(rterr.KindContextNull, "device %d is not open, expected aclrtSetDevice(%d) first", id, id)
	}
	x, ok := hd.(hal.IPC)
	if !ok {
		return nil, errNoMachine()
	}
	return x, nil
}

// ExportPhysical exports physical allocation id (aclrtMemExportToShareableHandle
// and its V2); short keys name it by one uint64. An allocation is exported
// once per kind of handle.
func (r *Runtime) ExportPhysical(id, flags uint64, short bool) (hal.IPCKey, error) {
	v, _, err := r.vmm()
	if err != nil {
		return hal.IPCKey{}, err
	}
	if err := checkVMMExportFlags(flags); err != nil {
		return hal.IPCKey{}, err
	}
	if err := r.userHandle(id); err != nil {
		return hal.IPCKey{}, err
	}
	ph, ok := v.PhysicalInfo(id)
	if !ok {
		return hal.IPCKey{}, errHandle(id)
	}
	r.ipc.mu.Lock()
	for _, k := range r.ipc.physKey[id] {
		if isShort(k) == short {
			r.ipc.mu.Unlock()
			return hal.IPCKey{}, rterr.Errorf(rterr.KindInvalidParam,
				"handle %d is already exported (shareable handle %s), expected a physical allocation not yet exported", id, handleText(k))
		}
	}
	r.ipc.mu.Unlock()
	x, err := r.deviceIPC(ph.Device)
	if err != nil {
		return hal.IPCKey{}, err
	}
	k, err := x.ExportPhysical(id, hal.ExportOpts{NoPidCheck: flags&1 != 0, ShortKey: short})
	if err != nil {
		return hal.IPCKey{}, err
	}
	r.ipc.mu.Lock()
	r.ipc.phys[k] = id
	r.ipc.physKey[id] = append(r.ipc.physKey[id], k)
	r.ipc.mu.Unlock()
	return k, nil
}

func isShort(k hal.IPCKey) bool { return [len(k) - 8]byte(k[8:]) == [len(k) - 8]byte{} }

func handleText(k hal.IPCKey) string {
	if isShort(k) {
		return "0x" + strconv.FormatUint(ShortHandle(k), 16)
	}
	return KeyString(k)
}

// physExport is the physical allocation this process exported as k.
func (r *Runtime) physExport(k hal.IPCKey) (uint64, bool) {
	r.ipc.mu.Lock()
	defer r.ipc.mu.Unlock()
	id, ok := r.ipc.phys[k]
	return id, ok
}

// SetPidToShareable lets processes pids import the physical allocation
// this process exported as k (aclrtMemSetPidToShareableHandle, V2).
func (r *Runtime) SetPidToShareable(k hal.IPCKey, pids []int32) error {
	if _, _, err := r.vmm(); err != nil {
		return err
	}
	id, ok := r.physExport(k)
	if !ok {
		return rterr.Errorf(rterr.KindInvalidParam,
			"shareableHandle %s is invalid, expected one this process exported (aclrtMemExportToShareableHandle) of a live allocation", handleText(k))
	}
	ph, ok := r.physInfo(id)
	if !ok {
		return errHandle(id)
	}
	x, err := r.deviceIPC(ph.Device)
	if err != nil {
		return err
	}
	return x.AllowImport(k, pids)
}

func (r *Runtime) physInfo(id uint64) (hal.Physical, bool) {
	v, _, err := r.vmm()
	if err != nil {
		return hal.Physical{}, false
	}
	return v.PhysicalInfo(id)
}

// ImportPhysical imports the physical allocation another process exported
// as k onto device dev (aclrtMemImportFromShareableHandle, V2), turning
// on dev's peer access to the exporter's device as CANN does.
func (r *Runtime) ImportPhysical(k hal.IPCKey, dev int) (uint64, error) {
	if _, _, err := r.vmm(); err != nil {
		return 0, err
	}
	if err := r.checkDeviceID("deviceId", dev); err != nil {
		return 0, err
	}
	x, err := r.deviceIPC(dev)
	if err != nil {
		return 0, err
	}
	info, err := x.Exported(k)
	if err != nil {
		return 0, errExport("shareableHandle "+handleText(k), "the handle of a live physical memory export (aclrtMemExportToShareableHandle)", err)
	}
	switch {
	case info.Kind != hal.ExportPhysical:
		return 0, rterr.Errorf(rterr.KindInvalidParam, "shareableHandle %s is invalid: it names no physical memory export", handleText(k))
	case info.Pid == x.BareTgid():
		return 0, rterr.Errorf(rterr.KindInvalidParam,
			"shareableHandle %s is invalid: this process exported it, expected one from another process (a process cannot import its own export)", handleText(k))
	}
	d, err := r.Device(dev)
	if err != nil {
		return 0, err
	}
	if err := d.peerFor(info.Physical, true, "shareableHandle "+handleText(k)); err != nil {
		return 0, err
	}
	ph, err := x.ImportPhysical(k)
	if err != nil {
		return 0, errExport("shareableHandle "+handleText(k), "the handle of a live physical memory export (aclrtMemExportToShareableHandle)", err)
	}
	attr := uint32(5) // ACL_HBM_MEM_NORMAL
	if ph.PageSize == hal.PageSizeHuge1G {
		attr = 10 // ACL_HBM_MEM_HUGE1G
	}
	r.vmmMeta.mu.Lock()
	r.vmmMeta.props[ph.ID] = physMeta{prop: PhysProp{LocType: MemLocDevice, LocID: uint32(dev), MemAttr: attr}, link: LinkHCCS}
	r.vmmMeta.mu.Unlock()
	return ph.ID, nil
}

// withdrawPhysical ends the exports of physical allocation id, at its
// aclrtFreePhysical: no process can import it from then on.
func (r *Runtime) withdrawPhysical(id uint64, dev int) {
	r.ipc.mu.Lock()
	keys := r.ipc.physKey[id]
	delete(r.ipc.physKey, id)
	for _, k := range keys {
		delete(r.ipc.phys, k)
	}
	r.ipc.mu.Unlock()
	if len(keys) == 0 {
		return
	}
	x, err := r.deviceIPC(dev)
	if err != nil {
		return
	}
	for _, k := range keys {
		_ = x.Withdraw(k) // gone with its process's device otherwise
	}
}
