package rt

import (
	"cmp"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// Stream-ordered memory pools (aclrtMemPool*, the reference's SOMA).
//
// A pool grows by chunks, each one device allocation of the pool's
// (tag usePool), and hands out segments of them, every size rounded up to
// poolBlock as CANN's runtime does. A freed segment is cached in the pool
// with the stream that freed it and that stream's position at the free;
// the reuse rules (poolreuse.go) decide which later allocation may take
// it. Only TrimTo, the release threshold at a stream synchronize and
// Destroy give chunks back to the device. So an allocation served from the
// cache costs no device call and no system call.

// poolBlock is CANN's DEVICE_POOL_MIN_BLOCK_SIZE and DEVICE_POOL_ALIGN_SIZE:
// allocations and the pool's size are multiples of it.
const poolBlock = 2 << 20

// PoolAttr is aclrtMemPoolAttr, with the CANN values.
type PoolAttr int

const (
	PoolReuseFollowEventDependencies   PoolAttr = 1
	PoolReuseAllowOpportunistic        PoolAttr = 2
	PoolReuseAllowInternalDependencies PoolAttr = 3
	PoolAttrReleaseThreshold           PoolAttr = 4
	PoolAttrReservedMemCurrent         PoolAttr = 5
	PoolAttrReservedMemHigh            PoolAttr = 6
	PoolAttrUsedMemCurrent             PoolAttr = 7
	PoolAttrUsedMemHigh                PoolAttr = 8
)

var poolAttrNames = [...]string{"", "ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES", "ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC",
	"ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES", "ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD",
	"ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT", "ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH",
	"ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT", "ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH"}

func (a PoolAttr) String() string {
	if a > 0 && int(a) < len(poolAttrNames) {
		return poolAttrNames[a]
	}
	return "aclrtMemPoolAttr(" + itoa(int(a)) + ")"
}

// IsFlag reports whether the attribute is one of the reuse switches, whose
// value is a uint32; the others are uint64.
func (a PoolAttr) IsFlag() bool {
	return a >= PoolReuseFollowEventDependencies && a <= PoolReuseAllowInternalDependencies
}

// MemPool is a stream-ordered memory pool of one device.
type MemPool struct {
	// Front holds the API layer's object for this one, set once.
	Front atomic.Value

	d    *Device
	hd   hal.Device // the device as the pool was created on it
	size uint64     // maxSize rounded up to poolBlock

	// mu guards the fields below.
	mu        sync.Mutex
	dead      bool
	cached    []*poolSeg // freed segments, in the order freed
	chunks    map[uint64]*poolChunk
	reuse     [4]bool // indexed by the reuse attributes
	threshold uint64
	used      uint64 // bytes of busy segments
	reserved  uint64 // bytes of chunks
	usedHigh  uint64
	resvHigh  uint64
}

// poolChunk is one device allocation of a pool, cut into segments.
type poolChunk struct {
	pool       *MemPool
	addr, size uint64
	first      *poolSeg
}

// poolSeg is a run of a chunk, busy or cached.
type poolSeg struct {
	chunk      *poolChunk
	addr, size uint64
	req        uint64 // bytes asked for, while busy: copies are checked against it
	busy       bool
	s          *Stream   // busy: the stream it was allocated on; cached: the one that freed it
	seq        uint64    // cached: s's last task before the free
	ev         hal.Event // cached: recorded on s at the free, for implicit reuse; nil otherwise
	prev, next *poolSeg  // neighbours in the chunk
}

// poolRegistry finds the chunk holding a device address, so that pointer
// checks see a pool's allocations as they are rather than its chunks, and
// FreeAsync finds its pool without asking the device.
type poolRegistry struct {
	live atomic.Int32 // pools not destroyed: 0 keeps waits and syncs free of pool work
	// snap is every live chunk sorted by address, replaced whole when one
	// comes or goes (rarely: the pool keeps what is freed), read lock-free.
	snap atomic.Pointer[[]*poolChunk]

	// mu guards the fields below and serialises snap's writers.
	mu    sync.Mutex
	pools map[*MemPool]struct{}
}

func (g *poolRegistry) add(c *poolChunk) {
	g.mu.Lock()
	var old []*poolChunk
	if s := g.snap.Load(); s != nil {
		old = *s
	}
	// A chunk overlapping the new one is of a pool whose device closed and
	// took the chunk's memory with it.
	s := slices.DeleteFunc(slices.Clone(old), func(x *poolChunk) bool { return x.addr < c.addr+c.size && c.addr < x.addr+x.size })
	i, _ := slices.BinarySearchFunc(s, c.addr, func(x *poolChunk, a uint64) int { return cmp.Compare(x.addr, a) })
	s = slices.Insert(s, i, c)
	g.snap.Store(&s)
	g.mu.Unlock()
}

func (g *poolRegistry) remove(c *poolChunk) {
	g.mu.Lock()
	if p := g.snap.Load(); p != nil {
		if i := slices.Index(*p, c); i >= 0 {
			s := slices.Delete(slices.Clone(*p), i, i+1)
			g.snap.Store(&s)
		}
	}
	g.mu.Unlock()
}

// chunk returns the live pool chunk holding addr, or nil.
func (g *poolRegistry) chunk(addr uint64) *poolChunk {
	p := g.snap.Load()
	if p == nil {
		return nil
	}
	s := *p
	i, found := slices.BinarySearchFunc(s, addr, func(x *poolChunk, a uint64) int { return cmp.Compare(x.addr, a) })
	if !found {
		if i == 0 {
			return nil
		}
		i--
	}
	if c := s[i]; addr-c.addr < c.size {
		return c
	}
	return nil
}

// narrow turns the device allocation a, a pool's chunk, into the pool
// allocation holding addr; ok is false if addr is in no busy segment.
func (g *poolRegistry) narrow(a hal.Allocation, addr uint64) (hal.Allocation, bool) {
	c := g.chunk(addr)
	if c == nil || c.addr != a.Addr {
		return hal.Allocation{}, false
	}
	p := c.pool
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.dead {
		return hal.Allocation{}, false
	}
	sg := c.at(addr)
	if sg == nil || !sg.busy || addr-sg.addr >= sg.req {
		return hal.Allocation{}, false
	}
	a.Addr, a.Size = sg.addr, sg.req
	return a, true
}

// at returns the segment of c holding addr, or nil. Its pool's mu held.
func (c *poolChunk) at(addr uint64) *poolSeg {
	for sg := c.first; sg != nil; sg = sg.next {
		if addr-sg.addr < sg.size {
			return sg
		}
	}
	return nil
}

func (g *poolRegistry) join(p *MemPool) {
	g.mu.Lock()
	if g.pools == nil {
		g.pools = make(map[*MemPool]struct{})
	}
	g.pools[p] = struct{}{}
	g.live.Store(int32(len(g.pools)))
	g.mu.Unlock()
}

func (g *poolRegistry) leave(p *MemPool) {
	g.mu.Lock()
	delete(g.pools, p)
	g.live.Store(int32(len(g.pools)))
	g.mu.Unlock()
}

// synced applies every pool's release threshold of device d after a
// synchronize there: cached memory beyond the threshold goes back, as far
// as it is idle.
func (g *poolRegistry) synced(d *Device) {
	g.mu.Lock()
	var buf [8]*MemPool
	pools := buf[:0]
	for p := range g.pools {
		if p.d == d {
			pools = append(pools, p)
		}
	}
	g.mu.Unlock()
	for _, p := range pools {
		p.mu.Lock()
		if !p.dead && p.reserved-p.used > p.threshold {
			p.trim(p.used + p.threshold)
		}
		p.mu.Unlock()
	}
}

// NewMemPool creates a pool of at most maxSize bytes on d
// (aclrtMemPoolCreate); 0 means all of the device's memory.
func (d *Device) NewMemPool(maxSize uint64) (*MemPool, error) {
	hd, err := d.halDevice()
	if err != nil {
		return nil, err
	}
	_, total := hd.MemInfo()
	size := total / poolBlock * poolBlock
	if maxSize != 0 {
		size = (maxSize + poolBlock - 1) / poolBlock * poolBlock
		if size < maxSize || size > total {
			return nil, rterr.Errorf(rterr.KindInvalidParam,
				"poolProps->maxSize %d is invalid: rounded up to a multiple of 2 MiB it exceeds device %d's %d bytes of memory", maxSize, d.id, total)
		}
	}
	p := &MemPool{d: d, hd: hd, size: size, chunks: make(map[uint64]*poolChunk)}
	d.r.pools.join(p)
	return p, nil
}

// Device is the pool's device.
func (p *MemPool) Device() *Device { return p.d }

// Size is the pool's maximum size, maxSize rounded up to 2 MiB.
func (p *MemPool) Size() uint64 { return p.size }

// errGone is CANN's "memory pool is not created or destroyed"
// (RT_ERROR_MEM_POOL_NULL, which its runtime reports as an internal error).
func errPoolGone() error {
	return rterr.Errorf(rterr.KindInternal, "memPool is not a live memory pool (destroyed, or its device was reset)")
}

// check reports a destroyed pool, or one whose device closed under it (its
// chunks went with the device). p.mu held.
func (p *MemPool) check() error {
	if !p.dead {
		if hd, err := p.d.halDevice(); err == nil && hd == p.hd {
			return nil
		}
		p.die()
	}
	return errPoolGone()
}

// checkOn is check for a call through a live stream of context c: the
// context holds the device open, so the device is the pool's if c's is.
// p.mu held.
func (p *MemPool) checkOn(c *Context) error {
	if !p.dead && c.hd == p.hd {
		return nil
	}
	return p.check()
}

// die forgets the pool's chunks without freeing them (their device is
// gone). p.mu held.
func (p *MemPool) die() {
	p.dead = true
	p.d.r.pools.leave(p)
	for _, c := range p.chunks {
		p.d.r.pools.remove(c)
	}
	for _, sg := range p.cached {
		closeEvent(sg)
	}
	p.chunks, p.cached = nil, nil
	p.used, p.reserved = 0, 0
}

func closeEvent(sg *poolSeg) {
	if sg.ev != nil {
		sg.ev.Close()
		sg.ev = nil
	}
}

// Destroy destroys the pool (aclrtMemPoolDestroy) and frees its memory,
// allocations still in use included; like aclrtFree it does not wait for
// tasks using them.
func (p *MemPool) Destroy() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.check(); err != nil {
		return err
	}
	chunks := p.chunks
	p.die()
	for _, c := range chunks {
		p.hd.Free(c.addr, uint8(usePool))
	}
	return nil
}

// SetAttr sets an attribute (aclrtMemPoolSetAttr). The reuse switches take
// any value, nonzero meaning on; the release threshold at most the pool's
// size; the high-water marks only 0, which resets them.
func (p *MemPool) SetAttr(a PoolAttr, v uint64) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.check() != nil {
		return errPoolSet("set")
	}
	switch a {
	case PoolReuseFollowEventDependencies, PoolReuseAllowOpportunistic, PoolReuseAllowInternalDependencies:
		p.reuse[a] = v != 0
	case PoolAttrReleaseThreshold:
		if v > p.size {
			return rterr.Errorf(rterr.KindInternal, "%s value %d is out of range, expected <= the pool's size %d", a, v, p.size)
		}
		p.threshold = v
	case PoolAttrReservedMemCurrent, PoolAttrUsedMemCurrent:
		return rterr.Errorf(rterr.KindInvalidParam, "attr %s(%d) is read-only", a, int(a))
	case PoolAttrReservedMemHigh, PoolAttrUsedMemHigh:
		if v != 0 {
			return rterr.Errorf(rterr.KindInternal, "%s value %d is invalid, expected 0 (which resets it)", a, v)
		}
		if a == PoolAttrReservedMemHigh {
			p.resvHigh = p.reserved
		} else {
			p.usedHigh = p.used
		}
	default:
		return errPoolAttr(a)
	}
	return nil
}

// Attr reads an attribute (aclrtMemPoolGetAttr).
func (p *MemPool) Attr(a PoolAttr) (uint64, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.check() != nil {
		return 0, errPoolSet("get")
	}
	switch a {
	case PoolReuseFollowEventDependencies, PoolReuseAllowOpportunistic, PoolReuseAllowInternalDependencies:
		if p.reuse[a] {
			return 1, nil
		}
		return 0, nil
	case PoolAttrReleaseThreshold:
		return p.threshold, nil
	case PoolAttrReservedMemCurrent:
		return p.reserved, nil
	case PoolAttrReservedMemHigh:
		return p.resvHigh, nil
	case PoolAttrUsedMemCurrent:
		return p.used, nil
	case PoolAttrUsedMemHigh:
		return p.usedHigh, nil
	}
	return 0, errPoolAttr(a)
}

// errPoolSet: CANN's attribute calls report an unknown pool as an invalid
// value.
func errPoolSet(verb string) error {
	return rterr.Errorf(rterr.KindInvalidParam, "memPool is not a live memory pool; create it before you %s its attributes", verb)
}

// errPoolAttr is RT_ERROR_POOL_PROP_INVALID, an internal error to CANN's
// runtime.
func errPoolAttr(a PoolAttr) error {
	return rterr.Errorf(rterr.KindInternal, "attr %s is invalid, expected an aclrtMemPoolAttr from 1 to 8", a)
}

// TrimTo gives cached memory back to the device until the pool reserves at
// most keep bytes (aclrtMemPoolTrimTo), without touching the memory in use.
// CANN's runtime asks the driver (halMemPoolTrim) how far the pool can
// shrink and trims to that, so a keep below the bytes in use trims to
// them. Only whole chunks with nothing busy go, and only memory whose free
// every stream has passed, so what is left may exceed keep.
func (p *MemPool) TrimTo(keep uint64) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.check(); err != nil {
		return err
	}
	if keep > p.size {
		// SegmentManager::TrimTo's RT_ERROR_POOL_OP_INVALID.
		return rterr.Errorf(rterr.KindInternal, "minBytesToKeep %d is invalid, expected <= the pool's size %d", keep, p.size)
	}
	p.trim(max(keep, p.used))
	return nil
}

// trim frees idle chunks, smallest first, while more than keep bytes are
// reserved. p.mu held.
func (p *MemPool) trim(keep uint64) {
	for p.reserved > keep {
		var best *poolChunk
		for _, c := range p.chunks {
			if c.idle() && (best == nil || c.size < best.size || c.size == best.size && c.addr < best.addr) {
				best = c
			}
		}
		if best == nil {
			return
		}
		p.release(best)
	}
}

// idle reports whether the chunk is one cached segment whose free has run.
func (c *poolChunk) idle() bool {
	sg := c.first
	return sg.next == nil && !sg.busy && sg.s.q.Completed() >= sg.seq
}

// release frees chunk c to the device. p.mu held.
func (p *MemPool) release(c *poolChunk) {
	sg := c.first
	p.uncache(sg)
	closeEvent(sg)
	delete(p.chunks, c.addr)
	p.d.r.pools.remove(c)
	p.reserved -= c.size
	p.hd.Free(c.addr, uint8(usePool))
}

// uncache drops sg from the cached list. p.mu held.
func (p *MemPool) uncache(sg *poolSeg) {
	for i, x := range p.cached {
		if x == sg {
			copy(p.cached[i:], p.cached[i+1:])
			p.cached[len(p.cached)-1] = nil
			p.cached = p.cached[:len(p.cached)-1]
			return
		}
	}
}
