package sim

import "github.com/gocann/gocann/hal"

var _ hal.AllocLister = (*device)(nil)

// Allocations lists the device's live allocations in address order
// (hal.AllocLister); a closed device has none.
func (d *device) Allocations() []hal.Allocation {
	if d.closed.Load() {
		return nil
	}
	m := d.mem
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.alloc == nil {
		return nil
	}
	out := make([]hal.Allocation, 0, len(m.alloc.live))
	for _, s := range m.alloc.live {
		out = append(out, hal.Allocation{Device: m.dev, Addr: s.start, Size: s.size, PageSize: s.page(), Tag: s.tag()})
	}
	return out
}
