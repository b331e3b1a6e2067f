package hal

// AllocLister is implemented by devices that can list their live
// allocations, as a process snapshot needs to save and restore device
// memory.
type AllocLister interface {
	// Allocations lists every live allocation of the device, whatever its
	// tag, in address order.
	Allocations() []Allocation
}
