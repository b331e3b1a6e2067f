package rt

import (
	"sync"

	"github.com/gocann/gocann/hal"
)

// devUse is what a device allocation is to the caller.
type devUse uint8

const (
	// useNone: the runtime's own memory (AI core stacks, placeholder
	// copies) or nothing at all. The caller never sees it.
	useNone devUse = iota
	// useOwned: the caller's, from aclrtMalloc, freed with aclrtFree.
	useOwned
	// useLent: the runtime's, handed to the caller to read and write (a
	// condition word, a task's argument block). Calls take it as device
	// memory; it is freed with what it belongs to, never by aclrtFree.
	useLent
)

// userDev records the device allocations the caller may see, by start
// address. The device's allocator also holds the runtime's own buffers and
// hands a freed block straight back to the next allocation of its size, so
// one of them may sit where a freed allocation of the caller's was: only
// what is recorded here is the caller's to free, copy, launch with or be
// described.
type userDev struct {
	// mu guards the fields below.
	mu   sync.RWMutex
	live map[uint64]devEntry
	// epoch counts, per device, the times its memory went (the device
	// opened or closed): an allocation made before it changed is gone and
	// is not recorded.
	epoch map[int]uint64
}

type devEntry struct {
	dev int
	use devUse
}

// epochOf returns device dev's epoch, read before allocating on it.
func (u *userDev) epochOf(dev int) uint64 {
	u.mu.RLock()
	defer u.mu.RUnlock()
	return u.epoch[dev]
}

// add records the allocation at addr on dev, made in epoch; it reports
// false if the device's memory has gone since.
func (u *userDev) add(dev int, epoch, addr uint64, use devUse) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.epoch[dev] != epoch {
		return false
	}
	if u.live == nil {
		u.live = make(map[uint64]devEntry)
	}
	u.live[addr] = devEntry{dev: dev, use: use}
	return true
}

// use reports what the allocation starting at addr is to the caller.
func (u *userDev) use(addr uint64) devUse {
	u.mu.RLock()
	defer u.mu.RUnlock()
	return u.live[addr].use
}

// takeOwned forgets the caller's allocation at addr for aclrtFree; any
// other use is reported and kept.
func (u *userDev) takeOwned(addr uint64) devUse {
	u.mu.Lock()
	defer u.mu.Unlock()
	use := u.live[addr].use
	if use == useOwned {
		delete(u.live, addr)
	}
	return use
}

// dropInternal forgets memory of the runtime's at addr as it is freed,
// reporting false if addr is the caller's.
func (u *userDev) dropInternal(addr uint64) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	switch u.live[addr].use {
	case useOwned:
		return false
	case useLent:
		delete(u.live, addr)
	}
	return true
}

// dropDevice forgets every allocation of dev: its memory is gone.
func (u *userDev) dropDevice(dev int) {
	u.mu.Lock()
	defer u.mu.Unlock()
	for addr, e := range u.live {
		if e.dev == dev {
			delete(u.live, addr)
		}
	}
	if u.epoch == nil {
		u.epoch = make(map[int]uint64)
	}
	u.epoch[dev]++
}

// reset forgets everything: the backend that held it is gone.
func (u *userDev) reset() {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.live = nil
	for dev := range u.epoch {
		u.epoch[dev]++
	}
}

// Malloc allocates device memory of the caller's on c's device (aclrtMalloc).
func (c *Context) Malloc(size uint64, p hal.MemPolicy) (hal.Allocation, error) {
	return c.malloc(size, p, useOwned)
}

// MallocInternal allocates device memory of the runtime's own on c's
// device: the caller never sees it as an allocation, so no call of the
// caller's can free, copy into or describe it. Free it with FreeInternal.
func (c *Context) MallocInternal(size uint64) (hal.Allocation, error) {
	return c.malloc(size, hal.MemPolicy{Page: hal.PageNormalOnly}, useNone)
}

// lend allocates device memory of the runtime's that the caller reads and
// writes but does not free. Free it with FreeInternal.
func (c *Context) lend(size uint64) (hal.Allocation, error) {
	return c.malloc(size, hal.MemPolicy{Page: hal.PageNormalOnly}, useLent)
}

func (c *Context) malloc(size uint64, p hal.MemPolicy, use devUse) (hal.Allocation, error) {
	if err := c.check(); err != nil {
		return hal.Allocation{}, err
	}
	if size == 0 {
		return hal.Allocation{}, hal.Errorf(hal.KindInvalidParam, "size 0 is invalid, expected > 0")
	}
	u := &c.d.r.dev
	epoch := u.epochOf(c.d.id)
	a, err := c.hd.Malloc(size, p)
	if err != nil || use == useNone {
		return a, err
	}
	if !u.add(c.d.id, epoch, a.Addr, use) {
		return hal.Allocation{}, hal.Errorf(hal.KindInvalidHandle, "context %d: device %d closed during the allocation", c.id, c.d.id)
	}
	return a, nil
}

// FreeInternal frees memory from MallocInternal or lend. Memory of a device
// that has closed since is gone already. An address the caller owns now is
// never freed: the runtime's memory there went before.
func (c *Context) FreeInternal(addr uint64) error {
	if !c.d.r.dev.dropInternal(addr) {
		return hal.Errorf(hal.KindInvalidAddress, "device address %#x is the caller's memory, not the runtime's", addr)
	}
	return c.hd.Free(addr)
}
