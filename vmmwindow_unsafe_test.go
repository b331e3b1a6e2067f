package gocann_test

import (
	"encoding/binary"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/gocann/gocann"
	"github.com/gocann/gocann/sim"
)

// TestVMMWindowHostMemory: other memory of the process may lie in the
// window of reservations; it stays host memory to every call, and the
// window's reservations step around it.
func TestVMMWindowHostMemory(t *testing.T) {
	if raceEnabled {
		t.Skip("the race build moves the window")
	}
	e := setup(t)
	at := uintptr(sim.DefaultVMMBase)
	mem, err := unix.MmapPtr(-1, 0, *(*unsafe.Pointer)(unsafe.Pointer(&at)), 1<<20, unix.PROT_READ|unix.PROT_WRITE,
		unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_FIXED_NOREPLACE)
	if err != nil {
		t.Skipf("the window's first MiB is taken: %v", err)
	}
	defer unix.MunmapPtr(mem, 1<<20)
	host := unsafe.Slice((*byte)(mem), 64)
	copy(host, vmmPattern(64, 3))
	dev, err := e.c.Raw().Malloc(64, gocann.NormalOnly)
	check(t, err)
	check(t, e.c.Raw().Memcpy(gocann.CaptureThread{}, dev, 64, mem, 64, gocann.MemcpyDefault))
	got := make([]byte, 64)
	check(t, e.c.Raw().Memcpy(gocann.CaptureThread{}, unsafe.Pointer(&got[0]), 64, dev, 64, gocann.MemcpyDeviceToHost))
	if string(got) != string(vmmPattern(64, 3)) {
		t.Error("host memory in the window did not copy as host memory")
	}
	p := vmmReserve(t, e.r, mib2)
	if uintptr(p) < uintptr(mem)+1<<20 && uintptr(p)+mib2 > uintptr(mem) {
		t.Errorf("a reservation at %#x overlaps the process's memory at %p", uint64(p), mem)
	}
	check(t, e.r.ReleaseMemAddress(p))
}

// TestManagedWindowHostMemory: host memory in the managed window, as Go's
// heap may be (its base is random), is no managed allocation: aclrtFree
// refuses it as memory it never allocated, and copies take it as host
// memory.
func TestManagedWindowHostMemory(t *testing.T) {
	if raceEnabled {
		t.Skip("the race build moves the window")
	}
	e := setup(t)
	at := uintptr(sim.DefaultManagedBase + 2<<40)
	mem, err := unix.MmapPtr(-1, 0, *(*unsafe.Pointer)(unsafe.Pointer(&at)), 1<<20, unix.PROT_READ|unix.PROT_WRITE,
		unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_FIXED_NOREPLACE)
	if err != nil {
		t.Skipf("the managed window's MiB at %#x is taken: %v", at, err)
	}
	defer unix.MunmapPtr(mem, 1<<20)
	wantErr(t, e.c.Free(gocann.DevPtr(at)), gocann.CodeRTParamInvalid, "not a live device allocation")
	host := unsafe.Slice((*byte)(mem), 64)
	copy(host, vmmPattern(64, 5))
	dev := malloc(t, e.c, 64)
	check(t, e.c.Raw().Memcpy(gocann.CaptureThread{}, *(*unsafe.Pointer)(unsafe.Pointer(&dev)), 64, mem, 64, gocann.MemcpyDefault))
	if v := readU64(t, e.c, dev); v != binary.LittleEndian.Uint64(vmmPattern(64, 5)) {
		t.Errorf("host memory in the managed window copied as %#x", v)
	}
}

// TestVMMPointerOfEarlierInit: virtual and managed memory kept from
// before a Finalize stays known after the next Init: copies from it are
// refused, never taken for host memory.
func TestVMMPointerOfEarlierInit(t *testing.T) {
	r := gocann.New()
	defer r.Close()
	c, _ := initSmall(t, r, 0)
	h := vmmPhysical(t, r, mib2)
	p := vmmReserve(t, r, mib2)
	check(t, r.MapMem(p, mib2, 0, h, 0))
	m, err := c.MallocManaged(mib2, gocann.MemAttachGlobal)
	check(t, err)
	check(t, r.Finalize())
	c, _ = initSmall(t, r, 1)
	buf := make([]byte, 8)
	for _, at := range []gocann.DevPtr{p, m} {
		err := c.Raw().Memcpy(gocann.CaptureThread{}, unsafe.Pointer(&buf[0]), 8, *(*unsafe.Pointer)(unsafe.Pointer(&at)), 8, gocann.MemcpyDefault)
		wantErr(t, err, gocann.CodeRTParamInvalid, "virtual memory that was released")
	}
	wantErr(t, r.FreePhysical(h), gocann.CodeRTInvalidHandle, "not live")
	// The range can be reserved again.
	q, err := r.ReserveMemAddress(mib2, 0, p, 0)
	check(t, err)
	if q != p {
		t.Errorf("reserving the earlier range again gave %#x, want %#x", uint64(q), uint64(p))
	}
	check(t, r.ReleaseMemAddress(q))
}
