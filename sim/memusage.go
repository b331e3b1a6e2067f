package sim

import "github.com/gocann/gocann/hal"

// memUseTags is how many allocation tags have usage counts; tags past the
// last share its count.
const memUseTags = 4

// memUse is the reserved bytes of the live allocations of one tag, and
// their peak since the device memory was mapped.
type memUse struct{ bytes, peak uint64 }

// account adds n reserved bytes (or takes them, if !add) to tag's count.
// The owner's lock must be held, as for every allocator method.
func (a *allocator) account(tag uint8, n uint64, add bool) {
	u := &a.byTag[min(int(tag), memUseTags-1)]
	if add {
		u.bytes += n
		u.peak = max(u.peak, u.bytes)
	} else {
		u.bytes -= n
	}
}

var _ hal.MemUser = (*device)(nil)

// MemUsage reports the device memory in use by tag (hal.MemUser).
func (d *device) MemUsage() []hal.MemUse {
	m := d.mem
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.alloc == nil {
		return nil
	}
	var out []hal.MemUse
	for tag, u := range m.alloc.byTag {
		if u.peak > 0 {
			out = append(out, hal.MemUse{Tag: uint8(tag), Bytes: u.bytes, Peak: u.peak})
		}
	}
	return out
}
