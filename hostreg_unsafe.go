package gocann

import (
	"unsafe"

	"github.com/gocann/gocann/internal/rt"
	"github.com/gocann/gocann/internal/rterr"
)

// HostRegFlags are the flags of aclrtHostRegisterV2, with the CANN values.
type HostRegFlags uint32

const (
	HostRegMapped   HostRegFlags = HostRegFlags(rt.HostRegMapped)   // ACL_HOST_REG_MAPPED: kernels reach the memory in place
	HostRegIOMemory HostRegFlags = HostRegFlags(rt.HostRegIOMemory) // ACL_HOST_REG_IOMEMORY: reserved, not supported
	HostRegReadOnly HostRegFlags = HostRegFlags(rt.HostRegReadOnly) // ACL_HOST_REG_READONLY: reserved, not supported
	HostRegPinned   HostRegFlags = HostRegFlags(rt.HostRegPinned)   // ACL_HOST_REG_PINNED: pageable memory counts as page-locked
)

// HostRegistration is host memory registered with the device: page-locked
// for copies, and with HostRegMapped reachable by kernels at its device
// address, which is its host address.
type HostRegistration struct {
	r   *Runtime
	mem []byte // kept alive while registered
}

// RegisterHost registers mem, which must start on a 4 KiB boundary (memory
// from MallocHost, say, or a mapping). Asynchronous copies then treat it as
// page-locked memory; with HostRegMapped, kernels given DevicePointer read
// and write its bytes in place.
//
// CANN: aclrtHostRegisterV2.
func (c *Context) RegisterHost(mem []byte, flags HostRegFlags) (*HostRegistration, error) {
	if err := c.r.require("aclrtHostRegisterV2"); err != nil {
		return nil, err
	}
	const op = "Context.RegisterHost (aclrtHostRegisterV2)"
	if len(mem) == 0 {
		return nil, wrap(op, rterr.Errorf(rterr.KindBadArgument, "size 0 is invalid, expected > 0"))
	}
	if err := c.c.Check(); err != nil {
		return nil, wrap(op, err)
	}
	if err := c.r.rt.HostRegister(unsafe.Pointer(&mem[0]), uint64(len(mem)), uint32(flags)); err != nil {
		return nil, wrap(op, err)
	}
	return &HostRegistration{r: c.r, mem: mem}, nil
}

// DevicePointer is the address kernels use to reach the registered memory.
// It is for kernels only: copies and memsets take the host memory itself.
//
// CANN: aclrtHostGetDevicePointer.
func (h *HostRegistration) DevicePointer() (DevPtr, error) {
	if err := h.r.require("aclrtHostGetDevicePointer"); err != nil {
		return 0, err
	}
	p, err := h.r.rt.HostDevicePointer(unsafe.Pointer(&h.mem[0]))
	if err != nil {
		return 0, wrap("HostRegistration.DevicePointer (aclrtHostGetDevicePointer)", err)
	}
	return DevPtr(uintptr(p)), nil
}

// Bytes is the registered memory.
//
// CANN: none.
func (h *HostRegistration) Bytes() []byte { return h.mem }

// Close ends the registration.
//
// CANN: aclrtHostUnregister.
func (h *HostRegistration) Close() error {
	if err := h.r.require("aclrtHostUnregister"); err != nil {
		return err
	}
	return wrap("HostRegistration.Close (aclrtHostUnregister)", h.r.rt.HostUnregister(unsafe.Pointer(&h.mem[0])))
}

// HostRegister registers [p, p+size) with the flags of
// aclrtHostRegisterV2; the memory must outlive the registration.
//
// CANN: aclrtHostRegisterV2 (by pointer).
func (x RawContext) HostRegister(p unsafe.Pointer, size uint64, flags uint32) error {
	if err := x.c.r.require("aclrtHostRegisterV2"); err != nil {
		return err
	}
	const op = "RawContext.HostRegister (aclrtHostRegisterV2)"
	if err := x.c.c.Check(); err != nil {
		return wrap(op, err)
	}
	return wrap(op, x.c.r.rt.HostRegister(p, size, flags))
}

// HostUnregister ends the registration starting at p.
//
// CANN: aclrtHostUnregister (by pointer).
func (x RawRuntime) HostUnregister(p unsafe.Pointer) error {
	if err := x.r.require("aclrtHostUnregister"); err != nil {
		return err
	}
	return wrap("RawRuntime.HostUnregister (aclrtHostUnregister)", x.r.rt.HostUnregister(p))
}

// HostDevicePointer returns the device address of mapped registered host
// memory at p.
//
// CANN: aclrtHostGetDevicePointer (by pointer).
func (x RawRuntime) HostDevicePointer(p unsafe.Pointer) (unsafe.Pointer, error) {
	if err := x.r.require("aclrtHostGetDevicePointer"); err != nil {
		return nil, err
	}
	d, err := x.r.rt.HostDevicePointer(p)
	return d, wrap("RawRuntime.HostDevicePointer (aclrtHostGetDevicePointer)", err)
}

// HAC is aclrtHacType, a hardware accelerator of a device.
type HAC int

const (
	HACStars   HAC = 0 // ACL_RT_HAC_TYPE_STARS
	HACAICPU   HAC = 1 // ACL_RT_HAC_TYPE_AICPU
	HACAIC     HAC = 2 // ACL_RT_HAC_TYPE_AIC
	HACAIV     HAC = 3 // ACL_RT_HAC_TYPE_AIV
	HACPCIeDMA HAC = 4 // ACL_RT_HAC_TYPE_PCIEDMA
	HACRDMA    HAC = 5 // ACL_RT_HAC_TYPE_RDMA
	HACSDMA    HAC = 6 // ACL_RT_HAC_TYPE_SDMA
	HACDVPP    HAC = 7 // ACL_RT_HAC_TYPE_DVPP
	HACUDMA    HAC = 8 // ACL_RT_HAC_TYPE_UDMA
	HACCCU     HAC = 9 // ACL_RT_HAC_TYPE_CCU
)

// HostMemMapCapable reports whether accelerator hac of the device can reach
// registered, mapped host memory: the AI and vector cores can, as they run
// the kernels.
//
// CANN: aclrtHostMemMapCapabilities.
func (d *Device) HostMemMapCapable(hac HAC) (bool, error) {
	if err := d.r.require("aclrtHostMemMapCapabilities"); err != nil {
		return false, err
	}
	ok, err := d.r.rt.HostMemMapCapable(d.ID(), int(hac))
	return ok, wrap("Device.HostMemMapCapable (aclrtHostMemMapCapabilities)", err)
}

// HostMallocConfig is what aclrtMallocHostWithCfg's attributes say.
type HostMallocConfig struct {
	ModuleID uint16 // ACL_RT_MEM_ATTR_MODULE_ID: who allocated it, for diagnosis
	// VAConsistent (ACL_RT_MEM_ATTR_VA_FLAG 1) asks that, once registered,
	// the memory's device address equal its host address. Registered
	// memory here always has that property.
	VAConsistent bool
}

// MallocHostConfig allocates n bytes of page-locked host memory with the
// attributes of cfg.
//
// CANN: aclrtMallocHostWithCfg.
func (c *Context) MallocHostConfig(n int, cfg HostMallocConfig) (*HostBuffer, error) {
	if err := c.r.require("aclrtMallocHostWithCfg"); err != nil {
		return nil, err
	}
	const op = "Context.MallocHostConfig (aclrtMallocHostWithCfg)"
	if err := c.c.Check(); err != nil {
		return nil, wrap(op, err)
	}
	if n <= 0 {
		return nil, wrap(op, rterr.Errorf(rterr.KindInvalidParam, "size %d is invalid, expected > 0", n))
	}
	p, err := c.r.rt.MallocHost(uint64(n))
	if err != nil {
		return nil, wrap(op, err)
	}
	return &HostBuffer{r: c.r, p: p, n: n}, nil
}

// CloseWithDeviceSync waits for every device in use, then frees the buffer.
//
// CANN: aclrtFreeHostWithDevSync.
func (h *HostBuffer) CloseWithDeviceSync() error {
	if err := h.r.require("aclrtFreeHostWithDevSync"); err != nil {
		return err
	}
	if h.freed.Swap(true) {
		return nil
	}
	return wrap("HostBuffer.CloseWithDeviceSync (aclrtFreeHostWithDevSync)", h.r.rt.FreeHostWithDevSync(h.p))
}

// FreeHostWithDevSync waits for every device in use, then frees memory
// from MallocHost.
//
// CANN: aclrtFreeHostWithDevSync (by pointer).
func (x RawRuntime) FreeHostWithDevSync(p unsafe.Pointer) error {
	if err := x.r.require("aclrtFreeHostWithDevSync"); err != nil {
		return err
	}
	return wrap("RawRuntime.FreeHostWithDevSync (aclrtFreeHostWithDevSync)", x.r.rt.FreeHostWithDevSync(p))
}

// FreeWithDevSync waits for the device holding p, then frees it.
//
// CANN: aclrtFreeWithDevSync.
func (c *Context) FreeWithDevSync(p DevPtr) error {
	if err := c.r.require("aclrtFreeWithDevSync"); err != nil {
		return err
	}
	return wrap("Context.FreeWithDevSync (aclrtFreeWithDevSync)", c.r.rt.FreeWithDevSync(uint64(p)))
}

// FreeWithDevSync waits for the device holding p, then frees it.
//
// CANN: aclrtFreeWithDevSync (by pointer).
func (x RawRuntime) FreeWithDevSync(p unsafe.Pointer) error {
	if err := x.r.require("aclrtFreeWithDevSync"); err != nil {
		return err
	}
	return wrap("RawRuntime.FreeWithDevSync (aclrtFreeWithDevSync)", x.r.rt.FreeWithDevSync(uint64(uintptr(p))))
}

// Memory types of CheckMemType, with the CANN values.
const (
	MemTypeDev  = rt.MemTypeDev  // ACL_RT_MEM_TYPE_DEV: aclrtMalloc memory
	MemTypeDVPP = rt.MemTypeDVPP // ACL_RT_MEM_TYPE_DVPP: none in the simulator
	MemTypeRsvd = rt.MemTypeRsvd // ACL_RT_MEM_TYPE_RSVD: reserved virtual ranges
)

// CheckMemType reports whether every pointer is memory of the context's
// device of one of the types in memType.
//
// CANN: aclrtCheckMemType.
func (c *Context) CheckMemType(ptrs []DevPtr, memType uint32) (bool, error) {
	if err := c.r.require("aclrtCheckMemType"); err != nil {
		return false, err
	}
	addrs := make([]uint64, len(ptrs))
	for i, p := range ptrs {
		addrs[i] = uint64(p)
	}
	ok, err := c.r.rt.CheckMemType(c.c.Device().ID(), addrs, memType)
	return ok, wrap("Context.CheckMemType (aclrtCheckMemType)", err)
}
