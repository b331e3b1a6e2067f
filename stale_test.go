package gocann_test

import (
	"bytes"
	"testing"
	"unsafe"

	"github.com/gocann/gocann"
)

func TestFreeHostTwiceAfterStagedCopy(t *testing.T) {
	// A pageable asynchronous copy stages its source in page-locked memory
	// of the runtime's, which may take the address of page-locked memory
	// the caller freed. That address is never the caller's again: a second
	// free is refused, it is not described as the caller's, and the
	// runtime's buffer keeps working.
	e := setup(t)
	const n = 4096
	dev := malloc(t, e.c, n)
	dp, err := e.r.Raw().DevicePointer(dev)
	check(t, err)
	p, err := e.r.Raw().MallocHost(n)
	check(t, err)
	check(t, e.r.Raw().FreeHost(p))
	src := bytes.Repeat([]byte{1}, n)
	check(t, e.s.Raw().MemcpyAsync(gocann.CaptureThread{}, dp, n, unsafe.Pointer(&src[0]), n, gocann.MemcpyHostToDevice))
	syncOK(t, e.s)

	wantErr(t, e.r.Raw().FreeHost(p), gocann.CodeRTParamInvalid, "hostPtr", "not memory from aclrtMallocHost")
	loc, _, _, err := e.r.PointerAttributes(uintptr(p))
	check(t, err)
	if loc != gocann.LocationUnregistered {
		t.Errorf("freed page-locked memory: location %v, want unregistered", loc)
	}
	_, _, err = e.r.Raw().AddressRange(p)
	wantErr(t, err, gocann.CodeRTParamInvalid, "not in a live allocation")

	copy(src, bytes.Repeat([]byte{2}, n))
	check(t, e.s.Raw().MemcpyAsync(gocann.CaptureThread{}, dp, n, unsafe.Pointer(&src[0]), n, gocann.MemcpyHostToDevice))
	syncOK(t, e.s)
	got := make([]byte, n)
	check(t, e.c.CopyFromDevice(got, dev))
	if !bytes.Equal(got, src) {
		t.Error("a pageable copy after the refused free copied the wrong bytes")
	}
	// The caller's own page-locked memory is still freed once, by its start.
	q, err := e.r.Raw().MallocHost(n)
	check(t, err)
	wantErr(t, e.r.Raw().FreeHost(unsafe.Add(q, 64)), gocann.CodeRTParamInvalid, "inside the allocation")
	check(t, e.r.Raw().FreeHost(q))
}

// closedDeviceMemory allocates memory on device 1 through a context of its
// own, whose destruction closes the device, and returns it.
func closedDeviceMemory(t *testing.T, e env) (gocann.DevPtr, unsafe.Pointer) {
	t.Helper()
	d1, err := e.r.Device(1)
	check(t, err)
	c1, err := d1.NewContext()
	check(t, err)
	p, err := c1.Raw().Malloc(4096, gocann.NormalOnly)
	check(t, err)
	check(t, c1.Close())
	return gocann.DevPtr(uintptr(p)), p
}

func TestClosedDeviceMemoryRefused(t *testing.T) {
	// Memory of a closed device is refused by every call that can take it,
	// never touched.
	e := setup(t)
	dp, p := closedDeviceMemory(t, e)
	const closed = "memory of device 1, which is not open"
	d0 := malloc(t, e.c, 4096)
	d0p, err := e.r.Raw().DevicePointer(d0)
	check(t, err)
	host := make([]byte, 64)
	h := unsafe.Pointer(&host[0])
	k, err := e.r.RegisterKernel("stale_touch", func(b *gocann.Block) { b.Store64(b.Arg(0).Ptr(), 1) })
	check(t, err)
	slots := []uint64{7, uint64(dp) + 8}
	for _, c := range []struct {
		what string
		err  error
	}{
		{"Memcpy DEFAULT", e.c.Raw().Memcpy(gocann.CaptureThread{}, h, 64, p, 64, gocann.MemcpyDefault)},
		{"Memcpy HOST_TO_HOST from", e.c.Raw().Memcpy(gocann.CaptureThread{}, h, 64, p, 64, gocann.MemcpyHostToHost)},
		{"Memcpy HOST_TO_HOST to", e.c.Raw().Memcpy(gocann.CaptureThread{}, p, 64, h, 64, gocann.MemcpyHostToHost)},
		{"Memcpy DEVICE_TO_DEVICE", e.c.Raw().Memcpy(gocann.CaptureThread{}, d0p, 64, p, 64, gocann.MemcpyDeviceToDevice)},
		{"MemcpyAsync DEFAULT", e.s.Raw().MemcpyAsync(gocann.CaptureThread{}, h, 64, p, 64, gocann.MemcpyDefault)},
		{"MemcpyAsync HOST_TO_HOST", e.s.Raw().MemcpyAsync(gocann.CaptureThread{}, p, 64, h, 64, gocann.MemcpyHostToHost)},
		{"MemcpyAsync HOST_TO_BUF_TO_DEVICE", e.s.Raw().MemcpyAsync(gocann.CaptureThread{}, p, 64, h, 64, gocann.MemcpyHostToBufToDevice)},
		{"Memcpy2D", e.c.Raw().Memcpy2D(gocann.CaptureThread{}, h, 16, p, 16, 16, 4, gocann.MemcpyDeviceToHost)},
		{"Memcpy2DAsync", e.s.Raw().Memcpy2DAsync(gocann.CaptureThread{}, p, 16, h, 16, 16, 4, gocann.MemcpyHostToDevice)},
		{"Memset", e.c.Raw().Memset(gocann.CaptureThread{}, p, 64, 1, 64)},
		{"MemsetAsync", e.s.Raw().MemsetAsync(p, 64, 1, 64)},
		{"CopyFromDevice", e.c.CopyFromDevice(host, dp)},
		{"CopyToDevice", e.s.CopyToDevice(dp, host)},
		{"CopyDevice", e.c.CopyDevice(d0, dp, 64)},
		{"Memset", e.s.Memset(dp, 1, 64)},
		{"WriteValue", e.s.WriteValue(dp, 1)},
		{"WaitValue", e.s.WaitValue(dp, 1, gocann.WaitGEQ)},
		{"Free", e.c.Free(dp)},
		{"Launch", e.s.Launch(k, 1, gocann.Ptr(dp))},
		{"LaunchArgs", e.s.Raw().LaunchArgs(k, 1, unsafe.Pointer(&slots[0]), 16, 0)},
	} {
		t.Run(c.what, func(t *testing.T) { wantErr(t, c.err, gocann.CodeRTParamInvalid, closed) })
	}
	syncOK(t, e.s)
	loc, _, _, err := e.r.PointerAttributes(uintptr(p))
	check(t, err)
	if loc != gocann.LocationUnregistered {
		t.Errorf("memory of a closed device: location %v, want unregistered", loc)
	}

	// Reopened, the device has the same addresses, with fresh memory.
	d1, err := e.r.SetDevice(1)
	check(t, err)
	c1, err := d1.Context()
	check(t, err)
	again, err := c1.Raw().Malloc(4096, gocann.NormalOnly)
	check(t, err)
	got := make([]byte, 8)
	check(t, c1.CopyFromDevice(got, gocann.DevPtr(uintptr(again))))
	if again != p || !bytes.Equal(got, make([]byte, 8)) {
		t.Errorf("reopened device: first allocation %p (before %p), bytes %v; want the same address, zeros", again, p, got)
	}
	check(t, d1.Reset())
}

func TestClosedDeviceMemoryFaultsKernelAtStart(t *testing.T) {
	// A kernel meeting memory of a closed device when it starts (arguments
	// read from device memory, a model captured while the device was open)
	// faults instead of running.
	e := setup(t)
	d1, err := e.r.Device(1)
	check(t, err)
	c1, err := d1.NewContext()
	check(t, err)
	p1, err := c1.Malloc(4096, gocann.NormalOnly)
	check(t, err)
	ran := 0
	k, err := e.r.RegisterKernel("stale_count", func(b *gocann.Block) { ran++ })
	check(t, err)
	m, err := e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error { return s.Launch(k, 1, gocann.Ptr(p1)) })
	check(t, err)
	defer m.Close()
	check(t, m.Run(e.s))
	syncOK(t, e.s)
	check(t, c1.Close())

	args := malloc(t, e.c, 8)
	writeU64(t, e.c, args, uint64(p1))
	ap, err := e.r.Raw().DevicePointer(args)
	check(t, err)
	check(t, e.s.Raw().LaunchArgs(k, 1, ap, 8, 0))
	wantErr(t, e.s.SynchronizeTimeout(long), gocann.CodeRTAICoreException, "memory of device 1, which is not open")
	check(t, m.Run(e.s))
	wantErr(t, e.s.SynchronizeTimeout(long), gocann.CodeRTAICoreException, "memory of device 1, which is not open")
	if ran != 1 {
		t.Errorf("the kernel ran %d times, want once (the run before the device closed)", ran)
	}
}

func TestZeroByteCopiesCheckNothing(t *testing.T) {
	// Copies and memsets of zero bytes succeed without looking at their
	// pointers, kind or limits, as CANN's runtime does.
	e := setup(t)
	_, stale := closedDeviceMemory(t, e)
	d := malloc(t, e.c, 4096)
	dp, err := e.r.Raw().DevicePointer(d)
	check(t, err)
	end := unsafe.Add(dp, 4096)
	host := make([]byte, 8)
	h := unsafe.Pointer(&host[0])
	for _, c := range []struct {
		what string
		err  error
	}{
		{"Memcpy from a closed device", e.c.Raw().Memcpy(gocann.CaptureThread{}, h, 0, stale, 0, gocann.MemcpyDeviceToHost)},
		{"Memcpy to the end", e.c.Raw().Memcpy(gocann.CaptureThread{}, end, 0, h, 0, gocann.MemcpyHostToDevice)},
		{"Memcpy NULL, kind 99", e.c.Raw().Memcpy(gocann.CaptureThread{}, nil, 0, nil, 0, gocann.MemcpyKind(99))},
		{"MemcpyAsync from a closed device", e.s.Raw().MemcpyAsync(gocann.CaptureThread{}, h, 0, stale, 0, gocann.MemcpyDefault)},
		{"MemcpyAsync wrong kind", e.s.Raw().MemcpyAsync(gocann.CaptureThread{}, end, 0, h, 0, gocann.MemcpyDeviceToHost)},
		{"Memset", e.c.Raw().Memset(gocann.CaptureThread{}, stale, 0, 1, 0)},
		{"MemsetAsync", e.s.Raw().MemsetAsync(end, 0, 1, 0)},
		{"Memcpy2D no rows", e.c.Raw().Memcpy2D(gocann.CaptureThread{}, h, 8, stale, 8, 8, 0, gocann.MemcpyDeviceToHost)},
		{"Memcpy2DAsync empty rows", e.s.Raw().Memcpy2DAsync(gocann.CaptureThread{}, end, 8, h, 4, 0, 4, gocann.MemcpyDefault)},
	} {
		t.Run(c.what, func(t *testing.T) { check(t, c.err) })
	}
	syncOK(t, e.s)
}
