package gocann

import (
	"github.com/gocann/gocann/internal/rt"
	"github.com/gocann/gocann/internal/rterr"
)

// MemPool is a stream-ordered memory pool of one device: Stream.MallocAsync
// takes memory from it for the stream's later tasks, Stream.FreeAsync gives
// it back for reuse without a device call. Which stream may reuse what
// another stream freed is set by the reuse attributes.
type MemPool struct {
	r *Runtime
	p *rt.MemPool
}

// MemPoolAttr is aclrtMemPoolAttr, with the CANN values. The three reuse
// switches read and write 0 or 1; the others are byte counts.
type MemPoolAttr int

const (
	// MemPoolReuseFollowEventDependencies lets a stream reuse memory freed
	// on a stream it waited for, through an event recorded there at or
	// after the free (ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES).
	MemPoolReuseFollowEventDependencies MemPoolAttr = MemPoolAttr(rt.PoolReuseFollowEventDependencies)
	// MemPoolReuseAllowOpportunistic lets a stream reuse memory whose free
	// has already run on its stream (ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC).
	MemPoolReuseAllowOpportunistic MemPoolAttr = MemPoolAttr(rt.PoolReuseAllowOpportunistic)
	// MemPoolReuseAllowInternalDependencies lets a stream reuse memory freed
	// on any stream while the switch was on, queueing a wait for the free
	// (ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES).
	MemPoolReuseAllowInternalDependencies MemPoolAttr = MemPoolAttr(rt.PoolReuseAllowInternalDependencies)
	// MemPoolReleaseThreshold is the cached memory a stream synchronize
	// leaves in the pool (ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD).
	MemPoolReleaseThreshold MemPoolAttr = MemPoolAttr(rt.PoolAttrReleaseThreshold)
	// MemPoolReservedCurrent is the device memory the pool holds, in use or
	// cached (ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT); read-only.
	MemPoolReservedCurrent MemPoolAttr = MemPoolAttr(rt.PoolAttrReservedMemCurrent)
	// MemPoolReservedHigh is the high-water mark of MemPoolReservedCurrent;
	// setting it to 0 resets it (ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH).
	MemPoolReservedHigh MemPoolAttr = MemPoolAttr(rt.PoolAttrReservedMemHigh)
	// MemPoolUsedCurrent is the memory allocated from the pool and not
	// freed (ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT); read-only.
	MemPoolUsedCurrent MemPoolAttr = MemPoolAttr(rt.PoolAttrUsedMemCurrent)
	// MemPoolUsedHigh is the high-water mark of MemPoolUsedCurrent; setting
	// it to 0 resets it (ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH).
	MemPoolUsedHigh MemPoolAttr = MemPoolAttr(rt.PoolAttrUsedMemHigh)
)

// NewMemPool creates a memory pool on the device of at most maxSize bytes,
// rounded up to 2 MiB; 0 means all of the device's memory. Every size taken
// from it is rounded up to 2 MiB too, as in CANN.
//
// CANN: aclrtMemPoolCreate.
func (d *Device) NewMemPool(maxSize int64) (*MemPool, error) {
	const op = "Device.NewMemPool (aclrtMemPoolCreate)"
	if err := d.r.require("aclrtMemPoolCreate"); err != nil {
		return nil, err
	}
	if maxSize < 0 {
		return nil, wrap(op, rterr.Errorf(rterr.KindInvalidParam, "maxSize %d is invalid, expected >= 0", maxSize))
	}
	p, err := d.d.NewMemPool(uint64(maxSize))
	if err != nil {
		return nil, wrap(op, err)
	}
	return d.r.memPool(p), nil
}

func (r *Runtime) memPool(p *rt.MemPool) *MemPool {
	if f, ok := p.Front.Load().(*MemPool); ok {
		return f
	}
	p.Front.CompareAndSwap(nil, &MemPool{r: r, p: p})
	return p.Front.Load().(*MemPool)
}

// Device is the pool's device.
//
// CANN: none.
func (p *MemPool) Device() *Device {
	d, _ := p.r.device(p.p.Device().ID())
	return d
}

// Size is the pool's maximum size, as rounded up at creation.
//
// CANN: none.
func (p *MemPool) Size() int64 { return int64(p.p.Size()) }

// Close destroys the pool and frees its memory, what is still allocated
// from it included; it does not wait for tasks using it.
//
// CANN: aclrtMemPoolDestroy.
func (p *MemPool) Close() error {
	if err := p.r.require("aclrtMemPoolDestroy"); err != nil {
		return err
	}
	return wrap("MemPool.Close (aclrtMemPoolDestroy)", p.p.Destroy())
}

// SetAttr sets an attribute: a reuse switch (any nonzero value turns it
// on), the release threshold (at most Size), or a high-water mark (only 0).
//
// CANN: aclrtMemPoolSetAttr.
func (p *MemPool) SetAttr(a MemPoolAttr, v uint64) error {
	if err := p.r.require("aclrtMemPoolSetAttr"); err != nil {
		return err
	}
	return wrap("MemPool.SetAttr (aclrtMemPoolSetAttr)", p.p.SetAttr(rt.PoolAttr(a), v))
}

// Attr reads an attribute.
//
// CANN: aclrtMemPoolGetAttr.
func (p *MemPool) Attr(a MemPoolAttr) (uint64, error) {
	if err := p.r.require("aclrtMemPoolGetAttr"); err != nil {
		return 0, err
	}
	v, err := p.p.Attr(rt.PoolAttr(a))
	return v, wrap("MemPool.Attr (aclrtMemPoolGetAttr)", err)
}

// TrimTo gives cached memory back to the device until the pool holds at
// most keep bytes: whole chunks with nothing allocated in them whose frees
// have run, so more may stay. Memory in use stays whatever keep is: 0
// gives back every idle chunk. keep may not exceed Size.
//
// CANN: aclrtMemPoolTrimTo.
func (p *MemPool) TrimTo(keep int64) error {
	const op = "MemPool.TrimTo (aclrtMemPoolTrimTo)"
	if err := p.r.require("aclrtMemPoolTrimTo"); err != nil {
		return err
	}
	if keep < 0 {
		return wrap(op, rterr.Errorf(rterr.KindInvalidParam, "minBytesToKeep %d is invalid, expected >= 0", keep))
	}
	return wrap(op, p.p.TrimTo(uint64(keep)))
}

// MallocAsync takes n bytes from pool p for the tasks the stream queues from
// now on; the address is valid at once.
//
// CANN: aclrtMemPoolMallocAsync.
func (s *Stream) MallocAsync(p *MemPool, n int64) (DevPtr, error) {
	const op = "Stream.MallocAsync (aclrtMemPoolMallocAsync)"
	if err := s.r.require("aclrtMemPoolMallocAsync"); err != nil {
		return 0, err
	}
	if p == nil {
		return 0, wrap(op, rterr.Errorf(rterr.KindBadArgument, "memPool is nil"))
	}
	if n <= 0 {
		return 0, wrap(op, rterr.Errorf(rterr.KindInvalidParam, "size %d is invalid, expected > 0", n))
	}
	addr, err := s.s.MallocAsync(p.p, uint64(n))
	return DevPtr(addr), wrap(op, err)
}

// FreeAsync returns memory from MallocAsync to its pool once the stream's
// earlier tasks are done; memory from Malloc is freed then.
//
// CANN: aclrtMemPoolFreeAsync.
func (s *Stream) FreeAsync(ptr DevPtr) error {
	const op = "Stream.FreeAsync (aclrtMemPoolFreeAsync)"
	if err := s.r.require("aclrtMemPoolFreeAsync"); err != nil {
		return err
	}
	if ptr == 0 {
		return wrap(op, rterr.Errorf(rterr.KindBadArgument, "ptr is 0, expected memory from a pool or from Malloc"))
	}
	return wrap(op, s.s.FreeAsync(uint64(ptr)))
}
