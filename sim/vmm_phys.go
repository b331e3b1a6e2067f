package sim

import (
	"slices"

	"github.com/gocann/gocann/hal"
)

// Physical allocations of the VMM: regions of a device's memory file,
// numbered across the address space, each living while it has a
// reference or a mapping.

func (v *vmm) allocPhysical(d *device, size uint64, p hal.MemPolicy, page uint64) (hal.Physical, error) {
	m := d.mem
	m.mu.Lock()
	if m.mem == nil {
		m.mu.Unlock()
		return hal.Physical{}, m.errClosed()
	}
	addr, err := m.alloc.allocExact(size, page)
	if err == nil {
		m.alloc.setTag(addr, p.Tag)
	}
	m.mu.Unlock()
	if err != nil {
		return hal.Physical{}, err
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	ph := &vmmPhys{Physical: hal.Physical{ID: v.b.space.physIDs.Add(1), Device: d.id, Size: size, PageSize: page, Refs: 1}, mem: m, base: addr}
	v.phys[ph.ID] = ph
	return ph.Physical, nil
}

// drop frees ph's memory once nothing holds it. v.mu must be held.
func (v *vmm) drop(ph *vmmPhys) {
	if ph.Refs > 0 || ph.Mappings > 0 {
		return
	}
	delete(v.phys, ph.ID)
	if ph.file != nil {
		// The exporter's memory stays its own; only this view goes.
		_ = ph.file.Close()
		return
	}
	ph.mem.mu.Lock()
	defer ph.mem.mu.Unlock()
	if ph.mem.mem != nil { // a closed device's memory went with it
		_ = ph.mem.alloc.freeExact(ph.base)
	}
}

func (v *vmm) retain(id uint64) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	ph := v.phys[id]
	if ph == nil || ph.Refs == 0 {
		return hal.Errorf(hal.KindInvalidHandle, "physical memory handle %d is not live", id)
	}
	ph.Refs++
	return nil
}

func (v *vmm) freePhysical(id uint64) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	ph := v.phys[id]
	if ph == nil || ph.Refs == 0 {
		return hal.Errorf(hal.KindInvalidHandle, "physical memory handle %d is not live (never allocated, or already freed)", id)
	}
	ph.Refs--
	v.drop(ph)
	return nil
}

func (v *vmm) physical(id uint64) (hal.Physical, bool) {
	v.mu.RLock()
	defer v.mu.RUnlock()
	ph := v.phys[id]
	if ph == nil || ph.Refs == 0 {
		return hal.Physical{}, false
	}
	return ph.Physical, true
}

// deviceClosed ends device dev's physical allocations: its memory file is
// about to go, so their mappings are scrubbed and they hold nothing more.
func (v *vmm) deviceClosed(dev int) {
	v.mu.Lock()
	defer v.mu.Unlock()
	for _, r := range v.resv {
		r.maps = slices.DeleteFunc(r.maps, func(m *vmmMap) bool {
			if m.Device != dev {
				return false
			}
			v.scrub(m)
			m.p.Mappings--
			return true
		})
	}
	for id, ph := range v.phys {
		if ph.Device == dev {
			if ph.file != nil {
				_ = ph.file.Close()
			}
			delete(v.phys, id)
		}
	}
}
