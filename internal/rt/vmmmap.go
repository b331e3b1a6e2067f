package rt

import (
	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// MapMem maps physical allocation id at addr (aclrtMapMem; without access:
// aclrtMemMapNoAccess). As the reference says, size is the allocation's
// whole size and offset 0.
func (r *Runtime) MapMem(addr, size, offset, id, flags uint64, withAccess bool) error {
	v, _, err := r.vmm()
	if err != nil {
		return err
	}
	switch {
	case addr == 0:
		return rterr.Errorf(rterr.KindBadArgument, "virPtr is NULL, expected an address in a range from aclrtReserveMemAddress")
	case id == 0:
		return rterr.Errorf(rterr.KindBadArgument, "handle is NULL, expected one from aclrtMallocPhysical")
	case size == 0:
		return rterr.Errorf(rterr.KindBadArgument, "size 0 is invalid, expected > 0")
	case flags != 0:
		return rterr.Errorf(rterr.KindBadArgument, "flags %d is invalid, expected 0", flags)
	}
	if err := r.userHandle(id); err != nil {
		return err
	}
	ph, ok := v.PhysicalInfo(id)
	switch {
	case !ok:
		return errHandle(id)
	case offset != 0:
		return rterr.Errorf(rterr.KindInvalidParam, "offset %d is invalid, expected 0", offset)
	case size != ph.Size:
		return rterr.Errorf(rterr.KindInvalidParam, "size %d is invalid, expected the physical allocation's size %d", size, ph.Size)
	}
	if res, ok := v.Reservation(addr); !ok || res.Released || !r.vmmMeta.holds(addr) {
		return rterr.Errorf(rterr.KindInvalidParam, "virPtr %#x is not in a range from aclrtReserveMemAddress", addr)
	}
	return v.Map(addr, size, offset, id, withAccess)
}

// UnmapMem removes the mapping at addr (aclrtUnmapMem).
func (r *Runtime) UnmapMem(addr uint64) error {
	v, _, err := r.vmm()
	if err != nil {
		return err
	}
	if addr == 0 {
		return rterr.Errorf(rterr.KindBadArgument, "virPtr is NULL, expected a mapped address")
	}
	if err := r.userRange("virPtr", addr); err != nil {
		return err
	}
	if err := r.errImportedRange(addr); err != nil {
		return err
	}
	if err := v.Unmap(addr); err != nil {
		return err
	}
	r.vmmMeta.mu.Lock()
	delete(r.vmmMeta.links, addr)
	r.vmmMeta.mu.Unlock()
	return nil
}

// AccessDesc is aclrtMemAccessDesc.
type AccessDesc struct {
	Flags   uint32
	LocType uint32
	LocID   uint32
}

// accessor checks an aclrtMemLocation naming who a mapping's access is for.
func (r *Runtime) accessor(param string, locType, locID uint32) (hal.Accessor, error) {
	switch locType {
	case MemLocHost:
		return hal.AccessorHost, nil
	case MemLocDevice:
		b, err := r.live()
		if err != nil {
			return 0, err
		}
		if n := b.DeviceCount(); int(locID) >= n {
			return 0, rterr.Errorf(rterr.KindInvalidDevice, "%s.id %d is invalid, expected a device id 0..%d", param, locID, n-1)
		}
		return hal.Accessor(locID), nil
	}
	return 0, rterr.Errorf(rterr.KindInvalidParam, "%s.type %d is invalid, expected ACL_MEM_LOCATION_TYPE_HOST (0) or ACL_MEM_LOCATION_TYPE_DEVICE (1)", param, locType)
}

// MemSetAccess sets access to the mapping [addr, addr+size) for each
// descriptor's location (aclrtMemSetAccess). Every descriptor is checked
// before any is applied.
func (r *Runtime) MemSetAccess(addr, size uint64, descs []AccessDesc) error {
	v, _, err := r.vmm()
	if err != nil {
		return err
	}
	if addr == 0 {
		return rterr.Errorf(rterr.KindInvalidParam, "virPtr is NULL, expected a mapped address")
	}
	if len(descs) == 0 {
		return rterr.Errorf(rterr.KindInvalidParam, "count 0 is invalid, expected at least one descriptor")
	}
	if err := r.userRange("virPtr", addr); err != nil {
		return err
	}
	m, ok := v.Mapping(addr)
	if !ok {
		return rterr.Errorf(rterr.KindInvalidParam, "virPtr %#x is not mapped", addr)
	}
	if m.Addr != addr || m.Size != size {
		return rterr.Errorf(rterr.KindInvalidParam, "range [%#x, +%d) is invalid, expected the mapping [%#x, +%d) exactly", addr, size, m.Addr, m.Size)
	}
	whos := make([]hal.Accessor, len(descs))
	for i, d := range descs {
		if whos[i], err = r.accessor("desc["+itoa(i)+"].location", d.LocType, d.LocID); err != nil {
			return err
		}
		switch hal.Access(d.Flags) {
		case hal.AccessNone, hal.AccessRead, hal.AccessReadWrite:
			if d.Flags <= 0xff {
				continue
			}
		}
		return rterr.Errorf(rterr.KindInvalidParam, "desc[%d].flags %#x is invalid, expected ACL_RT_MEM_ACCESS_FLAGS_NONE, _READ or _READWRITE", i, d.Flags)
	}
	for i, d := range descs {
		if err := v.SetAccess(addr, size, whos[i], hal.Access(d.Flags)); err != nil {
			return err
		}
	}
	return nil
}

// MemGetAccess returns a location's access flags for the mapping at addr
// (aclrtMemGetAccess).
func (r *Runtime) MemGetAccess(addr uint64, locType, locID uint32) (uint64, error) {
	v, _, err := r.vmm()
	if err != nil {
		return 0, err
	}
	if addr == 0 {
		return 0, rterr.Errorf(rterr.KindBadArgument, "virPtr is NULL, expected a mapped address")
	}
	who, err := r.accessor("location", locType, locID)
	if err != nil {
		return 0, err
	}
	if err := r.userRange("virPtr", addr); err != nil {
		return 0, err
	}
	m, ok := v.Mapping(addr)
	if !ok || m.Addr != addr {
		return 0, rterr.Errorf(rterr.KindInvalidParam, "virPtr %#x is not the start of a mapping", addr)
	}
	return uint64(m.Access(who)), nil
}

// RetainAllocation returns the physical allocation mapped at addr with a
// reference more (aclrtMemRetainAllocationHandle); each retain takes its
// own aclrtFreePhysical.
func (r *Runtime) RetainAllocation(addr uint64) (uint64, error) {
	v, _, err := r.vmm()
	if err != nil {
		return 0, err
	}
	if addr == 0 {
		return 0, rterr.Errorf(rterr.KindBadArgument, "virPtr is NULL, expected a mapped address")
	}
	if err := r.userRange("virPtr", addr); err != nil {
		return 0, err
	}
	m, ok := v.Mapping(addr)
	if !ok || m.Addr != addr {
		return 0, rterr.Errorf(rterr.KindInvalidParam, "virPtr %#x is not the start of a mapping (aclrtMapMem)", addr)
	}
	if err := v.RetainPhysical(m.Physical); err != nil {
		// Its own reference went with aclrtFreePhysical; the mapping keeps
		// the memory, and a retain brings a reference back.
		return 0, rterr.Errorf(rterr.KindInvalidParam, "virPtr %#x maps a physical allocation whose handle was freed", addr)
	}
	return m.Physical, nil
}

// MapSelectedLink maps the reservation at dst to the physical memory
// mapped at [src, src+size), over link (aclrtMemMapSelectedLink). The
// simulated devices are linked by HCCS only: SIO, the link between the two
// dies of one chip, is refused.
func (r *Runtime) MapSelectedLink(dst, size, src uint64, link uint32) error {
	v, _, err := r.vmm()
	if err != nil {
		return err
	}
	switch {
	case dst == 0:
		return rterr.Errorf(rterr.KindBadArgument, "virPtrDst is NULL, expected a range from aclrtReserveMemAddress")
	case src == 0:
		return rterr.Errorf(rterr.KindBadArgument, "virPtrSrc is NULL, expected a mapped address")
	case size == 0:
		return rterr.Errorf(rterr.KindBadArgument, "size 0 is invalid, expected > 0")
	case link > LinkHCCS:
		return rterr.Errorf(rterr.KindBadArgument, "linkIdx %d is invalid, expected ACL_RT_MEM_LINK_IDX_0 (0) or ACL_RT_MEM_LINK_IDX_1 (1)", link)
	}
	if err := r.userRange("virPtrDst", dst); err != nil {
		return err
	}
	if err := r.userRange("virPtrSrc", src); err != nil {
		return err
	}
	rd, ok := v.Reservation(dst)
	switch {
	case !ok || rd.Addr != dst:
		return rterr.Errorf(rterr.KindInvalidParam, "virPtrDst %#x is not the start of a range from aclrtReserveMemAddress", dst)
	case rd.Size != size:
		return rterr.Errorf(rterr.KindInvalidParam, "size %d is invalid, expected virPtrDst's reserved size %d", size, rd.Size)
	case rd.Mappings != 0:
		return rterr.Errorf(rterr.KindInvalidParam, "virPtrDst %#x already has %d mapping(s), expected none", dst, rd.Mappings)
	}
	rs, ok := v.Reservation(src)
	if m, mapped := v.Mapping(src); !ok || !mapped || m.Addr != src || rs.Size-(src-rs.Addr) < size {
		return rterr.Errorf(rterr.KindInvalidParam, "virPtrSrc %#x is not the start of %d bytes of mapped memory", src, size)
	}
	// Every byte of [src, src+size) must be mapped, as one run of mappings.
	var maps []hal.Mapping
	for at := src; at < src+size; {
		m, ok := v.Mapping(at)
		if !ok {
			return rterr.Errorf(rterr.KindInvalidParam, "virPtrSrc range [%#x, %#x) has nothing mapped at %#x", src, src+size, at)
		}
		maps = append(maps, m)
		at = m.Addr + m.Size
	}
	if err := r.checkLink("linkIdx", maps[0].Device, link); err != nil {
		return err
	}
	for i, m := range maps {
		at := dst + (m.Addr - src)
		n := min(m.Size, src+size-m.Addr)
		if err := v.Map(at, n, m.Offset, m.Physical, true); err != nil {
			for _, done := range maps[:i] {
				_ = v.Unmap(dst + (done.Addr - src))
			}
			return err
		}
	}
	r.vmmMeta.mu.Lock()
	for _, m := range maps {
		r.vmmMeta.links[dst+(m.Addr-src)] = link
	}
	r.vmmMeta.mu.Unlock()
	return nil
}

// SetLink sets the link a physical allocation is reached over
// (aclrtMemMapSetLink). The simulated devices have HCCS links only.
func (r *Runtime) SetLink(id uint64, link uint32) error {
	v, _, err := r.vmm()
	if err != nil {
		return err
	}
	if id == 0 {
		return rterr.Errorf(rterr.KindBadArgument, "handle is NULL, expected a physical memory handle")
	}
	if link > LinkUBMultiPort {
		return rterr.Errorf(rterr.KindInvalidParam, "adviceLink %d is invalid, expected 0..%d", link, LinkUBMultiPort)
	}
	ph, ok := v.PhysicalInfo(id)
	if !ok {
		return errHandle(id)
	}
	if err := r.userHandle(id); err != nil {
		return err
	}
	if err := r.checkLink("adviceLink", ph.Device, link); err != nil {
		return err
	}
	r.vmmMeta.mu.Lock()
	defer r.vmmMeta.mu.Unlock()
	m, ok := r.vmmMeta.props[id]
	if !ok {
		return errHandle(id)
	}
	m.link = link
	r.vmmMeta.props[id] = m
	return nil
}

// Link reads back the link of a physical allocation (handle, addr 0) or
// the link aclrtMemMapSelectedLink chose for the mapping at addr.
func (r *Runtime) Link(id, addr uint64) (uint32, bool) {
	r.vmmMeta.mu.Lock()
	defer r.vmmMeta.mu.Unlock()
	if addr != 0 {
		l, ok := r.vmmMeta.links[addr]
		return l, ok
	}
	m, ok := r.vmmMeta.props[id]
	return m.link, ok
}

// PhysicalInfo describes a live physical allocation.
func (r *Runtime) PhysicalInfo(id uint64) (hal.Physical, bool) {
	v, _, err := r.vmm()
	if err != nil {
		return hal.Physical{}, false
	}
	return v.PhysicalInfo(id)
}

// Mapping describes the mapping holding addr.
func (r *Runtime) Mapping(addr uint64) (hal.Mapping, bool) {
	v, _, err := r.vmm()
	if err != nil {
		return hal.Mapping{}, false
	}
	return v.Mapping(addr)
}

// checkLink refuses a link (aclrtMemLinkType) device dev has to none of
// the other devices in the simulated topology: one link kind per pair
// (hal.Peer), HCCS for every pair of a backend without a topology or of
// one device. The simulator has no UB paths.
func (r *Runtime) checkLink(param string, dev int, link uint32) error {
	b, err := r.live()
	if err != nil {
		return err
	}
	kinds := hal.LinkHCCS
	if p, ok := b.(hal.Peer); ok && b.DeviceCount() > 1 {
		kinds = 0
		for other := range b.DeviceCount() {
			if other == dev {
				continue
			}
			if l, _, err := p.PeerLink(dev, other); err == nil {
				kinds |= l
			}
		}
	}
	var want uint64
	name := "a UB path"
	switch link {
	case LinkSIO:
		want, name = hal.LinkSIO, "SIO"
	case LinkHCCS:
		want, name = hal.LinkHCCS|hal.LinkHCCSSW, "HCCS"
	}
	if kinds&want == 0 {
		return rterr.Errorf(rterr.KindLinkTypeNotSupported, "%s %d (%s) is not a link of device %d in the simulated topology (link kinds %#x)", param, link, name, dev, kinds)
	}
	return nil
}
