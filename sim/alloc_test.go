package sim

import (
	"encoding/binary"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gocann/gocann/hal"
)

// A base that is page aligned but not aligned to the larger pages the tests
// ask for, so alignment has to be earned rather than inherited.
const testBase = 0x7f00_0000_3000

func wantKind(t testing.TB, err error, k hal.Kind, fragments ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want %v", k)
	}
	if got := hal.KindOf(err); got != k {
		t.Fatalf("got %v (%v), want %v", got, err, k)
	}
	for _, f := range fragments {
		if !strings.Contains(err.Error(), f) {
			t.Errorf("error %q does not mention %q", err, f)
		}
	}
}

func mustAlloc(t testing.TB, a *allocator, size, page uint64) uint64 {
	t.Helper()
	addr, err := a.alloc(size, page)
	if err != nil {
		t.Fatalf("alloc(%d, %d): %v", size, page, err)
	}
	return addr
}

func TestAllocReservesPaddedPages(t *testing.T) {
	for _, c := range []struct{ size, page, reserved uint64 }{
		{1, 4096, 4096},
		{4064, 4096, 4096}, // 4064 + 32 fits exactly
		{4065, 4096, 8192}, // rounds to 4096, plus 32 spills
		{1, 1 << 16, 1 << 16},
		{2 << 20, 2 << 20, 4 << 20},
	} {
		a := newAllocator(testBase, 64<<20, 0)
		addr := mustAlloc(t, a, c.size, c.page)
		if addr%c.page != 0 {
			t.Errorf("alloc(%d, %d) = %#x, not aligned", c.size, c.page, addr)
		}
		if a.used() != c.reserved {
			t.Errorf("alloc(%d, %d): used %d, want %d", c.size, c.page, a.used(), c.reserved)
		}
		s, ok := a.lookup(addr)
		if !ok || s != (newSpan(addr, c.size, c.reserved, c.page)) {
			t.Errorf("lookup(%#x) = %+v, %v", addr, s, ok)
		}
	}
}

func TestAllocRejectsBadArguments(t *testing.T) {
	a := newAllocator(testBase, 1<<20, 0)
	_, err := a.alloc(0, 4096)
	wantKind(t, err, hal.KindInvalidParam, "size 0", "expected > 0")
	_, err = a.alloc(math.MaxUint64-10, 4096)
	wantKind(t, err, hal.KindInvalidParam, "size 18446744073709551605", "expected <=")
	_, err = a.alloc(1, 6000)
	wantKind(t, err, hal.KindInvalidParam, "page size 6000", "power of two")
	_, err = a.alloc(1, 2048)
	wantKind(t, err, hal.KindInvalidParam, "page size 2048")
	if a.used() != 0 {
		t.Errorf("failed allocs left used = %d", a.used())
	}
}

func TestAllocOutOfMemory(t *testing.T) {
	a := newAllocator(testBase, 1<<20, 0)
	mustAlloc(t, a, 100_000, 4096) // reserves 102400
	_, err := a.alloc(1<<20, 4096)
	wantKind(t, err, hal.KindOutOfMemory, "requested 1048576 bytes", "946176 bytes free")
}

func TestFreeThenAllocReturnsSameAddress(t *testing.T) {
	a := newAllocator(testBase, 16<<20, 4<<20)
	x := mustAlloc(t, a, 5000, 4096)
	y := mustAlloc(t, a, 5000, 4096)
	mustAlloc(t, a, 100, 4096)
	if err := a.free(x); err != nil {
		t.Fatal(err)
	}
	if err := a.free(y); err != nil {
		t.Fatal(err)
	}
	// Last in, first out: the block freed most recently comes back first.
	if got := mustAlloc(t, a, 5000, 4096); got != y {
		t.Errorf("first realloc = %#x, want %#x", got, y)
	}
	// A different size with the same reservation shares the cache entry.
	if got := mustAlloc(t, a, 8000, 4096); got != x {
		t.Errorf("second realloc = %#x, want %#x", got, x)
	}
}

func TestCachedBlocksAreNotUsed(t *testing.T) {
	a := newAllocator(testBase, 1<<20, 1<<20)
	x := mustAlloc(t, a, 4000, 4096)
	if err := a.free(x); err != nil {
		t.Fatal(err)
	}
	if a.used() != 0 {
		t.Errorf("used = %d after free, want 0", a.used())
	}
	if _, ok := a.lookup(x); ok {
		t.Errorf("lookup finds freed block %#x", x)
	}
}

func TestFreedRangesCoalesce(t *testing.T) {
	const size = 1 << 20
	var released uint64
	a := newAllocator(testBase, size, 64<<10)
	a.release = func(_, n uint64) { released += n }
	var addrs []uint64
	for range size / 4096 {
		addrs = append(addrs, mustAlloc(t, a, 1000, 4096))
	}
	if _, err := a.alloc(1, 4096); hal.KindOf(err) != hal.KindOutOfMemory {
		t.Fatalf("full allocator: got %v, want out of memory", err)
	}
	// Free in an order that leaves holes between neighbours for a while.
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(addrs), func(i, j int) { addrs[i], addrs[j] = addrs[j], addrs[i] })
	for _, x := range addrs {
		if err := a.free(x); err != nil {
			t.Fatal(err)
		}
	}
	whole := mustAlloc(t, a, size-32, 4096)
	if whole != testBase {
		t.Errorf("whole-range alloc at %#x, want %#x", whole, uint64(testBase))
	}
	if released != size {
		t.Errorf("released %d bytes, want %d", released, size)
	}
}

func TestCacheLimitEvictsOldestFirst(t *testing.T) {
	type rel struct{ addr, n uint64 }
	var got []rel
	a := newAllocator(testBase, 1<<20, 3*4096)
	a.release = func(addr, n uint64) { got = append(got, rel{addr, n}) }
	var addrs []uint64
	for range 5 {
		addrs = append(addrs, mustAlloc(t, a, 100, 4096))
	}
	for _, x := range addrs {
		if err := a.free(x); err != nil {
			t.Fatal(err)
		}
	}
	want := []rel{{addrs[0], 4096}, {addrs[1], 4096}}
	if !slices.Equal(got, want) {
		t.Errorf("released %#v, want %#v", got, want)
	}
	// The survivors are still cached, newest first.
	if x := mustAlloc(t, a, 100, 4096); x != addrs[4] {
		t.Errorf("realloc = %#x, want %#x", x, addrs[4])
	}
}

func TestBlockLargerThanCacheSkipsIt(t *testing.T) {
	var released uint64
	a := newAllocator(testBase, 1<<20, 4096)
	a.release = func(_, n uint64) { released += n }
	small := mustAlloc(t, a, 100, 4096)
	big := mustAlloc(t, a, 10000, 4096)
	if err := a.free(small); err != nil {
		t.Fatal(err)
	}
	if err := a.free(big); err != nil {
		t.Fatal(err)
	}
	if released != 12288 {
		t.Errorf("released %d bytes, want only the big block's 12288", released)
	}
	if x := mustAlloc(t, a, 100, 4096); x != small {
		t.Errorf("small block was evicted: realloc = %#x, want %#x", x, small)
	}
}

func TestAllocFlushesCacheBeforeFailing(t *testing.T) {
	var released uint64
	a := newAllocator(testBase, 64<<10, 64<<10)
	a.release = func(_, n uint64) { released += n }
	var addrs []uint64
	for range 16 {
		addrs = append(addrs, mustAlloc(t, a, 100, 4096))
	}
	for _, x := range addrs {
		if err := a.free(x); err != nil {
			t.Fatal(err)
		}
	}
	if released != 0 {
		t.Fatalf("released %d bytes before pressure", released)
	}
	// Only a flush of every cached block makes room for this.
	if x := mustAlloc(t, a, 60_000, 4096); x != testBase {
		t.Errorf("alloc after flush at %#x, want %#x", x, uint64(testBase))
	}
	if released != 64<<10 {
		t.Errorf("released %d bytes, want %d", released, 64<<10)
	}
}

func TestFreeRejectsBadAddresses(t *testing.T) {
	a := newAllocator(testBase, 1<<20, 1<<20)
	x := mustAlloc(t, a, 100, 4096)
	y := mustAlloc(t, a, 100, 4096)
	if err := a.free(x); err != nil {
		t.Fatal(err)
	}
	wantKind(t, a.free(x), hal.KindInvalidAddress, "already freed")
	wantKind(t, a.free(y+8), hal.KindInvalidAddress, "inside the allocation", "expected the start")
	wantKind(t, a.free(testBase+0x80000), hal.KindInvalidAddress, "not the start of a live allocation")
	if a.used() != 4096 {
		t.Errorf("used = %d after rejected frees, want 4096", a.used())
	}
}

func TestLookup(t *testing.T) {
	a := newAllocator(testBase, 1<<20, 0)
	mustAlloc(t, a, 10, 4096)
	x := mustAlloc(t, a, 1000, 4096)
	mustAlloc(t, a, 10, 4096)
	for _, c := range []struct {
		addr uint64
		ok   bool
	}{
		{x - 1, false}, // padding of the allocation before
		{x, true},
		{x + 500, true},
		{x + 999, true},
		{x + 1000, false}, // one past the requested bytes
		{testBase - 1, false},
		{testBase + 1<<20, false},
	} {
		s, ok := a.lookup(c.addr)
		if ok != c.ok || ok && s.start != x {
			t.Errorf("lookup(x%+d) = %+v, %v; want found %v", int64(c.addr-x), s, ok, c.ok)
		}
	}
}

// allocModel checks an allocator against the simplest possible account of
// what it must do: a map of live blocks.
type allocModel struct {
	t     testing.TB
	a     *allocator
	live  map[uint64]span
	freed *span // the block freed by the previous operation, if any
}

func newAllocModel(t testing.TB, size, cacheLimit uint64) *allocModel {
	m := &allocModel{t: t, a: newAllocator(testBase, size, cacheLimit), live: map[uint64]span{}}
	m.a.release = m.released
	return m
}

func (m *allocModel) released(addr, n uint64) {
	if addr < m.a.base || n > m.a.base+m.a.size-addr {
		m.t.Fatalf("released [%#x, +%d) outside the range", addr, n)
	}
	for _, s := range m.live {
		if addr < s.start+s.reserved && s.start < addr+n {
			m.t.Fatalf("released [%#x, +%d) overlaps live %+v", addr, n, s)
		}
	}
}

func (m *allocModel) alloc(size, page uint64) {
	freed := m.freed
	m.freed = nil
	addr, err := m.a.alloc(size, page)
	reserved, rerr := reservedSize(size, page)
	if rerr != nil { // size 0 or too large, or a page that is no power of two >= 4 KiB
		wantKind(m.t, err, hal.KindInvalidParam)
		return
	}
	if err != nil {
		wantKind(m.t, err, hal.KindOutOfMemory)
		if gap := m.fittingGap(reserved, page); gap != 0 {
			m.t.Fatalf("alloc(%d, %d) failed but [%#x, +%d) is free", size, page, gap, reserved)
		}
		return
	}
	if freed != nil && freed.reserved == reserved && freed.page() == page && reserved <= m.a.cacheLimit && addr != freed.start {
		m.t.Fatalf("alloc(%d, %d) = %#x right after freeing %#x of the same class", size, page, addr, freed.start)
	}
	s := newSpan(addr, size, reserved, page)
	if addr%page != 0 || addr < m.a.base || reserved > m.a.base+m.a.size-addr {
		m.t.Fatalf("alloc(%d, %d) = %#x: misaligned or outside the range", size, page, addr)
	}
	for _, o := range m.live {
		if addr < o.start+o.reserved && o.start < addr+reserved {
			m.t.Fatalf("alloc(%d, %d) = %#x overlaps live %+v", size, page, addr, o)
		}
	}
	m.live[addr] = s
}

// fittingGap returns the start of a hole between live blocks that could
// hold reserved bytes at page alignment, or 0 if there is none.
func (m *allocModel) fittingGap(reserved, page uint64) uint64 {
	var starts []uint64
	for a := range m.live {
		starts = append(starts, a)
	}
	slices.Sort(starts)
	lo := m.a.base
	for _, hi := range append(starts, m.a.base+m.a.size) {
		if at, ok := roundUp(lo, page); ok && at < hi && hi-at >= reserved {
			return at
		}
		if s, ok := m.live[hi]; ok {
			lo = hi + s.reserved
		}
	}
	return 0
}

func (m *allocModel) free(addr uint64) {
	s, live := m.live[addr]
	// The block is dead before free returns: the release hook may already
	// see it.
	delete(m.live, addr)
	err := m.a.free(addr)
	if !live {
		wantKind(m.t, err, hal.KindInvalidAddress)
		return
	}
	if err != nil {
		m.t.Fatalf("free(%#x): %v", addr, err)
	}
	m.freed = &s
}

// check compares the allocator's answers and its internal accounts with the
// model.
func (m *allocModel) check() {
	var used uint64
	for _, s := range m.live {
		used += s.reserved
		for _, at := range []uint64{s.start, s.start + s.size - 1} {
			if got, ok := m.a.lookup(at); !ok || got != s {
				m.t.Fatalf("lookup(%#x) = %+v, %v; want %+v", at, got, ok, s)
			}
		}
	}
	if m.a.used() != used {
		m.t.Fatalf("used() = %d, model says %d", m.a.used(), used)
	}
	var free uint64
	for i, e := range m.a.extents {
		free += e.size
		if e.size == 0 || i > 0 && m.a.extents[i-1].end() >= e.start {
			m.t.Fatalf("free list not sorted and coalesced at %d: %+v", i, m.a.extents)
		}
	}
	if free+m.a.cache.bytes+used != m.a.capacity() {
		m.t.Fatalf("free %d + cached %d + used %d != capacity %d", free, m.a.cache.bytes, used, m.a.capacity())
	}
	if m.a.cache.bytes > m.a.cacheLimit {
		m.t.Fatalf("cache holds %d bytes over its limit %d", m.a.cache.bytes, m.a.cacheLimit)
	}
}

// run drives the model with operations decoded from data, three bytes each.
func (m *allocModel) run(data []byte) {
	// Sizes that recur, so the cache gets hits, with neighbours that share
	// a reservation or just miss it.
	palette := [...]uint64{1, 100, 4064, 4065, 10_000, 30_000, 65_000, 200_000}
	for ; len(data) >= 3; data = data[3:] {
		op, x, y := data[0], uint64(data[1]), uint64(data[2])
		page := uint64(4096) << (op >> 6) // 4, 8, 16 or 32 KiB
		switch op % 8 {
		case 0, 1, 2:
			m.alloc(palette[x%uint64(len(palette))], page)
		case 3:
			m.alloc(x<<8|y, page) // arbitrary, including 0
		case 4, 5, 6:
			if len(m.live) > 0 {
				addrs := make([]uint64, 0, len(m.live))
				for a := range m.live {
					addrs = append(addrs, a)
				}
				slices.Sort(addrs)
				m.free(addrs[(x<<8|y)%uint64(len(addrs))])
			}
		case 7:
			m.free(testBase + (x<<8|y)*64) // mostly not a block start
		}
		m.check()
	}
}

func TestAllocatorMatchesModel(t *testing.T) {
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 7))
		data := make([]byte, 3*2000)
		for i := range data {
			data[i] = byte(rng.Uint32())
		}
		// A range of a few blocks' worth so it fills up and fragments, and
		// a cache small enough to evict.
		newAllocModel(t, 1<<20, 96<<10).run(data)
	}
}

func FuzzAllocator(f *testing.F) {
	f.Add([]byte{0, 1, 0, 0, 1, 0, 4, 0, 0, 0, 1, 0})
	f.Add([]byte{3, 0, 0, 7, 0, 0, 0xc0, 7, 0, 0x40, 6, 0, 4, 0, 1, 0x80, 5, 0})
	f.Add([]byte{1, 7, 0, 1, 7, 0, 1, 7, 0, 1, 7, 0, 1, 7, 0, 1, 7, 0, 4, 0, 2, 2, 6, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		newAllocModel(t, 1<<20, 96<<10).run(data)
	})
}

// FuzzAllocatorInputs drives an allocator of any range and cache limit with
// any size and page: each call either fails with InvalidParam or
// OutOfMemory as the model says, or places the block aligned, inside the
// range and clear of every other; the accounts always add up. Ops are 9
// bytes: an op byte, then 8 bytes of size (alloc) or of an address
// selector (free).
func FuzzAllocatorInputs(f *testing.F) {
	le := func(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }
	op := func(o byte, v uint64) []byte { return append([]byte{o}, le(v)...) }
	f.Add(uint64(testBase), uint64(1<<20), uint64(96<<10), slices.Concat(op(0, 100), op(1, 0), op(0, 5000), op(2, 0)))
	f.Add(uint64(0), uint64(1<<40), uint64(0), slices.Concat(op(0x3f, 1<<39), op(0x3e, 1<<39), op(0, 1)))
	f.Add(uint64(math.MaxUint64-(1<<30)), uint64(1<<30), uint64(1<<20), slices.Concat(op(0x1e, 1<<29), op(0x15, 1)))
	f.Add(uint64(testBase), uint64(1<<20), uint64(0), slices.Concat(op(0x80, math.MaxUint64), op(0x80, math.MaxUint64-4096), op(0, 0)))
	f.Fuzz(func(t *testing.T, base, size, cacheLimit uint64, data []byte) {
		if size > math.MaxUint64-base {
			t.Skip("a range wrapping around the address space is refused by design")
		}
		m := newAllocModel(t, 1, 0)
		m.a = newAllocator(base, size, cacheLimit)
		m.a.release = m.released
		for ; len(data) >= 9; data = data[9:] {
			o, v := data[0], binary.LittleEndian.Uint64(data[1:9])
			switch {
			case o&0x80 != 0: // any page value, 4 KiB sizes
				m.alloc(4096, v)
			case o&1 == 0: // any size, pages 2^k for k = o>>1
				m.alloc(v, 1<<(o>>1&63))
			case len(m.live) > 0 && o&2 == 0:
				addrs := slices.Sorted(maps.Keys(m.live))
				m.free(addrs[v%uint64(len(addrs))])
			default:
				m.free(v) // any address
			}
			m.check()
		}
	})
}
