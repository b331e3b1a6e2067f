package rt

import (
	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
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
	// usePool: a chunk of a stream-ordered memory pool (pool.go). Pointer
	// checks see the pool's allocations in it, never the chunk.
	usePool
)

// The device's allocator also holds the runtime's own buffers and hands a
// freed block straight back to the next allocation of its size, so one of
// them may sit where a freed allocation of the caller's was. Each device
// allocation carries its devUse as its tag (hal.MemPolicy.Tag): only the
// caller's (and what the runtime lent) is the caller's to copy, launch
// with or be described, only the caller's to free, and the device frees
// an allocation only with the tag expected, in one step with the check.

// Malloc allocates device memory of the caller's on c's device (aclrtMalloc).
func (c *Context) Malloc(size uint64, p hal.MemPolicy) (hal.Allocation, error) {
	c.d.r.waitUnlocked()
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
		return hal.Allocation{}, rterr.Errorf(rterr.KindInvalidParam, "size 0 is invalid, expected > 0")
	}
	p.Tag = uint8(use)
	return c.hd.Malloc(size, p)
}

// FreeInternal frees memory from MallocInternal or lend. An address the
// caller owns now is never freed: the runtime's memory there went before.
func (c *Context) FreeInternal(addr uint64) error {
	b, err := c.backend()
	if err != nil {
		return err
	}
	a, ok := b.Lookup(addr)
	if !ok || a.Host || a.Addr != addr {
		return c.hd.Free(addr, uint8(useNone)) // gone with its device, or never there: the device says which
	}
	if devUse(a.Tag) == useOwned {
		return rterr.Errorf(rterr.KindInvalidAddress, "device address %#x is the caller's memory, not the runtime's", addr)
	}
	return c.hd.Free(addr, a.Tag)
}
