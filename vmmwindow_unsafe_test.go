package gocann_test

import (
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
	copy(host, pattern(64, 3))
	dev, err := e.c.Raw().Malloc(64, gocann.NormalOnly)
	check(t, err)
	check(t, e.c.Raw().Memcpy(gocann.CaptureThread{}, dev, 64, mem, 64, gocann.MemcpyDefault))
	got := make([]byte, 64)
	check(t, e.c.Raw().Memcpy(gocann.CaptureThread{}, unsafe.Pointer(&got[0]), 64, dev, 64, gocann.MemcpyDeviceToHost))
	if string(got) != string(pattern(64, 3)) {
		t.Error("host memory in the window did not copy as host memory")
	}
	p := vmmReserve(t, e.r, mib2)
	if uintptr(p) < uintptr(mem)+1<<20 && uintptr(p)+mib2 > uintptr(mem) {
		t.Errorf("a reservation at %#x overlaps the process's memory at %p", uint64(p), mem)
	}
	check(t, e.r.ReleaseMemAddress(p))
}
