package sim

import "github.com/gocann/gocann/hal"

var _ hal.VMM = (*Backend)(nil)

// DefaultVMMBase and DefaultVMMSize are the window CANN documents for
// aclrtReserveMemAddress's expectPtr: the 8 TiB from 16 TiB.
// DefaultManagedBase and DefaultManagedSize are the range it documents for
// managed memory (aclrtMemAllocManaged): 3 TiB from 0x90000000000.
const (
	DefaultVMMBase     = 16 << 40
	DefaultVMMSize     = 8 << 40
	DefaultManagedBase = 0x90000000000
	DefaultManagedSize = 3 << 40
)

// fallbackManagedBase is where the default managed window moves when other
// memory of the process holds the start of the documented one, as
// AddressSanitizer's shadow does: 40 TiB, in the range CANN suggests for
// addresses callers choose.
const fallbackManagedBase = 40 << 40

// checkVMMWindows refuses windows that are not whole 1 GiB units of user
// address space, or that overlap.
func checkVMMWindows(base, size, mbase, msize uint64) error {
	for _, w := range [][2]uint64{{base, size}, {mbase, msize}} {
		b, n := w[0], w[1]
		if n == 0 || b%hal.PageSizeHuge1G != 0 || n%hal.PageSizeHuge1G != 0 || b == 0 || b+n < b || b+n > 1<<47 {
			return hal.Errorf(hal.KindInvalidParam, "virtual memory window [%#x, +%#x) is invalid, expected 1 GiB multiples inside [1 GiB, 128 TiB)", b, n)
		}
	}
	if base < mbase+msize && mbase < base+size {
		return hal.Errorf(hal.KindInvalidParam, "virtual memory windows [%#x, +%#x) and [%#x, +%#x) overlap", base, size, mbase, msize)
	}
	return nil
}

func (b *Backend) VMMWindow() (lo, hi uint64) { return b.vm.lo, b.vm.hi }

func (b *Backend) ManagedWindow() (lo, hi uint64) { return b.vm.mlo, b.vm.mhi }

func (b *Backend) Reserve(size, align, hint uint64, managed bool) (uint64, error) {
	return b.vm.reserve(size, align, hint, managed)
}

func (b *Backend) Release(addr uint64) error { return b.vm.release(addr) }

func (b *Backend) AllocPhysical(dev int, size uint64, p hal.MemPolicy, page uint64) (hal.Physical, error) {
	if dev < 0 || dev >= b.cfg.Devices {
		return hal.Physical{}, hal.Errorf(hal.KindInvalidDevice, "device id %d is invalid, expected 0..%d", dev, b.cfg.Devices-1)
	}
	switch page {
	case hal.PageSizeHuge, hal.PageSizeHuge1G:
	default:
		return hal.Physical{}, hal.Errorf(hal.KindInvalidParam, "page size %d is invalid, expected %d or %d", page, uint64(hal.PageSizeHuge), uint64(hal.PageSizeHuge1G))
	}
	b.mu.Lock()
	d := b.devs[dev]
	b.mu.Unlock()
	if d == nil || d.closed.Load() {
		return hal.Physical{}, hal.Errorf(hal.KindInvalidDevice, "device %d is not open", dev)
	}
	return b.vm.allocPhysical(d, size, p, page)
}

func (b *Backend) RetainPhysical(id uint64) error { return b.vm.retain(id) }

func (b *Backend) FreePhysical(id uint64) error { return b.vm.freePhysical(id) }

func (b *Backend) PhysicalInfo(id uint64) (hal.Physical, bool) { return b.vm.physical(id) }

func (b *Backend) Map(addr, size, off, id uint64, withAccess bool) error {
	return b.vm.mapMem(addr, size, off, id, withAccess)
}

func (b *Backend) Unmap(addr uint64) error { return b.vm.unmap(addr) }

func (b *Backend) SetAccess(addr, size uint64, who hal.Accessor, a hal.Access) error {
	return b.vm.setAccess(addr, size, who, a)
}

func (b *Backend) Mapping(addr uint64) (hal.Mapping, bool) { return b.vm.mapping(addr) }

func (b *Backend) Reservation(addr uint64) (hal.Reservation, bool) { return b.vm.reservation(addr) }
