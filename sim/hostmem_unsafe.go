package sim

import (
	"cmp"
	"errors"
	"math"
	"slices"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/gocann/gocann/hal"
)

// hostBlock is one live page-locked host allocation.
type hostBlock struct {
	mem  []byte // the whole mapping, whole pages
	size uint64 // bytes requested
}

func (b hostBlock) addr() uint64 { return uint64(uintptr(unsafe.Pointer(&b.mem[0]))) }

// hostMem registers page-locked host memory so that copies can tell it from
// pageable memory and a pointer can be traced back to its allocation. Each
// allocation is its own anonymous mapping: it is outside the Go heap, so it
// never moves and the collector never frees it, and it starts on a page,
// which gives the 64-byte alignment CANN promises. It is not mlocked: the
// simulator's copies do not need resident pages, and RLIMIT_MEMLOCK is too
// small on most hosts for real workloads. Its zero value is ready to use.
type hostMem struct {
	// mu guards live.
	mu   sync.RWMutex
	live []hostBlock // sorted by address
}

func (h *hostMem) alloc(size uint64) (unsafe.Pointer, error) {
	if size == 0 {
		return nil, hal.Errorf(hal.KindInvalidParam, "host memory size 0 is invalid, expected > 0")
	}
	n, ok := roundUp(size, hal.PageSizeNormal)
	if !ok || n > math.MaxInt {
		return nil, hal.Errorf(hal.KindInvalidParam, "host memory size %d is too large, expected <= %d", size, math.MaxInt-hal.PageSizeNormal+1)
	}
	mem, err := unix.Mmap(-1, 0, int(n), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err != nil {
		return nil, hal.Wrap(hal.KindOutOfMemory, err, "allocating %d bytes of host memory", size)
	}
	b := hostBlock{mem: mem, size: size}
	h.mu.Lock()
	defer h.mu.Unlock()
	i, _ := h.find(b.addr())
	h.live = slices.Insert(h.live, i, b)
	return unsafe.Pointer(&mem[0]), nil
}

func (h *hostMem) free(p unsafe.Pointer) error {
	mem, err := h.detach(p)
	if err != nil {
		return err
	}
	return unmapHost(mem)
}

// detach forgets the allocation at p but leaves it mapped: the caller
// unmaps it once no queued task can touch it.
func (h *hostMem) detach(p unsafe.Pointer) ([]byte, error) {
	addr := uint64(uintptr(p))
	h.mu.Lock()
	defer h.mu.Unlock()
	i, found := h.find(addr)
	if !found {
		return nil, hal.Errorf(hal.KindInvalidAddress, "host pointer %#x is not the start of a live host allocation", addr)
	}
	b := h.live[i]
	h.live = slices.Delete(h.live, i, i+1)
	return b.mem, nil
}

func unmapHost(mem []byte) error {
	if err := unix.Munmap(mem); err != nil {
		return hal.Wrap(hal.KindInternal, err, "unmapping host memory at %p", &mem[0])
	}
	return nil
}

// lookup returns the live host allocation whose requested bytes hold addr.
func (h *hostMem) lookup(addr uint64) (hal.Allocation, bool) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	i, found := h.find(addr)
	if !found {
		if i == 0 {
			return hal.Allocation{}, false
		}
		i--
	}
	b := h.live[i]
	start := b.addr()
	if addr-start >= b.size {
		return hal.Allocation{}, false
	}
	return hal.Allocation{Device: -1, Addr: start, Size: b.size, PageSize: hal.PageSizeNormal, Host: true}, true
}

// find returns the index of the block starting at addr, or where one would
// be inserted. The caller holds mu.
func (h *hostMem) find(addr uint64) (int, bool) {
	return slices.BinarySearchFunc(h.live, addr, func(b hostBlock, t uint64) int { return cmp.Compare(b.addr(), t) })
}

// close unmaps every live allocation.
func (h *hostMem) close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	var errs []error
	for _, b := range h.live {
		errs = append(errs, unix.Munmap(b.mem))
	}
	h.live = nil
	if err := errors.Join(errs...); err != nil {
		return hal.Wrap(hal.KindInternal, err, "unmapping host memory")
	}
	return nil
}
