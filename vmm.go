package gocann

import (
	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rt"
)

// Virtual memory management: address ranges reserved apart from memory,
// physical allocations of a device's memory, and mappings of one at a
// reserved address. A mapped range is device memory to every copy, memset
// and kernel, on the devices it gives access to.

// MemAttr is aclrtMemAttr, with the CANN values.
type MemAttr uint32

const (
	MemHBMHuge   MemAttr = 4  // ACL_HBM_MEM_HUGE
	MemHBMNormal MemAttr = 5  // ACL_HBM_MEM_NORMAL
	MemHBMHuge1G MemAttr = 10 // ACL_HBM_MEM_HUGE1G
	MemNormal    MemAttr = 12 // ACL_MEM_NORMAL
	MemHuge      MemAttr = 13 // ACL_MEM_HUGE
	MemHuge1G    MemAttr = 14 // ACL_MEM_HUGE1G
	MemP2PNormal MemAttr = 15 // ACL_MEM_P2P_NORMAL
	MemP2PHuge   MemAttr = 16 // ACL_MEM_P2P_HUGE
	MemP2PHuge1G MemAttr = 17 // ACL_MEM_P2P_HUGE1G
	MemDDRNormal MemAttr = 3  // ACL_DDR_MEM_NORMAL, host memory only
)

// Granularity options (aclrtMemGranularityOptions) and links
// (aclrtMemLinkType), with the CANN values; the locations are MemLoc*.
const (
	GranularityMinimum   = rt.GranularityMinimum
	GranularityRecommend = rt.GranularityRecommended
	MemLinkSIO           = rt.LinkSIO  // ACL_RT_MEM_ACCESS_LINK_SIO, ACL_RT_MEM_LINK_IDX_0
	MemLinkHCCS          = rt.LinkHCCS // ACL_RT_MEM_ACCESS_LINK_HCCS, ACL_RT_MEM_LINK_IDX_1
)

// PhysicalMemProp is aclrtPhysicalMemProp: handle and allocation types
// (both 0, the only values CANN takes), the memory attribute and where the
// memory is (LocType MemLocDevice, LocID the device).
type PhysicalMemProp struct {
	HandleType     uint32
	AllocationType uint32
	MemAttr        MemAttr
	LocType        uint32
	LocID          uint32
	Reserve        uint64
}

// DeviceMemProp is the property of ordinary physical memory on device dev.
//
// CANN: none.
func DeviceMemProp(dev int, attr MemAttr) PhysicalMemProp {
	return PhysicalMemProp{MemAttr: attr, LocType: MemLocDevice, LocID: uint32(dev)}
}

func (p PhysicalMemProp) rt() rt.PhysProp {
	return rt.PhysProp{HandleType: p.HandleType, AllocationType: p.AllocationType, MemAttr: uint32(p.MemAttr),
		LocType: p.LocType, LocID: p.LocID, Reserve: p.Reserve}
}

// PhysicalMem is a physical memory handle (aclrtDrvMemHandle): a value,
// live from MallocPhysical (or RetainAllocation) to its FreePhysical.
type PhysicalMem uint64

// MemAccess is aclrtMemAccessFlags.
type MemAccess uint32

const (
	AccessNone      MemAccess = 0 // ACL_RT_MEM_ACCESS_FLAGS_NONE
	AccessRead      MemAccess = 1 // ACL_RT_MEM_ACCESS_FLAGS_READ
	AccessReadWrite MemAccess = 3 // ACL_RT_MEM_ACCESS_FLAGS_READWRITE
)

// MemAccessDesc is aclrtMemAccessDesc: access for a location (LocType
// MemLocHost, or MemLocDevice and LocID the device).
type MemAccessDesc struct {
	Flags   MemAccess
	LocType uint32
	LocID   uint32
}

// MemAllocationGranularity is the granularity of physical memory with
// property p: sizes and mapped addresses are multiples of it.
//
// CANN: aclrtMemGetAllocationGranularity.
func (r *Runtime) MemAllocationGranularity(p PhysicalMemProp, option uint32) (uint64, error) {
	if err := r.require("aclrtMemGetAllocationGranularity"); err != nil {
		return 0, err
	}
	g, err := r.rt.Granularity(p.rt(), option)
	return g, wrap("Runtime.MemAllocationGranularity (aclrtMemGetAllocationGranularity)", err)
}

// ReserveMemAddress reserves size bytes of device virtual address space,
// at expect if it is not 0 (inside the documented window, 16 TiB to
// 24 TiB, and free). alignment and flags are reserved: 0.
//
// CANN: aclrtReserveMemAddress.
func (r *Runtime) ReserveMemAddress(size, alignment uint64, expect DevPtr, flags uint64) (DevPtr, error) {
	if err := r.require("aclrtReserveMemAddress"); err != nil {
		return 0, err
	}
	a, err := r.rt.ReserveMemAddress(size, alignment, uint64(expect), flags, false)
	return DevPtr(a), wrap("Runtime.ReserveMemAddress (aclrtReserveMemAddress)", err)
}

// ReserveMemAddressNoUC reserves as ReserveMemAddress, for memory kernels
// that bypass the L2 cache must not use; expect is required and size a
// multiple of 1 GiB.
//
// CANN: aclrtReserveMemAddressNoUCMemory.
func (r *Runtime) ReserveMemAddressNoUC(size, alignment uint64, expect DevPtr, flags uint64) (DevPtr, error) {
	if err := r.require("aclrtReserveMemAddressNoUCMemory"); err != nil {
		return 0, err
	}
	a, err := r.rt.ReserveMemAddress(size, alignment, uint64(expect), flags, true)
	return DevPtr(a), wrap("Runtime.ReserveMemAddressNoUC (aclrtReserveMemAddressNoUCMemory)", err)
}

// ReleaseMemAddress gives back a reservation that has no mapping left.
//
// CANN: aclrtReleaseMemAddress.
func (r *Runtime) ReleaseMemAddress(p DevPtr) error {
	if err := r.require("aclrtReleaseMemAddress"); err != nil {
		return err
	}
	return wrap("Runtime.ReleaseMemAddress (aclrtReleaseMemAddress)", r.rt.ReleaseMemAddress(uint64(p)))
}

// MallocPhysical allocates size bytes of physical device memory, rounded
// up to the granularity; it counts against the device's memory (MemInfo).
// flags is reserved: 0.
//
// CANN: aclrtMallocPhysical.
func (r *Runtime) MallocPhysical(size uint64, p PhysicalMemProp, flags uint64) (PhysicalMem, error) {
	if err := r.require("aclrtMallocPhysical"); err != nil {
		return 0, err
	}
	id, err := r.rt.MallocPhysical(size, p.rt(), flags)
	return PhysicalMem(id), wrap("Runtime.MallocPhysical (aclrtMallocPhysical)", err)
}

// FreePhysical drops a reference to physical memory; memory still mapped
// goes back to its device at the last unmap, as CANN documents.
//
// CANN: aclrtFreePhysical.
func (r *Runtime) FreePhysical(h PhysicalMem) error {
	if err := r.require("aclrtFreePhysical"); err != nil {
		return err
	}
	return wrap("Runtime.FreePhysical (aclrtFreePhysical)", r.rt.FreePhysical(uint64(h)))
}

// MapMem maps physical memory h, all size bytes of it (offset 0), at p in
// a reserved range, with read and write access for h's device.
//
// CANN: aclrtMapMem.
func (r *Runtime) MapMem(p DevPtr, size, offset uint64, h PhysicalMem, flags uint64) error {
	if err := r.require("aclrtMapMem"); err != nil {
		return err
	}
	return wrap("Runtime.MapMem (aclrtMapMem)", r.rt.MapMem(uint64(p), size, offset, uint64(h), flags, true))
}

// MemMapNoAccess maps as MapMem with no access for anyone until
// MemSetAccess gives it.
//
// CANN: aclrtMemMapNoAccess.
func (r *Runtime) MemMapNoAccess(p DevPtr, size, offset uint64, h PhysicalMem, flags uint64) error {
	if err := r.require("aclrtMemMapNoAccess"); err != nil {
		return err
	}
	return wrap("Runtime.MemMapNoAccess (aclrtMemMapNoAccess)", r.rt.MapMem(uint64(p), size, offset, uint64(h), flags, false))
}

// UnmapMem removes the mapping that starts at p.
//
// CANN: aclrtUnmapMem.
func (r *Runtime) UnmapMem(p DevPtr) error {
	if err := r.require("aclrtUnmapMem"); err != nil {
		return err
	}
	return wrap("Runtime.UnmapMem (aclrtUnmapMem)", r.rt.UnmapMem(uint64(p)))
}

// MemSetAccess sets access to the mapping [p, p+size) for each location
// named; every descriptor is checked before any applies.
//
// CANN: aclrtMemSetAccess.
func (r *Runtime) MemSetAccess(p DevPtr, size uint64, descs ...MemAccessDesc) error {
	if err := r.require("aclrtMemSetAccess"); err != nil {
		return err
	}
	ds := make([]rt.AccessDesc, len(descs))
	for i, d := range descs {
		ds[i] = rt.AccessDesc{Flags: uint32(d.Flags), LocType: d.LocType, LocID: d.LocID}
	}
	return wrap("Runtime.MemSetAccess (aclrtMemSetAccess)", r.rt.MemSetAccess(uint64(p), size, ds))
}

// MemGetAccess returns a location's access to the mapping at p.
//
// CANN: aclrtMemGetAccess.
func (r *Runtime) MemGetAccess(p DevPtr, locType, locID uint32) (MemAccess, error) {
	if err := r.require("aclrtMemGetAccess"); err != nil {
		return 0, err
	}
	f, err := r.rt.MemGetAccess(uint64(p), locType, locID)
	return MemAccess(f), wrap("Runtime.MemGetAccess (aclrtMemGetAccess)", err)
}

// RetainAllocation returns the physical memory mapped at p with one more
// reference, which takes its own FreePhysical.
//
// CANN: aclrtMemRetainAllocationHandle.
func (r *Runtime) RetainAllocation(p DevPtr) (PhysicalMem, error) {
	if err := r.require("aclrtMemRetainAllocationHandle"); err != nil {
		return 0, err
	}
	id, err := r.rt.RetainAllocation(uint64(p))
	return PhysicalMem(id), wrap("Runtime.RetainAllocation (aclrtMemRetainAllocationHandle)", err)
}

// PhysicalMemProperties returns the property h reads back with: device
// memory of the HBM (or P2P) attribute its request became.
//
// CANN: aclrtMemGetAllocationPropertiesFromHandle.
func (r *Runtime) PhysicalMemProperties(h PhysicalMem) (PhysicalMemProp, error) {
	if err := r.require("aclrtMemGetAllocationPropertiesFromHandle"); err != nil {
		return PhysicalMemProp{}, err
	}
	p, err := r.rt.PhysicalProps(uint64(h))
	return PhysicalMemProp{HandleType: p.HandleType, AllocationType: p.AllocationType, MemAttr: MemAttr(p.MemAttr),
		LocType: p.LocType, LocID: p.LocID, Reserve: p.Reserve}, wrap("Runtime.PhysicalMemProperties (aclrtMemGetAllocationPropertiesFromHandle)", err)
}

// MemMapSelectedLink maps the reservation at dst, all size bytes of it,
// to the physical memory mapped at [src, src+size), over link
// (MemLinkSIO or MemLinkHCCS; the simulated devices have HCCS only).
//
// CANN: aclrtMemMapSelectedLink.
func (r *Runtime) MemMapSelectedLink(dst DevPtr, size uint64, src DevPtr, link uint32) error {
	if err := r.require("aclrtMemMapSelectedLink"); err != nil {
		return err
	}
	return wrap("Runtime.MemMapSelectedLink (aclrtMemMapSelectedLink)", r.rt.MapSelectedLink(uint64(dst), size, uint64(src), link))
}

// MemMapSetLink sets the link h is reached over (aclrtMemLinkType; the
// simulated devices have HCCS only).
//
// CANN: aclrtMemMapSetLink.
func (r *Runtime) MemMapSetLink(h PhysicalMem, link uint32) error {
	return wrap("Runtime.MemMapSetLink (aclrtMemMapSetLink)", r.rt.SetLink(uint64(h), link))
}

// PhysicalMemLink reads back the link of h (MemMapSetLink; HCCS unless
// set).
//
// CANN: none.
func (r *Runtime) PhysicalMemLink(h PhysicalMem) (uint32, bool) { return r.rt.Link(uint64(h), 0) }

// MappingLink reads back the link MemMapSelectedLink chose for the mapping
// at p.
//
// CANN: none.
func (r *Runtime) MappingLink(p DevPtr) (uint32, bool) { return r.rt.Link(0, uint64(p)) }

// Mapping describes the mapping holding p: its range, its physical memory
// and device, and each location's access.
//
// CANN: none.
func (r *Runtime) Mapping(p DevPtr) (hal.Mapping, bool) { return r.rt.Mapping(uint64(p)) }

// PhysicalMemInfo describes live physical memory: device, size, page,
// references and mappings.
//
// CANN: none.
func (r *Runtime) PhysicalMemInfo(h PhysicalMem) (hal.Physical, bool) {
	return r.rt.PhysicalInfo(uint64(h))
}
