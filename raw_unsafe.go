package gocann

import (
	"unsafe"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/callsite"
	"github.com/gocann/gocann/internal/rt"
	"github.com/gocann/gocann/internal/rterr"
)

// The raw dialect's memory and launch calls (raw.go): CANN calls that take
// void* for device or host memory, with CANN's rules for pageable host
// memory. Calls that a capture may refuse take the CaptureThread first.

// MemcpyKind is aclrtMemcpyKind, with the CANN values.
type MemcpyKind int

const (
	MemcpyHostToHost          MemcpyKind = MemcpyKind(rt.HostToHost)          // ACL_MEMCPY_HOST_TO_HOST
	MemcpyHostToDevice        MemcpyKind = MemcpyKind(rt.HostToDevice)        // ACL_MEMCPY_HOST_TO_DEVICE
	MemcpyDeviceToHost        MemcpyKind = MemcpyKind(rt.DeviceToHost)        // ACL_MEMCPY_DEVICE_TO_HOST
	MemcpyDeviceToDevice      MemcpyKind = MemcpyKind(rt.DeviceToDevice)      // ACL_MEMCPY_DEVICE_TO_DEVICE
	MemcpyDefault             MemcpyKind = MemcpyKind(rt.CopyDefault)         // ACL_MEMCPY_DEFAULT: inferred from the pointers
	MemcpyHostToBufToDevice   MemcpyKind = MemcpyKind(rt.HostToBufToDevice)   // ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE
	MemcpyInnerDeviceToDevice MemcpyKind = MemcpyKind(rt.InnerDeviceToDevice) // ACL_MEMCPY_INNER_DEVICE_TO_DEVICE
	MemcpyInterDeviceToDevice MemcpyKind = MemcpyKind(rt.InterDeviceToDevice) // ACL_MEMCPY_INTER_DEVICE_TO_DEVICE
)

// DevicePointer returns device memory at p as a pointer, as aclrtMalloc
// hands it to C code.
//
// CANN: none.
func (x RawRuntime) DevicePointer(p DevPtr) (unsafe.Pointer, error) {
	ptr, err := x.r.rt.DevicePointer(uint64(p))
	return ptr, wrap("RawRuntime.DevicePointer", err)
}

// MallocHost allocates page-locked host memory as a bare pointer.
//
// CANN: aclrtMallocHost (by pointer).
func (x RawRuntime) MallocHost(n uintptr) (unsafe.Pointer, error) {
	if err := x.r.require("aclrtMallocHost"); err != nil {
		return nil, err
	}
	p, err := x.r.rt.MallocHost(uint64(n))
	return p, wrap("RawRuntime.MallocHost (aclrtMallocHost)", err)
}

// FreeHost frees memory from MallocHost. Copies still queued on it
// finish first; the memory is not unmapped under them.
//
// CANN: aclrtFreeHost (by pointer).
func (x RawRuntime) FreeHost(p unsafe.Pointer) error {
	if err := x.r.require("aclrtFreeHost"); err != nil {
		return err
	}
	return wrap("RawRuntime.FreeHost (aclrtFreeHost)", x.r.rt.FreeHost(p))
}

// Free frees device memory given as a pointer, on whichever device it
// lives.
//
// CANN: aclrtFree (by pointer).
func (x RawRuntime) Free(p unsafe.Pointer) error {
	return wrap("RawRuntime.Free (aclrtFree)", x.r.rt.Free(uint64(uintptr(p))))
}

// Memcpy copies count bytes between any two pointers, synchronously;
// device or host memory is told apart by address.
//
// CANN: aclrtMemcpy.
func (x RawContext) Memcpy(t CaptureThread, dst unsafe.Pointer, destMax uintptr, src unsafe.Pointer, count uintptr, kind MemcpyKind) error {
	c := x.c
	return wrap("RawContext.Memcpy (aclrtMemcpy)", c.c.Memcpy(t.rt(), c.r.rt.Loc(dst), uint64(destMax), c.r.rt.Loc(src), uint64(count), rt.CopyKind(kind)))
}

// MemcpyAsync queues a copy between any two pointers. A pageable host
// source is staged before the call returns; a pageable host destination
// makes the call wait for the copy.
//
// CANN: aclrtMemcpyAsync.
//
//go:noinline
func (x RawStream) MemcpyAsync(t CaptureThread, dst unsafe.Pointer, destMax uintptr, src unsafe.Pointer, count uintptr, kind MemcpyKind) error {
	if err := x.s.r.require("aclrtMemcpyAsync"); err != nil {
		return err
	}
	s := x.s
	return wrap("RawStream.MemcpyAsync (aclrtMemcpyAsync)", s.s.MemcpyAsync(t.rt(), s.r.rt.Loc(dst), uint64(destMax), s.r.rt.Loc(src), uint64(count), rt.CopyKind(kind), callsite.Caller()))
}

// Memset sets count bytes at p to byte(value), synchronously.
//
// CANN: aclrtMemset (by pointer).
func (x RawContext) Memset(t CaptureThread, p unsafe.Pointer, maxCount uintptr, value int32, count uintptr) error {
	c := x.c
	return wrap("RawContext.Memset (aclrtMemset)", c.c.Memset(t.rt(), c.r.rt.Loc(p), uint64(maxCount), value, uint64(count)))
}

// MemsetAsync queues setting count bytes at p to byte(value).
//
// CANN: aclrtMemsetAsync (by pointer).
//
//go:noinline
func (x RawStream) MemsetAsync(p unsafe.Pointer, maxCount uintptr, value int32, count uintptr) error {
	if err := x.s.r.require("aclrtMemsetAsync"); err != nil {
		return err
	}
	s := x.s
	return wrap("RawStream.MemsetAsync (aclrtMemsetAsync)", s.s.MemsetAsync(s.r.rt.Loc(p), uint64(maxCount), value, uint64(count), callsite.Caller()))
}

// Memcpy2D copies height rows of width bytes between pitched buffers,
// synchronously (host to device or device to host).
//
// CANN: aclrtMemcpy2d.
func (x RawContext) Memcpy2D(t CaptureThread, dst unsafe.Pointer, dpitch uintptr, src unsafe.Pointer, spitch, width, height uintptr, kind MemcpyKind) error {
	if err := x.c.r.require("aclrtMemcpy2d"); err != nil {
		return err
	}
	c := x.c
	return wrap("RawContext.Memcpy2D (aclrtMemcpy2d)", c.c.Memcpy2D(t.rt(), c.r.copy2D(dst, dpitch, src, spitch, width, height, kind)))
}

// Memcpy2DAsync queues a pitched copy; a pageable host end makes the call
// wait for it.
//
// CANN: aclrtMemcpy2dAsync.
//
//go:noinline
func (x RawStream) Memcpy2DAsync(t CaptureThread, dst unsafe.Pointer, dpitch uintptr, src unsafe.Pointer, spitch, width, height uintptr, kind MemcpyKind) error {
	if err := x.s.r.require("aclrtMemcpy2dAsync"); err != nil {
		return err
	}
	s := x.s
	return wrap("RawStream.Memcpy2DAsync (aclrtMemcpy2dAsync)", s.s.Memcpy2DAsync(t.rt(), s.r.copy2D(dst, dpitch, src, spitch, width, height, kind), callsite.Caller()))
}

func (r *Runtime) copy2D(dst unsafe.Pointer, dpitch uintptr, src unsafe.Pointer, spitch, width, height uintptr, kind MemcpyKind) rt.Copy2D {
	return rt.Copy2D{Dst: r.rt.Loc(dst), DPitch: uint64(dpitch), Src: r.rt.Loc(src), SPitch: uint64(spitch),
		Width: uint64(width), Height: uint64(height), Kind: rt.CopyKind(kind)}
}

// Malloc allocates device memory and returns it as a pointer.
//
// CANN: aclrtMalloc (by pointer).
func (x RawContext) Malloc(n uintptr, policy MallocPolicy) (unsafe.Pointer, error) {
	const op = "RawContext.Malloc (aclrtMalloc)"
	c := x.c
	if n == 0 {
		return nil, wrap(op, rterr.Errorf(rterr.KindInvalidParam, "size 0 is invalid, expected > 0"))
	}
	a, err := c.c.Malloc(uint64(n), halPolicy(policy, uint64(n)))
	if err != nil {
		return nil, wrap(op, err)
	}
	p, err := c.r.rt.DevicePointer(a.Addr)
	return p, wrap(op, err)
}

// AddressRange returns the start and size of the allocation, device or
// page-locked host, that holds p.
//
// CANN: aclrtMemGetAddressRange.
func (x RawRuntime) AddressRange(p unsafe.Pointer) (base unsafe.Pointer, size uintptr, err error) {
	if err := x.r.require("aclrtMemGetAddressRange"); err != nil {
		return nil, 0, err
	}
	const op = "RawRuntime.AddressRange (aclrtMemGetAddressRange)"
	a, ok := x.r.rt.Lookup(uint64(uintptr(p)))
	if !ok {
		return nil, 0, wrap(op, rterr.Errorf(rterr.KindInvalidAddress, "ptr %p is not in a live allocation of device or page-locked host memory", p))
	}
	return unsafe.Add(p, -int(uint64(uintptr(p))-a.Addr)), uintptr(a.Size), nil
}

// LaunchArgs queues kernel k with its argument slots in memory at args,
// size bytes (a multiple of 8, at most 32 slots). Slots in device memory
// are read when the kernel starts, after every earlier task of the stream;
// slots in host memory are read now. thread is the submitting OS thread
// for exception reports, 0 if unknown.
//
// CANN: aclrtLaunchKernel (argument block by pointer).
func (x RawStream) LaunchArgs(k *Kernel, blocks uint32, args unsafe.Pointer, size uintptr, thread uint32) error {
	const op = "RawStream.LaunchArgs (aclrtLaunchKernel)"
	s := x.s
	if size%8 != 0 || size > 8*hal.MaxArgs {
		return wrap(op, rterr.Errorf(rterr.KindInvalidParam, "argsSize %d is invalid, expected a multiple of 8 up to %d (one 8-byte slot per parameter)", size, 8*hal.MaxArgs))
	}
	n := int(size / 8)
	if n > 0 && args == nil {
		return wrap(op, rterr.Errorf(rterr.KindBadArgument, "argsData is NULL with argsSize %d", size))
	}
	if n > 0 {
		if l := s.r.rt.Loc(args); !l.IsHost() {
			return wrap(op, s.s.LaunchDeviceArgs(k.Raw(), blocks, l.Dev, n, x.attrs, thread, 0))
		}
	}
	var slots []uint64
	if n > 0 {
		slots = unsafe.Slice((*uint64)(args), n)
	}
	return wrap(op, s.s.LaunchSlots(k.Raw(), blocks, slots, x.attrs, thread, 0))
}

// LaunchHostFunc queues fn(a, b) like Stream.LaunchHostFunc, for callers
// passing a C function and its argument; it allocates nothing.
//
// CANN: aclrtLaunchHostFunc (function of two words).
func (x RawStream) LaunchHostFunc(fn func(a, b uintptr), a, b uintptr) error {
	if err := x.s.r.require("aclrtLaunchHostFunc"); err != nil {
		return err
	}
	return wrap("RawStream.LaunchHostFunc (aclrtLaunchHostFunc)", x.s.s.LaunchHostFuncArgs(fn, a, b, 0))
}

// SetClosedMemoryHook installs fn, told of the address ranges of the
// devices that are not open each time they change (nil when none is left):
// pointers there are stale, and no call takes them. The C ABI mirrors the
// ranges for kernel launches that do not enter Go. fn runs while a device
// opens or closes and must not call the runtime.
//
// CANN: none.
func (x RawRuntime) SetClosedMemoryHook(fn func(closed []hal.Span)) { x.r.rt.SetClosedHook(fn) }

// Placeholder is a pointer slot of a host argument block, at AddrOffset,
// to point at the device copy of the block's bytes from DataOffset on.
type Placeholder struct{ AddrOffset, DataOffset uint64 }

// LaunchPlaceholders queues k with a host argument block whose first
// params bytes are its parameters. The whole block is copied to device
// memory of the runtime's before the call returns, each placeholder slot
// pointing into that copy; the copy is never the caller's memory, and is
// freed after the kernel, or with the model a capture records it into.
//
// CANN: aclrtLaunchKernelWithHostArgs (placeholders).
func (x RawStream) LaunchPlaceholders(k *Kernel, blocks uint32, block []byte, params int, phs []Placeholder, thread uint32) error {
	if err := x.s.r.require("aclrtLaunchKernelWithHostArgs"); err != nil {
		return err
	}
	const op = "RawStream.LaunchPlaceholders (aclrtLaunchKernelWithHostArgs)"
	s := x.s
	rphs := make([]rt.Placeholder, len(phs))
	for i, ph := range phs {
		rphs[i] = rt.Placeholder{Slot: ph.AddrOffset, Data: ph.DataOffset}
	}
	return wrap(op, s.s.LaunchPlaceholders(k.Raw(), blocks, block, params, rphs, x.attrs, thread, 0))
}
