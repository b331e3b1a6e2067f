package sim

import (
	"bytes"
	"errors"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/gocann/gocann/hal"
)

// The kernel, not an unsafe view, checks host memory here: reading from a
// pipe into it and writing from it to a pipe work only while it is mapped
// and fail with EFAULT once it is gone.

func pipe(t *testing.T) (r, w int) {
	t.Helper()
	var fds [2]int
	if err := unix.Pipe2(fds[:], unix.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(fds[0]); unix.Close(fds[1]) })
	return fds[0], fds[1]
}

// store copies b to host address addr.
func store(t *testing.T, addr uintptr, b []byte) {
	t.Helper()
	r, w := pipe(t)
	if _, err := unix.Write(w, b); err != nil {
		t.Fatal(err)
	}
	if _, _, e := unix.Syscall(unix.SYS_READ, uintptr(r), addr, uintptr(len(b))); e != 0 {
		t.Fatalf("storing to %#x: %v", addr, e)
	}
}

// load copies n bytes from host address addr, or returns the errno.
func load(t *testing.T, addr uintptr, n int) ([]byte, error) {
	t.Helper()
	r, w := pipe(t)
	if _, _, e := unix.Syscall(unix.SYS_WRITE, uintptr(w), addr, uintptr(n)); e != 0 {
		return nil, e
	}
	b := make([]byte, n)
	if _, err := unix.Read(r, b); err != nil {
		t.Fatal(err)
	}
	return b, nil
}

func TestHostMemAllocIsUsableAndAligned(t *testing.T) {
	var h hostMem
	defer h.close()
	p, err := h.alloc(5000)
	if err != nil {
		t.Fatal(err)
	}
	addr := uintptr(p)
	if addr%64 != 0 {
		t.Errorf("host allocation at %#x is not 64-byte aligned", addr)
	}
	store(t, addr+4990, []byte("0123456789"))
	got, err := load(t, addr+4980, 20)
	if err != nil {
		t.Fatal(err)
	}
	if want := append(make([]byte, 10), "0123456789"...); !bytes.Equal(got, want) {
		t.Errorf("read back %q, want %q", got, want)
	}
}

func TestHostMemAllocRejectsBadSizes(t *testing.T) {
	var h hostMem
	_, err := h.alloc(0)
	wantKind(t, err, hal.KindInvalidParam, "size 0", "expected > 0")
	_, err = h.alloc(1 << 63)
	wantKind(t, err, hal.KindInvalidParam, "too large")
	_, err = h.alloc(1 << 50) // a valid size no machine has
	wantKind(t, err, hal.KindOutOfMemory, "1125899906842624 bytes")
}

func TestHostMemLookup(t *testing.T) {
	var h hostMem
	defer h.close()
	var addrs []uint64
	for range 3 {
		p, err := h.alloc(100)
		if err != nil {
			t.Fatal(err)
		}
		addrs = append(addrs, uint64(uintptr(p)))
	}
	x := addrs[1]
	want := hal.Allocation{Device: -1, Addr: x, Size: 100, PageSize: 4096, Host: true}
	for _, c := range []struct {
		addr uint64
		ok   bool
	}{
		{x, true},
		{x + 50, true},
		{x + 99, true},
		{x + 100, false}, // just past the requested bytes
		{x + 4095, false},
		{x - 1, false},
	} {
		got, ok := h.lookup(c.addr)
		if ok != c.ok || ok && got != want {
			t.Errorf("lookup(x%+d) = %+v, %v; want found %v", int64(c.addr-x), got, ok, c.ok)
		}
	}
	for _, a := range addrs {
		if got, ok := h.lookup(a); !ok || got.Addr != a {
			t.Errorf("lookup(%#x) = %+v, %v", a, got, ok)
		}
	}
}

func TestHostMemFree(t *testing.T) {
	var h hostMem
	defer h.close()
	p, err := h.alloc(100)
	if err != nil {
		t.Fatal(err)
	}
	keep, err := h.alloc(100)
	if err != nil {
		t.Fatal(err)
	}
	var other hostMem
	defer other.close()
	foreign, err := other.alloc(100)
	if err != nil {
		t.Fatal(err)
	}
	wantKind(t, h.free(foreign), hal.KindInvalidAddress, "not the start of a live host allocation")
	if err := h.free(p); err != nil {
		t.Fatal(err)
	}
	if _, err := load(t, uintptr(p), 1); !errors.Is(err, unix.EFAULT) {
		t.Errorf("freed host memory still readable: %v", err)
	}
	if _, ok := h.lookup(uint64(uintptr(p))); ok {
		t.Error("lookup finds freed host memory")
	}
	wantKind(t, h.free(p), hal.KindInvalidAddress)
	if _, ok := h.lookup(uint64(uintptr(keep))); !ok {
		t.Error("freeing one block lost another")
	}
}

func TestHostMemClose(t *testing.T) {
	var h hostMem
	p, err := h.alloc(100)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.close(); err != nil {
		t.Fatal(err)
	}
	if _, err := load(t, uintptr(p), 1); !errors.Is(err, unix.EFAULT) {
		t.Errorf("host memory readable after close: %v", err)
	}
	if _, ok := h.lookup(uint64(uintptr(p))); ok {
		t.Error("lookup finds host memory after close")
	}
	wantKind(t, h.free(p), hal.KindInvalidAddress)
}
