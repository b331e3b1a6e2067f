package sim

import (
	"cmp"
	"math"
	"math/bits"
	"slices"

	"github.com/gocann/gocann/hal"
)

// span is one live allocation. Bounds checks use size, the bytes the caller
// asked for; reserved is what the allocation takes out of the range.
// Lookups copy spans on every copy end; word-sized fields only keep those
// copies free of store-forwarding stalls (byte fields cost 25%).
type span struct {
	start, size, reserved uint64
	meta                  uint64 // log2 of the page size | hal.MemPolicy.Tag<<8
}

func newSpan(start, size, reserved, page uint64) span {
	return span{start: start, size: size, reserved: reserved, meta: uint64(bits.TrailingZeros64(page))}
}

func (s span) page() uint64 { return 1 << (s.meta & 0xff) }
func (s span) tag() uint8   { return uint8(s.meta >> 8) }

// extent is a run of free bytes on the free list.
type extent struct{ start, size uint64 }

func (e extent) end() uint64 { return e.start + e.size }

// allocator hands out page-aligned ranges of [base, base+size). It is pure
// bookkeeping: it never touches the memory it manages, and the caller locks.
//
// Freed blocks first go to a cache keyed by reserved size and page, so a
// program that frees and reallocates the same size (the common pattern of a
// training loop) gets the same address back in O(1) with its old bytes, as
// the CANN caching allocator does. Only blocks leaving the cache reach the
// free list and the release hook.
type allocator struct {
	base, size uint64
	cacheLimit uint64

	// release, if set, is told of every block that goes back to the free
	// list, so the owner can give its pages back to the OS.
	release func(addr, n uint64)
	// budget, if set, is the device's capacity shared with other
	// processes: live bytes are taken from it first (sharedmem.go).
	budget budget

	live      []span   // sorted by start
	extents   []extent // sorted by start, coalesced
	usedBytes uint64   // reserved bytes of live
	cache     blockCache
	byTag     [memUseTags]memUse // usedBytes by tag (memusage.go)
	stats     MemStats           // calls and the system calls they cost (memstats.go)
}

func newAllocator(base, size, cacheLimit uint64) *allocator {
	if size > math.MaxUint64-base {
		// A range wrapping past the top of the address space is a bug in
		// the caller, not a runtime condition.
		panic("allocator range wraps around the address space")
	}
	a := &allocator{base: base, size: size, cacheLimit: cacheLimit}
	if size > 0 {
		a.extents = []extent{{base, size}}
	}
	return a
}

func (a *allocator) used() uint64     { return a.usedBytes }
func (a *allocator) capacity() uint64 { return a.size }

// roundUp rounds x up to a multiple of the power of two p; ok is false if
// the result does not fit in 64 bits.
func roundUp(x, p uint64) (r uint64, ok bool) {
	r = (x + p - 1) &^ (p - 1)
	return r, r >= x
}

// reservedSize is the number of bytes an allocation of size bytes takes:
// CANN pads every allocation to 32 bytes and adds 32 more, then the page
// size rounds it up.
func reservedSize(size, page uint64) (uint64, error) {
	if page < hal.PageSizeNormal || bits.OnesCount64(page) != 1 {
		return 0, hal.Errorf(hal.KindInvalidParam,
			"page size %d is invalid, expected a power of two >= %d", page, hal.PageSizeNormal)
	}
	if size == 0 {
		return 0, hal.Errorf(hal.KindInvalidParam, "size 0 is invalid, expected > 0")
	}
	// The largest size whose padding still fits: the top page multiple
	// minus the 32-byte tail.
	if limit := uint64(math.MaxUint64)&^(page-1) - 32; size > limit {
		return 0, hal.Errorf(hal.KindInvalidParam,
			"size %d is too large, expected <= %d with %d-byte pages", size, limit, page)
	}
	r, _ := roundUp(size, 32)
	r, _ = roundUp(r+32, page)
	return r, nil
}

// alloc reserves room for size bytes aligned to page and returns its address.
func (a *allocator) alloc(size, page uint64) (uint64, error) {
	a.stats.Allocs++
	reserved, err := reservedSize(size, page)
	if err != nil {
		return 0, err
	}
	if err := a.takeBudget(size, reserved); err != nil {
		return 0, err
	}
	key := cacheKey{reserved, page}
	if b := a.cache.pop(key); b != nil {
		a.addLive(newSpan(b.addr, size, reserved, page))
		return b.addr, nil
	}
	avail := a.size - a.usedBytes
	if reserved <= avail {
		addr, ok := a.take(reserved, page)
		if !ok && a.cache.bytes > 0 {
			// Cached blocks are free memory held back for reuse; give them
			// all up before failing, as the caching allocator does.
			a.flush()
			addr, ok = a.take(reserved, page)
		}
		if ok {
			a.addLive(newSpan(addr, size, reserved, page))
			return addr, nil
		}
	}
	a.giveBudget(reserved)
	return 0, hal.Errorf(hal.KindOutOfMemory,
		"out of memory: requested %d bytes (%d reserved at %d-byte alignment), %d bytes free, largest free extent %d bytes",
		size, reserved, page, avail, a.largestFree())
}

// free releases the allocation starting at addr into the cache.
func (a *allocator) free(addr uint64) error {
	a.stats.Frees++
	i, found := a.find(addr)
	if !found {
		return a.badFree(addr)
	}
	s := a.live[i]
	a.live = slices.Delete(a.live, i, i+1)
	a.usedBytes -= s.reserved
	a.giveBudget(s.reserved)
	if s.reserved > a.cacheLimit {
		// Caching it would evict everything else and still not fit.
		a.giveBack(s.start, s.reserved)
		return nil
	}
	a.cache.push(s.start, cacheKey{s.reserved, s.page()})
	for a.cache.bytes > a.cacheLimit {
		b := a.cache.popOldest()
		a.giveBack(b.addr, b.key.reserved)
	}
	return nil
}

func (a *allocator) badFree(addr uint64) error {
	if a.cache.holds(addr) {
		return hal.Errorf(hal.KindInvalidAddress,
			"address %#x was already freed, expected the start of a live allocation", addr)
	}
	if s, ok := a.lookup(addr); ok {
		return hal.Errorf(hal.KindInvalidAddress,
			"address %#x is inside the allocation at %#x, expected the start of a live allocation", addr, s.start)
	}
	return hal.Errorf(hal.KindInvalidAddress, "address %#x is not the start of a live allocation", addr)
}

// lookup returns the live allocation whose requested bytes hold addr.
func (a *allocator) lookup(addr uint64) (span, bool) {
	i, found := a.find(addr)
	if !found {
		if i == 0 {
			return span{}, false
		}
		i--
	}
	s := a.live[i]
	if addr-s.start >= s.size {
		return span{}, false
	}
	return s, true
}

// find returns the index of the live allocation starting at addr, or where
// one would be inserted.
func (a *allocator) find(addr uint64) (int, bool) {
	return slices.BinarySearchFunc(a.live, addr, func(s span, t uint64) int { return cmp.Compare(s.start, t) })
}

// setTag labels the live allocation at addr.
func (a *allocator) setTag(addr uint64, tag uint8) {
	if i, found := a.find(addr); found {
		a.live[i].meta = a.live[i].meta&0xff | uint64(tag)<<8
	}
}

func (a *allocator) addLive(s span) {
	i, _ := a.find(s.start)
	a.live = slices.Insert(a.live, i, s)
	a.usedBytes += s.reserved
}

// take carves n bytes aligned to page out of the first free extent that
// has room, putting the leftovers on either side back.
func (a *allocator) take(n, page uint64) (uint64, bool) {
	for i, e := range a.extents {
		start, ok := roundUp(e.start, page)
		if !ok || start >= e.end() || e.end()-start < n {
			continue
		}
		var rest [2]extent
		k := 0
		if start > e.start {
			rest[k] = extent{e.start, start - e.start}
			k++
		}
		if tail := e.end() - (start + n); tail > 0 {
			rest[k] = extent{start + n, tail}
			k++
		}
		a.extents = slices.Replace(a.extents, i, i+1, rest[:k]...)
		return start, true
	}
	return 0, false
}

// giveBack puts [start, start+n) on the free list, merging it with its
// neighbours, and tells the release hook.
func (a *allocator) giveBack(start, n uint64) {
	i, _ := slices.BinarySearchFunc(a.extents, start, func(e extent, t uint64) int { return cmp.Compare(e.start, t) })
	joinPrev := i > 0 && a.extents[i-1].end() == start
	joinNext := i < len(a.extents) && start+n == a.extents[i].start
	switch {
	case joinPrev && joinNext:
		a.extents[i-1].size += n + a.extents[i].size
		a.extents = slices.Delete(a.extents, i, i+1)
	case joinPrev:
		a.extents[i-1].size += n
	case joinNext:
		a.extents[i] = extent{start, n + a.extents[i].size}
	default:
		a.extents = slices.Insert(a.extents, i, extent{start, n})
	}
	if a.release != nil {
		a.stats.SysCalls++ // the hook punches the pages out: one fallocate
		a.release(start, n)
	}
}

// flush empties the cache onto the free list.
func (a *allocator) flush() {
	for b := a.cache.popOldest(); b != nil; b = a.cache.popOldest() {
		a.giveBack(b.addr, b.key.reserved)
	}
}

func (a *allocator) largestFree() uint64 {
	var m uint64
	for _, e := range a.extents {
		m = max(m, e.size)
	}
	return m
}

// cacheKey says which requests a cached block can serve: the same reserved
// size at no stricter alignment than the one it was carved with. Keying on
// the page too keeps a hit O(1).
type cacheKey struct{ reserved, page uint64 }

// cachedBlock is a freed block held for reuse. Blocks are linked oldest to
// newest across all keys so the cache can give back the oldest first.
type cachedBlock struct {
	addr         uint64
	key          cacheKey
	older, newer *cachedBlock
}

// blockCache holds freed blocks: a LIFO stack per key, so a hit returns the
// most recently freed block, and one age list for eviction. Its zero value
// is empty.
type blockCache struct {
	stacks         map[cacheKey][]*cachedBlock // oldest first
	at             map[uint64]*cachedBlock     // by address, to spot double frees
	oldest, newest *cachedBlock
	bytes          uint64
}

func (c *blockCache) holds(addr uint64) bool { return c.at[addr] != nil }

func (c *blockCache) push(addr uint64, key cacheKey) {
	if c.stacks == nil {
		c.stacks = make(map[cacheKey][]*cachedBlock)
		c.at = make(map[uint64]*cachedBlock)
	}
	b := &cachedBlock{addr: addr, key: key, older: c.newest}
	if c.newest != nil {
		c.newest.newer = b
	} else {
		c.oldest = b
	}
	c.newest = b
	c.stacks[key] = append(c.stacks[key], b)
	c.at[addr] = b
	c.bytes += key.reserved
}

// pop removes and returns the most recently freed block for key, or nil.
func (c *blockCache) pop(key cacheKey) *cachedBlock {
	s := c.stacks[key]
	if len(s) == 0 {
		return nil
	}
	b := s[len(s)-1]
	s[len(s)-1] = nil
	c.setStack(key, s[:len(s)-1])
	c.unlink(b)
	return b
}

// popOldest removes and returns the block freed longest ago, or nil.
func (c *blockCache) popOldest() *cachedBlock {
	b := c.oldest
	if b == nil {
		return nil
	}
	// Within its key the oldest block overall is also the oldest, so it
	// sits at the bottom of its stack.
	s := c.stacks[b.key]
	s[0] = nil
	c.setStack(b.key, s[1:])
	c.unlink(b)
	return b
}

func (c *blockCache) setStack(key cacheKey, s []*cachedBlock) {
	if len(s) == 0 {
		// Drop empty stacks so a program cycling through many sizes does
		// not grow the map forever.
		delete(c.stacks, key)
		return
	}
	c.stacks[key] = s
}

func (c *blockCache) unlink(b *cachedBlock) {
	if b.older != nil {
		b.older.newer = b.newer
	} else {
		c.oldest = b.newer
	}
	if b.newer != nil {
		b.newer.older = b.older
	} else {
		c.newest = b.older
	}
	b.older, b.newer = nil, nil
	delete(c.at, b.addr)
	c.bytes -= b.key.reserved
}
