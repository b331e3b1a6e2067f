package sim

import (
	"slices"
	"sync"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// vmRetired keeps released reservations (and those of closed backends)
// inaccessible and known for the address space's life, as device ranges
// are kept: a stale pointer into one is still virtual memory to every
// call, refused, and never taken for host memory the process mapped there
// since. A later reservation may take a retired range back.
type vmRetired struct {
	n atomic.Int32 // ranges retired: kernel checks cost one load while 0

	// mu guards gone.
	mu   sync.Mutex
	gone []extent // sorted by start, disjoint
}

// any reports whether a range is retired.
func (r *vmRetired) any() bool { return r.n.Load() != 0 }

// retire records [addr, addr+n), already inaccessible.
func (r *vmRetired) retire(addr, n uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	i, _ := slices.BinarySearchFunc(r.gone, addr, func(e extent, a uint64) int { return cmpU(e.start, a) })
	r.gone = slices.Insert(r.gone, i, extent{addr, n})
	r.n.Store(int32(len(r.gone)))
}

// take makes [addr, addr+n) a reservation's if it is retired ranges and
// free memory only: the free parts are mapped inaccessible, without
// replacing anything, and the retired parts leave the list. It returns
// false, changing nothing, if any part is other memory.
func (r *vmRetired) take(addr, n uint64) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	end := addr + n
	var gaps []extent
	next, touched := addr, false
	for _, e := range r.gone {
		if e.end() <= addr || e.start >= end {
			continue
		}
		touched = true
		if e.start > next {
			gaps = append(gaps, extent{next, e.start - next})
		}
		next = max(next, e.end())
	}
	if !touched {
		return false
	}
	if next < end {
		gaps = append(gaps, extent{next, end - next})
	}
	for i, g := range gaps {
		if _, err := unix.MmapPtr(-1, 0, at(g.start), uintptr(g.size), unix.PROT_NONE,
			unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_NORESERVE|unix.MAP_FIXED_NOREPLACE); err != nil {
			for _, done := range gaps[:i] {
				_ = unix.MunmapPtr(at(done.start), uintptr(done.size))
			}
			return false
		}
	}
	var out []extent
	for _, e := range r.gone {
		if e.end() <= addr || e.start >= end {
			out = append(out, e)
			continue
		}
		if e.start < addr {
			out = append(out, extent{e.start, addr - e.start})
		}
		if e.end() > end {
			out = append(out, extent{end, e.end() - end})
		}
	}
	slices.SortFunc(out, func(a, b extent) int { return cmpU(a.start, b.start) })
	r.gone = out
	r.n.Store(int32(len(r.gone)))
	return true
}

// holds reports whether addr is in a retired range.
func (r *vmRetired) holds(addr uint64) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	i, found := slices.BinarySearchFunc(r.gone, addr, func(e extent, a uint64) int { return cmpU(e.start, a) })
	if found {
		return true
	}
	return i > 0 && addr < r.gone[i-1].end()
}

// close gives the retired ranges back to the process.
func (r *vmRetired) close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, e := range r.gone {
		_ = unix.MunmapPtr(at(e.start), uintptr(e.size))
	}
	r.gone = nil
	r.n.Store(0)
}

func cmpU(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// blank makes [addr, addr+n) inaccessible in one step, dropping whatever
// was mapped there.
func blank(addr, n uint64) error {
	_, err := unix.MmapPtr(-1, 0, at(addr), uintptr(n), unix.PROT_NONE,
		unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_NORESERVE|unix.MAP_FIXED)
	return err
}
