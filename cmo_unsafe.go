package gocann

import (
	"unsafe"

	"github.com/gocann/gocann/internal/callsite"
	"github.com/gocann/gocann/internal/rt"
	"github.com/gocann/gocann/internal/rterr"
)

// The rest of the copies and the cache operations, in the raw dialect:
// 32-bit memsets, copies whose ends the device reads from memory, copy and
// cache descriptors. The simulated memory is coherent, so cache operations
// are checked and ordered like any task and change no bytes.

// CmoType is aclrtCmoType, with the CANN values.
type CmoType uint32

const (
	CmoPrefetch  CmoType = 0 // ACL_RT_CMO_TYPE_PREFETCH
	CmoWriteback CmoType = 1 // ACL_RT_CMO_TYPE_WRITEBACK
	CmoInvalid   CmoType = 2 // ACL_RT_CMO_TYPE_INVALID
	CmoFlush     CmoType = 3 // ACL_RT_CMO_TYPE_FLUSH
)

// Descriptor sizes (aclrtGetMemcpyDescSize, aclrtCmoGetDescSize).
const (
	MemcpyDescSize = rt.MemcpyDescSize
	CmoDescSize    = rt.CmoDescSize
)

// MemsetD32 fills n 32-bit words at p with value, synchronously; p is
// device memory or memory from MallocHost, 4-byte aligned.
//
// CANN: aclrtMemsetD32.
func (x RawContext) MemsetD32(t CaptureThread, p unsafe.Pointer, memSize uintptr, value uint32, n uintptr) error {
	if err := x.c.r.require("aclrtMemsetD32"); err != nil {
		return err
	}
	c := x.c
	return wrap("RawContext.MemsetD32 (aclrtMemsetD32)", c.c.MemsetD32(t.rt(), c.r.rt.Loc(p), uint64(memSize), value, uint64(n)))
}

// MemsetD32Async queues the fill of MemsetD32; host memory is filled at
// once.
//
// CANN: aclrtMemsetD32Async.
//
//go:noinline
func (x RawStream) MemsetD32Async(t CaptureThread, p unsafe.Pointer, memSize uintptr, value uint32, n uintptr) error {
	if err := x.s.r.require("aclrtMemsetD32Async"); err != nil {
		return err
	}
	s := x.s
	return wrap("RawStream.MemsetD32Async (aclrtMemsetD32Async)", s.s.MemsetD32Async(t.rt(), s.r.rt.Loc(p), uint64(memSize), value, uint64(n), callsite.Caller()))
}

// MemcpyAsyncWithCondition is MemcpyAsync, except that a host-to-host copy
// is refused as on an Ascend EP host.
//
// CANN: aclrtMemcpyAsyncWithCondition.
//
//go:noinline
func (x RawStream) MemcpyAsyncWithCondition(t CaptureThread, dst unsafe.Pointer, destMax uintptr, src unsafe.Pointer, count uintptr, kind MemcpyKind) error {
	const op = "RawStream.MemcpyAsyncWithCondition (aclrtMemcpyAsyncWithCondition)"
	if kind == MemcpyHostToHost && count > 0 {
		return wrap(op, rterr.Errorf(rterr.KindNotSupported, "kind ACL_MEMCPY_HOST_TO_HOST is not supported: an asynchronous copy within the host is not a device task"))
	}
	s := x.s
	return wrap(op, s.s.MemcpyAsync(t.rt(), s.r.rt.Loc(dst), uint64(destMax), s.r.rt.Loc(src), uint64(count), rt.CopyKind(kind), callsite.Caller()))
}

// MemcpyAsyncWithOffset queues a copy of count bytes from the address in
// the 64-bit device word at src plus srcOff to the one in the word at dst
// plus dstOff, both read when the copy starts; kind is
// MemcpyInnerDeviceToDevice.
//
// CANN: aclrtMemcpyAsyncWithOffset.
//
//go:noinline
func (x RawStream) MemcpyAsyncWithOffset(dst unsafe.Pointer, destMax, dstOff uintptr, src unsafe.Pointer, count, srcOff uintptr, kind MemcpyKind) error {
	if err := x.s.r.require("aclrtMemcpyAsyncWithOffset"); err != nil {
		return err
	}
	return wrap("RawStream.MemcpyAsyncWithOffset (aclrtMemcpyAsyncWithOffset)", x.s.s.MemcpyAsyncWithOffset(uint64(uintptr(dst)), uint64(destMax), uint64(dstOff),
		uint64(uintptr(src)), uint64(count), uint64(srcOff), rt.CopyKind(kind), callsite.Caller()))
}

// MemcpyDescSizeOf is the size of a copy descriptor for kind on the
// runtime's chip.
//
// CANN: aclrtGetMemcpyDescSize.
func (r *Runtime) MemcpyDescSizeOf(kind MemcpyKind) (uintptr, error) {
	if err := r.require("aclrtGetMemcpyDescSize"); err != nil {
		return 0, err
	}
	n, err := rt.MemcpyDescSizeOf(rt.CopyKind(kind))
	return uintptr(n), wrap("Runtime.MemcpyDescSizeOf (aclrtGetMemcpyDescSize)", err)
}

// SetMemcpyDesc writes, into device memory at desc, a descriptor of a copy
// of count bytes from src to dst, device memory of the context's device.
//
// CANN: aclrtSetMemcpyDesc.
func (x RawContext) SetMemcpyDesc(desc unsafe.Pointer, kind MemcpyKind, src, dst unsafe.Pointer, count uintptr) error {
	if err := x.c.r.require("aclrtSetMemcpyDesc"); err != nil {
		return err
	}
	return wrap("RawContext.SetMemcpyDesc (aclrtSetMemcpyDesc)", x.c.c.SetMemcpyDesc(uint64(uintptr(desc)), rt.CopyKind(kind), uint64(uintptr(src)), uint64(uintptr(dst)), uint64(count)))
}

// MemcpyAsyncWithDesc queues the copy the descriptor at desc describes,
// read by the device when the copy starts.
//
// CANN: aclrtMemcpyAsyncWithDesc.
//
//go:noinline
func (x RawStream) MemcpyAsyncWithDesc(desc unsafe.Pointer, kind MemcpyKind) error {
	if err := x.s.r.require("aclrtMemcpyAsyncWithDesc"); err != nil {
		return err
	}
	return wrap("RawStream.MemcpyAsyncWithDesc (aclrtMemcpyAsyncWithDesc)", x.s.s.MemcpyAsyncWithDesc(uint64(uintptr(desc)), rt.CopyKind(kind), callsite.Caller()))
}

// MemFlush checks [p, p+size) and returns: simulated memory needs no cache
// flush.
//
// CANN: aclrtMemFlush.
func (x RawContext) MemFlush(p unsafe.Pointer, size uintptr) error {
	if err := x.c.r.require("aclrtMemFlush"); err != nil {
		return err
	}
	c := x.c
	return wrap("RawContext.MemFlush (aclrtMemFlush)", c.c.MemFlush(c.r.rt.Loc(p), uint64(size)))
}

// MemInvalidate checks [p, p+size) and returns: simulated memory needs no
// cache invalidation.
//
// CANN: aclrtMemInvalidate.
func (x RawContext) MemInvalidate(p unsafe.Pointer, size uintptr) error {
	if err := x.c.r.require("aclrtMemInvalidate"); err != nil {
		return err
	}
	c := x.c
	return wrap("RawContext.MemInvalidate (aclrtMemInvalidate)", c.c.MemFlush(c.r.rt.Loc(p), uint64(size)))
}

// L2CacheFlush flushes the device's L2 cache: a flush task on the
// context's default stream, waited for.
//
// CANN: aclrtDeviceL2CacheFlush.
func (c *Context) L2CacheFlush() error {
	return wrap("Context.L2CacheFlush (aclrtDeviceL2CacheFlush)", c.c.L2CacheFlush())
}

// Cmo queues cache operation typ over n bytes of device memory at p; the
// reference supports CmoPrefetch here.
//
// CANN: aclrtCmoAsync.
//
//go:noinline
func (s *Stream) Cmo(p DevPtr, n int64, typ CmoType) error {
	if err := s.r.require("aclrtCmoAsync"); err != nil {
		return err
	}
	if n < 0 {
		n = 0
	}
	return wrap("Stream.Cmo (aclrtCmoAsync)", s.s.CmoAsync(uint64(p), uint64(n), uint32(typ), callsite.Caller()))
}

// SetCmoDesc writes, into device memory at desc, a descriptor of a cache
// operation over n bytes at p.
//
// CANN: aclrtCmoSetDesc.
func (c *Context) SetCmoDesc(desc, p DevPtr, n int64) error {
	if err := c.r.require("aclrtCmoSetDesc"); err != nil {
		return err
	}
	if n < 0 {
		n = 0
	}
	return wrap("Context.SetCmoDesc (aclrtCmoSetDesc)", c.c.SetCmoDesc(uint64(desc), uint64(p), uint64(n)))
}

// CmoWithDesc queues the cache operation typ the descriptor at desc
// describes.
//
// CANN: aclrtCmoAsyncWithDesc.
//
//go:noinline
func (s *Stream) CmoWithDesc(desc DevPtr, typ CmoType) error {
	if err := s.r.require("aclrtCmoAsyncWithDesc"); err != nil {
		return err
	}
	return wrap("Stream.CmoWithDesc (aclrtCmoAsyncWithDesc)", s.s.CmoAsyncWithDesc(uint64(desc), uint32(typ), callsite.Caller()))
}

// CmoWithBarrier queues cache operation typ carrying barrier id barrier
// (above 0 for CmoInvalid, 0 otherwise) on a stream bound to a model.
//
// CANN: aclrtCmoAsyncWithBarrier.
//
//go:noinline
func (s *Stream) CmoWithBarrier(p DevPtr, n int64, typ CmoType, barrier uint32) error {
	if err := s.r.require("aclrtCmoAsyncWithBarrier"); err != nil {
		return err
	}
	if n < 0 {
		n = 0
	}
	return wrap("Stream.CmoWithBarrier (aclrtCmoAsyncWithBarrier)", s.s.CmoAsyncWithBarrier(uint64(p), uint64(n), uint32(typ), barrier, callsite.Caller()))
}

// Barrier names an invalidation CmoWaitBarrier waits for.
type Barrier = rt.Barrier

// CmoWaitBarrier queues a wait for the invalidations with the barriers'
// ids, on a stream bound to a model; flag is 0.
//
// CANN: aclrtCmoWaitBarrier.
//
//go:noinline
func (s *Stream) CmoWaitBarrier(barriers []Barrier, flag uint32) error {
	if err := s.r.require("aclrtCmoWaitBarrier"); err != nil {
		return err
	}
	return wrap("Stream.CmoWaitBarrier (aclrtCmoWaitBarrier)", s.s.CmoWaitBarrier(barriers, flag, callsite.Caller()))
}
