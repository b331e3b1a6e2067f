package sim

import "github.com/gocann/gocann/hal"

// MemStats counts what a device's allocator did since the device last
// opened: the calls it served and the system calls they cost it (madvise
// for huge pages, fallocate to give freed pages back). The device's
// mapping itself is made once, when it opens, and is not counted.
type MemStats struct {
	Allocs, Frees, SysCalls uint64
}

// MemStats reports the allocator counts of open device id, for tests and
// benchmarks that check which calls reach the device's allocator and the
// operating system.
func (b *Backend) MemStats(id int) (MemStats, error) {
	b.mu.Lock()
	var d *device
	if id >= 0 && id < len(b.devs) {
		d = b.devs[id]
	}
	b.mu.Unlock()
	if d == nil {
		return MemStats{}, hal.Errorf(hal.KindInvalidDevice, "device %d is not open", id)
	}
	m := d.mem
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.alloc == nil {
		return MemStats{}, hal.Errorf(hal.KindInvalidDevice, "device %d is not open", id)
	}
	return m.alloc.stats, nil
}
