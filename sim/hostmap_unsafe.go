package sim

import (
	"cmp"
	"slices"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/gocann/gocann/hal"
)

// hostMap is one host range kernels may reach in place (hal.HostMapper).
type hostMap struct {
	p    unsafe.Pointer
	size uint64
}

func (m hostMap) addr() uint64 { return uint64(uintptr(m.p)) }

// hostMaps holds the mapped host ranges. Its zero value is ready to use.
type hostMaps struct {
	// mu guards live.
	mu   sync.RWMutex
	live []hostMap // sorted by address, never overlapping
}

var _ hal.HostMapper = (*Backend)(nil)

// MapHost makes [p, p+size) reachable by kernels at its own address. Every
// page of it must be mapped: a kernel's access there must not crash the
// process.
func (b *Backend) MapHost(p unsafe.Pointer, size uint64) error {
	if err := checkMapped(p, size); err != nil {
		return err
	}
	return b.maps.add(hostMap{p: p, size: size})
}

// checkMapped reports whether every page of [p, p+size) is mapped in the
// process, asking mincore a chunk at a time (it fails with ENOMEM on a
// hole).
func checkMapped(p unsafe.Pointer, size uint64) error {
	const page, chunk = hal.PageSizeNormal, 1 << 26
	start := uint64(uintptr(p)) &^ (page - 1)
	end := uint64(uintptr(p)) + size
	if end < start {
		return hal.Errorf(hal.KindInvalidParam, "host range %p (%d bytes) wraps the address space", p, size)
	}
	vec := make([]byte, chunk/page)
	for a := start; a < end; a += chunk {
		n := min(end-a, chunk)
		_, _, errno := unix.Syscall(unix.SYS_MINCORE, uintptr(a), uintptr(n), uintptr(unsafe.Pointer(&vec[0])))
		if errno != 0 {
			return hal.Errorf(hal.KindInvalidParam, "host range [%#x, %#x) is not all mapped memory of the process (mincore: %v)", uint64(uintptr(p)), end, errno)
		}
	}
	return nil
}

// UnmapHost ends the mapping starting at p.
func (b *Backend) UnmapHost(p unsafe.Pointer) error { return b.maps.remove(p) }

func (h *hostMaps) add(m hostMap) error {
	start := m.addr()
	if p := m.p; p == nil || m.size == 0 || start+m.size < start {
		return hal.Errorf(hal.KindInvalidParam, "host range %p (%d bytes) is invalid, expected a non-empty range that does not wrap", p, m.size)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	i, _ := slices.BinarySearchFunc(h.live, start, func(x hostMap, a uint64) int { return cmp.Compare(x.addr(), a) })
	if (i < len(h.live) && h.live[i].addr() < start+m.size) || (i > 0 && h.live[i-1].addr()+h.live[i-1].size > start) {
		return hal.Errorf(hal.KindInvalidParam, "host range [%#x, %#x) overlaps a mapped range", start, start+m.size)
	}
	h.live = slices.Insert(h.live, i, m)
	return nil
}

func (h *hostMaps) remove(p unsafe.Pointer) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	i, ok := slices.BinarySearchFunc(h.live, uint64(uintptr(p)), func(x hostMap, a uint64) int { return cmp.Compare(x.addr(), a) })
	if !ok {
		return hal.Errorf(hal.KindInvalidAddress, "host address %p is not the start of a mapped range", p)
	}
	h.live = slices.Delete(h.live, i, i+1)
	return nil
}

// pointer returns n bytes at addr if they lie in one mapped range.
func (h *hostMaps) pointer(addr, n uint64) (unsafe.Pointer, bool) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	i, ok := slices.BinarySearchFunc(h.live, addr, func(x hostMap, a uint64) int { return cmp.Compare(x.addr(), a) })
	if !ok {
		if i == 0 {
			return nil, false
		}
		i--
	}
	m := h.live[i]
	if off := addr - m.addr(); off < m.size && n <= m.size-off {
		return unsafe.Add(m.p, off), true
	}
	return nil, false
}

// blockMem is the memory a running kernel block sees: its device's memory
// (with the virtual mappings, devMem.Pointer) and the host ranges mapped
// for kernels.
type blockMem struct {
	m     *devMem
	maps  *hostMaps
	clock func() int64
}

func (k *blockMem) Pointer(addr, n uint64) (unsafe.Pointer, error) {
	if !k.m.inRange(addr) {
		if p, ok := k.maps.pointer(addr, n); ok {
			return p, nil
		}
	}
	return k.m.Pointer(addr, n) // device memory, or a virtual mapping
}

// Now is the device clock, for blocks reporting parts (kernel.Clock).
func (k *blockMem) Now() int64 { return k.clock() }
