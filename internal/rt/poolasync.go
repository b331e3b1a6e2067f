package rt

import (
	"math"
	"sync"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// The reuse rules of the reference's stream-ordered allocation chapter,
// tried in this order for each allocation, each taking the smallest cached
// segment that fits:
//
//  1. a segment freed on the allocating stream: its later tasks follow the
//     free in stream order (always on);
//  2. ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES: one freed on a stream
//     the allocating stream waited for, through an event recorded there at
//     or after the free;
//  3. ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC: one whose free its stream
//     has already passed;
//  4. ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES: one freed on any
//     stream while the attribute was on; the allocating stream gets a wait
//     for the free (the free recorded an event for it).
//
// Otherwise the pool grows.

// streamPool is a stream's part in pool reuse.
type streamPool struct {
	// mu guards deps.
	mu sync.Mutex
	// deps: every task this stream queues from now on follows the other
	// stream's tasks up to the sequence number, learnt from event waits.
	deps map[*Stream]uint64

	alloc *AllocatorDesc // the custom allocator registered (allocator.go)
}

// follows is how far s's later tasks follow o's; ok is false if s never
// waited for o.
func (s *Stream) follows(o *Stream) (seq uint64, ok bool) {
	s.pool.mu.Lock()
	defer s.pool.mu.Unlock()
	seq, ok = s.pool.deps[o]
	return seq, ok
}

// poolWaited records that s's later tasks follow o's up to seq (a wait for
// an event o recorded as its task seq). Only while a pool exists: the map
// costs nothing otherwise.
func (s *Stream) poolWaited(o *Stream, seq uint64) {
	if o == nil || o == s || s.c.d.r.pools.live.Load() == 0 {
		return
	}
	s.pool.mu.Lock()
	if s.pool.deps == nil {
		s.pool.deps = make(map[*Stream]uint64)
	}
	if seq > s.pool.deps[o] {
		s.pool.deps[o] = seq
	}
	s.pool.mu.Unlock()
}

// poolStream checks a stream for a pool call on pool p's device.
func (s *Stream) poolStream(p *MemPool, what string) error {
	if err := s.usable(); err != nil {
		return err
	}
	if s.divert.Load() != nil || s.persistent {
		return rterr.Errorf(rterr.KindNotSupported, "%s on stream %d, which is capturing or bound to a model, is not supported: models do not record pool allocations", what, s.id)
	}
	if p != nil && p.d != s.c.d {
		return rterr.Errorf(rterr.KindInvalidParam, "stream %d is on device %d, expected a stream of the pool's device %d", s.id, s.c.d.id, p.d.id)
	}
	return nil
}

// MallocAsync takes size bytes from pool p for the tasks of s queued from
// now on (aclrtMemPoolMallocAsync). Zero bytes return 0 and no error, as
// CANN does.
func (s *Stream) MallocAsync(p *MemPool, size uint64) (uint64, error) {
	if size == 0 {
		return 0, nil
	}
	if err := s.poolStream(p, "aclrtMemPoolMallocAsync"); err != nil {
		return 0, err
	}
	if size > math.MaxUint64-(poolBlock-1) {
		return 0, rterr.Errorf(rterr.KindInvalidParam, "size %d is invalid: rounding it up to 2 MiB overflows", size)
	}
	n := (size + poolBlock - 1) / poolBlock * poolBlock
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.checkOn(s.c); err != nil {
		return 0, err
	}
	sg, err := p.reuseFor(s, n)
	if err != nil {
		return 0, err
	}
	if sg == nil {
		if sg, err = p.grow(n); err != nil {
			return 0, err
		}
	}
	sg.busy, sg.req, sg.s, sg.seq = true, size, s, 0
	p.used += sg.size
	p.usedHigh = max(p.usedHigh, p.used)
	return sg.addr, nil
}

// reuseFor takes a cached segment of at least n bytes that s may use, by
// the rules above, split to n bytes; nil if there is none. p.mu held.
func (p *MemPool) reuseFor(s *Stream, n uint64) (*poolSeg, error) {
	for rule := 0; rule < 4; rule++ {
		if rule > 0 && !p.reuse[rule] {
			continue
		}
		var best *poolSeg
		for _, sg := range p.cached {
			if sg.size >= n && (best == nil || sg.size < best.size) && p.allows(rule, s, sg) {
				best = sg
			}
		}
		if best == nil {
			continue
		}
		if rule == int(PoolReuseAllowInternalDependencies) && best.s != s {
			if _, err := s.submit(&hal.Task{Kind: hal.TaskEventWait, Event: best.ev}); err != nil {
				return nil, err
			}
			s.poolWaited(best.s, best.seq)
		}
		return p.split(best, n), nil
	}
	return nil, nil
}

// allows reports whether rule lets s reuse the cached segment sg.
func (p *MemPool) allows(rule int, s *Stream, sg *poolSeg) bool {
	switch PoolAttr(rule) {
	case 0:
		return sg.s == s
	case PoolReuseFollowEventDependencies:
		seq, ok := s.follows(sg.s)
		return ok && seq >= sg.seq
	case PoolReuseAllowOpportunistic:
		return sg.s.q.Completed() >= sg.seq
	case PoolReuseAllowInternalDependencies:
		return sg.ev != nil
	}
	return false
}

// split cuts n bytes off the front of cached segment sg and returns them,
// leaving the rest cached. p.mu held.
func (p *MemPool) split(sg *poolSeg, n uint64) *poolSeg {
	if sg.size == n {
		p.uncache(sg)
		closeEvent(sg)
		return sg
	}
	left := &poolSeg{chunk: sg.chunk, addr: sg.addr, size: n, prev: sg.prev, next: sg}
	if sg.prev != nil {
		sg.prev.next = left
	} else {
		sg.chunk.first = left
	}
	sg.prev = left
	sg.addr += n
	sg.size -= n
	return left
}

// grow adds a chunk of n bytes to the pool, as one busy-to-be segment.
// p.mu held.
func (p *MemPool) grow(n uint64) (*poolSeg, error) {
	if n > p.size-p.reserved {
		return nil, rterr.Errorf(rterr.KindInternal,
			"memPool is exhausted: %d bytes requested (rounded to 2 MiB), %d of its %d bytes reserved and none of its cached memory reusable by this stream", n, p.reserved, p.size)
	}
	a, err := p.hd.Malloc(n, hal.MemPolicy{Page: hal.PageNormalOnly, Tag: uint8(usePool)})
	if err != nil {
		return nil, rterr.Wrap(rterr.KindInternal, err, "memPool could not take %d more bytes from device %d", n, p.d.id)
	}
	c := &poolChunk{pool: p, addr: a.Addr, size: n}
	sg := &poolSeg{chunk: c, addr: a.Addr, size: n}
	c.first = sg
	p.chunks[c.addr] = c
	p.d.r.pools.add(c)
	p.reserved += n
	p.resvHigh = max(p.resvHigh, p.reserved)
	return sg, nil
}

// FreeAsync returns memory to its pool for the tasks s queues from now on
// (aclrtMemPoolFreeAsync). Memory from aclrtMalloc is freed once s's
// earlier tasks are done, as CANN does.
func (s *Stream) FreeAsync(addr uint64) error {
	if err := s.poolStream(nil, "aclrtMemPoolFreeAsync"); err != nil {
		return err
	}
	c := s.c.d.r.pools.chunk(addr)
	if c == nil {
		b, err := s.c.backend()
		if err != nil {
			return err
		}
		return s.freeLater(b, addr)
	}
	p := c.pool
	p.mu.Lock()
	if p.d == s.c.d && p.checkOn(s.c) != nil {
		// The chunk went with its device's memory; what is there now is
		// not the pool's.
		p.mu.Unlock()
		return s.FreeAsync(addr)
	}
	defer p.mu.Unlock()
	if p.d != s.c.d {
		return rterr.Errorf(rterr.KindInvalidParam, "stream %d is on device %d, expected a stream of the pool's device %d", s.id, s.c.d.id, p.d.id)
	}
	sg := c.at(addr)
	if sg == nil || !sg.busy || sg.addr != addr {
		return rterr.Errorf(rterr.KindInvalidParam, "ptr %#x is not the start of a live pool allocation (freed already, or inside one)", addr)
	}
	var ev hal.Event
	var err error
	if p.reuse[PoolReuseAllowInternalDependencies] {
		if ev, err = p.hd.NewEvent(hal.EventConfig{}); err != nil {
			return err
		}
		if _, err := s.submit(&hal.Task{Kind: hal.TaskEventRecord, Event: ev}); err != nil {
			ev.Close()
			return err
		}
	}
	p.used -= sg.size
	sg.busy, sg.req, sg.s, sg.seq, sg.ev = false, 0, s, s.q.Submitted(), ev
	p.cached = append(p.cached, p.merge(sg))
	return nil
}

// merge joins the newly cached sg with cached neighbours freed at the same
// point of the same stream, which every rule treats alike. p.mu held.
func (p *MemPool) merge(sg *poolSeg) *poolSeg {
	same := func(o *poolSeg) bool {
		return o != nil && !o.busy && o.s == sg.s && o.seq == sg.seq && o.ev == nil && sg.ev == nil
	}
	if prev := sg.prev; same(prev) {
		p.uncache(prev)
		sg.addr, sg.size, sg.prev = prev.addr, sg.size+prev.size, prev.prev
		if sg.prev != nil {
			sg.prev.next = sg
		} else {
			sg.chunk.first = sg
		}
	}
	if next := sg.next; same(next) {
		p.uncache(next)
		sg.size += next.size
		sg.next = next.next
		if sg.next != nil {
			sg.next.prev = sg
		}
	}
	return sg
}

// freeLater is FreeAsync of memory from aclrtMalloc: checked now, freed
// by a host task once s's earlier tasks are done.
func (s *Stream) freeLater(b hal.Backend, addr uint64) error {
	r := s.c.d.r
	a, ok := r.lookup(b, addr)
	switch {
	case !ok:
		if err := errClosed(b, "ptr", addr); err != nil {
			return err
		}
		return rterr.Errorf(rterr.KindInvalidAddress, "ptr %#x is neither pool memory nor a live device allocation (never allocated, or already freed)", addr)
	case a.Host:
		return rterr.Errorf(rterr.KindInvalidAddress, "ptr %#x is page-locked host memory, expected device memory", addr)
	case a.Addr != addr:
		return rterr.Errorf(rterr.KindInvalidAddress, "ptr %#x is inside the allocation at %#x, expected its start", addr, a.Addr)
	case devUse(a.Tag) != useOwned:
		return rterr.Errorf(rterr.KindInvalidAddress, "ptr %#x is memory the runtime owns, not from aclrtMalloc", addr)
	case a.Device != s.c.d.id:
		return rterr.Errorf(rterr.KindInvalidAddress, "ptr %#x is memory of device %d, expected device %d", addr, a.Device, s.c.d.id)
	}
	hd := s.c.hd
	_, err := s.submit(&hal.Task{Kind: hal.TaskHostFunc, Host: func() {
		// Freed meanwhile by aclrtFree: nothing is left to free, as
		// CANN's callback only logs.
		_ = hd.Free(addr, uint8(useOwned))
	}})
	return err
}
