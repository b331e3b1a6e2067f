package gocann_test

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/gocann/gocann"
	"github.com/gocann/gocann/sim"
)

// TestManagedZeroCopy: a kernel writes through a managed pointer and the
// host reads the bytes in place; the host writes and a kernel reads; copies
// and memsets take managed memory as device memory; aclrtFree frees it.
func TestManagedZeroCopy(t *testing.T) {
	e := setup(t)
	r, c, s := e.r, e.c, e.s
	free0, _, _ := e.d.MemInfo()
	p, err := c.MallocManaged(100, gocann.MemAttachGlobal)
	check(t, err)
	if lo := gocann.DevPtr(sim.DefaultManagedBase); !raceEnabled && (p < lo || p >= lo+sim.DefaultManagedSize) {
		t.Errorf("managed memory at %#x, want it in [0x90000000000, +3 TiB)", uint64(p))
	}
	if free, _, _ := e.d.MemInfo(); free0-free != mib2 {
		t.Errorf("100 bytes of managed memory took %d bytes of the device's, want 2 MiB", free0-free)
	}
	host, err := r.ManagedBytes(p, mib2)
	check(t, err)
	fill, err := r.RegisterKernel("managed_fill", func(b *gocann.Block) {
		v := gocann.View[uint64](b, b.Arg(0).Ptr(), 1024)
		for i, hi := b.Span(len(v)); i < hi; i++ {
			v[i] = uint64(i)*5 + 1
		}
	})
	check(t, err)
	check(t, s.Launch(fill, 4, gocann.Ptr(p)))
	syncOK(t, s)
	for i := range 1024 {
		if v := binary.LittleEndian.Uint64(host[8*i:]); v != uint64(i)*5+1 {
			t.Fatalf("the host reads word %d a kernel wrote through the managed pointer as %d, want %d", i, v, i*5+1)
		}
	}
	// The host writes in place, a kernel adds, the host reads.
	binary.LittleEndian.PutUint64(host[mib2-8:], 40)
	add, err := r.RegisterKernel("managed_add", func(b *gocann.Block) { b.Add64(b.Arg(0).Ptr(), 2) })
	check(t, err)
	check(t, s.Launch(add, 1, gocann.Ptr(p.Add(mib2-8))))
	syncOK(t, s)
	if v := binary.LittleEndian.Uint64(host[mib2-8:]); v != 42 {
		t.Errorf("host wrote 40, kernel added 2: host reads %d", v)
	}
	// Copies and memsets.
	want := vmmPattern(4096, 9)
	check(t, c.CopyToDevice(p.Add(8192), want))
	if !bytes.Equal(host[8192:8192+4096], want) {
		t.Error("a copy into managed memory is not what the host reads there")
	}
	check(t, s.Memset(p.Add(100), 0xcd, 3))
	syncOK(t, s)
	if host[99] == 0xcd || host[100] != 0xcd || host[102] != 0xcd || host[103] == 0xcd {
		t.Errorf("after a memset of 3 bytes at 100 the host reads %x", host[98:104])
	}
	got := make([]byte, 4096)
	check(t, c.CopyFromDevice(got, p.Add(8192)))
	if !bytes.Equal(got, want) {
		t.Error("a copy out of managed memory differs")
	}
	_, err = r.ManagedBytes(p.Add(mib2-8), 16)
	wantErr(t, err, gocann.CodeRTParamInvalid, "runs past its managed allocation")
	wantErr(t, c.Free(p.Add(4096)), gocann.CodeRTParamInvalid, "inside the managed allocation")
	check(t, c.Free(p))
	if free, _, _ := e.d.MemInfo(); free != free0 {
		t.Errorf("free memory %d after aclrtFree of managed memory, want %d", free, free0)
	}
	wantErr(t, c.Free(p), gocann.CodeRTParamInvalid, "not a live managed allocation")
	err = c.CopyFromDevice(got, p)
	wantErr(t, err, gocann.CodeRTParamInvalid, "virtual memory that was released")
	_, err = r.ManagedBytes(p, 8)
	wantErr(t, err, gocann.CodeRTParamInvalid, "not live managed memory")

	_, err = c.MallocManaged(0, gocann.MemAttachGlobal)
	wantErr(t, err, gocann.CodeRTParamInvalid, "size 0")
	_, err = c.MallocManaged(mib2, 2)
	wantErr(t, err, gocann.CodeInvalidParam, "flag 2", "ACL_RT_MEM_ATTACH_GLOBAL")
	_, err = c.MallocManaged(4<<40, gocann.MemAttachGlobal)
	wantErr(t, err, gocann.CodeRTParamInvalid, "at most 3 TiB")
}

func attr(t *testing.T, r *gocann.Runtime, a uint32, p gocann.DevPtr, size uint64) int32 {
	t.Helper()
	out := make([]int32, 1)
	check(t, r.ManagedAttr(a, p, size, out))
	return out[0]
}

// TestManagedAdviseAndPrefetch: advice is kept per 2 MiB page and read back
// by the range attributes (mixed ranges read as the reference's invalid
// values); a prefetch is an ordered stream task that changes the last
// prefetch location only when it runs.
func TestManagedAdviseAndPrefetch(t *testing.T) {
	e := setup(t)
	r, c, s := e.r, e.c, e.s
	p, err := c.MallocManaged(4*mib2, gocann.MemAttachGlobal)
	check(t, err)
	defer func() { check(t, c.Free(p)) }()
	dev0 := gocann.ManagedLocation{Type: gocann.ManagedLocDevice, ID: 0}
	hostLoc := gocann.ManagedLocation{Type: gocann.ManagedLocHost}

	check(t, r.ManagedAdvise(p, 2*mib2, gocann.AdviseSetReadMostly, gocann.ManagedLocation{}))
	if v := attr(t, r, gocann.RangeReadMostly, p, 2*mib2); v != 1 {
		t.Errorf("READ_MOSTLY of the advised pages = %d", v)
	}
	if v := attr(t, r, gocann.RangeReadMostly, p, 4*mib2); v != 0 {
		t.Errorf("READ_MOSTLY of a range half advised = %d", v)
	}
	check(t, r.ManagedAdvise(p, 4*mib2, gocann.AdviseSetPreferredLocation, dev0))
	if v := attr(t, r, gocann.RangePreferredLocation, p, 4*mib2); v != 0 {
		t.Errorf("PREFERRED_LOCATION = %d, want device 0", v)
	}
	check(t, r.ManagedAdvise(p.Add(2*mib2), 2*mib2, gocann.AdviseSetPreferredLocation, hostLoc))
	if v := attr(t, r, gocann.RangePreferredLocation, p.Add(2*mib2), mib2); v != -1 {
		t.Errorf("PREFERRED_LOCATION of host pages = %d, want -1", v)
	}
	if v := attr(t, r, gocann.RangePreferredLocation, p, 4*mib2); v != -2 {
		t.Errorf("PREFERRED_LOCATION of a mixed range = %d, want -2", v)
	}
	if v := attr(t, r, gocann.RangePreferredLocationType, p, 4*mib2); v != gocann.ManagedLocInvalid {
		t.Errorf("PREFERRED_LOCATION_TYPE of a mixed range = %d", v)
	}
	if v := attr(t, r, gocann.RangePreferredLocationType, p, mib2); v != gocann.ManagedLocDevice {
		t.Errorf("PREFERRED_LOCATION_TYPE = %d, want DEVICE", v)
	}
	check(t, r.ManagedAdvise(p, 4*mib2, gocann.AdviseSetAccessedBy, dev0))
	check(t, r.ManagedAdvise(p, 4*mib2, gocann.AdviseSetAccessedBy, hostLoc))
	by := make([]int32, 3)
	check(t, r.ManagedAttr(gocann.RangeAccessedBy, p, 4*mib2, by))
	if by[0] != 0 || by[1] != -1 || by[2] != -2 {
		t.Errorf("ACCESSED_BY = %v, want [0 -1 -2]", by)
	}
	check(t, r.ManagedAdvise(p, 4*mib2, gocann.AdviseUnsetAccessedBy, dev0))
	outs := [][]int32{make([]int32, 2), make([]int32, 1)}
	check(t, r.ManagedAttrs([]uint32{gocann.RangeAccessedBy, gocann.RangeReadMostly}, p, mib2, outs))
	if outs[0][0] != -1 || outs[0][1] != -2 || outs[1][0] != 1 {
		t.Errorf("ManagedAttrs = %v", outs)
	}

	// A prefetch behind a gate changes nothing until it runs.
	if v := attr(t, r, gocann.RangeLastPrefetchLocationType, p, mib2); v != gocann.ManagedLocInvalid {
		t.Errorf("LAST_PREFETCH_LOCATION_TYPE before any prefetch = %d", v)
	}
	g := block(t, s)
	check(t, s.PrefetchManaged(p, 2*mib2, dev0, 0))
	check(t, s.PrefetchManagedBatch([]gocann.ManagedPrefetch{
		{Ptr: p.Add(2 * mib2), Size: mib2, Loc: hostLoc},
		{Ptr: p.Add(3 * mib2), Size: mib2, Loc: gocann.ManagedLocation{Type: gocann.ManagedLocHostNUMACurrent}},
	}, 0))
	g.waitStarted(t)
	if v := attr(t, r, gocann.RangeLastPrefetchLocation, p, mib2); v != -2 {
		t.Errorf("LAST_PREFETCH_LOCATION while the prefetch is queued = %d", v)
	}
	g.Open()
	syncOK(t, s)
	if v := attr(t, r, gocann.RangeLastPrefetchLocation, p, 2*mib2); v != 0 {
		t.Errorf("LAST_PREFETCH_LOCATION after a prefetch to device 0 = %d", v)
	}
	if v := attr(t, r, gocann.RangeLastPrefetchLocation, p.Add(2*mib2), mib2); v != -1 {
		t.Errorf("LAST_PREFETCH_LOCATION after a prefetch to the host = %d", v)
	}
	if v := attr(t, r, gocann.RangeLastPrefetchLocationType, p.Add(3*mib2), mib2); v != gocann.ManagedLocHostNUMA {
		t.Errorf("LAST_PREFETCH_LOCATION_TYPE after a prefetch to the current NUMA node = %d", v)
	}
	if v := attr(t, r, gocann.RangeLastPrefetchLocationID, p.Add(3*mib2), mib2); v != 0 {
		t.Errorf("LAST_PREFETCH_LOCATION_ID = %d, want NUMA node 0", v)
	}

	// Refusals.
	wantErr(t, r.ManagedAdvise(0, mib2, 0, dev0), gocann.CodeInvalidParam, "ptr is NULL")
	wantErr(t, r.ManagedAdvise(p, 100, 0, dev0), gocann.CodeRTParamInvalid, "multiple of 2 MiB")
	wantErr(t, r.ManagedAdvise(p, mib2, 6, dev0), gocann.CodeRTParamInvalid, "advise 6")
	wantErr(t, r.ManagedAdvise(p, 8*mib2, 0, dev0), gocann.CodeRTParamInvalid, "runs past its managed allocation")
	wantErr(t, r.ManagedAdvise(p, mib2, gocann.AdviseSetPreferredLocation, gocann.ManagedLocation{}), gocann.CodeRTParamInvalid, "location.type 0")
	wantErr(t, r.ManagedAdvise(p, mib2, gocann.AdviseSetPreferredLocation, gocann.ManagedLocation{Type: 1, ID: 5}), gocann.CodeRTParamInvalid, "location.id 5")
	wantErr(t, r.ManagedAdvise(p, mib2, gocann.AdviseSetPreferredLocation, gocann.ManagedLocation{Type: 3, ID: 1}), gocann.CodeRTParamInvalid, "NUMA node 0")
	plain := malloc(t, c, 64)
	wantErr(t, r.ManagedAdvise(gocann.DevPtr(plain), mib2, 0, dev0), gocann.CodeRTParamInvalid, "expected an address of managed memory")
	wantErr(t, r.ManagedAttr(gocann.RangeReadMostly, p, mib2, make([]int32, 2)), gocann.CodeRTParamInvalid, "dataSize 8")
	wantErr(t, r.ManagedAttr(9, p, mib2, make([]int32, 1)), gocann.CodeRTParamInvalid, "attribute 9")
	wantErr(t, r.ManagedAttr(gocann.RangeAccessedBy, p, mib2, nil), gocann.CodeRTParamInvalid, "ACCESSED_BY")
	wantErr(t, r.ManagedAttr(gocann.RangeReadMostly, p, 0, make([]int32, 1)), gocann.CodeInvalidParam, "size 0")
	wantErr(t, r.ManagedAdvise(p, 0, 0, dev0), gocann.CodeInvalidParam, "size 0")
	wantErr(t, r.ManagedAttrs(nil, p, mib2, nil), gocann.CodeRTParamInvalid, "numAttributes 0")
	wantErr(t, s.PrefetchManaged(p, mib2, dev0, 1), gocann.CodeInvalidParam, "flags 1")
	wantErr(t, s.PrefetchManaged(p, mib2+1, dev0, 0), gocann.CodeRTParamInvalid, "multiple of 2 MiB")
	wantErr(t, s.PrefetchManaged(p, mib2, gocann.ManagedLocation{Type: 7}, 0), gocann.CodeRTParamInvalid, "location.type 7")
	wantErr(t, s.PrefetchManagedBatch(nil, 0), gocann.CodeInvalidParam, "count 0")
	wantErr(t, s.PrefetchManagedBatch([]gocann.ManagedPrefetch{{Ptr: p, Size: mib2, Loc: dev0}, {Size: mib2, Loc: dev0}}, 0),
		gocann.CodeRTParamInvalid, "ptrs[1] is NULL")
	wantErr(t, s.PrefetchManagedBatch([]gocann.ManagedPrefetch{{Ptr: p, Size: mib2, Loc: dev0}, {Ptr: p, Size: 8 * mib2, Loc: dev0}}, 0),
		gocann.CodeRTParamInvalid, "range 1", "runs past")
}

// TestVMMDeviceReset: the device's last reset takes its physical memory,
// its mappings and its managed memory; every later use is refused, and the
// reservations stay until released.
func TestVMMDeviceReset(t *testing.T) {
	r := newRuntime(t, smallConfig)
	d, err := r.SetDevice(0)
	check(t, err)
	c, err := d.Context()
	check(t, err)
	h := vmmPhysical(t, r, mib2)
	a := vmmReserve(t, r, mib2)
	check(t, r.MapMem(a, mib2, 0, h, 0))
	m, err := c.MallocManaged(mib2, gocann.MemAttachGlobal)
	check(t, err)
	check(t, d.Reset())
	_, err = r.SetDevice(0)
	check(t, err)
	c, err = d.Context()
	check(t, err)
	buf := make([]byte, 8)
	wantErr(t, c.CopyFromDevice(buf, a), gocann.CodeRTParamInvalid, "nothing mapped")
	wantErr(t, c.CopyFromDevice(buf, m), gocann.CodeRTParamInvalid, "virtual memory that was released")
	wantErr(t, r.FreePhysical(h), gocann.CodeRTInvalidHandle, "not live")
	wantErr(t, c.Free(m), gocann.CodeRTParamInvalid, "not a live managed allocation")
	wantErr(t, r.UnmapMem(a), gocann.CodeRTParamInvalid, "not mapped")
	check(t, r.ReleaseMemAddress(a))
}

// TestManagedPointerAttributes: aclrtPointerGetAttributes reports managed
// memory as ACL_MEM_LOCATION_TYPE_MANAGED with the id of the device it was
// allocated on, as CANN's runtime converts the id of a managed location
// like a device one; freed, its address is no one's.
func TestManagedPointerAttributes(t *testing.T) {
	e := setup(t)
	c1, _ := onDevice(t, e.r, 1)
	for dev, c := range []*gocann.Context{e.c, c1} {
		p, err := c.MallocManaged(3*mib2, gocann.MemAttachGlobal)
		check(t, err)
		for _, q := range []gocann.DevPtr{p, p.Add(mib2 + 5), p.Add(3*mib2 - 1)} {
			loc, id, page, err := e.r.PointerAttributes(uintptr(q))
			check(t, err)
			if loc != gocann.LocationManaged || id != dev || page != mib2 {
				t.Errorf("managed memory of device %d at %#x: location %d, id %d, page size %d; want %d (MANAGED), %d, %d",
					dev, uint64(q), loc, id, page, gocann.LocationManaged, dev, mib2)
			}
		}
		check(t, c.Free(p))
		if loc, _, _, err := e.r.PointerAttributes(uintptr(p)); err != nil || loc != gocann.LocationUnregistered {
			t.Errorf("freed managed memory: location %d, %v; want %d (UNREGISTERED)", loc, err, gocann.LocationUnregistered)
		}
	}
	// Device memory stays a device location.
	d := malloc(t, c1, 64)
	if loc, id, _, err := e.r.PointerAttributes(uintptr(d)); err != nil || loc != gocann.LocationDevice || id != 1 {
		t.Errorf("aclrtMalloc memory of device 1: location %d, id %d, %v; want %d (DEVICE), 1", loc, id, err, gocann.LocationDevice)
	}
}
