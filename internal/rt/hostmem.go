package rt

import (
	"sync"
	"unsafe"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// userHost records the page-locked host allocations the caller made
// (aclrtMallocHost), by start address. The backend's page-locked memory
// also holds the runtime's own staging buffers, which may sit where a
// freed allocation of the caller's was: only what is recorded here is the
// caller's to free, to copy from as pinned memory, or to be described.
type userHost struct {
	// mu guards live.
	mu   sync.RWMutex
	live map[uint64]struct{}
}

func (h *userHost) add(p unsafe.Pointer) {
	h.mu.Lock()
	if h.live == nil {
		h.live = make(map[uint64]struct{})
	}
	h.live[uint64(uintptr(p))] = struct{}{}
	h.mu.Unlock()
}

// take forgets the allocation at p, reporting whether it was the caller's.
func (h *userHost) take(p unsafe.Pointer) bool {
	addr := uint64(uintptr(p))
	h.mu.Lock()
	defer h.mu.Unlock()
	_, ok := h.live[addr]
	delete(h.live, addr)
	return ok
}

func (h *userHost) has(start uint64) bool {
	h.mu.RLock()
	defer h.mu.RUnlock()
	_, ok := h.live[start]
	return ok
}

// reset forgets everything: the backend that held it is gone.
func (h *userHost) reset() {
	h.mu.Lock()
	h.live = nil
	h.mu.Unlock()
}

// MallocHost allocates page-locked host memory (aclrtMallocHost).
func (r *Runtime) MallocHost(size uint64) (unsafe.Pointer, error) {
	r.waitUnlocked()
	b, err := r.live()
	if err != nil {
		return nil, err
	}
	if size == 0 {
		return nil, rterr.Errorf(rterr.KindInvalidParam, "size 0 is invalid, expected > 0")
	}
	p, err := b.MallocHost(size)
	if err != nil {
		return nil, err
	}
	r.host.add(p)
	return p, nil
}

// FreeHost frees page-locked host memory (aclrtFreeHost). Only the start of
// a live allocation from MallocHost is accepted.
func (r *Runtime) FreeHost(p unsafe.Pointer) error {
	r.waitUnlocked()
	b, err := r.live()
	if err != nil {
		return err
	}
	if p == nil {
		return rterr.Errorf(rterr.KindBadArgument, "hostPtr is NULL, expected memory from aclrtMallocHost")
	}
	a, _ := b.Lookup(uint64(uintptr(p)))
	if !r.host.take(p) {
		if a, ok := r.lookup(b, uint64(uintptr(p))); ok && a.Host {
			return rterr.Errorf(rterr.KindInvalidAddress, "hostPtr %p is inside the allocation at %#x, expected its start", p, a.Addr)
		}
		return rterr.Errorf(rterr.KindInvalidAddress, "hostPtr %p is not memory from aclrtMallocHost (never allocated, or already freed)", p)
	}
	r.dropRegs(b, a.Addr, a.Size) // registrations of the memory end with it
	return b.FreeHost(p)
}

// lookup is the backend's Lookup as the caller may see it: memory that is
// not the caller's, page-locked or device, is not reported. Device memory
// the runtime lent the caller is.
func (r *Runtime) lookup(b hal.Backend, addr uint64) (hal.Allocation, bool) {
	a, ok := b.Lookup(addr)
	if !ok || (!a.Host && devUse(a.Tag) == useNone) {
		// Imported memory is the caller's, whatever the device keeps of it.
		if _, m, ok := r.ipc.lookup(addr); ok {
			return m, true
		}
	}
	switch {
	case !ok:
	case a.Host && !r.host.has(a.Addr), !a.Host && devUse(a.Tag) == useNone:
		return hal.Allocation{}, false
	case !a.Host && devUse(a.Tag) == usePool:
		return r.pools.narrow(a, addr)
	}
	return a, ok
}
