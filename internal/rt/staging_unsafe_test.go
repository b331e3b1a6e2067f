package rt

import (
	"slices"
	"testing"
	"unsafe"

	"github.com/gocann/gocann/hal"
)

// hostAllocs is a backend of page-locked memory only, which is all the
// staging pool uses. Its buffers are stand-ins: the pool never touches
// their bytes, so a 128 MiB buffer costs one byte here.
type hostAllocs struct {
	hal.Backend // nil: any other method is a test failure
	t           *testing.T
	live        map[unsafe.Pointer]uint64
	mallocs     []uint64 // sizes asked for, in order
	frees       []uint64 // sizes freed, in order
}

func newHostAllocs(t *testing.T) *hostAllocs {
	return &hostAllocs{t: t, live: map[unsafe.Pointer]uint64{}}
}

func (h *hostAllocs) MallocHost(n uint64) (unsafe.Pointer, error) {
	p := unsafe.Pointer(new(byte))
	h.live[p] = n
	h.mallocs = append(h.mallocs, n)
	return p, nil
}

func (h *hostAllocs) FreeHost(p unsafe.Pointer) error {
	n, ok := h.live[p]
	if !ok {
		h.t.Fatalf("FreeHost(%p): not a live buffer", p)
	}
	delete(h.live, p)
	h.frees = append(h.frees, n)
	return nil
}

func TestSizeClass(t *testing.T) {
	for _, c := range []struct {
		n    uint64
		want int
	}{{0, 12}, {1, 12}, {4096, 12}, {4097, 13}, {8192, 13}, {8193, 14}, {1 << 27, 27}, {1<<27 + 1, 28}, {1 << 40, 40}} {
		if got := sizeClass(c.n); got != c.want {
			t.Errorf("sizeClass(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}

// TestStagingPoolReuse checks that a buffer put back serves the next
// request of its class without an allocation, and not one of another.
func TestStagingPoolReuse(t *testing.T) {
	h := newHostAllocs(t)
	var p stagingPool
	get := func(n uint64) staged {
		t.Helper()
		st, err := p.get(h, n)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	a := get(5000)
	p.put(h, a)
	if b := get(8192); b.p != a.p {
		t.Error("a request of the same class did not reuse the buffer put back")
	}
	get(100)
	if want := []uint64{8192, 4096}; !slices.Equal(h.mallocs, want) {
		t.Errorf("MallocHost sizes = %v, want %v", h.mallocs, want)
	}
}

// TestStagingPoolBound checks the pool's bound: it keeps at most
// stagingKeep bytes, evicting its largest buffers first to keep the one
// just used, and frees a buffer larger than the bound at once.
func TestStagingPoolBound(t *testing.T) {
	h := newHostAllocs(t)
	var p stagingPool
	get := func(class int) staged {
		t.Helper()
		st, err := p.get(h, 1<<class)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	// 128 + 64 + 32 MiB held, then another 64 MiB put back: 288 MiB is
	// over the 256 MiB bound, and evicting the 128 MiB buffer (not the
	// 32 MiB one, which would do as well) brings it to 160.
	bufs := []staged{get(27), get(26), get(25), get(26)}
	for _, st := range bufs {
		p.put(h, st)
	}
	if want := []uint64{1 << 27}; !slices.Equal(h.frees, want) {
		t.Fatalf("freed %v, want the largest buffer only, %v", h.frees, want)
	}
	if p.bytes != 160<<20 {
		t.Errorf("pool holds %d bytes, want %d", p.bytes, 160<<20)
	}
	n := len(h.mallocs)
	out := []staged{get(26), get(26), get(25)}
	if len(h.mallocs) != n {
		t.Errorf("buffers the pool kept were allocated again: %v", h.mallocs[n:])
	}
	for _, st := range out {
		p.put(h, st)
	}

	big := get(29) // 512 MiB: more than the pool keeps
	p.put(h, big)
	if h.frees[len(h.frees)-1] != 1<<29 || p.bytes != 160<<20 {
		t.Errorf("a buffer past the bound was kept (freed %v, pool holds %d bytes)", h.frees, p.bytes)
	}

	p.put(h, get(12))
	p.put(h, get(20))
	p.drain(h)
	if len(h.live) != 0 || p.bytes != 0 {
		t.Errorf("after drain, %d buffers are live and the pool holds %d bytes", len(h.live), p.bytes)
	}
}
