package sim

import (
	"errors"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/gocann/gocann/hal"
)

// vmm is the backend's virtual memory (hal.VMM). Reservations are address
// ranges of the window, each mapped inaccessible (PROT_NONE) at its own
// fixed address; the kernel keeps other mappings, another backend's
// included, off them. A physical allocation is a region of its device's
// memory file: mapping it is an mmap of that file region, shared, at the
// reserved address, so every mapping of one allocation shows the same
// bytes, and exporting one to another process is the file and an offset.
//
// Unmapping puts fresh anonymous memory over the range rather than
// PROT_NONE: a task that raced with the unmap writes into memory nobody
// sees instead of stopping the process, and every call after the unmap
// refuses the range. Releasing a reservation leaves it inaccessible and
// known to the address space (vmRetired), as a closed device's range is.
type vmm struct {
	b      *Backend
	lo, hi uint64       // the window of reservations
	mlo    uint64       // the window of managed memory, [mlo, mhi)
	mhi    uint64       // the window of managed memory, [mlo, mhi)
	used   atomic.Int32 // reservations live: checks cost one load while 0

	// mu guards the fields below.
	mu   sync.RWMutex
	resv []*vmmResv // sorted by address
	phys map[uint64]*vmmPhys
}

type vmmResv struct {
	addr, size uint64
	maps       []*vmmMap // sorted by address
}

type vmmMap struct {
	hal.Mapping
	p *vmmPhys
}

type vmmPhys struct {
	hal.Physical
	mem  *devMem
	base uint64 // its device address in mem's range; mem.fd offset base-mem.base
	// An imported allocation is another process's memory: file is its
	// memory file, open here, and base its offset there; mem is nil.
	file *os.File
}

func newVMM(b *Backend, lo, hi, mlo, mhi uint64) *vmm {
	return &vmm{b: b, lo: lo, hi: hi, mlo: mlo, mhi: mhi, phys: make(map[uint64]*vmmPhys)}
}

// inWindow reports whether addr is in either window.
func (v *vmm) inWindow(addr uint64) bool { return addr-v.lo < v.hi-v.lo || addr-v.mlo < v.mhi-v.mlo }

// findResv returns the reservation holding addr. v.mu must be held.
func (v *vmm) findResv(addr uint64) (int, *vmmResv) {
	i, _ := slices.BinarySearchFunc(v.resv, addr, func(r *vmmResv, a uint64) int {
		switch {
		case r.addr+r.size <= a:
			return -1
		case r.addr > a:
			return 1
		}
		return 0
	})
	if i < len(v.resv) && addr-v.resv[i].addr < v.resv[i].size {
		return i, v.resv[i]
	}
	return i, nil
}

// findMap returns the mapping holding addr. v.mu must be held.
func (v *vmm) findMap(addr uint64) (*vmmResv, int, *vmmMap) {
	_, r := v.findResv(addr)
	if r == nil {
		return nil, 0, nil
	}
	for i, m := range r.maps {
		if addr-m.Addr < m.Size {
			return r, i, m
		}
	}
	return r, 0, nil
}

func (v *vmm) reserve(size, align, hint uint64, managed bool) (uint64, error) {
	lo, hi := v.lo, v.hi
	if managed {
		lo, hi = v.mlo, v.mhi
	}
	if size == 0 || size%hal.PageSizeHuge != 0 {
		return 0, hal.Errorf(hal.KindInvalidParam, "size %d is invalid, expected a positive multiple of %d", size, uint64(hal.PageSizeHuge))
	}
	if align < hal.PageSizeHuge {
		align = hal.PageSizeHuge
	}
	if align&(align-1) != 0 {
		return 0, hal.Errorf(hal.KindInvalidParam, "alignment %d is invalid, expected a power of two", align)
	}
	if size > hi-lo {
		return 0, hal.Errorf(hal.KindOutOfMemory, "size %d is larger than the %d bytes of the address window", size, hi-lo)
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if hint != 0 {
		switch {
		case hint%align != 0:
			return 0, hal.Errorf(hal.KindInvalidParam, "expectPtr %#x is invalid, expected a multiple of %#x", hint, align)
		case hint < lo || hint > hi-size:
			return 0, hal.Errorf(hal.KindInvalidParam, "expectPtr %#x (%d bytes) is invalid, expected a range inside [%#x, %#x)", hint, size, lo, hi)
		}
		if err := v.place(hint, size); err != nil {
			return 0, err
		}
		return hint, nil
	}
	// First fit over the gaps between reservations; a gap another
	// mapping of the process holds is skipped.
	at := lo
	for i, _ := v.findResv(lo); ; i++ {
		at, _ = roundUp(at, align)
		end := hi
		if i < len(v.resv) {
			end = min(hi, v.resv[i].addr)
		}
		// Past other memory of the process the step doubles, so a large
		// mapping (a sanitizer's shadow) costs a few probes, not one per
		// page.
		for step := align; at < end && end-at >= size; step = min(2*step, 1<<40) {
			err := v.place(at, size)
			if err == nil {
				return at, nil
			}
			if !errors.Is(err, unix.EEXIST) {
				return 0, err
			}
			at += step
		}
		if i >= len(v.resv) || v.resv[i].addr >= hi {
			break
		}
		at = v.resv[i].addr + v.resv[i].size
	}
	return 0, hal.Errorf(hal.KindOutOfMemory, "no free range of %d bytes left in the address window [%#x, %#x)", size, lo, hi)
}

// place reserves [addr, addr+size) in the process and records it. v.mu
// must be held.
func (v *vmm) place(addr, size uint64) error {
	if _, r := v.findResv(addr); r != nil {
		return hal.Errorf(hal.KindInvalidParam, "expectPtr %#x is inside the reservation at %#x, expected a free range", addr, r.addr)
	}
	if i, _ := v.findResv(addr); i < len(v.resv) && v.resv[i].addr < addr+size {
		return hal.Errorf(hal.KindInvalidParam, "range [%#x, %#x) overlaps the reservation at %#x, expected a free range", addr, addr+size, v.resv[i].addr)
	}
	_, err := unix.MmapPtr(-1, 0, at(addr), uintptr(size), unix.PROT_NONE,
		unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_NORESERVE|unix.MAP_FIXED_NOREPLACE)
	if errors.Is(err, unix.EEXIST) && v.b.space.vmGone.take(addr, size) {
		err = nil // a released range of ours, inaccessible already
	}
	if err != nil {
		if errors.Is(err, unix.EEXIST) {
			return hal.Wrap(hal.KindInvalidParam, err, "range [%#x, %#x) is in use by other memory of the process, expected a free range", addr, addr+size)
		}
		return hal.Wrap(errKind(err), err, "reserving [%#x, %#x)", addr, addr+size)
	}
	i, _ := v.findResv(addr)
	v.resv = slices.Insert(v.resv, i, &vmmResv{addr: addr, size: size})
	v.used.Store(int32(len(v.resv)))
	return nil
}

func (v *vmm) release(addr uint64) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	i, r := v.findResv(addr)
	switch {
	case r == nil || r.addr != addr:
		return hal.Errorf(hal.KindInvalidParam, "virPtr %#x is not the start of a reserved range", addr)
	case len(r.maps) > 0:
		return hal.Errorf(hal.KindInvalidParam, "virPtr %#x still has %d mapping(s), expected none: unmap them first", addr, len(r.maps))
	}
	// The range stays inaccessible and known (vmRetired).
	if err := blank(addr, r.size); err != nil {
		return hal.Wrap(hal.KindInternal, err, "releasing [%#x, %#x)", addr, addr+r.size)
	}
	v.b.space.vmGone.retire(addr, r.size)
	v.resv = slices.Delete(v.resv, i, i+1)
	v.used.Store(int32(len(v.resv)))
	return nil
}

func (v *vmm) mapMem(addr, size, off, id uint64, withAccess bool) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	ph := v.phys[id]
	if ph == nil || ph.Refs == 0 {
		return hal.Errorf(hal.KindInvalidHandle, "physical memory handle %d is not live (never allocated, or already freed)", id)
	}
	if size == 0 || size%ph.PageSize != 0 || off%ph.PageSize != 0 || off > ph.Size || size > ph.Size-off {
		return hal.Errorf(hal.KindInvalidParam, "size %d at offset %d is invalid for a physical allocation of %d bytes, expected a multiple of %d inside it",
			size, off, ph.Size, ph.PageSize)
	}
	if addr%ph.PageSize != 0 {
		return hal.Errorf(hal.KindInvalidParam, "virPtr %#x is invalid, expected a multiple of %#x", addr, ph.PageSize)
	}
	_, r := v.findResv(addr)
	if r == nil || addr+size < addr || addr+size > r.addr+r.size {
		return hal.Errorf(hal.KindInvalidParam, "range [%#x, %#x) is not inside one reserved range", addr, addr+size)
	}
	i := 0
	for ; i < len(r.maps) && r.maps[i].Addr < addr+size; i++ {
		if m := r.maps[i]; m.Addr+m.Size > addr {
			return hal.Errorf(hal.KindInvalidParam, "range [%#x, %#x) overlaps the mapping at %#x, expected unmapped memory", addr, addr+size, m.Addr)
		}
		if r.maps[i].Device != ph.Device {
			return hal.Errorf(hal.KindInvalidParam, "the reserved range at %#x already maps memory of device %d, expected no other device's (%d)", r.addr, r.maps[i].Device, ph.Device)
		}
	}
	for _, m := range r.maps[i:] {
		if m.Device != ph.Device {
			return hal.Errorf(hal.KindInvalidParam, "the reserved range at %#x already maps memory of device %d, expected no other device's (%d)", r.addr, m.Device, ph.Device)
		}
	}
	var err error
	open := true
	if ph.file != nil {
		_, err = unix.MmapPtr(int(ph.file.Fd()), int64(ph.base+off), at(addr), uintptr(size),
			unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED|unix.MAP_FIXED)
	} else {
		ph.mem.mu.RLock()
		fd := ph.mem.fd
		if open = ph.mem.mem != nil; open {
			_, err = unix.MmapPtr(fd, int64(ph.base-ph.mem.base+off), at(addr), uintptr(size),
				unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED|unix.MAP_FIXED)
		}
		ph.mem.mu.RUnlock()
	}
	if !open {
		return hal.Errorf(hal.KindInvalidDevice, "device %d of physical memory handle %d is closed", ph.Device, id)
	}
	if err != nil {
		return hal.Wrap(errKind(err), err, "mapping [%#x, %#x)", addr, addr+size)
	}
	m := &vmmMap{Mapping: hal.Mapping{Addr: addr, Size: size, Physical: id, Device: ph.Device, Offset: off}, p: ph}
	if withAccess {
		m.Devices[ph.Device] = hal.AccessReadWrite
	}
	r.maps = slices.Insert(r.maps, i, m)
	ph.Mappings++
	return nil
}

func (v *vmm) unmap(addr uint64) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	r, i, m := v.findMap(addr)
	switch {
	case m == nil:
		return hal.Errorf(hal.KindInvalidParam, "virPtr %#x is not mapped", addr)
	case m.Addr != addr:
		return hal.Errorf(hal.KindInvalidParam, "virPtr %#x is inside the mapping at %#x, expected its start", addr, m.Addr)
	}
	v.scrub(m)
	r.maps = slices.Delete(r.maps, i, i+1)
	m.p.Mappings--
	v.drop(m.p)
	return nil
}

// scrub replaces a mapping with memory of its own, in one step: a task
// still using the range writes there, not into the physical memory.
func (v *vmm) scrub(m *vmmMap) {
	// Failure leaves the old mapping: the bytes stay visible, which is
	// the lesser harm; the bookkeeping refuses the range either way.
	_, _ = unix.MmapPtr(-1, 0, at(m.Addr), uintptr(m.Size), unix.PROT_READ|unix.PROT_WRITE,
		unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_NORESERVE|unix.MAP_FIXED)
}

func (v *vmm) setAccess(addr, size uint64, who hal.Accessor, a hal.Access) error {
	switch a {
	case hal.AccessNone, hal.AccessRead, hal.AccessReadWrite:
	default:
		return hal.Errorf(hal.KindInvalidParam, "access flags %#x are invalid, expected 0x0, 0x1 or 0x3", uint8(a))
	}
	if who != hal.AccessorHost && (who < 0 || int(who) >= v.b.cfg.Devices) {
		return hal.Errorf(hal.KindInvalidDevice, "device id %d is invalid, expected 0..%d", int(who), v.b.cfg.Devices-1)
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	_, _, m := v.findMap(addr)
	switch {
	case m == nil:
		return hal.Errorf(hal.KindInvalidParam, "virPtr %#x is not mapped", addr)
	case m.Addr != addr || m.Size != size:
		return hal.Errorf(hal.KindInvalidParam, "range [%#x, +%d) is invalid, expected the mapping [%#x, +%d) exactly", addr, size, m.Addr, m.Size)
	}
	if who == hal.AccessorHost {
		m.Host = a
	} else {
		m.Devices[who] = a
	}
	return nil
}

func (v *vmm) mapping(addr uint64) (hal.Mapping, bool) {
	if v.used.Load() == 0 || !v.inWindow(addr) {
		return hal.Mapping{}, false
	}
	v.mu.RLock()
	defer v.mu.RUnlock()
	if _, _, m := v.findMap(addr); m != nil {
		return m.Mapping, true
	}
	return hal.Mapping{}, false
}

func (v *vmm) reservation(addr uint64) (hal.Reservation, bool) {
	if !v.inWindow(addr) {
		return hal.Reservation{}, false
	}
	if v.used.Load() != 0 {
		v.mu.RLock()
		_, r := v.findResv(addr)
		var res hal.Reservation
		if r != nil {
			res = hal.Reservation{Addr: r.addr, Size: r.size, Mappings: len(r.maps)}
		}
		v.mu.RUnlock()
		if r != nil {
			return res, true
		}
	}
	if v.b.space.vmGone.holds(addr) {
		return hal.Reservation{Released: true}, true
	}
	return hal.Reservation{}, false
}

// lookup finds the mapping holding addr as an allocation of its device.
func (v *vmm) lookup(addr uint64) (hal.Allocation, bool) {
	if v.used.Load() == 0 || !v.inWindow(addr) {
		return hal.Allocation{}, false
	}
	v.mu.RLock()
	defer v.mu.RUnlock()
	_, _, m := v.findMap(addr)
	if m == nil {
		return hal.Allocation{}, false
	}
	return hal.Allocation{Device: m.Device, Addr: m.Addr, Size: m.Size, PageSize: m.p.PageSize, Tag: vmmTag}, true
}

// vmmTag is the tag mapped ranges are reported with: the caller's memory
// to the runtime (its useOwned), which never frees it by that tag, since
// Free refuses addresses of the window.
const vmmTag = 1

// pointer returns addr if [addr, addr+n) is mapped, by one mapping or by
// adjacent ones of one reservation.
func (v *vmm) pointer(addr, n uint64) (unsafe.Pointer, error) {
	v.mu.RLock()
	defer v.mu.RUnlock()
	r, i, m := v.findMap(addr)
	if m == nil {
		return nil, hal.Errorf(hal.KindInvalidAddress, "address %#x (%d bytes) is reserved virtual memory with nothing mapped there", addr, n)
	}
	for end := m.Addr + m.Size; end-addr < n; end = r.maps[i].Addr + r.maps[i].Size {
		if i++; i >= len(r.maps) || r.maps[i].Addr != end {
			return nil, hal.Errorf(hal.KindInvalidAddress, "address %#x (%d bytes) runs past its mapping, into unmapped memory at %#x", addr, n, end)
		}
	}
	return at(addr), nil
}

// kernelArgs refuses argument slots holding an address of a reservation
// that device dev has no access to there.
func (v *vmm) kernelArgs(dev int, args []uint64) error {
	if v.used.Load() == 0 && !v.b.space.vmGone.any() {
		return nil
	}
	for i, a := range args {
		if !v.inWindow(a) {
			continue
		}
		v.mu.RLock()
		r, _, m := v.findMap(a)
		var acc hal.Access
		if m != nil {
			acc = m.Access(hal.Accessor(dev))
		}
		v.mu.RUnlock()
		switch {
		case r == nil && v.b.space.vmGone.holds(a):
			return hal.Errorf(hal.KindInvalidAddress, "argument slot %d holds %#x, virtual memory that was released", i, a)
		case r == nil:
		case m == nil:
			return hal.Errorf(hal.KindInvalidAddress, "argument slot %d holds %#x, reserved virtual memory with nothing mapped there", i, a)
		case acc == hal.AccessNone:
			return hal.Errorf(hal.KindInvalidAddress, "argument slot %d holds %#x, mapped memory device %d has no access to (aclrtMemSetAccess)", i, a, dev)
		}
	}
	return nil
}

// close releases every reservation, when the backend closes.
func (v *vmm) close() {
	v.mu.Lock()
	defer v.mu.Unlock()
	for _, r := range v.resv {
		if blank(r.addr, r.size) == nil {
			v.b.space.vmGone.retire(r.addr, r.size)
		}
	}
	v.resv = nil
	v.used.Store(0)
	for _, ph := range v.phys {
		if ph.file != nil {
			_ = ph.file.Close()
		}
	}
	clear(v.phys)
}

// at is the address addr of the window as a pointer. The window is never
// Go memory, so the collector has nothing to track there; reading the
// word as a pointer keeps vet's check for Go pointers out of it.
func at(addr uint64) unsafe.Pointer {
	p := uintptr(addr)
	return *(*unsafe.Pointer)(unsafe.Pointer(&p))
}

// occupied reports whether other memory of the process holds addr's page.
func occupied(addr uint64) bool {
	p, err := unix.MmapPtr(-1, 0, at(addr), hal.PageSizeNormal, unix.PROT_NONE,
		unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_NORESERVE|unix.MAP_FIXED_NOREPLACE)
	if err != nil {
		return errors.Is(err, unix.EEXIST)
	}
	_ = unix.MunmapPtr(p, hal.PageSizeNormal)
	return false
}
