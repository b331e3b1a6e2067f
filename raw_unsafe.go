package gocann

import (
	"unsafe"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/callsite"
	"github.com/gocann/gocann/internal/rt"
)

// This file is the pointer-level API the C ABI is built on: CANN calls that
// take void* for device or host memory, with CANN's rules for pageable host
// memory. Go programs may use it for memory they hold as pointers; the
// typed API (DevPtr, HostBuffer, []byte) is the safer one. Calls that a
// capture may refuse take the Caller first; Go code passes Caller{}.

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
func (r *Runtime) DevicePointer(p DevPtr) (unsafe.Pointer, error) {
	ptr, err := r.rt.DevicePointer(uint64(p))
	return ptr, wrap("Runtime.DevicePointer", err)
}

// MallocHostPointer allocates page-locked host memory as a bare pointer.
//
// CANN: aclrtMallocHost (by pointer).
func (r *Runtime) MallocHostPointer(n uintptr) (unsafe.Pointer, error) {
	p, err := r.rt.MallocHost(uint64(n))
	return p, wrap("Runtime.MallocHostPointer (aclrtMallocHost)", err)
}

// FreeHostPointer frees memory from MallocHostPointer. Copies still queued
// on it finish first; the memory is not unmapped under them.
//
// CANN: aclrtFreeHost (by pointer).
func (r *Runtime) FreeHostPointer(p unsafe.Pointer) error {
	return wrap("Runtime.FreeHostPointer (aclrtFreeHost)", r.rt.FreeHost(p))
}

// FreePointer frees device memory given as a pointer.
//
// CANN: aclrtFree (by pointer).
func (r *Runtime) FreePointer(p unsafe.Pointer) error {
	return wrap("Runtime.FreePointer (aclrtFree)", r.rt.Free(uint64(uintptr(p))))
}

// Memcpy copies count bytes between any two pointers, synchronously;
// device or host memory is told apart by address.
//
// CANN: aclrtMemcpy.
func (c *Context) Memcpy(who Caller, dst unsafe.Pointer, destMax uintptr, src unsafe.Pointer, count uintptr, kind MemcpyKind) error {
	return wrap("Context.Memcpy (aclrtMemcpy)", c.c.Memcpy(who.rt(), c.r.rt.Loc(dst), uint64(destMax), c.r.rt.Loc(src), uint64(count), rt.CopyKind(kind)))
}

// MemcpyAsync queues a copy between any two pointers. A pageable host
// source is staged before the call returns; a pageable host destination
// makes the call wait for the copy.
//
// CANN: aclrtMemcpyAsync.
//
//go:noinline
func (s *Stream) MemcpyAsync(who Caller, dst unsafe.Pointer, destMax uintptr, src unsafe.Pointer, count uintptr, kind MemcpyKind) error {
	return wrap("Stream.MemcpyAsync (aclrtMemcpyAsync)", s.s.MemcpyAsync(who.rt(), s.r.rt.Loc(dst), uint64(destMax), s.r.rt.Loc(src), uint64(count), rt.CopyKind(kind), callsite.Caller()))
}

// MemsetPointer sets count bytes at p to byte(value), synchronously.
//
// CANN: aclrtMemset (by pointer).
func (c *Context) MemsetPointer(who Caller, p unsafe.Pointer, maxCount uintptr, value int32, count uintptr) error {
	return wrap("Context.MemsetPointer (aclrtMemset)", c.c.Memset(who.rt(), c.r.rt.Loc(p), uint64(maxCount), value, uint64(count)))
}

// MemsetAsyncPointer queues setting count bytes at p to byte(value).
//
// CANN: aclrtMemsetAsync (by pointer).
//
//go:noinline
func (s *Stream) MemsetAsyncPointer(p unsafe.Pointer, maxCount uintptr, value int32, count uintptr) error {
	return wrap("Stream.MemsetAsyncPointer (aclrtMemsetAsync)", s.s.MemsetAsync(s.r.rt.Loc(p), uint64(maxCount), value, uint64(count), callsite.Caller()))
}

// Memcpy2D copies height rows of width bytes between pitched buffers,
// synchronously (host to device or device to host).
//
// CANN: aclrtMemcpy2d.
func (c *Context) Memcpy2D(who Caller, dst unsafe.Pointer, dpitch uintptr, src unsafe.Pointer, spitch, width, height uintptr, kind MemcpyKind) error {
	return wrap("Context.Memcpy2D (aclrtMemcpy2d)", c.c.Memcpy2D(who.rt(), c.r.copy2D(dst, dpitch, src, spitch, width, height, kind)))
}

// Memcpy2DAsync queues a pitched copy; a pageable host end makes the call
// wait for it.
//
// CANN: aclrtMemcpy2dAsync.
//
//go:noinline
func (s *Stream) Memcpy2DAsync(who Caller, dst unsafe.Pointer, dpitch uintptr, src unsafe.Pointer, spitch, width, height uintptr, kind MemcpyKind) error {
	return wrap("Stream.Memcpy2DAsync (aclrtMemcpy2dAsync)", s.s.Memcpy2DAsync(who.rt(), s.r.copy2D(dst, dpitch, src, spitch, width, height, kind), callsite.Caller()))
}

func (r *Runtime) copy2D(dst unsafe.Pointer, dpitch uintptr, src unsafe.Pointer, spitch, width, height uintptr, kind MemcpyKind) rt.Copy2D {
	return rt.Copy2D{Dst: r.rt.Loc(dst), DPitch: uint64(dpitch), Src: r.rt.Loc(src), SPitch: uint64(spitch),
		Width: uint64(width), Height: uint64(height), Kind: rt.CopyKind(kind)}
}

// MallocPointer allocates device memory and returns it as a pointer.
//
// CANN: aclrtMalloc (by pointer).
func (c *Context) MallocPointer(n uintptr, policy MallocPolicy) (unsafe.Pointer, error) {
	const op = "Context.MallocPointer (aclrtMalloc)"
	if n == 0 {
		return nil, wrap(op, hal.Errorf(hal.KindInvalidParam, "size 0 is invalid, expected > 0"))
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
func (r *Runtime) AddressRange(p unsafe.Pointer) (base unsafe.Pointer, size uintptr, err error) {
	const op = "Runtime.AddressRange (aclrtMemGetAddressRange)"
	a, ok := r.rt.Lookup(uint64(uintptr(p)))
	if !ok {
		return nil, 0, wrap(op, hal.Errorf(hal.KindInvalidAddress, "ptr %p is not in a live allocation of device or page-locked host memory", p))
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
func (s *Stream) LaunchArgs(k *Kernel, blocks uint32, args unsafe.Pointer, size uintptr, thread uint32) error {
	const op = "Stream.LaunchArgs (aclrtLaunchKernel)"
	if size%8 != 0 || size > 8*hal.MaxArgs {
		return wrap(op, hal.Errorf(hal.KindInvalidParam, "argsSize %d is invalid, expected a multiple of 8 up to %d (one 8-byte slot per parameter)", size, 8*hal.MaxArgs))
	}
	n := int(size / 8)
	if n > 0 && args == nil {
		return wrap(op, hal.Errorf(hal.KindBadArgument, "argsData is NULL with argsSize %d", size))
	}
	if n > 0 {
		if l := s.r.rt.Loc(args); !l.IsHost() {
			return wrap(op, s.s.LaunchDeviceArgs(k.HAL(), blocks, l.Dev, n, thread, 0))
		}
	}
	var slots []uint64
	if n > 0 {
		slots = unsafe.Slice((*uint64)(args), n)
	}
	return wrap(op, s.s.LaunchSlots(k.HAL(), blocks, slots, thread, 0))
}

// LaunchHostFuncC queues fn(a, b) like LaunchHostFunc, for callers passing
// a C function and its argument; it allocates nothing.
//
// CANN: aclrtLaunchHostFunc (function of two words).
func (s *Stream) LaunchHostFuncC(fn func(a, b uintptr), a, b uintptr) error {
	return wrap("Stream.LaunchHostFuncC (aclrtLaunchHostFunc)", s.s.LaunchHostFuncArgs(fn, a, b, 0))
}

// FreeDevice frees device memory given as a DevPtr, on whichever device it
// lives.
//
// CANN: aclrtFree (any device).
func (r *Runtime) FreeDevice(p DevPtr) error {
	return wrap("Runtime.FreeDevice (aclrtFree)", r.rt.Free(uint64(p)))
}

// SetClosedMemoryHook installs fn, told of the address ranges of the
// devices that are not open each time they change (nil when none is left):
// pointers there are stale, and no call takes them. The C ABI mirrors the
// ranges for kernel launches that do not enter Go. fn runs while a device
// opens or closes and must not call the runtime.
//
// CANN: none.
func (r *Runtime) SetClosedMemoryHook(fn func(closed []hal.Span)) { r.rt.SetClosedHook(fn) }

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
func (s *Stream) LaunchPlaceholders(k *Kernel, blocks uint32, block []byte, params int, phs []Placeholder, thread uint32) error {
	const op = "Stream.LaunchPlaceholders (aclrtLaunchKernelWithHostArgs)"
	rphs := make([]rt.Placeholder, len(phs))
	for i, ph := range phs {
		rphs[i] = rt.Placeholder{Slot: ph.AddrOffset, Data: ph.DataOffset}
	}
	return wrap(op, s.s.LaunchPlaceholders(k.HAL(), blocks, block, params, rphs, thread, 0))
}
