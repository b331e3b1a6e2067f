package rt

import (
	"errors"
	"slices"
	"sync"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// Managed memory (aclrtMemAllocManaged) is one address for the host and
// every device. The simulated memory is coherent and one copy serves all,
// so nothing migrates: an allocation is a physical allocation of the
// calling context's device mapped in the managed window with read and
// write access for the host and every device. What CANN reports of it, the
// advice and the last prefetch location, is kept per 2 MiB page here.

// Managed location types (aclrtMemManagedLocationType), advice
// (aclrtMemManagedAdviseType) and range attributes
// (aclrtMemManagedRangeAttribute), with the CANN values.
const (
	ManagedLocInvalid         = 0
	ManagedLocDevice          = 1
	ManagedLocHost            = 2
	ManagedLocHostNUMA        = 3
	ManagedLocHostNUMACurrent = 4

	AdviseSetReadMostly         = 0
	AdviseUnsetReadMostly       = 1
	AdviseSetPreferredLocation  = 2
	AdviseUnsetPreferredLoc     = 3
	AdviseSetAccessedBy         = 4
	AdviseUnsetAccessedBy       = 5
	AttrReadMostly              = 1
	AttrPreferredLocation       = 2
	AttrAccessedBy              = 3
	AttrPreferredLocationType   = 4
	AttrPreferredLocationID     = 5
	AttrLastPrefetchLocation    = 6
	AttrLastPrefetchLocationTyp = 7
	AttrLastPrefetchLocationID  = 8

	// ManagedAttachGlobal is ACL_RT_MEM_ATTACH_GLOBAL, the one flag.
	ManagedAttachGlobal = 1
	// managedPage is the unit of managed memory.
	managedPage = hal.PageSizeHuge
	// maxManaged is the most managed memory a process may hold, 3 TiB.
	maxManaged = 3 << 40
)

// ManagedLoc is aclrtMemManagedLocation.
type ManagedLoc struct {
	Type uint32
	ID   int32
}

// hostBit is the host's bit in a page's accessedBy set; devices take
// their id's bit.
const hostBit = 63

type managedPageAttr struct {
	readMostly bool
	pref, last ManagedLoc // Type ManagedLocInvalid while unset
	accessedBy uint64
}

type managedAlloc struct {
	addr, size uint64
	phys       uint64
	pages      []managedPageAttr
}

// managedState is the runtime's managed allocations.
type managedState struct {
	// mu guards the fields below.
	mu     sync.Mutex
	allocs []*managedAlloc // sorted by address
	total  uint64
}

// reset forgets every allocation, when the backend that held them goes.
func (m *managedState) reset() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.allocs, m.total = nil, 0
}

// find returns the allocation holding addr. m.mu must be held.
func (m *managedState) find(addr uint64) (int, *managedAlloc) {
	i, found := slices.BinarySearchFunc(m.allocs, addr, func(a *managedAlloc, x uint64) int {
		switch {
		case a.addr+a.size <= x:
			return -1
		case a.addr > x:
			return 1
		}
		return 0
	})
	if !found {
		return i, nil
	}
	return i, m.allocs[i]
}

// AllocManaged allocates managed memory on c's device (aclrtMemAllocManaged),
// its size rounded up to 2 MiB.
func (c *Context) AllocManaged(size uint64, flag uint32) (uint64, error) {
	if err := c.check(); err != nil {
		return 0, err
	}
	r := c.d.r
	v, _, err := r.vmm()
	if err != nil {
		return 0, err
	}
	switch {
	case size == 0:
		// The runtime's check, not the ACL layer's (which checks ptr and flag).
		return 0, rterr.Errorf(rterr.KindInvalidParam, "size 0 is invalid, expected > 0")
	case flag != ManagedAttachGlobal:
		return 0, rterr.Errorf(rterr.KindBadArgument, "flag %d is invalid, expected ACL_RT_MEM_ATTACH_GLOBAL (1)", flag)
	case size > maxManaged:
		return 0, rterr.Errorf(rterr.KindInvalidParam, "size %d is invalid, expected at most 3 TiB", size)
	}
	n, _ := roundUpTo(size, managedPage)
	r.managed.mu.Lock()
	defer r.managed.mu.Unlock()
	if r.managed.total+n > maxManaged {
		return 0, rterr.Errorf(rterr.KindOutOfMemory, "%d bytes of managed memory would pass the 3 TiB a process may hold (%d held)", n, r.managed.total)
	}
	addr, err := v.Reserve(n, managedPage, 0, true)
	if err != nil {
		return 0, err
	}
	ph, err := v.AllocPhysical(c.d.id, n, hal.MemPolicy{Tag: uint8(useNone)}, managedPage)
	if err != nil {
		_ = v.Release(addr)
		return 0, err
	}
	undo := func(err error) (uint64, error) {
		_ = v.Unmap(addr)
		_ = v.FreePhysical(ph.ID)
		_ = v.Release(addr)
		return 0, err
	}
	if err := v.Map(addr, n, 0, ph.ID, true); err != nil {
		return undo(err)
	}
	b, _ := r.live()
	for dev := range min(b.DeviceCount(), hal.MaxAccessors) {
		if err := v.SetAccess(addr, n, hal.Accessor(dev), hal.AccessReadWrite); err != nil {
			return undo(err)
		}
	}
	if err := v.SetAccess(addr, n, hal.AccessorHost, hal.AccessReadWrite); err != nil {
		return undo(err)
	}
	a := &managedAlloc{addr: addr, size: n, phys: ph.ID, pages: make([]managedPageAttr, n/managedPage)}
	i, _ := r.managed.find(addr)
	r.managed.allocs = slices.Insert(r.managed.allocs, i, a)
	r.managed.total += n
	return addr, nil
}

// isManaged reports whether addr lies in a live managed allocation.
func (r *Runtime) isManaged(addr uint64) bool {
	if !r.vmmMeta.holdsManaged(addr) {
		return false
	}
	r.managed.mu.Lock()
	defer r.managed.mu.Unlock()
	_, a := r.managed.find(addr)
	return a != nil
}

var errNotManaged = errors.New("not managed memory")

// freeManaged frees managed memory at addr for aclrtFree, refuses other
// addresses of the virtual memory windows, and returns errNotManaged for
// anything else.
func (r *Runtime) freeManaged(addr uint64) error {
	if !r.vmmMeta.holds(addr) && !r.vmmMeta.holdsManaged(addr) {
		return errNotManaged
	}
	v, b, err := r.vmm()
	if err != nil {
		return err
	}
	if !r.reserved(b, addr) {
		// Other memory of the process may lie in the windows: Go's heap,
		// whose base is random, or host memory the caller mapped.
		return errNotManaged
	}
	if r.vmmMeta.holds(addr) {
		return rterr.Errorf(rterr.KindInvalidAddress, "devPtr %#x is reserved virtual memory, not from aclrtMalloc; use aclrtUnmapMem, aclrtFreePhysical and aclrtReleaseMemAddress", addr)
	}
	r.managed.mu.Lock()
	defer r.managed.mu.Unlock()
	i, a := r.managed.find(addr)
	switch {
	case a == nil:
		return rterr.Errorf(rterr.KindInvalidAddress, "devPtr %#x is not a live managed allocation (never allocated, or already freed)", addr)
	case a.addr != addr:
		return rterr.Errorf(rterr.KindInvalidAddress, "devPtr %#x is inside the managed allocation at %#x, expected its start", addr, a.addr)
	}
	r.managed.allocs = slices.Delete(r.managed.allocs, i, i+1)
	r.managed.total -= a.size
	if err := v.Unmap(addr); err != nil {
		return err
	}
	if err := v.FreePhysical(a.phys); err != nil {
		return err
	}
	return v.Release(addr)
}

// managedGone forgets the managed allocations whose device closed: its
// memory went with it, and their ranges go back to the window.
func (r *Runtime) managedGone() {
	v, _, err := r.vmm()
	if err != nil {
		return
	}
	r.managed.mu.Lock()
	defer r.managed.mu.Unlock()
	r.managed.allocs = slices.DeleteFunc(r.managed.allocs, func(a *managedAlloc) bool {
		if _, ok := v.PhysicalInfo(a.phys); ok {
			return false
		}
		_ = v.Release(a.addr) // its mapping went with the device
		r.managed.total -= a.size
		return true
	})
}

// managedPages returns the pages of [addr, addr+size), which must lie in
// one managed allocation, size a positive multiple of 2 MiB. r.managed.mu
// must be held.
func (r *Runtime) managedPages(param string, addr, size uint64) ([]managedPageAttr, error) {
	if !r.vmmMeta.holdsManaged(addr) {
		lo, hi := r.vmmMeta.mlo, r.vmmMeta.mhi
		return nil, rterr.Errorf(rterr.KindInvalidParam, "%s %#x is invalid, expected an address of managed memory in [%#x, %#x)", param, addr, lo, hi)
	}
	if size == 0 || size > maxManaged {
		return nil, rterr.Errorf(rterr.KindInvalidParam, "size %d is invalid, expected (0, 3 TiB]", size)
	}
	_, a := r.managed.find(addr)
	switch {
	case a == nil:
		return nil, rterr.Errorf(rterr.KindInvalidParam, "%s %#x is not in a live managed allocation", param, addr)
	case size > a.size-(addr-a.addr):
		return nil, rterr.Errorf(rterr.KindInvalidParam, "range [%#x, +%d) runs past its managed allocation [%#x, %#x)", addr, size, a.addr, a.addr+a.size)
	}
	lo := (addr - a.addr) / managedPage
	hi := (addr - a.addr + size + managedPage - 1) / managedPage
	return a.pages[lo:hi], nil
}

// managedLoc checks a location; HOST_NUMA_CURRENT reads back as NUMA node
// 0, the simulated host's one node.
func (r *Runtime) managedLoc(param string, l ManagedLoc) (ManagedLoc, error) {
	switch l.Type {
	case ManagedLocDevice:
		b, err := r.live()
		if err != nil {
			return l, err
		}
		if l.ID < 0 || int(l.ID) >= b.DeviceCount() {
			return l, rterr.Errorf(rterr.KindInvalidParam, "%s.id %d is invalid, expected a device id 0..%d", param, l.ID, b.DeviceCount()-1)
		}
		return l, nil
	case ManagedLocHost:
		return ManagedLoc{Type: ManagedLocHost}, nil
	case ManagedLocHostNUMA:
		if l.ID != 0 {
			return l, rterr.Errorf(rterr.KindInvalidParam, "%s.id %d is invalid, expected NUMA node 0 (the host has one)", param, l.ID)
		}
		return l, nil
	case ManagedLocHostNUMACurrent:
		return ManagedLoc{Type: ManagedLocHostNUMA}, nil
	}
	return l, rterr.Errorf(rterr.KindInvalidParam, "%s.type %d is invalid, expected ACL_MEM_LOCATIONTYPE_DEVICE (1) .. _HOST_NUMA_CURRENT (4)", param, l.Type)
}

func locBit(l ManagedLoc) uint64 {
	if l.Type == ManagedLocDevice {
		return 1 << uint(l.ID)
	}
	return 1 << hostBit
}

// checkManagedRange is what advice and attribute reads check before their
// own arguments: virtual memory is there, then the range is not NULL or
// empty, both bad arguments.
func (r *Runtime) checkManagedRange(addr, size uint64) error {
	if _, _, err := r.vmm(); err != nil {
		return err
	}
	if addr == 0 {
		return rterr.Errorf(rterr.KindBadArgument, "ptr is NULL, expected managed memory")
	}
	if size == 0 {
		return rterr.Errorf(rterr.KindBadArgument, "size 0 is invalid, expected > 0")
	}
	return nil
}

// ManagedAdvise sets or clears advice on managed memory
// (aclrtMemManagedAdvise).
func (r *Runtime) ManagedAdvise(addr, size uint64, advise uint32, loc ManagedLoc) error {
	if err := r.checkManagedRange(addr, size); err != nil {
		return err
	}
	if size%managedPage != 0 {
		return rterr.Errorf(rterr.KindInvalidParam, "size %d is invalid, expected a multiple of 2 MiB", size)
	}
	if advise > AdviseUnsetAccessedBy {
		return rterr.Errorf(rterr.KindInvalidParam, "advise %d is invalid, expected 0..%d", advise, AdviseUnsetAccessedBy)
	}
	var err error
	switch advise {
	case AdviseSetReadMostly:
	case AdviseUnsetReadMostly:
		if loc.Type != ManagedLocInvalid {
			loc, err = r.managedLoc("location", loc)
		}
	default:
		loc, err = r.managedLoc("location", loc)
	}
	if err != nil {
		return err
	}
	r.managed.mu.Lock()
	defer r.managed.mu.Unlock()
	pages, err := r.managedPages("ptr", addr, size)
	if err != nil {
		return err
	}
	for i := range pages {
		p := &pages[i]
		switch advise {
		case AdviseSetReadMostly:
			p.readMostly = true
		case AdviseUnsetReadMostly:
			p.readMostly = false
		case AdviseSetPreferredLocation:
			p.pref = loc
		case AdviseUnsetPreferredLoc:
			p.pref = ManagedLoc{}
		case AdviseSetAccessedBy:
			p.accessedBy |= locBit(loc)
		case AdviseUnsetAccessedBy:
			p.accessedBy &^= locBit(loc)
		}
	}
	return nil
}

// CheckManaged checks that [addr, addr+n) is live managed memory, for the
// host's direct view of it.
func (r *Runtime) CheckManaged(addr, n uint64) error {
	if _, _, err := r.vmm(); err != nil {
		return err
	}
	r.managed.mu.Lock()
	defer r.managed.mu.Unlock()
	_, a := r.managed.find(addr)
	if a == nil || !r.vmmMeta.holdsManaged(addr) {
		return rterr.Errorf(rterr.KindInvalidAddress, "address %#x is not live managed memory", addr)
	}
	if n > a.size-(addr-a.addr) {
		return rterr.Errorf(rterr.KindInvalidAddress, "range [%#x, +%d) runs past its managed allocation [%#x, %#x)", addr, n, a.addr, a.addr+a.size)
	}
	return nil
}
