package rt

import (
	"math/bits"
	"sync"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// The values of aclrtPhysicalMemProp's fields and of the VMM calls'
// arguments, as CANN defines them (the location types are MemLoc*, in
// copybatch.go).
const (
	GranularityMinimum     = 0 // ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM
	GranularityRecommended = 1 // ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED

	LinkSIO  = 0 // ACL_RT_MEM_ACCESS_LINK_SIO, ACL_RT_MEM_LINK_IDX_0
	LinkHCCS = 1 // ACL_RT_MEM_ACCESS_LINK_HCCS, ACL_RT_MEM_LINK_IDX_1
	// LinkUBMultiPort is the largest aclrtMemLinkType value.
	LinkUBMultiPort = 3
)

// PhysProp is aclrtPhysicalMemProp.
type PhysProp struct {
	HandleType     uint32
	AllocationType uint32
	MemAttr        uint32
	LocType        uint32
	LocID          uint32
	Reserve        uint64
}

// memAttr is what one aclrtMemAttr value means for device memory: its
// page, whether it is for device-to-device copies, and whether CANN takes
// it at all.
type memAttr struct {
	name     string
	page     uint64
	p2p      bool
	hostOnly bool // DDR memory: refused on a device
	known    bool // in CANN's table of physical memory attributes
	readBack uint32
}

// memAttrs is CANN's table (memAttrHandlers and the read-back mapping of
// src/acl/aclrt_impl/memory.cpp): device memory is HBM, normal pages are
// the device's 2 MiB pages, and a property reads back as the HBM or P2P
// attribute it became.
var memAttrs = [...]memAttr{
	0:  {name: "ACL_DDR_MEM"},
	1:  {name: "ACL_HBM_MEM"},
	2:  {name: "ACL_DDR_MEM_HUGE", hostOnly: true, known: true},
	3:  {name: "ACL_DDR_MEM_NORMAL", hostOnly: true, known: true},
	4:  {name: "ACL_HBM_MEM_HUGE", page: hal.PageSizeHuge, known: true, readBack: 4},
	5:  {name: "ACL_HBM_MEM_NORMAL", page: hal.PageSizeHuge, known: true, readBack: 5},
	6:  {name: "ACL_DDR_MEM_P2P_HUGE", hostOnly: true, known: true},
	7:  {name: "ACL_DDR_MEM_P2P_NORMAL", hostOnly: true, known: true},
	8:  {name: "ACL_HBM_MEM_P2P_HUGE"},
	9:  {name: "ACL_HBM_MEM_P2P_NORMAL"},
	10: {name: "ACL_HBM_MEM_HUGE1G", page: hal.PageSizeHuge1G, known: true, readBack: 10},
	11: {name: "ACL_HBM_MEM_P2P_HUGE1G"},
	12: {name: "ACL_MEM_NORMAL", page: hal.PageSizeHuge, known: true, readBack: 5},
	13: {name: "ACL_MEM_HUGE", page: hal.PageSizeHuge, known: true, readBack: 4},
	14: {name: "ACL_MEM_HUGE1G", page: hal.PageSizeHuge1G, known: true, readBack: 10},
	15: {name: "ACL_MEM_P2P_NORMAL", page: hal.PageSizeHuge, p2p: true, known: true, readBack: 15},
	16: {name: "ACL_MEM_P2P_HUGE", page: hal.PageSizeHuge, p2p: true, known: true, readBack: 16},
	17: {name: "ACL_MEM_P2P_HUGE1G", page: hal.PageSizeHuge1G, p2p: true, known: true, readBack: 17},
}

// vmmState is what the runtime keeps of virtual memory beside the backend:
// the window (so a pointer there is known as device memory) and what CANN
// reports of physical allocations and mappings that the device does not
// keep.
type vmmState struct {
	lo, hi   uint64 // the backend's window; both 0 without the capability
	mlo, mhi uint64 // its managed window

	// mu guards the fields below.
	mu    sync.Mutex
	props map[uint64]physMeta // by physical allocation
	links map[uint64]uint32   // the link aclrtMemMapSelectedLink chose, by mapping address
}

type physMeta struct {
	prop PhysProp
	link uint32
}

// reset takes the window of b, at Init and (b nil) at Finalize.
func (v *vmmState) reset(b hal.Backend) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.lo, v.hi, v.mlo, v.mhi = 0, 0, 0, 0
	if m, ok := b.(hal.VMM); ok {
		v.lo, v.hi = m.VMMWindow()
		v.mlo, v.mhi = m.ManagedWindow()
	}
	v.props = map[uint64]physMeta{}
	v.links = map[uint64]uint32{}
}

// holds reports whether addr is in the window. It is read without the
// lock: lo and hi change only while no call runs (Init, Finalize). Other
// memory of the process may lie in the window too: reserved reports
// whether addr is in a reservation.
func (v *vmmState) holds(addr uint64) bool { return addr-v.lo < v.hi-v.lo }

// holdsManaged reports whether addr is in the managed window.
func (v *vmmState) holdsManaged(addr uint64) bool { return addr-v.mlo < v.mhi-v.mlo }

// reserved reports whether addr is in a reservation of either window: a
// pointer to virtual or managed memory, not to other memory the process
// mapped there.
func (r *Runtime) reserved(b hal.Backend, addr uint64) bool {
	if !r.vmmMeta.holds(addr) && !r.vmmMeta.holdsManaged(addr) {
		return false
	}
	v, ok := b.(hal.VMM)
	if !ok {
		return false
	}
	_, ok = v.Reservation(addr)
	return ok
}

// liveReserved reports whether addr is in a reservation of the window of
// aclrtReserveMemAddress that has not been released.
func (r *Runtime) liveReserved(b hal.Backend, addr uint64) bool {
	if !r.vmmMeta.holds(addr) {
		return false
	}
	v, ok := b.(hal.VMM)
	if !ok {
		return false
	}
	res, ok := v.Reservation(addr)
	return ok && !res.Released
}

// userRange refuses an address that is not in the window of reservations
// (managed memory is the runtime's to map, not the caller's).
func (r *Runtime) userRange(param string, addr uint64) error {
	if !r.vmmMeta.holds(addr) {
		return rterr.Errorf(rterr.KindInvalidParam, "%s %#x is not in a range from aclrtReserveMemAddress", param, addr)
	}
	return nil
}

// userHandle refuses a physical allocation the caller did not make (the
// memory behind managed allocations) or that is gone.
func (r *Runtime) userHandle(id uint64) error {
	r.vmmMeta.mu.Lock()
	_, ok := r.vmmMeta.props[id]
	r.vmmMeta.mu.Unlock()
	if !ok {
		return errHandle(id)
	}
	return nil
}

// vmm returns the backend's virtual memory, or refuses.
func (r *Runtime) vmm() (hal.VMM, hal.Backend, error) {
	b, err := r.live()
	if err != nil {
		return nil, nil, err
	}
	m, ok := b.(hal.VMM)
	if !ok {
		return nil, nil, rterr.Errorf(rterr.KindNotSupported, "the device backend has no virtual memory management (reserved ranges, physical memory and mappings)")
	}
	return m, b, nil
}

// checkMapped checks that [addr, addr+n) is mapped, by one mapping or by
// adjacent ones (a reserved range is contiguous), all of which device d
// may read (and write, if write).
func (d *Device) checkMapped(param string, addr, n uint64, write bool) error {
	v := d.b.(hal.VMM)
	need, what := hal.AccessRead, "read"
	if write {
		need, what = hal.AccessReadWrite, "read and write"
	}
	if addr+n < addr {
		return rterr.Errorf(rterr.KindInvalidAddress, "%s range [%#x, +%d) wraps around the address space", param, addr, n)
	}
	for at := addr; ; {
		m, ok := v.Mapping(at)
		switch {
		case !ok && at == addr:
			if res, _ := v.Reservation(addr); res.Released {
				return rterr.Errorf(rterr.KindInvalidAddress, "%s %#x is virtual memory that was released (aclrtReleaseMemAddress) or freed", param, addr)
			}
			return rterr.Errorf(rterr.KindInvalidAddress, "%s %#x is reserved virtual memory with nothing mapped there (aclrtMapMem)", param, addr)
		case !ok:
			return rterr.Errorf(rterr.KindInvalidAddress, "%s range [%#x, %#x) runs past its mapping, into unmapped memory at %#x", param, addr, addr+n, at)
		case m.Access(hal.Accessor(d.id))&need != need:
			return rterr.Errorf(rterr.KindInvalidAddress, "%s %#x is mapped memory device %d may not %s (access flags %#x; aclrtMemSetAccess)",
				param, at, d.id, what, uint8(m.Access(hal.Accessor(d.id))))
		}
		at = m.Addr + m.Size
		if at >= addr+n {
			return nil
		}
	}
}

// attrOf checks a physical memory property for device memory as CANN's
// runtime does, and returns its device and attribute.
func (r *Runtime) attrOf(p PhysProp) (int, memAttr, error) {
	switch {
	case p.HandleType != 0:
		return 0, memAttr{}, rterr.Errorf(rterr.KindBadArgument, "prop->handleType %d is invalid, expected ACL_MEM_HANDLE_TYPE_NONE (0)", p.HandleType)
	case p.AllocationType != 0:
		return 0, memAttr{}, rterr.Errorf(rterr.KindBadArgument, "prop->allocationType %d is invalid, expected ACL_MEM_ALLOCATION_TYPE_PINNED (0)", p.AllocationType)
	case p.LocType == MemLocUnregistered || p.LocType == MemLocManaged:
		return 0, memAttr{}, rterr.Errorf(rterr.KindBadArgument, "prop->location.type %d is invalid: location type does not support UNREGISTERED or MANAGED", p.LocType)
	case p.LocType == MemLocHost || p.LocType == MemLocHostNUMA:
		if int(p.MemAttr) < len(memAttrs) && memAttrs[p.MemAttr].known {
			return 0, memAttr{}, rterr.Errorf(rterr.KindNotSupported, "prop->location.type %d: physical host memory is not simulated, only device memory (ACL_MEM_LOCATION_TYPE_DEVICE)", p.LocType)
		}
	case p.LocType != MemLocDevice:
		return 0, memAttr{}, rterr.Errorf(rterr.KindBadArgument, "prop->location.type %d is invalid, expected 0..4", p.LocType)
	}
	if int(p.MemAttr) >= len(memAttrs) || !memAttrs[p.MemAttr].known {
		return 0, memAttr{}, rterr.Errorf(rterr.KindBadArgument, "prop->memAttr %d is invalid: the physical memory attribute is not supported", p.MemAttr)
	}
	a := memAttrs[p.MemAttr]
	if a.hostOnly {
		return 0, memAttr{}, rterr.Errorf(rterr.KindBadArgument, "prop->memAttr %s is invalid for device memory, expected MEM_LOCATION_TYPE_HOST(0) or MEM_LOCATION_TYPE_HOST_NUMA(4)", a.name)
	}
	b, err := r.live()
	if err != nil {
		return 0, memAttr{}, err
	}
	if n := b.DeviceCount(); int(p.LocID) >= n {
		return 0, memAttr{}, rterr.Errorf(rterr.KindInvalidDevice, "prop->location.id %d is invalid, expected a device id 0..%d", p.LocID, n-1)
	}
	if a.p2p && a.page == hal.PageSizeHuge1G {
		return 0, memAttr{}, rterr.Errorf(rterr.KindNotSupported, "prop->memAttr %s: 1 GiB pages for device-to-device copies are not supported on this chip", a.name)
	}
	return int(p.LocID), a, nil
}

// Granularity is the allocation granularity of memory with property p
// (aclrtMemGetAllocationGranularity): the page it implies, both the
// minimum and the recommended one.
func (r *Runtime) Granularity(p PhysProp, option uint32) (uint64, error) {
	if _, _, err := r.vmm(); err != nil {
		return 0, err
	}
	_, a, err := r.attrOf(p)
	if err != nil {
		return 0, err
	}
	if option != GranularityMinimum && option != GranularityRecommended {
		return 0, rterr.Errorf(rterr.KindInvalidParam, "option %d is invalid, expected ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM (0) or _RECOMMENDED (1)", option)
	}
	return a.page, nil
}

// ReserveMemAddress reserves size bytes of device virtual address space
// (aclrtReserveMemAddress; noUC: aclrtReserveMemAddressNoUCMemory).
func (r *Runtime) ReserveMemAddress(size, alignment, expect, flags uint64, noUC bool) (uint64, error) {
	v, _, err := r.vmm()
	if err != nil {
		return 0, err
	}
	switch {
	case size == 0:
		return 0, rterr.Errorf(rterr.KindBadArgument, "size 0 is invalid, expected > 0")
	case flags > 1:
		return 0, rterr.Errorf(rterr.KindBadArgument, "flags %d is invalid, expected 0", flags)
	case alignment != 0:
		return 0, rterr.Errorf(rterr.KindInvalidParam, "alignment %d is invalid, expected 0 (reserved)", alignment)
	}
	align := uint64(hal.PageSizeHuge)
	if noUC {
		switch {
		case expect == 0:
			return 0, rterr.Errorf(rterr.KindNotSupported, "expectPtr is NULL: aclrtReserveMemAddressNoUCMemory takes only an address the caller chooses")
		case size%hal.PageSizeHuge1G != 0:
			return 0, rterr.Errorf(rterr.KindInvalidParam, "size %d is invalid, expected a positive multiple of 1 GiB", size)
		}
		align = hal.PageSizeHuge1G
	} else if expect != 0 {
		// The reference's rule for expectPtr: 1 GiB aligned for a range
		// over 1 GiB, otherwise on the power of two the size rounds up to.
		align = hal.PageSizeHuge1G
		if size <= hal.PageSizeHuge1G {
			align = max(uint64(hal.PageSizeHuge), 1<<bits.Len64(size-1))
		}
	}
	if size%hal.PageSizeHuge != 0 {
		return 0, rterr.Errorf(rterr.KindInvalidParam, "size %d is invalid, expected a multiple of the granularity %d", size, uint64(hal.PageSizeHuge))
	}
	return v.Reserve(size, align, expect, false)
}

// ReleaseMemAddress gives back a reservation (aclrtReleaseMemAddress).
func (r *Runtime) ReleaseMemAddress(addr uint64) error {
	v, _, err := r.vmm()
	if err != nil {
		return err
	}
	if addr == 0 {
		return rterr.Errorf(rterr.KindBadArgument, "virPtr is NULL, expected a range from aclrtReserveMemAddress")
	}
	if err := r.userRange("virPtr", addr); err != nil {
		return err
	}
	if err := r.errImportedRange(addr); err != nil {
		return err
	}
	return v.Release(addr)
}

// MallocPhysical allocates physical device memory (aclrtMallocPhysical).
// The size is rounded up to the granularity, and counted so.
func (r *Runtime) MallocPhysical(size uint64, p PhysProp, flags uint64) (uint64, error) {
	r.waitUnlocked()
	v, _, err := r.vmm()
	if err != nil {
		return 0, err
	}
	if size == 0 {
		return 0, rterr.Errorf(rterr.KindBadArgument, "size 0 is invalid, expected > 0")
	}
	if flags != 0 {
		return 0, rterr.Errorf(rterr.KindBadArgument, "flags %d is invalid, expected 0", flags)
	}
	dev, a, err := r.attrOf(p)
	if err != nil {
		return 0, err
	}
	rounded, ok := roundUpTo(size, a.page)
	if !ok {
		return 0, rterr.Errorf(rterr.KindInvalidParam, "size %d is too large", size)
	}
	d, err := r.Device(dev)
	if err != nil {
		return 0, err
	}
	if _, err := d.halDevice(); err != nil {
		return 0, err
	}
	ph, err := v.AllocPhysical(dev, rounded, hal.MemPolicy{P2P: a.p2p, Tag: uint8(useNone)}, a.page)
	if err != nil {
		return 0, err
	}
	r.vmmMeta.mu.Lock()
	r.vmmMeta.props[ph.ID] = physMeta{prop: p, link: LinkHCCS}
	r.vmmMeta.mu.Unlock()
	return ph.ID, nil
}

func roundUpTo(x, p uint64) (uint64, bool) {
	r := (x + p - 1) / p * p
	return r, r >= x
}

// FreePhysical drops a reference to a physical allocation
// (aclrtFreePhysical). Memory still mapped goes at its last unmap, as the
// reference documents.
func (r *Runtime) FreePhysical(id uint64) error {
	r.waitUnlocked()
	v, _, err := r.vmm()
	if err != nil {
		return err
	}
	if id == 0 {
		return rterr.Errorf(rterr.KindBadArgument, "handle is NULL, expected one from aclrtMallocPhysical")
	}
	if err := r.userHandle(id); err != nil {
		return err
	}
	ph, _ := v.PhysicalInfo(id)
	if err := v.FreePhysical(id); err != nil {
		return err
	}
	r.withdrawPhysical(id, ph.Device)
	if _, ok := v.PhysicalInfo(id); !ok {
		r.vmmMeta.mu.Lock()
		delete(r.vmmMeta.props, id)
		r.vmmMeta.mu.Unlock()
	}
	return nil
}

// PhysicalProps returns the property a physical allocation reads back
// with (aclrtMemGetAllocationPropertiesFromHandle).
func (r *Runtime) PhysicalProps(id uint64) (PhysProp, error) {
	v, _, err := r.vmm()
	if err != nil {
		return PhysProp{}, err
	}
	if id == 0 {
		return PhysProp{}, rterr.Errorf(rterr.KindBadArgument, "handle is NULL, expected one from aclrtMallocPhysical")
	}
	ph, ok := v.PhysicalInfo(id)
	r.vmmMeta.mu.Lock()
	m, known := r.vmmMeta.props[id]
	r.vmmMeta.mu.Unlock()
	if !ok || !known {
		return PhysProp{}, errHandle(id)
	}
	p := PhysProp{LocType: MemLocDevice, LocID: uint32(ph.Device), MemAttr: memAttrs[m.prop.MemAttr].readBack, Reserve: m.prop.Reserve}
	return p, nil
}

func errHandle(id uint64) error {
	return rterr.Errorf(rterr.KindInvalidHandle, "physical memory handle %d is not live (never allocated, or already freed)", id)
}
