package hal

// VMM is implemented by backends that manage device virtual memory the way
// CANN's virtual memory calls describe it: address ranges reserved apart
// from any memory, physical allocations of a device's memory, and mappings
// of a physical allocation at a reserved address. Two mappings of one
// physical allocation show the same bytes.
//
// A physical allocation is a region of its device's memory and counts
// against the device's memory (Device.MemInfo) while it lives. It lives
// while it has its own reference (FreePhysical drops it) or a mapping.
// Mapped ranges are device memory to every other call: Lookup finds the
// mapping as an allocation of the physical allocation's device, and
// copies, memsets and kernels reach its bytes at the mapped address.
//
// Access is per device and for the host: a mapping made with access gives
// its physical allocation's device read and write access, one made without
// gives none, and SetAccess changes it. Backends refuse kernel tasks whose
// argument slots point into a mapped range (or a reserved range not mapped)
// that the running device has no access to: the task faults when it is
// about to start, with KindInvalidAddress as its cause.
type VMM interface {
	// VMMWindow is the address range reservations come from, [lo, hi).
	VMMWindow() (lo, hi uint64)
	// ManagedWindow is the address range reservations for managed memory
	// come from, apart from the other.
	ManagedWindow() (lo, hi uint64)
	// Reserve reserves size bytes of address space aligned to align (a
	// power of two) in the window (managed: the managed window), at hint
	// if hint is not 0: refused if that range is not free or not inside
	// the window.
	Reserve(size, align, hint uint64, managed bool) (addr uint64, err error)
	// Release gives back the reservation starting at addr; it is refused
	// while a mapping lies in it.
	Release(addr uint64) error
	// AllocPhysical allocates size bytes of device dev's memory, size a
	// multiple of page, as a physical allocation with one reference.
	AllocPhysical(dev int, size uint64, p MemPolicy, page uint64) (Physical, error)
	// RetainPhysical adds a reference to physical allocation id.
	RetainPhysical(id uint64) error
	// FreePhysical drops a reference; the memory goes back to its device
	// once no reference and no mapping is left.
	FreePhysical(id uint64) error
	// PhysicalInfo describes a physical allocation that has a reference.
	PhysicalInfo(id uint64) (Physical, bool)
	// Map maps size bytes of physical allocation id, from offset off, at
	// addr: inside one reservation, over no other mapping, and the
	// reservation's mappings all of one device. withAccess gives the
	// physical allocation's device read and write access.
	Map(addr, size, off, id uint64, withAccess bool) error
	// Unmap removes the mapping starting at addr.
	Unmap(addr uint64) error
	// SetAccess sets who's access to the mapping [addr, addr+size), which
	// must be one mapping exactly.
	SetAccess(addr, size uint64, who Accessor, a Access) error
	// Mapping describes the mapping holding addr.
	Mapping(addr uint64) (Mapping, bool)
	// Reservation describes the reservation holding addr, live or
	// released.
	Reservation(addr uint64) (Reservation, bool)
}

// Access is a mapping's access for one device or the host, with CANN's
// aclrtMemAccessFlags values.
type Access uint8

const (
	AccessNone      Access = 0
	AccessRead      Access = 1
	AccessReadWrite Access = 3
)

// Accessor names who an Access is for: a device id, or AccessorHost.
type Accessor int

// AccessorHost is the host.
const AccessorHost Accessor = -1

// MaxAccessors bounds the devices a mapping keeps access for.
const MaxAccessors = 64

// Physical describes a physical allocation.
type Physical struct {
	ID       uint64
	Device   int
	Size     uint64
	PageSize uint64
	Refs     int // references: the allocation's own and retained ones
	Mappings int // mappings of it
}

// Mapping describes one mapping of a physical allocation.
type Mapping struct {
	Addr, Size uint64
	Physical   uint64 // the physical allocation's ID
	Device     int    // the physical allocation's device
	Offset     uint64 // where in the physical allocation the mapping starts
	Host       Access
	Devices    [MaxAccessors]Access // by device id
}

// Access returns who's access to m.
func (m *Mapping) Access(who Accessor) Access {
	switch {
	case who == AccessorHost:
		return m.Host
	case who >= 0 && int(who) < MaxAccessors:
		return m.Devices[who]
	}
	return AccessNone
}

// Reservation describes one reserved address range. A range that was
// released (or reserved by an earlier backend of the same address space)
// is described with Released set and nothing else: a pointer there is
// stale virtual memory, not host memory.
type Reservation struct {
	Addr, Size uint64
	Mappings   int
	Released   bool
}
