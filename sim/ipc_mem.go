package sim

import (
	"fmt"
	"os"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/sim/shared"
)

// Memory crosses processes as its memory file and an offset: the importer
// opens the exporter's file through /proc and maps the range, so both see
// the same pages and nothing is copied. An import is a physical
// allocation of the importing device backed by that file (vmmPhys.file);
// ImportMemory also maps it in a reservation of its own.

func (d *device) ExportMemory(addr, size uint64, o hal.ExportOpts) (hal.IPCKey, error) {
	m := d.mem
	if addr%hal.PageSizeNormal != 0 {
		return hal.IPCKey{}, hal.Errorf(hal.KindInvalidParam, "devPtr %#x is invalid, expected a multiple of %d (page aligned)", addr, uint64(hal.PageSizeNormal))
	}
	if size == 0 {
		return hal.IPCKey{}, hal.Errorf(hal.KindInvalidParam, "size 0 is invalid, expected > 0")
	}
	m.mu.RLock()
	_, err := m.holding(addr, size)
	fd, off := m.fd, addr-m.base
	m.mu.RUnlock()
	if err != nil {
		return hal.IPCKey{}, err
	}
	return d.publish(shared.Desc{Kind: shared.KindMemory, FD: int32(fd), Off: off, Size: size, PageSize: hal.PageSizeNormal}, o, ownExport{})
}

func (d *device) ExportPhysical(id uint64, o hal.ExportOpts) (hal.IPCKey, error) {
	v := d.b.vm
	v.mu.RLock()
	ph := v.phys[id]
	var desc shared.Desc
	err := error(nil)
	switch {
	case ph == nil || ph.Refs == 0:
		err = hal.Errorf(hal.KindInvalidHandle, "physical memory handle %d is not live (never allocated, or already freed)", id)
	case ph.Device != d.id:
		err = hal.Errorf(hal.KindInvalidParam, "physical memory handle %d is memory of device %d, expected device %d", id, ph.Device, d.id)
	case ph.file != nil:
		err = hal.Errorf(hal.KindInvalidParam, "physical memory handle %d was imported from another process, expected memory of this one", id)
	default:
		desc = shared.Desc{Kind: shared.KindPhysical, FD: int32(ph.mem.fd), Off: ph.base - ph.mem.base, Size: ph.Size, PageSize: ph.PageSize}
	}
	v.mu.RUnlock()
	if err != nil {
		return hal.IPCKey{}, err
	}
	return d.publish(desc, o, ownExport{})
}

// openExport opens the memory file behind export ex.
func openExport(ex shared.Export) (*os.File, error) {
	path := fmt.Sprintf("/proc/%d/fd/%d", ex.Pid, ex.FD)
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, hal.Wrap(hal.KindInvalidParam, err, "opening the memory process %d exported", ex.Pid)
	}
	return f, nil
}

// importPhys adds a physical allocation of this device backed by export
// ex's memory, with one reference.
func (d *device) importPhys(ex shared.Export, size uint64) (hal.Physical, error) {
	f, err := openExport(ex)
	if err != nil {
		return hal.Physical{}, err
	}
	// The exporter may have withdrawn between the lookup and the open, and
	// its descriptor number been reused: trust the file only if the export
	// still stands now that it is open.
	if !ex.Live() {
		f.Close()
		return hal.Physical{}, hal.Errorf(hal.KindInvalidParam, "the export of process %d ended while it was being imported", ex.Pid)
	}
	v := d.b.vm
	v.mu.Lock()
	defer v.mu.Unlock()
	ph := &vmmPhys{Physical: hal.Physical{ID: d.b.space.physIDs.Add(1), Device: d.id, Size: size, PageSize: ex.PageSize, Refs: 1},
		base: ex.Off, file: f}
	v.phys[ph.ID] = ph
	return ph.Physical, nil
}

func (d *device) ImportPhysical(k hal.IPCKey) (hal.Physical, error) {
	ex, err := d.find(k, shared.KindPhysical)
	if err != nil {
		return hal.Physical{}, err
	}
	if ex.Mine() {
		return hal.Physical{}, hal.Errorf(hal.KindInvalidParam, "the shareable handle was exported by this process, expected another process's")
	}
	return d.importPhys(ex, ex.Size)
}

func (d *device) ImportMemory(k hal.IPCKey) (addr, size uint64, err error) {
	ex, err := d.find(k, shared.KindMemory)
	if err != nil {
		return 0, 0, err
	}
	mapped, _ := roundUp(ex.Size, hal.PageSizeNormal)
	resv, _ := roundUp(mapped, hal.PageSizeHuge)
	ph, err := d.importPhys(ex, mapped)
	if err != nil {
		return 0, 0, err
	}
	v := d.b.vm
	// The mapping holds the allocation; its own reference goes.
	defer func() { _ = v.freePhysical(ph.ID) }()
	addr, err = v.reserve(resv, hal.PageSizeHuge, 0, false)
	if err != nil {
		return 0, 0, err
	}
	if err := v.mapMem(addr, mapped, 0, ph.ID, true); err != nil {
		_ = v.release(addr)
		return 0, 0, err
	}
	// The exporter's memory is device memory to the host as well, as on
	// one device it is.
	_ = v.setAccess(addr, mapped, hal.AccessorHost, hal.AccessReadWrite)
	return addr, ex.Size, nil
}

func (d *device) CloseImport(addr uint64) error {
	v := d.b.vm
	m, ok := v.mapping(addr)
	if !ok || m.Addr != addr {
		return hal.Errorf(hal.KindInvalidParam, "address %#x is not memory this process imported", addr)
	}
	v.mu.RLock()
	ph := v.phys[m.Physical]
	v.mu.RUnlock()
	if ph == nil || ph.file == nil {
		return hal.Errorf(hal.KindInvalidParam, "address %#x is not memory this process imported", addr)
	}
	if err := v.unmap(addr); err != nil {
		return err
	}
	return v.release(addr)
}
