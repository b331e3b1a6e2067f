package hal

import "time"

// Props is a device's chip profile: what the hardware offers, fixed for the
// device's lifetime.
type Props struct {
	SoCName     string
	AICores     int    // AI cores; a kernel's blocks run on at most this many at once
	CubeCores   int    // cube units
	VectorCores int    // vector cores
	AICPUs      int    // AI CPU cores
	HBMSize     uint64 // device memory capacity in bytes
	L2Size      uint64 // L2 cache size in bytes
	StreamLimit int    // hardware queues per device, default and model streams included
	EventLimit  int    // events per device
	NotifyLimit int    // notifies per device
	QueueDepth  int    // tasks a queue holds before Submit blocks
	// Priorities: Greatest is the most urgent value, Least the least urgent;
	// numerically Greatest <= Least (lower number runs first).
	GreatestPriority int
	LeastPriority    int
	// OpTimeoutInterval is the tick of operator timeouts
	// (aclrtGetOpTimeOutInterval): an execute timeout is a whole number of
	// ticks (OpTimeout).
	OpTimeoutInterval time.Duration
	// Groups are the capability groups the AI cores are split into, by
	// group id: an administrator's partition of the chip (CANN's driver
	// creates them with dcmi_create_capability_group), not a figure of the
	// chip itself. A group with no AI cores does not exist.
	Groups [MaxCoreGroups]CoreGroup
}

// MaxCoreGroups bounds the capability groups of a device: group ids are
// 0..MaxCoreGroups-1, as CANN's runtime allows.
const MaxCoreGroups = 4

// CoreGroup is one capability group. Its kernels' blocks run on at most
// AICores cores at once, shared by every kernel of the group; the other
// counts are what the group was given, reported as configured.
type CoreGroup struct {
	AICores       uint32
	VectorCores   uint32
	AICPUs        uint32
	SDMAs         uint32
	ActiveStreams uint32
	// Default: the group of kernels whose stream has no group of its own
	// (at most one group of a device).
	Default bool
}

// Exists reports whether the group was created.
func (g CoreGroup) Exists() bool { return g.AICores > 0 }

// PagePolicy says which page size device memory should use.
type PagePolicy uint8

const (
	PageHugeFirst  PagePolicy = iota // 2 MiB pages for sizes above 1 MiB, else normal pages
	PageHugeOnly                     // 2 MiB pages or failure
	PageNormalOnly                   // 4 KiB pages
	PageHuge1GOnly                   // 1 GiB pages or failure
)

// Page sizes the policies imply.
const (
	PageSizeNormal = 4 << 10
	PageSizeHuge   = 2 << 20
	PageSizeHuge1G = 1 << 30
)

// MemPolicy is an allocation request's page policy and placement hints.
type MemPolicy struct {
	Page PagePolicy
	P2P  bool // memory meant for device-to-device copies
	// Tag is the caller's label for the allocation: the device gives it no
	// meaning, reports it with the allocation and frees only with it.
	Tag uint8
}

// Allocation describes one live device (or pinned host) allocation.
type Allocation struct {
	Device   int    // owning device; -1 for pinned host memory
	Addr     uint64 // first byte
	Size     uint64 // bytes requested
	PageSize uint64 // page size the policy implied, also the alignment of Addr
	Host     bool   // pinned host memory rather than device memory
	Tag      uint8  // MemPolicy.Tag of a device allocation
}

// Contains reports whether [addr, addr+n) lies inside a.
func (a Allocation) Contains(addr, n uint64) bool {
	return addr >= a.Addr && n <= a.Size && addr-a.Addr <= a.Size-n
}

// Span is a device's address range, [Lo, Hi): every allocation of the device
// lies in it. A backend keeps a device's span reserved from the device's
// first Open at least until the backend closes, open or not, and gives the
// device the same span when it opens again, as hardware keeps its
// addresses. So a stale pointer into a closed device's memory is still
// known as that device's, and no other memory ever takes its addresses.
// Spans a backend keeps from before it was created (an earlier backend's,
// handed on) are reported as spans of devices that are not open.
type Span struct {
	Device int
	Lo, Hi uint64
	Open   bool // the device is open
}

// Contains reports whether addr lies in s.
func (s Span) Contains(addr uint64) bool { return addr-s.Lo < s.Hi-s.Lo }
