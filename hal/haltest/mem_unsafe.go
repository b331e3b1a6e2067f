package haltest

import (
	"sync/atomic"
	"testing"
	"unsafe"

	"github.com/gocann/gocann/hal"
)

// devBytes maps n bytes of device memory at addr through Device.Pointer.
func devBytes(t *testing.T, d hal.Device, addr, n uint64) []byte {
	t.Helper()
	p, err := d.Pointer(addr, n)
	if err != nil {
		t.Fatalf("Pointer(%#x, %d): %v", addr, n, err)
	}
	return unsafe.Slice((*byte)(p), n)
}

// devWord is the 64-bit word at addr, for atomic host access.
func devWord(t *testing.T, d hal.Device, addr uint64) *uint64 {
	t.Helper()
	p, err := d.Pointer(addr, 8)
	if err != nil {
		t.Fatalf("Pointer(%#x, 8): %v", addr, err)
	}
	return (*uint64)(p)
}

func storeWord(t *testing.T, d hal.Device, addr, v uint64) {
	t.Helper()
	atomic.StoreUint64(devWord(t, d, addr), v)
}

func loadWord(t *testing.T, d hal.Device, addr uint64) uint64 {
	t.Helper()
	return atomic.LoadUint64(devWord(t, d, addr))
}

// hostLoc is the copy end of host memory b.
func hostLoc(b []byte) hal.Loc { return hal.HostLoc(unsafe.Pointer(&b[0])) }

// hostAddr is the numeric address of b's first byte.
func hostAddr(b []byte) uint64 { return uint64(uintptr(unsafe.Pointer(&b[0]))) }

// pinned allocates n bytes with MallocHost as a slice.
func (e *env) pinned(n int) []byte {
	e.t.Helper()
	p, err := e.b.MallocHost(uint64(n))
	if err != nil {
		e.t.Fatalf("MallocHost(%d): %v", n, err)
	}
	// Freed once the devices are closed, so no task can still use it.
	e.mu.Lock()
	e.atClose = append(e.atClose, func() {
		if err := e.b.FreeHost(p); err != nil {
			e.t.Errorf("FreeHost: %v", err)
		}
	})
	e.mu.Unlock()
	return unsafe.Slice((*byte)(p), n)
}

// offset is p+n, for host pointers that are not the start of an allocation.
func offset(p unsafe.Pointer, n int) unsafe.Pointer { return unsafe.Add(p, n) }

// ptrBytes is the n bytes at p as a slice.
func ptrBytes(p unsafe.Pointer, n int) []byte { return unsafe.Slice((*byte)(p), n) }

// ptrAddr is the numeric address of p.
func ptrAddr(p unsafe.Pointer) uint64 { return uint64(uintptr(p)) }
