package hal

import "unsafe"

// Loc is one end of a copy: host memory (Host != nil) or device memory at
// device address Dev. Host memory travels as a pointer so the garbage
// collector sees it; device memory as an address inside a device range.
type Loc struct {
	Host unsafe.Pointer
	Dev  uint64
}

// HostLoc returns the Loc of host memory at p.
func HostLoc(p unsafe.Pointer) Loc { return Loc{Host: p} }

// DevLoc returns the Loc of device memory at addr.
func DevLoc(addr uint64) Loc { return Loc{Dev: addr} }

// IsHost reports whether l is host memory.
func (l Loc) IsHost() bool { return l.Host != nil }

// Addr returns the numeric address of l, host or device.
func (l Loc) Addr() uint64 {
	if l.Host != nil {
		return uint64(uintptr(l.Host))
	}
	return l.Dev
}
