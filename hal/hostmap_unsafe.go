package hal

import "unsafe"

// HostMapper is implemented by backends whose kernels can reach host memory
// in place, as a device reaches host memory registered with
// aclrtHostRegister: the device address of a mapped byte is its host
// address, so a kernel given that address reads and writes the host's bytes
// with no copy.
type HostMapper interface {
	// MapHost makes [p, p+size) reachable by kernels: Block.Pointer on an
	// address there returns the host memory. A range overlapping a mapped
	// one is refused (KindInvalidParam). The caller keeps the memory alive
	// until UnmapHost.
	MapHost(p unsafe.Pointer, size uint64) error
	// UnmapHost ends the mapping that starts at p (KindInvalidAddress if
	// none does). Kernels already running may still use the memory.
	UnmapHost(p unsafe.Pointer) error
}
