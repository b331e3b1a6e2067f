package shared

// Device is one physical device's memory accounting on a machine, shared
// with every process that uses the device with the same capacity.
type Device struct {
	m   *Machine
	dev int
	hbm uint64
}

// Device returns the accounting of physical device dev of hbm bytes; ok is
// false if the machine already has that device with another capacity, or
// dev is past MaxDevices: the caller then keeps its own.
func (m *Machine) Device(dev int, hbm uint64) (d *Device, ok bool) {
	if dev < 0 || dev >= MaxDevices || hbm == 0 {
		return nil, false
	}
	w := &m.t.devs[dev].hbm
	if !w.CompareAndSwap(0, hbm) && w.Load() != hbm {
		return nil, false
	}
	return &Device{m: m, dev: dev, hbm: hbm}, true
}

// Take counts n more bytes held by this process, unless every live
// process together would then hold more than the device has.
func (d *Device) Take(n uint64) bool {
	own := &d.m.t.slots[d.m.slot].used[d.dev]
	own.Add(n)
	if d.sum(false) <= d.hbm {
		return true
	}
	// Dead processes may still be counted: reclaim them and look again.
	d.m.reclaim()
	if d.sum(false) <= d.hbm {
		return true
	}
	own.Add(-n)
	return false
}

// Give counts n bytes fewer held by this process.
func (d *Device) Give(n uint64) { d.m.t.slots[d.m.slot].used[d.dev].Add(-n) }

// Used is what every live process holds on the device.
func (d *Device) Used() uint64 { return d.sum(true) }

// Own is what this process holds on the device.
func (d *Device) Own() uint64 { return d.m.t.slots[d.m.slot].used[d.dev].Load() }

// sum adds the live slots' counts; checked also asks the kernel which
// slots are live, not only their state.
func (d *Device) sum(checked bool) uint64 {
	var total uint64
	for i := range d.m.t.slots {
		s := &d.m.t.slots[i]
		st := s.state.Load()
		if st&1 == 0 {
			continue
		}
		n := s.used[d.dev].Load()
		if n == 0 || (checked && !d.m.alive(i, st)) {
			continue
		}
		total += n
	}
	return total
}
