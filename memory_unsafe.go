package gocann

import (
	"math"
	"sync/atomic"
	"unsafe"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rt"
	"github.com/gocann/gocann/internal/rterr"
)

// DevPtr is a device address, what aclrtMalloc returns. It fits one kernel
// argument slot. Every use is checked against the allocation table: a freed,
// out-of-range or other-device pointer is an error, never a crash.
type DevPtr uint64

// Add returns p offset by off bytes.
//
// CANN: none.
func (p DevPtr) Add(off int64) DevPtr { return DevPtr(int64(p) + off) }

// MallocPolicy is aclrtMemMallocPolicy, with the CANN values.
type MallocPolicy uint32

const (
	HugeFirst       MallocPolicy = 0        // ACL_MEM_MALLOC_HUGE_FIRST: 2 MiB pages above 1 MiB
	HugeOnly        MallocPolicy = 1        // ACL_MEM_MALLOC_HUGE_ONLY
	NormalOnly      MallocPolicy = 2        // ACL_MEM_MALLOC_NORMAL_ONLY
	HugeFirstP2P    MallocPolicy = 3        // ACL_MEM_MALLOC_HUGE_FIRST_P2P
	HugeOnlyP2P     MallocPolicy = 4        // ACL_MEM_MALLOC_HUGE_ONLY_P2P
	NormalOnlyP2P   MallocPolicy = 5        // ACL_MEM_MALLOC_NORMAL_ONLY_P2P
	Huge1GOnly      MallocPolicy = 6        // ACL_MEM_MALLOC_HUGE1G_ONLY
	Huge1GOnlyP2P   MallocPolicy = 7        // ACL_MEM_MALLOC_HUGE1G_ONLY_P2P
	LowBandwidth    MallocPolicy = 0x100    // ACL_MEM_TYPE_LOW_BAND_WIDTH, a hint
	HighBandwidth   MallocPolicy = 0x1000   // ACL_MEM_TYPE_HIGH_BAND_WIDTH, a hint
	UserReadOnly    MallocPolicy = 0x100000 // ACL_MEM_ACCESS_USER_SPACE_READONLY
	policyHintFlags              = LowBandwidth | HighBandwidth | UserReadOnly
)

// halPolicy translates a CANN policy. Values outside the table behave as
// CANN documents: huge pages from 2 MiB up, normal pages below.
func halPolicy(p MallocPolicy, size uint64) hal.MemPolicy {
	switch p &^ policyHintFlags {
	case HugeFirst:
		return hal.MemPolicy{Page: hal.PageHugeFirst}
	case HugeOnly:
		return hal.MemPolicy{Page: hal.PageHugeOnly}
	case NormalOnly:
		return hal.MemPolicy{Page: hal.PageNormalOnly}
	case HugeFirstP2P:
		return hal.MemPolicy{Page: hal.PageHugeFirst, P2P: true}
	case HugeOnlyP2P:
		return hal.MemPolicy{Page: hal.PageHugeOnly, P2P: true}
	case NormalOnlyP2P:
		return hal.MemPolicy{Page: hal.PageNormalOnly, P2P: true}
	case Huge1GOnly:
		return hal.MemPolicy{Page: hal.PageHuge1GOnly}
	case Huge1GOnlyP2P:
		return hal.MemPolicy{Page: hal.PageHuge1GOnly, P2P: true}
	}
	if size >= hal.PageSizeHuge {
		return hal.MemPolicy{Page: hal.PageHugeOnly}
	}
	return hal.MemPolicy{Page: hal.PageNormalOnly}
}

// Malloc allocates n bytes of device memory on the context's device. Its
// contents are undefined: never-used memory reads as zero, reused memory
// keeps old bytes.
//
// CANN: aclrtMalloc.
func (c *Context) Malloc(n int64, policy MallocPolicy) (DevPtr, error) {
	const op = "Context.Malloc (aclrtMalloc)"
	if n <= 0 {
		return 0, wrap(op, rterr.Errorf(rterr.KindInvalidParam, "size %d is invalid, expected > 0", n))
	}
	a, err := c.c.Malloc(uint64(n), halPolicy(policy, uint64(n)))
	if err != nil {
		return 0, wrap(op, err)
	}
	return DevPtr(a.Addr), nil
}

// Free frees device memory. It does not wait for tasks still using it; they
// keep running without crashing, on memory that may be reused.
//
// CANN: aclrtFree.
func (c *Context) Free(p DevPtr) error {
	return wrap("Context.Free (aclrtFree)", c.r.rt.Free(uint64(p)))
}

// FreeDevice frees device memory given as a DevPtr, on whichever device it
// lives.
//
// CANN: aclrtFree (any device).
func (r *Runtime) FreeDevice(p DevPtr) error {
	return wrap("Runtime.FreeDevice (aclrtFree)", r.rt.Free(uint64(p)))
}

// HostBuffer is page-locked host memory: the only host memory the Go API's
// asynchronous copies accept, since the copy reads or writes it after the
// call returns.
type HostBuffer struct {
	r     *Runtime
	p     unsafe.Pointer
	n     int
	freed atomic.Bool
}

// MallocHost allocates n bytes of page-locked host memory, 64-byte aligned.
//
// CANN: aclrtMallocHost.
func (r *Runtime) MallocHost(n int) (*HostBuffer, error) {
	if err := r.require("aclrtMallocHost"); err != nil {
		return nil, err
	}
	const op = "Runtime.MallocHost (aclrtMallocHost)"
	if n <= 0 {
		return nil, wrap(op, rterr.Errorf(rterr.KindInvalidParam, "size %d is invalid, expected > 0", n))
	}
	p, err := r.rt.MallocHost(uint64(n))
	if err != nil {
		return nil, wrap(op, err)
	}
	return &HostBuffer{r: r, p: p, n: n}, nil
}

// Bytes is the buffer's memory. Do not use it after Close.
//
// CANN: none.
func (h *HostBuffer) Bytes() []byte { return unsafe.Slice((*byte)(h.p), h.n) }

// Len is the buffer's size in bytes.
//
// CANN: none.
func (h *HostBuffer) Len() int { return h.n }

// Pointer is the buffer's address.
//
// CANN: none.
func (h *HostBuffer) Pointer() unsafe.Pointer { return h.p }

// Close frees the buffer; closing twice is a no-op.
//
// CANN: aclrtFreeHost.
func (h *HostBuffer) Close() error {
	if err := h.r.require("aclrtFreeHost"); err != nil {
		return err
	}
	if h.freed.Swap(true) {
		return nil
	}
	return wrap("HostBuffer.Close (aclrtFreeHost)", h.r.rt.FreeHost(h.p))
}

// Elem is the element types device and host views may hold.
type Elem interface {
	~int8 | ~uint8 | ~int16 | ~uint16 | ~int32 | ~uint32 | ~int64 | ~uint64 | ~float32 | ~float64
}

// HostView returns the buffer as a slice of T (length Len()/sizeof(T)).
//
// CANN: none.
func HostView[T Elem](h *HostBuffer) []T {
	var z T
	return unsafe.Slice((*T)(h.p), h.n/int(unsafe.Sizeof(z)))
}

// Float32s is HostView[float32].
//
// CANN: none.
func Float32s(h *HostBuffer) []float32 { return HostView[float32](h) }

// bytesLoc is the host end of a copy to or from b. An empty slice may have
// no memory behind it, but it is still host memory: a zero Loc would read as
// device address 0 and fail the copy's direction check.
func bytesLoc(b []byte) hal.Loc {
	if len(b) == 0 {
		return hal.HostLoc(unsafe.Pointer(new(byte)))
	}
	return hal.HostLoc(unsafe.Pointer(&b[0]))
}

// region checks [off, off+n) against a host buffer.
func (h *HostBuffer) region(param string, off, n int64) (hal.Loc, error) {
	if h.freed.Load() {
		return hal.Loc{}, rterr.Errorf(rterr.KindInvalidHandle, "%s host buffer was closed", param)
	}
	if off < 0 || n < 0 || off > int64(h.n) || n > int64(h.n)-off {
		return hal.Loc{}, rterr.Errorf(rterr.KindInvalidParam, "%s range [%d, %d) is invalid, expected inside the %d-byte buffer", param, off, off+n, h.n)
	}
	return hal.HostLoc(unsafe.Add(h.p, off)), nil
}

// CopyToDevice copies src to device memory at dst, synchronously. Any Go
// slice is fine: the call returns after the copy.
//
// CANN: aclrtMemcpy (ACL_MEMCPY_HOST_TO_DEVICE).
func (c *Context) CopyToDevice(dst DevPtr, src []byte) error {
	n := uint64(len(src))
	return wrap("Context.CopyToDevice (aclrtMemcpy)", c.c.Memcpy(rt.Caller{}, hal.DevLoc(uint64(dst)), n, bytesLoc(src), n, rt.HostToDevice))
}

// CopyFromDevice copies len(dst) bytes from device memory at src, synchronously.
//
// CANN: aclrtMemcpy (ACL_MEMCPY_DEVICE_TO_HOST).
func (c *Context) CopyFromDevice(dst []byte, src DevPtr) error {
	n := uint64(len(dst))
	return wrap("Context.CopyFromDevice (aclrtMemcpy)", c.c.Memcpy(rt.Caller{}, bytesLoc(dst), n, hal.DevLoc(uint64(src)), n, rt.DeviceToHost))
}

// CopyDevice copies n bytes between device memory, synchronously.
//
// CANN: aclrtMemcpy (ACL_MEMCPY_DEVICE_TO_DEVICE).
func (c *Context) CopyDevice(dst, src DevPtr, n int64) error {
	const op = "Context.CopyDevice (aclrtMemcpy)"
	if n < 0 {
		return wrap(op, rterr.Errorf(rterr.KindInvalidParam, "count %d is invalid, expected >= 0", n))
	}
	return wrap(op, c.c.Memcpy(rt.Caller{}, hal.DevLoc(uint64(dst)), uint64(n), hal.DevLoc(uint64(src)), uint64(n), rt.DeviceToDevice))
}

// Memset sets n bytes of device memory at dst to v, synchronously.
//
// CANN: aclrtMemset.
func (c *Context) Memset(dst DevPtr, v byte, n int64) error {
	const op = "Context.Memset (aclrtMemset)"
	if n < 0 {
		return wrap(op, rterr.Errorf(rterr.KindInvalidParam, "count %d is invalid, expected >= 0", n))
	}
	return wrap(op, c.c.Memset(rt.Caller{}, hal.DevLoc(uint64(dst)), uint64(n), int32(v), uint64(n)))
}

// Copy2DToDevice copies height rows of width bytes from src (rows spitch
// bytes apart) to device memory at dst (rows dpitch bytes apart).
//
// CANN: aclrtMemcpy2d (ACL_MEMCPY_HOST_TO_DEVICE).
func (c *Context) Copy2DToDevice(dst DevPtr, dpitch int64, src []byte, spitch, width, height int64) error {
	if err := c.r.require("aclrtMemcpy2d"); err != nil {
		return err
	}
	const op = "Context.Copy2DToDevice (aclrtMemcpy2d)"
	if err := checkHostRows("src", len(src), spitch, width, height); err != nil {
		return wrap(op, err)
	}
	return wrap(op, c.c.Memcpy2D(rt.Caller{}, rt.Copy2D{Dst: hal.DevLoc(uint64(dst)), DPitch: uint64(dpitch), Src: bytesLoc(src),
		SPitch: uint64(spitch), Width: uint64(width), Height: uint64(height), Kind: rt.HostToDevice}))
}

// Copy2DFromDevice copies height rows of width bytes from device memory at
// src (rows spitch bytes apart) into dst (rows dpitch bytes apart).
//
// CANN: aclrtMemcpy2d (ACL_MEMCPY_DEVICE_TO_HOST).
func (c *Context) Copy2DFromDevice(dst []byte, dpitch int64, src DevPtr, spitch, width, height int64) error {
	if err := c.r.require("aclrtMemcpy2d"); err != nil {
		return err
	}
	const op = "Context.Copy2DFromDevice (aclrtMemcpy2d)"
	if err := checkHostRows("dst", len(dst), dpitch, width, height); err != nil {
		return wrap(op, err)
	}
	return wrap(op, c.c.Memcpy2D(rt.Caller{}, rt.Copy2D{Dst: bytesLoc(dst), DPitch: uint64(dpitch), Src: hal.DevLoc(uint64(src)),
		SPitch: uint64(spitch), Width: uint64(width), Height: uint64(height), Kind: rt.DeviceToHost}))
}

// checkHostRows checks that a Go slice holds a pitched region.
func checkHostRows(param string, n int, pitch, width, height int64) error {
	if pitch < 0 || width < 0 || height < 0 {
		return rterr.Errorf(rterr.KindInvalidParam, "pitch %d, width %d and height %d must not be negative", pitch, width, height)
	}
	if height == 0 || width == 0 {
		return nil
	}
	// (height-1)*pitch + width <= n, without computing a product that
	// may not fit an int64.
	rows := height - 1
	within := func(limit int64) bool { return rows == 0 || pitch == 0 || rows <= (limit-width)/pitch }
	switch {
	case width <= int64(n) && within(int64(n)):
		return nil
	case within(math.MaxInt64):
		return rterr.Errorf(rterr.KindInvalidParam, "%s holds %d bytes, expected at least %d for %d rows of %d bytes %d apart",
			param, n, rows*pitch+width, height, width, pitch)
	}
	return rterr.Errorf(rterr.KindInvalidParam, "%s holds %d bytes, expected %d rows of %d bytes %d apart, which span more bytes than an int64 counts",
		param, n, height, width, pitch)
}

// PointerLocation says where a pointer lives (aclrtMemLocationType).
type PointerLocation int

const (
	LocationHost         PointerLocation = rt.LocationHost         // page-locked host memory from MallocHost
	LocationDevice       PointerLocation = rt.LocationDevice       // device memory
	LocationUnregistered PointerLocation = rt.LocationUnregistered // memory the runtime did not allocate
	LocationManaged      PointerLocation = rt.LocationManaged      // managed memory from AllocManaged
)

// PointerAttributes describes the memory at p: where it lives, the device
// (for device memory, and for managed memory the device it was allocated
// on), and the page size its allocation policy implied.
//
// CANN: aclrtPointerGetAttributes.
func (r *Runtime) PointerAttributes(p uintptr) (loc PointerLocation, device int, pageSize int64, err error) {
	if err := r.require("aclrtPointerGetAttributes"); err != nil {
		return 0, 0, 0, err
	}
	l, id, ps, err := r.rt.PointerAttributes(uint64(p))
	return PointerLocation(l), id, int64(ps), wrap("Runtime.PointerAttributes (aclrtPointerGetAttributes)", err)
}
