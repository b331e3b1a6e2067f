package sim

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/gocann/gocann/hal"
)

const normalOnly = hal.PageNormalOnly

func newTestDevMem(t testing.TB, dev int, hbm uint64) *devMem {
	t.Helper()
	m, err := newDevMem(dev, hbm)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := m.close(); err != nil {
			t.Error(err)
		}
		if err := m.release(); err != nil {
			t.Error(err)
		}
	})
	return m
}

func mustMalloc(t testing.TB, m *devMem, size uint64, p hal.MemPolicy) hal.Allocation {
	t.Helper()
	a, err := m.malloc(size, p)
	if err != nil {
		t.Fatalf("malloc(%d, %+v): %v", size, p, err)
	}
	return a
}

func mustBytes(t testing.TB, m *devMem, addr, n uint64) []byte {
	t.Helper()
	b, err := m.bytes(addr, n)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestDevMemNeverUsedReadsZero(t *testing.T) {
	m := newTestDevMem(t, 0, 64<<20)
	a := mustMalloc(t, m, 3<<20, hal.MemPolicy{})
	if i := bytes.IndexFunc(mustBytes(t, m, a.Addr, a.Size), func(r rune) bool { return r != 0 }); i >= 0 {
		t.Fatalf("fresh allocation has a nonzero byte at offset %d", i)
	}
}

func TestDevMemPointerReadsWhatWasWritten(t *testing.T) {
	m := newTestDevMem(t, 0, 64<<20)
	a := mustMalloc(t, m, 10_000, hal.MemPolicy{Page: normalOnly})
	copy(mustBytes(t, m, a.Addr+100, 5), "hello")
	if got := mustBytes(t, m, a.Addr+98, 9); string(got) != "\x00\x00hello\x00\x00" {
		t.Errorf("read back %q", got)
	}
}

func TestDevMemReallocKeepsAddressAndBytes(t *testing.T) {
	m := newTestDevMem(t, 0, 64<<20)
	a := mustMalloc(t, m, 5000, hal.MemPolicy{Page: normalOnly})
	copy(mustBytes(t, m, a.Addr, 4), "keep")
	if err := m.free(a.Addr, 0); err != nil {
		t.Fatal(err)
	}
	b := mustMalloc(t, m, 5000, hal.MemPolicy{Page: normalOnly})
	if b.Addr != a.Addr {
		t.Fatalf("realloc at %#x, want %#x", b.Addr, a.Addr)
	}
	if got := mustBytes(t, m, b.Addr, 4); string(got) != "keep" {
		t.Errorf("realloc reads %q, want the old bytes", got)
	}
}

func TestDevMemReleasedMemoryReadsZero(t *testing.T) {
	// 16 MiB is over the 8 MiB cache limit of a 64 MiB device, so freeing
	// it gives its pages back at once.
	m := newTestDevMem(t, 0, 64<<20)
	a := mustMalloc(t, m, 16<<20, hal.MemPolicy{})
	mustBytes(t, m, a.Addr, a.Size)[12345] = 7
	if err := m.free(a.Addr, 0); err != nil {
		t.Fatal(err)
	}
	b := mustMalloc(t, m, 16<<20, hal.MemPolicy{})
	if b.Addr != a.Addr {
		t.Fatalf("realloc at %#x, want %#x", b.Addr, a.Addr)
	}
	if got := mustBytes(t, m, b.Addr, b.Size)[12345]; got != 0 {
		t.Errorf("released byte reads %d, want 0", got)
	}
}

func TestDevMemInfoCountsReservedBytes(t *testing.T) {
	m := newTestDevMem(t, 0, 64<<20)
	if free, total := m.info(); free != 64<<20 || total != 64<<20 {
		t.Fatalf("info() = %d, %d on a fresh device", free, total)
	}
	small := mustMalloc(t, m, 100, hal.MemPolicy{Page: normalOnly})
	if free, _ := m.info(); free != 64<<20-4096 {
		t.Errorf("after 100 bytes: free %d, want %d", free, 64<<20-4096)
	}
	huge := mustMalloc(t, m, 1<<20+1, hal.MemPolicy{})
	if free, _ := m.info(); free != 64<<20-4096-2<<20 {
		t.Errorf("after a 2 MiB page: free %d, want %d", free, 64<<20-4096-2<<20)
	}
	for _, a := range []hal.Allocation{small, huge} {
		if err := m.free(a.Addr, 0); err != nil {
			t.Fatal(err)
		}
	}
	if free, _ := m.info(); free != 64<<20 {
		t.Errorf("after freeing all: free %d, want %d", free, 64<<20)
	}
}

func TestDevMemPagePolicies(t *testing.T) {
	m := newTestDevMem(t, 3, 4<<30)
	for _, c := range []struct {
		size uint64
		p    hal.PagePolicy
		page uint64
	}{
		{1 << 20, hal.PageHugeFirst, hal.PageSizeNormal},
		{1<<20 + 1, hal.PageHugeFirst, hal.PageSizeHuge},
		{1, hal.PageHugeOnly, hal.PageSizeHuge},
		{8 << 20, hal.PageNormalOnly, hal.PageSizeNormal},
		{1, hal.PageHuge1GOnly, hal.PageSizeHuge1G},
	} {
		a := mustMalloc(t, m, c.size, hal.MemPolicy{Page: c.p})
		want := hal.Allocation{Device: 3, Addr: a.Addr, Size: c.size, PageSize: c.page}
		if a != want || a.Addr%c.page != 0 {
			t.Errorf("malloc(%d, policy %d) = %+v, want %+v aligned", c.size, c.p, a, want)
		}
		if got, ok := m.lookup(a.Addr + c.size - 1); !ok || got != a {
			t.Errorf("lookup of last byte = %+v, %v; want %+v", got, ok, a)
		}
	}
	_, err := m.malloc(1, hal.MemPolicy{Page: 9})
	wantKind(t, err, hal.KindInvalidParam, "page policy 9")
}

func TestDevMemPointerRefusesBadRanges(t *testing.T) {
	m := newTestDevMem(t, 0, 64<<20)
	other := newTestDevMem(t, 1, 64<<20)
	a := mustMalloc(t, m, 1000, hal.MemPolicy{Page: normalOnly})
	gone := mustMalloc(t, m, 1000, hal.MemPolicy{Page: normalOnly})
	if err := m.free(gone.Addr, 0); err != nil {
		t.Fatal(err)
	}
	foreign := mustMalloc(t, other, 1000, hal.MemPolicy{Page: normalOnly})

	if _, err := m.pointer(a.Addr, 1000); err != nil {
		t.Errorf("whole allocation refused: %v", err)
	}
	_, err := m.pointer(a.Addr+999, 2)
	wantKind(t, err, hal.KindInvalidAddress, fmt.Sprintf("%#x", a.Addr+999), "2 bytes", "runs past", "expected at most 1 bytes")
	_, err = m.pointer(a.Addr+1000, 1)
	wantKind(t, err, hal.KindInvalidAddress, "no live allocation")
	_, err = m.pointer(gone.Addr, 1)
	wantKind(t, err, hal.KindInvalidAddress, "no live allocation")
	_, err = m.pointer(foreign.Addr, 1)
	wantKind(t, err, hal.KindInvalidAddress, "not on device 0")
	_, err = m.pointer(0, 8)
	wantKind(t, err, hal.KindInvalidAddress, "not on device 0")

	if m.contains(foreign.Addr) || !other.contains(foreign.Addr) || !m.contains(gone.Addr) {
		t.Error("contains does not match the device ranges")
	}
}

func TestDevMemFreeRejectsBadAddresses(t *testing.T) {
	m := newTestDevMem(t, 0, 64<<20)
	a := mustMalloc(t, m, 1000, hal.MemPolicy{Page: normalOnly})
	wantKind(t, m.free(a.Addr+64, 0), hal.KindInvalidAddress)
	if err := m.free(a.Addr, 0); err != nil {
		t.Fatal(err)
	}
	wantKind(t, m.free(a.Addr, 0), hal.KindInvalidAddress, "already freed")
	if _, ok := m.lookup(a.Addr); ok {
		t.Error("lookup finds a freed allocation")
	}
}

func TestNewDevMemRejectsBadSizes(t *testing.T) {
	for _, hbm := range []uint64{0, 1 << 62} {
		_, err := newDevMem(0, hbm)
		wantKind(t, err, hal.KindInvalidParam, fmt.Sprintf("memory size %d", hbm), "expected 1 to")
	}
}

func TestDevMemClose(t *testing.T) {
	m, err := newDevMem(0, 64<<20)
	if err != nil {
		t.Fatal(err)
	}
	a := mustMalloc(t, m, 1000, hal.MemPolicy{Page: normalOnly})
	if err := m.close(); err != nil {
		t.Fatal(err)
	}
	if err := m.close(); err != nil {
		t.Errorf("second close: %v", err)
	}
	if _, err := m.malloc(1, hal.MemPolicy{Page: normalOnly}); err == nil {
		t.Error("malloc after close succeeded")
	}
	if _, err := m.pointer(a.Addr, 1); err == nil {
		t.Error("pointer after close succeeded")
	}
	if _, ok := m.lookup(a.Addr); ok || m.contains(a.Addr) {
		t.Error("closed memory still claims its addresses")
	}
	if !m.inRange(a.Addr) || !reserved(t, a.Addr) {
		t.Error("closed memory gave up its address range")
	}
	if err := m.release(); err != nil {
		t.Fatal(err)
	}
	if reserved(t, a.Addr) {
		t.Error("released memory still holds its address range")
	}
	if err := m.reopen(); err == nil {
		t.Error("reopen after release succeeded")
	}
}

// TestDevMemReopen closes memory and opens it again: same addresses, fresh
// bytes.
func TestDevMemReopen(t *testing.T) {
	m := newTestDevMem(t, 0, 64<<20)
	a := mustMalloc(t, m, 5000, hal.MemPolicy{Page: normalOnly})
	copy(mustBytes(t, m, a.Addr, 4), "gone")
	if err := m.close(); err != nil {
		t.Fatal(err)
	}
	if err := m.reopen(); err != nil {
		t.Fatal(err)
	}
	b := mustMalloc(t, m, 5000, hal.MemPolicy{Page: normalOnly})
	if b.Addr != a.Addr {
		t.Errorf("first allocation after reopen at %#x, want %#x", b.Addr, a.Addr)
	}
	if got := mustBytes(t, m, b.Addr, 4); !bytes.Equal(got, make([]byte, 4)) {
		t.Errorf("reopened memory reads %q, want zeros", got)
	}
	if free, total := m.info(); total != 64<<20 || free != total-8192 {
		t.Errorf("info() after reopen = %d, %d", free, total)
	}
}

// reserved reports whether addr is in a mapping of this process.
func reserved(t *testing.T, addr uint64) bool {
	t.Helper()
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Skip("no /proc/self/maps:", err)
	}
	for line := range strings.Lines(string(maps)) {
		var lo, hi uint64
		if _, err := fmt.Sscanf(line, "%x-%x", &lo, &hi); err == nil && addr >= lo && addr < hi {
			return true
		}
	}
	return false
}

func TestDevMemConcurrentUse(t *testing.T) {
	m := newTestDevMem(t, 0, 256<<20)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				size := uint64(1000 + 4096*(i%5))
				a, err := m.malloc(size, hal.MemPolicy{Page: normalOnly})
				if err != nil {
					t.Error(err)
					return
				}
				b, err := m.bytes(a.Addr, a.Size)
				if err != nil {
					t.Error(err)
					return
				}
				tag := byte(g*31 + i)
				b[0], b[len(b)-1] = tag, tag
				if got, ok := m.lookup(a.Addr + size/2); !ok || got != a {
					t.Errorf("lookup inside own allocation = %+v, %v", got, ok)
				}
				if b[0] != tag || b[len(b)-1] != tag {
					t.Errorf("goroutine %d: own bytes overwritten", g)
				}
				if err := m.free(a.Addr, 0); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	if free, total := m.info(); free != total {
		t.Errorf("free %d of %d after every block was freed", free, total)
	}
}

// vmRSS reads the resident set size of this process in bytes.
func vmRSS(t testing.TB) uint64 {
	t.Helper()
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status:", err)
	}
	for line := range strings.Lines(string(status)) {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				t.Fatalf("parsing %q: %v", line, err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmRSS line in /proc/self/status")
	return 0
}

func TestDevMemLargeDeviceCostsNothing(t *testing.T) {
	before := vmRSS(t)
	m := newTestDevMem(t, 0, 64<<30)
	a := mustMalloc(t, m, 8<<30, hal.MemPolicy{Page: hal.PageHugeOnly})
	mustBytes(t, m, a.Addr+a.Size/2, 1)[0] = 1
	if grew := int64(vmRSS(t) - before); grew > 64<<20 {
		t.Errorf("resident memory grew by %d MiB for one touched byte of 8 GiB", grew>>20)
	}
	if free, total := m.info(); total != 64<<30 || free != total-(8<<30+2<<20) {
		t.Errorf("info() = %d, %d", free, total)
	}
}

// The child half of TestDevMemShareAcrossProcesses: it maps the shared file
// the parent names and prints the bytes it sees.
const shareEnv = "GOCANN_TEST_SHARE_CHILD"

func TestDevMemShareChild(t *testing.T) {
	spec := os.Getenv(shareEnv)
	if spec == "" {
		t.Skip("runs only as the child of TestDevMemShareAcrossProcesses")
	}
	var path string
	var off int64
	var n int
	if _, err := fmt.Sscanf(spec, "%s %d %d", &path, &off, &n); err != nil {
		t.Fatalf("parsing %q: %v", spec, err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	mem, err := unix.Mmap(int(f.Fd()), off, n, unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(mem)
	fmt.Printf("shared bytes: %x\n", mem)
}

func TestDevMemShareAcrossProcesses(t *testing.T) {
	m := newTestDevMem(t, 0, 64<<20)
	a := mustMalloc(t, m, 64, hal.MemPolicy{Page: normalOnly})
	want := []byte("bytes written by the parent, read by the child process\x01\x02\xff")
	copy(mustBytes(t, m, a.Addr, a.Size), want)

	path, off, err := m.share(a.Addr)
	if err != nil {
		t.Fatal(err)
	}
	if wantPath := fmt.Sprintf("/proc/%d/fd/", os.Getpid()); !strings.HasPrefix(path, wantPath) || off%4096 != 0 {
		t.Fatalf("share() = %q, %d; want a path under %s and a page-aligned offset", path, off, wantPath)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestDevMemShareChild$")
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s %d %d", shareEnv, path, off, len(want)))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	_, hexBytes, ok := strings.Cut(string(out), "shared bytes: ")
	hexBytes, _, _ = strings.Cut(hexBytes, "\n")
	if !ok || hexBytes != fmt.Sprintf("%x", want) {
		t.Errorf("child saw %q, want %x\nchild output:\n%s", hexBytes, want, out)
	}

	_, _, err = m.share(a.Addr + 4096)
	wantKind(t, err, hal.KindInvalidAddress, "not in a live allocation")
}
