package rt

import (
	"cmp"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// Flags of aclrtHostRegisterV2, with the CANN values.
const (
	HostRegMapped   uint32 = 0x2
	HostRegIOMemory uint32 = 0x4
	HostRegReadOnly uint32 = 0x8
	HostRegPinned   uint32 = 0x10000000
	hostRegAll             = HostRegMapped | HostRegIOMemory | HostRegReadOnly | HostRegPinned
)

// hostRegPage is the alignment the reference asks of a registered range.
const hostRegPage = 4 << 10

// hostReg is one registered host range.
type hostReg struct {
	p      unsafe.Pointer
	size   uint64
	mapped bool // kernels reach it in place (ACL_HOST_REG_MAPPED)
}

func (h hostReg) start() uint64 { return uint64(uintptr(h.p)) }

// hostRegs records the caller's registered host memory
// (aclrtHostRegister): ranges that copies treat as page-locked and, when
// mapped, that kernels reach at their own address.
type hostRegs struct {
	// n is len(live), read without mu so that copies of pageable memory
	// pay nothing while nothing is registered.
	n atomic.Int32
	// mu guards live.
	mu   sync.RWMutex
	live []hostReg // sorted by start, never overlapping
}

func (h *hostRegs) find(addr uint64) (int, bool) {
	return slices.BinarySearchFunc(h.live, addr, func(r hostReg, a uint64) int { return cmp.Compare(r.start(), a) })
}

// covering returns the registration holding [addr, addr+n). h.mu must be
// held.
func (h *hostRegs) covering(addr, n uint64) (hostReg, bool) {
	i, ok := h.find(addr)
	if !ok {
		if i == 0 {
			return hostReg{}, false
		}
		i--
	}
	r := h.live[i]
	if off := addr - r.start(); off < r.size && n <= r.size-off {
		return r, true
	}
	return hostReg{}, false
}

// pinned reports whether [addr, addr+n) lies in one registered range.
func (h *hostRegs) pinned(addr, n uint64) bool {
	if h.n.Load() == 0 {
		return false
	}
	h.mu.RLock()
	defer h.mu.RUnlock()
	_, ok := h.covering(addr, max(n, 1))
	return ok
}

// mapped reports whether addr is in a mapped registration.
func (h *hostRegs) mapped(addr uint64) bool {
	if h.n.Load() == 0 {
		return false
	}
	h.mu.RLock()
	defer h.mu.RUnlock()
	r, ok := h.covering(addr, 1)
	return ok && r.mapped
}

// HostRegister registers [p, p+size) with the flags of
// aclrtHostRegisterV2. The memory must outlive the registration.
func (r *Runtime) HostRegister(p unsafe.Pointer, size uint64, flags uint32) error {
	b, err := r.live()
	if err != nil {
		return err
	}
	start := uint64(uintptr(p))
	switch {
	case p == nil:
		return rterr.Errorf(rterr.KindBadArgument, "ptr is NULL, expected host memory")
	case size == 0:
		return rterr.Errorf(rterr.KindBadArgument, "size 0 is invalid, expected > 0")
	case flags&hostRegAll == 0 || flags&^hostRegAll != 0:
		return rterr.Errorf(rterr.KindInvalidParam, "flag %#x is invalid, expected an OR of ACL_HOST_REG_MAPPED (0x2), "+
			"ACL_HOST_REG_IOMEMORY (0x4), ACL_HOST_REG_READONLY (0x8) and ACL_HOST_REG_PINNED (0x10000000)", flags)
	case flags&HostRegIOMemory != 0:
		return rterr.Errorf(rterr.KindNotSupported, "flag ACL_HOST_REG_IOMEMORY is not supported: the simulated host has no third-party PCIe device whose IO space a device could reach")
	case flags&HostRegReadOnly != 0:
		return rterr.Errorf(rterr.KindNotSupported, "flag ACL_HOST_REG_READONLY is not supported: simulated kernels reach registered memory with the host's own access rights")
	case start%hostRegPage != 0:
		return rterr.Errorf(rterr.KindInvalidParam, "ptr %p is invalid, expected a 4 KiB aligned address", p)
	case start+size < start:
		return rterr.Errorf(rterr.KindInvalidParam, "size %d is invalid: [%p, +%d) wraps the address space", size, p, size)
	}
	if _, ok := b.Owner(start); ok {
		return rterr.Errorf(rterr.KindInvalidParam, "ptr %p is device memory, expected host memory", p)
	}
	if flags&HostRegPinned != 0 {
		if a, ok := r.lookup(b, start); ok && a.Host {
			return rterr.Errorf(rterr.KindInvalidParam, "ptr %p is page-locked memory from aclrtMallocHost; ACL_HOST_REG_PINNED registers pageable memory", p)
		}
	}
	mapped := flags&HostRegMapped != 0
	m, canMap := b.(hal.HostMapper)
	if mapped && !canMap {
		return rterr.Errorf(rterr.KindNotSupported, "ACL_HOST_REG_MAPPED is not supported: this backend's kernels cannot reach host memory")
	}
	h := &r.regs
	h.mu.Lock()
	defer h.mu.Unlock()
	i, _ := h.find(start)
	if (i < len(h.live) && h.live[i].start() < start+size) || (i > 0 && h.live[i-1].start()+h.live[i-1].size > start) {
		return rterr.Errorf(rterr.KindHostRegistered, "host range [%#x, %#x) overlaps memory already registered", start, start+size)
	}
	if mapped {
		if err := m.MapHost(p, size); err != nil {
			return err
		}
	}
	h.live = slices.Insert(h.live, i, hostReg{p: p, size: size, mapped: mapped})
	h.n.Store(int32(len(h.live)))
	return nil
}

// HostUnregister ends the registration starting at p (aclrtHostUnregister).
func (r *Runtime) HostUnregister(p unsafe.Pointer) error {
	b, err := r.live()
	if err != nil {
		return err
	}
	if p == nil {
		return rterr.Errorf(rterr.KindBadArgument, "ptr is NULL, expected registered host memory")
	}
	h := &r.regs
	h.mu.Lock()
	defer h.mu.Unlock()
	i, ok := h.find(uint64(uintptr(p)))
	if !ok {
		return rterr.Errorf(rterr.KindHostNotRegistered, "ptr %p is not the start of registered host memory", p)
	}
	reg := h.live[i]
	h.live = slices.Delete(h.live, i, i+1)
	h.n.Store(int32(len(h.live)))
	if reg.mapped {
		if m, ok := b.(hal.HostMapper); ok {
			return m.UnmapHost(reg.p)
		}
	}
	return nil
}

// HostDevicePointer returns the device address of mapped registered host
// memory at p (aclrtHostGetDevicePointer): p itself, since kernels reach
// host memory at its own address.
func (r *Runtime) HostDevicePointer(p unsafe.Pointer) (unsafe.Pointer, error) {
	if _, err := r.live(); err != nil {
		return nil, err
	}
	if p == nil {
		return nil, rterr.Errorf(rterr.KindBadArgument, "pHost is NULL, expected registered host memory")
	}
	if !r.regs.mapped(uint64(uintptr(p))) {
		return nil, rterr.Errorf(rterr.KindInvalidParam, "pHost %p has not been registered for device address mapping (ACL_HOST_REG_MAPPED)", p)
	}
	return p, nil
}

// dropRegs forgets the registrations inside [start, start+n), memory being
// freed, so no kernel reaches it once it is unmapped.
func (r *Runtime) dropRegs(b hal.Backend, start, n uint64) {
	h := &r.regs
	if h.n.Load() == 0 {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	m, _ := b.(hal.HostMapper)
	h.live = slices.DeleteFunc(h.live, func(reg hostReg) bool {
		in := reg.start() >= start && reg.start()-start < n
		if in && reg.mapped && m != nil {
			_ = m.UnmapHost(reg.p) // the runtime mapped it: it is there
		}
		return in
	})
	h.n.Store(int32(len(h.live)))
}

// reset forgets every registration, with the backend that mapped them.
func (h *hostRegs) reset() {
	h.mu.Lock()
	h.live = nil
	h.n.Store(0)
	h.mu.Unlock()
}

// HAC types of aclrtHostMemMapCapabilities, with the CANN values.
const (
	HACAIC   = 2 // ACL_RT_HAC_TYPE_AIC
	HACAIV   = 3 // ACL_RT_HAC_TYPE_AIV
	hacCount = 10
)

// HostMemMapCapable reports whether the accelerator hac of device id can
// reach mapped registered host memory (aclrtHostMemMapCapabilities): the
// AI and vector cores, which run kernels, on a backend that maps host
// memory for them.
func (r *Runtime) HostMemMapCapable(id int, hac int) (bool, error) {
	b, err := r.live()
	if err != nil {
		return false, err
	}
	if _, err := r.Device(id); err != nil {
		return false, err
	}
	if hac < 0 || hac >= hacCount {
		return false, rterr.Errorf(rterr.KindInvalidParam, "hacType %d is invalid, expected [0, %d)", hac, hacCount)
	}
	_, ok := b.(hal.HostMapper)
	return ok && (hac == HACAIC || hac == HACAIV), nil
}

// mappedEnd refuses a copy that names mapped registered host memory as its
// device end (by kind): that address is for kernels only.
func (r *Runtime) mappedEnd(dst, src hal.Loc, kind CopyKind) error {
	devDst := kind == HostToDevice || kind == HostToBufToDevice || kind == DeviceToDevice || kind == InnerDeviceToDevice || kind == InterDeviceToDevice
	devSrc := kind == DeviceToHost || kind == DeviceToDevice || kind == InnerDeviceToDevice || kind == InterDeviceToDevice
	for _, end := range [2]struct {
		param string
		l     hal.Loc
		dev   bool
	}{{"dst", dst, devDst}, {"src", src, devSrc}} {
		if end.dev && end.l.IsHost() && r.regs.mapped(end.l.Addr()) {
			return rterr.Errorf(rterr.KindInvalidParam,
				"%s %#x is registered host memory; its device address (aclrtHostGetDevicePointer) is for kernels only and cannot be used in a memory copy, expected a host-side kind for the host address", end.param, end.l.Addr())
		}
	}
	return nil
}

// Check reports whether the context is still usable.
func (c *Context) Check() error { return c.check() }
