package gocann_test

import (
	"bytes"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/gocann/gocann"
)

// pageable maps n bytes of pageable, page-aligned host memory for the test.
func pageable(t *testing.T, n int) []byte {
	t.Helper()
	m, err := unix.Mmap(-1, 0, n, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	check(t, err)
	t.Cleanup(func() { unix.Munmap(m) })
	return m
}

// TestHostRegisterKernelWritesInPlace: a kernel given the device pointer of
// mapped registered memory writes the host's bytes, which the host then
// reads in place with no copy.
func TestHostRegisterKernelWritesInPlace(t *testing.T) {
	e := setup(t)
	mem := pageable(t, 8192)
	reg, err := e.c.RegisterHost(mem, gocann.HostRegMapped)
	check(t, err)
	p, err := reg.DevicePointer()
	check(t, err)
	if uintptr(p) != uintptr(unsafe.Pointer(&mem[0])) {
		t.Errorf("DevicePointer = %#x, want the host address %p", uint64(p), &mem[0])
	}
	k, err := e.r.RegisterKernel("hostreg_fill", func(b *gocann.Block) {
		n := int(b.Arg(1).U64())
		v := gocann.View[uint32](b, b.Arg(0).Ptr(), n)
		for i, hi := b.Span(n); i < hi; i++ {
			v[i] = uint32(i)*3 + 1
		}
	})
	check(t, err)
	check(t, e.s.Launch(k, 4, gocann.Ptr(p), gocann.U64(2048)))
	syncOK(t, e.s)
	for i := range 2048 {
		if got := *(*uint32)(unsafe.Pointer(&mem[4*i])); got != uint32(i)*3+1 {
			t.Fatalf("host word %d = %d after the kernel, want %d", i, got, i*3+1)
		}
	}
	// Past the registered range the kernel faults rather than writing.
	check(t, e.s.Launch(k, 1, gocann.Ptr(p), gocann.U64(4096)))
	wantErr(t, e.s.SynchronizeTimeout(long), gocann.CodeRTAICoreException)
	check(t, reg.Close())
	wantErr(t, reg.Close(), gocann.CodeHostMemoryNotRegistered, "not the start of registered host memory")
	// Unregistered, the kernel cannot reach it.
	check(t, e.s.Launch(k, 1, gocann.Ptr(p), gocann.U64(16)))
	wantErr(t, e.s.SynchronizeTimeout(long), gocann.CodeRTAICoreException)
}

// TestHostRegisterPinnedCopiesAsync: a registered pageable source is read
// when the copy runs, not staged at the call, and a registered destination
// does not make the call wait.
func TestHostRegisterPinnedCopiesAsync(t *testing.T) {
	e := setup(t)
	const n = 4096
	src, dst := pageable(t, n), pageable(t, n)
	for _, m := range [][]byte{src, dst} {
		reg, err := e.c.RegisterHost(m, gocann.HostRegPinned)
		check(t, err)
		defer reg.Close()
	}
	d := malloc(t, e.c, n)
	g := block(t, e.s)
	copy(src, bytes.Repeat([]byte{1}, n))
	check(t, e.s.Raw().MemcpyAsync(gocann.CaptureThread{}, devPtr(t, e, d), n, unsafe.Pointer(&src[0]), n, gocann.MemcpyHostToDevice))
	copy(src, bytes.Repeat([]byte{7}, n)) // after the call, before the copy runs
	returned := make(chan error, 1)
	go func() {
		returned <- e.s.Raw().MemcpyAsync(gocann.CaptureThread{}, unsafe.Pointer(&dst[0]), n, devPtr(t, e, d), n, gocann.MemcpyDeviceToHost)
	}()
	select {
	case err := <-returned:
		check(t, err)
	case <-time.After(long):
		t.Fatal("an asynchronous copy to registered memory waited for the stream")
	}
	g.Open()
	syncOK(t, e.s)
	if !bytes.Equal(dst, bytes.Repeat([]byte{7}, n)) {
		t.Errorf("copy read the source at the call (staged), want the bytes as they were when it ran: got %v...", dst[:8])
	}
	// Page-locked to a capture too: captured, and read at each replay.
	m, err := e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		return s.Raw().MemcpyAsync(gocann.CaptureThread{}, devPtr(t, e, d), n, unsafe.Pointer(&src[0]), n, gocann.MemcpyHostToDevice)
	})
	check(t, err)
	defer m.Close()
	for _, v := range []byte{3, 9} {
		copy(src, bytes.Repeat([]byte{v}, n))
		check(t, m.Run(e.s))
		syncOK(t, e.s)
		got := make([]byte, n)
		check(t, e.c.CopyFromDevice(got, d))
		if !bytes.Equal(got, src) {
			t.Fatalf("replay %d of a captured copy from registered memory: got %v..., want %d", v, got[:4], v)
		}
	}
}

func devPtr(t *testing.T, e env, p gocann.DevPtr) unsafe.Pointer {
	t.Helper()
	ptr, err := e.r.Raw().DevicePointer(p)
	check(t, err)
	return ptr
}

// TestHostRegisterRefusals: every refusal of registration, with its code.
func TestHostRegisterRefusals(t *testing.T) {
	e := setup(t)
	mem := pageable(t, 3*4096)
	raw := e.c.Raw()
	at := func(off int) unsafe.Pointer { return unsafe.Pointer(&mem[off]) }
	wantErr(t, raw.HostRegister(nil, 4096, uint32(gocann.HostRegMapped)), gocann.CodeInvalidParam, "ptr is NULL")
	wantErr(t, raw.HostRegister(at(0), 0, uint32(gocann.HostRegMapped)), gocann.CodeInvalidParam, "size 0")
	wantErr(t, raw.HostRegister(at(0), 4096, 0), gocann.CodeRTParamInvalid, "flag 0x0 is invalid")
	wantErr(t, raw.HostRegister(at(0), 4096, 0x1), gocann.CodeRTParamInvalid, "flag 0x1 is invalid")
	wantErr(t, raw.HostRegister(at(0), 4096, uint32(gocann.HostRegIOMemory)), gocann.CodeRTFeatureNotSupport, "ACL_HOST_REG_IOMEMORY")
	wantErr(t, raw.HostRegister(at(0), 4096, uint32(gocann.HostRegReadOnly|gocann.HostRegMapped)), gocann.CodeRTFeatureNotSupport, "ACL_HOST_REG_READONLY")
	wantErr(t, raw.HostRegister(at(8), 4096, uint32(gocann.HostRegMapped)), gocann.CodeRTParamInvalid, "4 KiB aligned")
	d := malloc(t, e.c, 4096)
	wantErr(t, raw.HostRegister(devPtr(t, e, d), 4096, uint32(gocann.HostRegMapped)), gocann.CodeRTParamInvalid, "is device memory")
	hb, err := e.r.MallocHost(8192)
	check(t, err)
	defer hb.Close()
	wantErr(t, raw.HostRegister(hb.Pointer(), 4096, uint32(gocann.HostRegPinned)), gocann.CodeRTParamInvalid, "ACL_HOST_REG_PINNED registers pageable memory")
	// Page-locked memory may be mapped for kernels.
	check(t, raw.HostRegister(hb.Pointer(), 8192, uint32(gocann.HostRegMapped)))
	check(t, e.r.Raw().HostUnregister(hb.Pointer()))

	check(t, raw.HostRegister(at(4096), 4096, uint32(gocann.HostRegMapped|gocann.HostRegPinned)))
	for _, c := range []struct {
		off, size int
	}{{4096, 4096}, {0, 8192}, {8192 - 4096, 4096 * 2}, {0, 3 * 4096}} {
		wantErr(t, raw.HostRegister(at(c.off), uint64(c.size), uint32(gocann.HostRegPinned)), gocann.CodeHostMemoryAlreadyRegistered, "overlaps memory already registered")
	}
	check(t, raw.HostRegister(at(0), 4096, uint32(gocann.HostRegPinned))) // adjacent ranges do not overlap
	check(t, raw.HostRegister(at(8192), 4096, uint32(gocann.HostRegPinned)))

	// Pinned-only memory has no device address; mapped memory's is inside.
	_, err = e.r.Raw().HostDevicePointer(at(0))
	wantErr(t, err, gocann.CodeRTParamInvalid, "has not been registered for device address mapping")
	if p, err := e.r.Raw().HostDevicePointer(at(4096 + 100)); err != nil || p != at(4096+100) {
		t.Errorf("HostDevicePointer inside a mapped range = %p, %v; want %p", p, err, at(4096+100))
	}
	_, err = e.r.Raw().HostDevicePointer(nil)
	wantErr(t, err, gocann.CodeInvalidParam, "pHost is NULL")

	// The mapped address is for kernels: a copy naming it as device memory is refused.
	err = e.c.Raw().Memcpy(gocann.CaptureThread{}, at(4096), 16, devPtr(t, e, d), 16, gocann.MemcpyHostToDevice)
	wantErr(t, err, gocann.CodeRTParamInvalid, "is for kernels only")
	// As host memory it copies.
	check(t, e.c.Raw().Memcpy(gocann.CaptureThread{}, devPtr(t, e, d), 16, at(4096), 16, gocann.MemcpyHostToDevice))

	// A mapped range with a hole: kernels could not reach it without crashing.
	holed := pageable(t, 3*4096)
	check(t, unix.MunmapPtr(unsafe.Pointer(&holed[4096]), 4096))
	err = raw.HostRegister(unsafe.Pointer(&holed[0]), 3*4096, uint32(gocann.HostRegMapped))
	wantErr(t, err, gocann.CodeRTParamInvalid, "is not all mapped memory of the process")
	check(t, raw.HostRegister(unsafe.Pointer(&holed[0]), 4096, uint32(gocann.HostRegMapped)))
	check(t, e.r.Raw().HostUnregister(unsafe.Pointer(&holed[0])))

	wantErr(t, e.r.Raw().HostUnregister(at(4096+4)), gocann.CodeHostMemoryNotRegistered, "not the start")
	wantErr(t, e.r.Raw().HostUnregister(nil), gocann.CodeInvalidParam, "ptr is NULL")
	for _, off := range []int{0, 4096, 8192} {
		check(t, e.r.Raw().HostUnregister(at(off)))
	}
}

// TestHostMemHelpers: the capability query, configured allocation, the
// synchronizing frees and the memory type check.
func TestHostMemHelpers(t *testing.T) {
	e := setup(t)
	for hac, want := range map[gocann.HAC]bool{gocann.HACAIC: true, gocann.HACAIV: true, gocann.HACSDMA: false, gocann.HACStars: false} {
		got, err := e.d.HostMemMapCapable(hac)
		check(t, err)
		if got != want {
			t.Errorf("HostMemMapCapable(%d) = %v, want %v", hac, got, want)
		}
	}
	_, err := e.d.HostMemMapCapable(10)
	wantErr(t, err, gocann.CodeRTParamInvalid, "hacType 10 is invalid")

	hb, err := e.c.MallocHostConfig(4096, gocann.HostMallocConfig{ModuleID: 33, VAConsistent: true})
	check(t, err)
	reg, err := e.c.RegisterHost(hb.Bytes(), gocann.HostRegMapped)
	check(t, err)
	if p, err := reg.DevicePointer(); err != nil || uintptr(p) != uintptr(hb.Pointer()) {
		t.Errorf("VA-consistent memory's device address = %#x, %v; want its host address %p", uint64(p), err, hb.Pointer())
	}
	// Freeing the memory ends its registration.
	d := malloc(t, e.c, 4096)
	g := block(t, e.s)
	check(t, e.s.CopyDeviceToHost(hb, 0, d, 4096))
	done := make(chan error, 1)
	go func() { done <- hb.CloseWithDeviceSync() }()
	select {
	case err := <-done:
		t.Fatalf("CloseWithDeviceSync returned (%v) while a copy into the buffer was queued", err)
	case <-time.After(50 * time.Millisecond):
	}
	g.Open()
	check(t, <-done)
	wantErr(t, reg.Close(), gocann.CodeHostMemoryNotRegistered)

	ok, err := e.c.CheckMemType([]gocann.DevPtr{d, d.Add(100)}, gocann.MemTypeDev)
	check(t, err)
	if !ok {
		t.Error("CheckMemType(DEV) of aclrtMalloc memory = false, want true")
	}
	for _, mt := range []uint32{gocann.MemTypeDVPP, gocann.MemTypeRsvd} {
		if ok, err := e.c.CheckMemType([]gocann.DevPtr{d}, mt); err != nil || ok {
			t.Errorf("CheckMemType(%#x) of aclrtMalloc memory = %v, %v; want false", mt, ok, err)
		}
	}
	_, err = e.c.CheckMemType([]gocann.DevPtr{d}, 0x4)
	wantErr(t, err, gocann.CodeRTParamInvalid, "memType 0x4 is invalid")
	_, err = e.c.CheckMemType(nil, gocann.MemTypeDev)
	wantErr(t, err, gocann.CodeRTParamInvalid, "size 0")

	g = block(t, e.s)
	check(t, e.s.Memset(d, 0, 4096))
	done = make(chan error, 1)
	go func() { done <- e.c.FreeWithDevSync(d) }()
	select {
	case err := <-done:
		t.Fatalf("FreeWithDevSync returned (%v) while a memset of the memory was queued", err)
	case <-time.After(50 * time.Millisecond):
	}
	g.Open()
	check(t, <-done)
	wantErr(t, e.c.FreeWithDevSync(d), gocann.CodeRTParamInvalid, "not a live device allocation")
}

// TestHostRegisterWithoutMapper: a backend whose kernels cannot reach host
// memory refuses mapped registration and says so; pinned registration is
// the runtime's alone and works.
func TestHostRegisterWithoutMapper(t *testing.T) {
	fb := newFakeBackend()
	r, err := gocann.Open(gocann.WithBackend(fb.open))
	check(t, err)
	t.Cleanup(func() { check(t, r.Close()) })
	d, err := r.SetDevice(0)
	check(t, err)
	c, err := d.Context()
	check(t, err)
	mem := pageable(t, 4096)
	_, err = c.RegisterHost(mem, gocann.HostRegMapped)
	wantErr(t, err, gocann.CodeRTFeatureNotSupport, "ACL_HOST_REG_MAPPED is not supported")
	reg, err := c.RegisterHost(mem, gocann.HostRegPinned)
	check(t, err)
	check(t, reg.Close())
	if ok, err := d.HostMemMapCapable(gocann.HACAIC); err != nil || ok {
		t.Errorf("HostMemMapCapable(AIC) on the fake = %v, %v; want false", ok, err)
	}
}
