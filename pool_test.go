package gocann_test

import (
	"bytes"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/gocann/gocann"
)

const mib = 1 << 20

func newPool(t *testing.T, e env, maxSize int64) *gocann.MemPool {
	t.Helper()
	p, err := e.d.NewMemPool(maxSize)
	check(t, err)
	t.Cleanup(func() { p.Close() })
	return p
}

func poolAttr(t *testing.T, p *gocann.MemPool, a gocann.MemPoolAttr) uint64 {
	t.Helper()
	v, err := p.Attr(a)
	check(t, err)
	return v
}

// wantSizes checks the pool's reserved and used bytes.
func wantSizes(t *testing.T, p *gocann.MemPool, reserved, used uint64) {
	t.Helper()
	if r, u := poolAttr(t, p, gocann.MemPoolReservedCurrent), poolAttr(t, p, gocann.MemPoolUsedCurrent); r != reserved || u != used {
		t.Fatalf("pool reserves %d and uses %d bytes, want %d and %d", r, u, reserved, used)
	}
}

func TestMemPoolCreate(t *testing.T) {
	e := setup(t)
	p := newPool(t, e, 3*mib)
	if p.Size() != 4*mib {
		t.Errorf("Size() = %d, want maxSize 3 MiB rounded up to 4 MiB", p.Size())
	}
	all := newPool(t, e, 0)
	if _, total, _ := e.d.MemInfo(); all.Size() != total/(2*mib)*(2*mib) {
		t.Errorf("maxSize 0: Size() = %d, want the device's %d bytes rounded down to 2 MiB", all.Size(), total)
	}
	_, err := e.d.NewMemPool(2 << 30)
	wantErr(t, err, gocann.CodeRTParamInvalid, "maxSize 2147483648", "exceeds device 0")
	_, err = e.d.NewMemPool(-1)
	wantErr(t, err, gocann.CodeRTParamInvalid, "maxSize -1")

	// Defaults: reuse only within a stream, no threshold, nothing reserved.
	for _, a := range []gocann.MemPoolAttr{gocann.MemPoolReuseFollowEventDependencies, gocann.MemPoolReuseAllowOpportunistic,
		gocann.MemPoolReuseAllowInternalDependencies, gocann.MemPoolReleaseThreshold, gocann.MemPoolReservedCurrent,
		gocann.MemPoolReservedHigh, gocann.MemPoolUsedCurrent, gocann.MemPoolUsedHigh} {
		if v := poolAttr(t, p, a); v != 0 {
			t.Errorf("attribute %d = %d, want 0", a, v)
		}
	}
	check(t, p.SetAttr(gocann.MemPoolReuseAllowOpportunistic, 7))
	if v := poolAttr(t, p, gocann.MemPoolReuseAllowOpportunistic); v != 1 {
		t.Errorf("opportunistic reuse set to 7 reads %d, want 1", v)
	}
	check(t, p.SetAttr(gocann.MemPoolReleaseThreshold, 4*mib))
	if v := poolAttr(t, p, gocann.MemPoolReleaseThreshold); v != 4*mib {
		t.Errorf("release threshold reads %d, want %d", v, 4*mib)
	}
	wantErr(t, p.SetAttr(gocann.MemPoolReleaseThreshold, 4*mib+1), gocann.CodeRTInternalError, "4194305", "<= the pool's size 4194304")
	wantErr(t, p.SetAttr(gocann.MemPoolReservedCurrent, 0), gocann.CodeRTParamInvalid, "ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT(5)", "read-only")
	wantErr(t, p.SetAttr(gocann.MemPoolUsedCurrent, 0), gocann.CodeRTParamInvalid, "ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT(7)", "read-only")
	wantErr(t, p.SetAttr(gocann.MemPoolUsedHigh, 1), gocann.CodeRTInternalError, "ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH value 1", "expected 0")
	wantErr(t, p.SetAttr(9, 0), gocann.CodeRTInternalError, "aclrtMemPoolAttr(9)", "1 to 8")
	_, err = p.Attr(0)
	wantErr(t, err, gocann.CodeRTInternalError, "aclrtMemPoolAttr(0)")

	check(t, p.Close())
	wantErr(t, p.Close(), gocann.CodeRTInternalError, "not a live memory pool")
	wantErr(t, p.SetAttr(gocann.MemPoolReuseAllowOpportunistic, 1), gocann.CodeRTParamInvalid, "not a live memory pool")
	_, err = p.Attr(gocann.MemPoolUsedCurrent)
	wantErr(t, err, gocann.CodeRTParamInvalid, "not a live memory pool")
	_, err = e.s.MallocAsync(p, 1)
	wantErr(t, err, gocann.CodeRTInternalError, "not a live memory pool")
	wantErr(t, p.TrimTo(0), gocann.CodeRTInternalError, "not a live memory pool")
}

func TestMemPoolBytes(t *testing.T) {
	// Pool memory works with copies and memsets of its stream; copies are
	// checked against the size asked for, and freed memory is refused.
	e := setup(t)
	p := newPool(t, e, 16*mib)
	const n = mib + 100
	a, err := e.s.MallocAsync(p, n)
	check(t, err)
	wantSizes(t, p, 2*mib, 2*mib)
	want := make([]byte, n)
	for i := range want {
		want[i] = byte(i * 7)
	}
	check(t, e.s.CopyToDevice(a, want))
	got := make([]byte, n)
	check(t, e.s.CopyFromDevice(got, a))
	if !bytes.Equal(got, want) {
		t.Fatal("bytes read back from pool memory differ from those written")
	}
	wantErr(t, e.c.Memset(a.Add(n), 1, 1), gocann.CodeRTParamInvalid, "devPtr")
	wantErr(t, e.c.Free(a), gocann.CodeRTParamInvalid, "memory from a pool", "aclrtMemPoolFreeAsync")
	loc, dev, _, err := e.r.PointerAttributes(uintptr(a))
	check(t, err)
	if loc != gocann.LocationDevice || dev != 0 {
		t.Errorf("pool memory is at location %v of device %d, want device memory of device 0", loc, dev)
	}
	check(t, e.s.FreeAsync(a))
	wantSizes(t, p, 2*mib, 0)
	wantErr(t, e.c.Memset(a, 1, 1), gocann.CodeRTParamInvalid, "devPtr")
	wantErr(t, e.s.FreeAsync(a), gocann.CodeRTParamInvalid, "not the start of a live pool allocation")
	wantErr(t, e.s.FreeAsync(0), gocann.CodeInvalidParam, "ptr is 0")
	_, err = e.s.MallocAsync(p, 0)
	wantErr(t, err, gocann.CodeRTParamInvalid, "size 0")
	_, err = e.s.MallocAsync(nil, 1)
	wantErr(t, err, gocann.CodeInvalidParam, "memPool is nil")
	_, err = e.s.MallocAsync(p, 17*mib)
	wantErr(t, err, gocann.CodeRTInternalError, "exhausted", "18874368 bytes requested")
	syncOK(t, e.s)
}

func TestMemPoolSameStream(t *testing.T) {
	// Memory freed on a stream is reused by its next allocation at once,
	// while the stream's earlier tasks may still run.
	e := setup(t)
	p := newPool(t, e, 0)
	g := block(t, e.s)
	a, err := e.s.MallocAsync(p, mib)
	check(t, err)
	check(t, e.s.FreeAsync(a))
	b, err := e.s.MallocAsync(p, 3*mib/2)
	check(t, err)
	if b != a {
		t.Errorf("allocation after a free on the same stream = %#x, want the freed %#x", uint64(b), uint64(a))
	}
	wantSizes(t, p, 2*mib, 2*mib)
	// A larger request does not fit the cached block; a smaller one takes
	// the front of a larger cached block.
	check(t, e.s.FreeAsync(b))
	c, err := e.s.MallocAsync(p, 3*mib)
	check(t, err)
	if c == a {
		t.Error("a 3 MiB allocation reused a 2 MiB block")
	}
	check(t, e.s.FreeAsync(c))
	d, err := e.s.MallocAsync(p, mib)
	check(t, err)
	if d != a {
		t.Errorf("1 MiB after frees of 2 and 4 MiB took %#x, want the best fit %#x", uint64(d), uint64(a))
	}
	f, err := e.s.MallocAsync(p, mib)
	check(t, err)
	if f != c {
		t.Errorf("the next 1 MiB took %#x, want the front of the 4 MiB block %#x", uint64(f), uint64(c))
	}
	g2, err := e.s.MallocAsync(p, mib)
	check(t, err)
	if g2 != c.Add(2*mib) {
		t.Errorf("the next 1 MiB took %#x, want the rest of the 4 MiB block at %#x", uint64(g2), uint64(c.Add(2*mib)))
	}
	wantSizes(t, p, 6*mib, 6*mib)
	g.Open()
	syncOK(t, e.s)
}

func TestMemPoolOtherStreams(t *testing.T) {
	// Another stream reuses freed memory only as the attributes allow.
	e := setup(t)
	s2 := e.newStream(t)
	p := newPool(t, e, 0)
	// Keep cached memory across synchronizes: a chunk given back could
	// come back at the same address as new memory.
	check(t, p.SetAttr(gocann.MemPoolReleaseThreshold, uint64(p.Size())))
	freeBlocked := func() (gocann.DevPtr, *gate) {
		g := block(t, e.s)
		a, err := e.s.MallocAsync(p, mib)
		check(t, err)
		check(t, e.s.FreeAsync(a))
		return a, g
	}
	alloc := func(s *gocann.Stream) gocann.DevPtr {
		b, err := s.MallocAsync(p, mib)
		check(t, err)
		t.Cleanup(func() { s.FreeAsync(b) })
		return b
	}

	// No rule on: never, even once the free has run.
	a, g := freeBlocked()
	g.Open()
	syncOK(t, e.s)
	if b := alloc(s2); b == a {
		t.Fatal("another stream reused freed memory with every reuse attribute off")
	}

	// Opportunistic: once the free has run, not before.
	check(t, p.SetAttr(gocann.MemPoolReuseAllowOpportunistic, 1))
	a, g = freeBlocked()
	if b := alloc(s2); b == a {
		t.Fatal("opportunistic reuse took memory whose free has not run")
	}
	g.Open()
	syncOK(t, e.s)
	if b := alloc(s2); b != a {
		t.Fatalf("opportunistic reuse after the free ran took %#x, want %#x", uint64(b), uint64(a))
	}
	check(t, p.SetAttr(gocann.MemPoolReuseAllowOpportunistic, 0))

	// Event dependencies: a stream that waited for an event recorded after
	// the free, not one that waited for an earlier record.
	check(t, p.SetAttr(gocann.MemPoolReuseFollowEventDependencies, 1))
	ev, err := e.c.NewEvent(gocann.EventSync)
	check(t, err)
	t.Cleanup(func() { ev.Close() })
	check(t, e.s.Record(ev))
	check(t, s2.WaitEvent(ev))
	a, g = freeBlocked()
	if b := alloc(s2); b == a {
		t.Fatal("event reuse took memory freed after the record the stream waited for")
	}
	check(t, e.s.Record(ev))
	check(t, s2.WaitEvent(ev))
	if b := alloc(s2); b != a {
		t.Fatalf("event reuse after waiting for a record behind the free took %#x, want %#x", uint64(b), uint64(a))
	}
	g.Open()
	syncOK(t, e.s)
	syncOK(t, s2)
	check(t, p.SetAttr(gocann.MemPoolReuseFollowEventDependencies, 0))

	// Internal dependencies: reused at once, and the allocating stream's
	// later tasks wait for the free.
	check(t, p.SetAttr(gocann.MemPoolReuseAllowInternalDependencies, 1))
	a, g = freeBlocked()
	b := alloc(s2)
	if b != a {
		t.Fatalf("internal-dependency reuse took %#x, want %#x", uint64(b), uint64(a))
	}
	var ran atomic.Bool
	check(t, s2.LaunchHostFunc(func() { ran.Store(true) }))
	stays(t, 50e6, "s2's task after the reuse runs before the free", func() bool { return !ran.Load() })
	g.Open()
	syncOK(t, s2)
	if !ran.Load() {
		t.Fatal("s2's task did not run")
	}
	syncOK(t, e.s)
}

func TestMemPoolFreeAsyncMalloc(t *testing.T) {
	// FreeAsync of aclrtMalloc memory frees it once the stream gets there.
	e := setup(t)
	a := malloc(t, e.c, 4096)
	g := block(t, e.s)
	check(t, e.s.FreeAsync(a))
	check(t, e.c.Memset(a, 1, 1)) // still live behind the blocked stream
	g.Open()
	syncOK(t, e.s)
	wantErr(t, e.c.Memset(a, 1, 1), gocann.CodeRTParamInvalid, "devPtr")
	wantErr(t, e.s.FreeAsync(a), gocann.CodeRTParamInvalid, "neither pool memory nor a live device allocation")
	b := malloc(t, e.c, 4096)
	wantErr(t, e.s.FreeAsync(b.Add(8)), gocann.CodeRTParamInvalid, "inside the allocation")
	check(t, e.c.Free(b))
}

func TestMemPoolWrongDevice(t *testing.T) {
	e := setup(t, `{"simulator":{"hbm_size":1073741824,"devices":2}}`)
	d1, err := e.r.SetDevice(1)
	check(t, err)
	t.Cleanup(func() { d1.Reset() })
	p1, err := d1.NewMemPool(0)
	check(t, err)
	t.Cleanup(func() { p1.Close() })
	_, err = e.s.MallocAsync(p1, 1)
	wantErr(t, err, gocann.CodeRTParamInvalid, "stream", "device 0", "pool's device 1")
}

func TestAllocatorRegister(t *testing.T) {
	e := setup(t)
	_, err := e.s.Allocator()
	wantErr(t, err, gocann.CodeInvalidParam, "not registered with any allocator")
	d := gocann.AllocatorDesc{Handle: 1, Obj: 2, Alloc: 3, Free: 4, GetAddrFromBlock: 6}
	check(t, e.s.RegisterAllocator(d))
	got, err := e.s.Allocator()
	check(t, err)
	if got != d {
		t.Errorf("Allocator() = %+v, want %+v as registered", got, d)
	}
	d2 := d
	d2.AllocAdvise = 5
	check(t, e.s.RegisterAllocator(d2))
	if got, _ := e.s.Allocator(); got != d2 {
		t.Errorf("after a second registration Allocator() = %+v, want the last %+v", got, d2)
	}
	bad := d
	bad.Free = 0
	wantErr(t, e.s.RegisterAllocator(bad), gocann.CodeInvalidParam, "allocatorDesc->freeFunc is NULL")
	e.s.UnregisterAllocator()
	e.s.UnregisterAllocator()
	_, err = e.s.Allocator()
	wantErr(t, err, gocann.CodeInvalidParam, "not registered")
}

func TestMemPoolDeviceReset(t *testing.T) {
	// A pool dies with its device's memory: after the last reset every call
	// is refused, and memory that was the pool's is not the pool's any more.
	r := newRuntime(t, smallConfig)
	d, err := r.SetDevice(0)
	check(t, err)
	c, err := d.Context()
	check(t, err)
	s, err := c.NewStream()
	check(t, err)
	p, err := d.NewMemPool(0)
	check(t, err)
	a, err := s.MallocAsync(p, mib)
	check(t, err)
	check(t, d.Reset())
	d, err = r.SetDevice(0)
	check(t, err)
	t.Cleanup(func() { d.Reset() })
	c, err = d.Context()
	check(t, err)
	s, err = c.NewStream()
	check(t, err)
	_, err = s.MallocAsync(p, mib)
	wantErr(t, err, gocann.CodeRTInternalError, "not a live memory pool")
	_, err = p.Attr(gocann.MemPoolUsedCurrent)
	wantErr(t, err, gocann.CodeRTParamInvalid, "not a live memory pool")
	wantErr(t, s.FreeAsync(a), gocann.CodeRTParamInvalid, "neither pool memory nor a live device allocation")
	wantErr(t, p.Close(), gocann.CodeRTInternalError, "not a live memory pool")
}

func TestMemPoolConcurrent(t *testing.T) {
	// Streams allocating, copying and freeing from one pool while another
	// goroutine trims and reads its sizes: every allocation keeps its bytes.
	e := setup(t)
	p := newPool(t, e, 0)
	check(t, p.SetAttr(gocann.MemPoolReuseAllowOpportunistic, 1))
	done := make(chan error, 4)
	for g := 0; g < 3; g++ {
		s := e.newStream(t)
		go func() {
			for i := 0; i < 50; i++ {
				a, err := s.MallocAsync(p, int64(1+i%3)*mib)
				if err == nil {
					want := bytes.Repeat([]byte{byte(g*50 + i)}, 4096)
					if err = e.c.CopyToDevice(a, want); err == nil {
						got := make([]byte, 4096)
						if err = e.c.CopyFromDevice(got, a); err == nil && !bytes.Equal(got, want) {
							err = fmt.Errorf("allocation %#x lost its bytes", uint64(a))
						}
					}
					if ferr := s.FreeAsync(a); err == nil {
						err = ferr
					}
				}
				if err != nil {
					done <- err
					return
				}
			}
			done <- s.SynchronizeTimeout(long)
		}()
	}
	go func() {
		for i := 0; i < 50; i++ {
			if _, err := p.Attr(gocann.MemPoolReservedCurrent); err != nil {
				done <- err
				return
			}
			if used, _ := p.Attr(gocann.MemPoolUsedCurrent); used == 0 {
				p.TrimTo(0)
			}
		}
		done <- nil
	}()
	for i := 0; i < 4; i++ {
		check(t, <-done)
	}
}

func TestMemPoolChips(t *testing.T) {
	// Only the Atlas A2 offers stream-ordered pools; Atlas A3 and Ascend 950
	// refuse every pool call with ACL_ERROR_RT_FEATURE_NOT_SUPPORT.
	for _, soc := range []string{"Ascend910_9391", "Ascend950PR_9599"} {
		e := setup(t, `{"simulator":{"hbm_size":1073741824,"soc_name":"`+soc+`"}}`)
		_, err := e.d.NewMemPool(0)
		wantErr(t, err, gocann.CodeRTFeatureNotSupport, "aclrtMemPoolCreate")
		wantErr(t, e.s.FreeAsync(1), gocann.CodeRTFeatureNotSupport, "aclrtMemPoolFreeAsync")
	}
}
