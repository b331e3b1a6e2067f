package gocann_test

import (
	"bytes"
	"testing"

	"github.com/gocann/gocann"
	"github.com/gocann/gocann/sim"
)

const mib2 = 2 << 20

func devProp() gocann.PhysicalMemProp { return gocann.DeviceMemProp(0, gocann.MemHuge) }

// vmmPhysical allocates size bytes of physical memory on device 0.
func vmmPhysical(t *testing.T, r *gocann.Runtime, size uint64) gocann.PhysicalMem {
	t.Helper()
	h, err := r.MallocPhysical(size, devProp(), 0)
	check(t, err)
	return h
}

func vmmReserve(t *testing.T, r *gocann.Runtime, size uint64) gocann.DevPtr {
	t.Helper()
	p, err := r.ReserveMemAddress(size, 0, 0, 0)
	check(t, err)
	return p
}

func vmmPattern(n int, seed byte) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7) + seed
	}
	return b
}

// TestVMMDoubleMap maps one physical allocation at two addresses (one of
// them at an offset of a range that holds a second allocation too) and
// checks that every kind of copy, memset, value write and kernel reaches
// the same bytes through both, and that the memory counts against the
// device's.
func TestVMMDoubleMap(t *testing.T) {
	e := setup(t)
	r, c, s := e.r, e.c, e.s
	g, err := r.MemAllocationGranularity(devProp(), gocann.GranularityMinimum)
	check(t, err)
	if g != mib2 {
		t.Fatalf("granularity %d, want 2 MiB", g)
	}
	free0, _, err := e.d.MemInfo()
	check(t, err)
	h := vmmPhysical(t, r, 2*mib2)
	other := vmmPhysical(t, r, mib2)
	if free, _, _ := e.d.MemInfo(); free0-free != 3*mib2 {
		t.Errorf("physical memory of 6 MiB took %d bytes of the device's", free0-free)
	}
	a := vmmReserve(t, r, 3*mib2) // other at a, h at a+2 MiB
	b := vmmReserve(t, r, 2*mib2)
	lo, hi := gocann.DevPtr(sim.DefaultVMMBase), gocann.DevPtr(sim.DefaultVMMBase+sim.DefaultVMMSize)
	if !raceEnabled && (a < lo || a >= hi) {
		t.Errorf("reservation at %#x, want it in [16 TiB, 24 TiB)", uint64(a))
	}
	check(t, r.MapMem(a, mib2, 0, other, 0))
	check(t, r.MapMem(a.Add(mib2), 2*mib2, 0, h, 0))
	check(t, r.MapMem(b, 2*mib2, 0, h, 0))
	A := a.Add(mib2)

	// Synchronous copies in through one mapping and out through the other.
	want := vmmPattern(3<<20, 1)
	check(t, c.CopyToDevice(A, want))
	got := make([]byte, len(want))
	check(t, c.CopyFromDevice(got, b))
	if !bytes.Equal(got, want) {
		t.Fatal("bytes copied in through one mapping differ read through the other")
	}
	// Asynchronous ones, a device-to-device copy from plain memory and a
	// memset.
	hb, err := r.MallocHost(4096)
	check(t, err)
	defer hb.Close()
	copy(hb.Bytes(), vmmPattern(4096, 2))
	check(t, s.CopyHostToDevice(b.Add(8192), hb, 0, 4096))
	plain := malloc(t, c, 4096)
	check(t, c.CopyToDevice(plain, vmmPattern(4096, 3)))
	check(t, s.CopyDeviceToDevice(A.Add(16384), plain, 4096))
	check(t, s.Memset(b.Add(100), 0xee, 10))
	check(t, s.WriteValue(A.Add(200), 0x0102030405060708))
	syncOK(t, s)
	check(t, c.CopyFromDevice(got[:4096], A.Add(8192)))
	if !bytes.Equal(got[:4096], vmmPattern(4096, 2)) {
		t.Error("an asynchronous host copy through one mapping reads back wrong through the other")
	}
	check(t, c.CopyFromDevice(got[:4096], b.Add(16384)))
	if !bytes.Equal(got[:4096], vmmPattern(4096, 3)) {
		t.Error("a device-to-device copy into one mapping reads back wrong through the other")
	}
	check(t, c.CopyFromDevice(got[:216], A))
	if got[99] != want[99] || got[100] != 0xee || got[109] != 0xee || got[110] != want[110] {
		t.Errorf("a memset through one mapping reads %x around it through the other", got[96:112])
	}
	if v := readU64(t, c, b.Add(200)); v != 0x0102030405060708 {
		t.Errorf("a value write through one mapping reads %#x through the other", v)
	}
	// Back the other way: mapped memory to plain memory.
	check(t, c.CopyDevice(plain, b, 4096))
	check(t, c.CopyFromDevice(got[:4096], plain))
	check(t, c.CopyFromDevice(got[4096:8192], A))
	if !bytes.Equal(got[:4096], got[4096:8192]) {
		t.Error("a copy out of mapped memory differs from its source")
	}
	// A kernel writing through one mapping.
	k, err := r.RegisterKernel("vmm_fill", func(blk *gocann.Block) {
		v := gocann.View[uint64](blk, blk.Arg(0).Ptr(), 64)
		for i, hi := blk.Span(len(v)); i < hi; i++ {
			v[i] = uint64(i) * 3
		}
	})
	check(t, err)
	check(t, s.Launch(k, 4, gocann.Ptr(A.Add(mib2))))
	syncOK(t, s)
	for i := range 64 {
		if v := readU64(t, c, b.Add(mib2+8*int64(i))); v != uint64(i)*3 {
			t.Fatalf("word %d a kernel wrote through one mapping reads %d through the other", i, v)
		}
	}
	// The other allocation of the range is its own memory.
	check(t, c.CopyFromDevice(got[:16], a))
	if bytes.Equal(got[:16], want[:16]) {
		t.Error("the range's other physical allocation shows the first one's bytes")
	}
	if m, ok := r.Mapping(b.Add(5)); !ok || m.Addr != uint64(b) || m.Size != 2*mib2 || m.Physical != uint64(h) {
		t.Errorf("Mapping(b+5) = %+v, %v", m, ok)
	}

	// Freeing mapped physical memory keeps it until its last unmap.
	check(t, c.Free(plain))
	check(t, r.FreePhysical(h))
	if free, _, _ := e.d.MemInfo(); free0-free != 3*mib2 {
		t.Errorf("freeing mapped memory gave back %d bytes before the unmaps", 3*mib2-(free0-free))
	}
	check(t, c.CopyFromDevice(got[:8], b.Add(200)))
	check(t, r.UnmapMem(A))
	check(t, r.UnmapMem(b))
	check(t, r.UnmapMem(a))
	check(t, r.FreePhysical(other))
	if free, _, _ := e.d.MemInfo(); free != free0 {
		t.Errorf("free memory %d after everything is unmapped and freed, want %d", free, free0)
	}
	err = c.CopyFromDevice(got[:8], b)
	wantErr(t, err, gocann.CodeRTParamInvalid, "nothing mapped")
	check(t, r.ReleaseMemAddress(a))
	check(t, r.ReleaseMemAddress(b))
	err = c.CopyFromDevice(got[:8], b)
	wantErr(t, err, gocann.CodeRTParamInvalid, "virtual memory that was released")
}

// TestVMMRefusals checks every refusal of the reserve, map and free calls
// with its code and message.
func TestVMMRefusals(t *testing.T) {
	e := setup(t)
	r, c := e.r, e.c
	_, err := r.ReserveMemAddress(0, 0, 0, 0)
	wantErr(t, err, gocann.CodeInvalidParam, "size 0")
	_, err = r.ReserveMemAddress(mib2, 0, 0, 2)
	wantErr(t, err, gocann.CodeInvalidParam, "flags 2")
	_, err = r.ReserveMemAddress(mib2, 4096, 0, 0)
	wantErr(t, err, gocann.CodeRTParamInvalid, "alignment 4096", "expected 0")
	_, err = r.ReserveMemAddress(mib2+1, 0, 0, 0)
	wantErr(t, err, gocann.CodeRTParamInvalid, "multiple of the granularity")
	_, err = r.ReserveMemAddress(mib2, 0, 0x1000000, 0)
	wantErr(t, err, gocann.CodeRTParamInvalid, "expectPtr 0x1000000", "expected a range inside")
	_, err = r.ReserveMemAddressNoUC(1<<30, 0, 0, 0)
	wantErr(t, err, gocann.CodeRTFeatureNotSupport, "not supported on Ascend910B1")

	// The hint is honoured when free, refused when taken.
	lo := gocann.DevPtr(sim.DefaultVMMBase)
	if raceEnabled {
		p := vmmReserve(t, r, mib2)
		check(t, r.ReleaseMemAddress(p))
		lo = p
	}
	hint := lo.Add(16 << 30)
	p, err := r.ReserveMemAddress(mib2, 0, hint, 0)
	check(t, err)
	if p != hint {
		t.Errorf("ReserveMemAddress with free expectPtr %#x gave %#x", uint64(hint), uint64(p))
	}
	_, err = r.ReserveMemAddress(mib2, 0, hint, 0)
	wantErr(t, err, gocann.CodeRTParamInvalid, "inside the reservation", "expected a free range")
	_, err = r.ReserveMemAddress(4*mib2, 0, hint.Add(mib2), 0)
	wantErr(t, err, gocann.CodeRTParamInvalid, "expected a multiple")

	// MallocPhysical.
	_, err = r.MallocPhysical(0, devProp(), 0)
	wantErr(t, err, gocann.CodeInvalidParam, "size 0")
	_, err = r.MallocPhysical(mib2, devProp(), 1)
	wantErr(t, err, gocann.CodeInvalidParam, "flags 1")
	bad := devProp()
	bad.HandleType = 2
	_, err = r.MallocPhysical(mib2, bad, 0)
	wantErr(t, err, gocann.CodeInvalidParam, "prop->handleType 2")
	bad = devProp()
	bad.LocType = 3
	_, err = r.MallocPhysical(mib2, bad, 0)
	wantErr(t, err, gocann.CodeInvalidParam, "prop->location.type 3")
	_, err = r.MallocPhysical(mib2, gocann.DeviceMemProp(0, gocann.MemDDRNormal), 0)
	wantErr(t, err, gocann.CodeInvalidParam, "ACL_DDR_MEM_NORMAL", "MEM_LOCATION_TYPE_HOST")
	_, err = r.MallocPhysical(mib2, gocann.DeviceMemProp(0, 1), 0)
	wantErr(t, err, gocann.CodeInvalidParam, "prop->memAttr 1", "not supported")
	_, err = r.MallocPhysical(mib2, gocann.DeviceMemProp(0, gocann.MemP2PHuge1G), 0)
	wantErr(t, err, gocann.CodeRTFeatureNotSupport, "ACL_MEM_P2P_HUGE1G")
	_, err = r.MallocPhysical(mib2, gocann.DeviceMemProp(9, gocann.MemHuge), 0)
	wantErr(t, err, gocann.CodeRTInvalidDeviceID, "prop->location.id 9")
	_, err = r.MallocPhysical(mib2, gocann.DeviceMemProp(1, gocann.MemHuge), 0)
	wantErr(t, err, gocann.CodeRTInvalidDeviceID, "device 1 is not open")
	_, err = r.MallocPhysical(mib2, gocann.PhysicalMemProp{MemAttr: gocann.MemHuge, LocType: gocann.MemLocHost}, 0)
	wantErr(t, err, gocann.CodeRTFeatureNotSupport, "physical host memory is not simulated")
	_, err = r.MallocPhysical(2<<30, devProp(), 0)
	wantErr(t, err, gocann.CodeRTMemoryAllocation, "out of memory")
	h, err := r.MallocPhysical(100, devProp(), 0) // rounded up to the granularity
	check(t, err)
	if ph, ok := r.PhysicalMemInfo(h); !ok || ph.Size != mib2 {
		t.Errorf("physical memory of 100 bytes = %+v, %v; want 2 MiB", ph, ok)
	}

	// MapMem, UnmapMem, ReleaseMemAddress, FreePhysical.
	a := vmmReserve(t, r, 2*mib2)
	wantErr(t, r.MapMem(0, mib2, 0, h, 0), gocann.CodeInvalidParam, "virPtr is NULL")
	wantErr(t, r.MapMem(a, mib2, 0, 0, 0), gocann.CodeInvalidParam, "handle is NULL")
	wantErr(t, r.MapMem(a, 0, 0, h, 0), gocann.CodeInvalidParam, "size 0")
	wantErr(t, r.MapMem(a, mib2, 0, h, 1), gocann.CodeInvalidParam, "flags 1")
	wantErr(t, r.MapMem(a, mib2, mib2, h, 0), gocann.CodeRTParamInvalid, "offset 2097152", "expected 0")
	wantErr(t, r.MapMem(a, 2*mib2, 0, h, 0), gocann.CodeRTParamInvalid, "size 4194304", "size 2097152")
	wantErr(t, r.MapMem(a.Add(4096), mib2, 0, h, 0), gocann.CodeRTParamInvalid, "multiple of 0x200000")
	wantErr(t, r.MapMem(a.Add(-mib2), mib2, 0, h, 0), gocann.CodeRTParamInvalid, "not in a range from aclrtReserveMemAddress")
	wantErr(t, r.MapMem(a, mib2, 0, h+1000, 0), gocann.CodeRTInvalidHandle, "not live")
	wantErr(t, r.UnmapMem(a), gocann.CodeRTParamInvalid, "is not mapped")
	check(t, r.MapMem(a, mib2, 0, h, 0))
	wantErr(t, r.MapMem(a, mib2, 0, h, 0), gocann.CodeRTParamInvalid, "overlaps the mapping", "expected unmapped memory")
	wantErr(t, r.UnmapMem(a.Add(4096)), gocann.CodeRTParamInvalid, "inside the mapping")
	wantErr(t, r.UnmapMem(0), gocann.CodeInvalidParam, "virPtr is NULL")
	wantErr(t, r.ReleaseMemAddress(a), gocann.CodeRTParamInvalid, "still has 1 mapping", "unmap them first")
	wantErr(t, r.ReleaseMemAddress(a.Add(mib2)), gocann.CodeRTParamInvalid, "not the start of a reserved range")
	wantErr(t, r.ReleaseMemAddress(0), gocann.CodeInvalidParam, "virPtr is NULL")
	wantErr(t, c.Free(a), gocann.CodeRTParamInvalid, "reserved virtual memory", "aclrtUnmapMem")
	// A range cannot hold two devices' memory, and reads past a mapping fail.
	got := make([]byte, 16)
	wantErr(t, c.CopyFromDevice(got, a.Add(mib2-8)), gocann.CodeRTParamInvalid, "runs past its mapping")
	check(t, r.UnmapMem(a))
	check(t, r.FreePhysical(h))
	wantErr(t, r.FreePhysical(h), gocann.CodeRTInvalidHandle, "not live")
	wantErr(t, r.FreePhysical(0), gocann.CodeInvalidParam, "handle is NULL")
	_, err = r.PhysicalMemProperties(h)
	wantErr(t, err, gocann.CodeRTInvalidHandle, "not live")
	check(t, r.ReleaseMemAddress(a))
	wantErr(t, r.ReleaseMemAddress(a), gocann.CodeRTParamInvalid, "not the start of a reserved range")
	_, err = r.MemAllocationGranularity(devProp(), 2)
	wantErr(t, err, gocann.CodeRTParamInvalid, "option 2")
}

// TestVMMTwoDevices: one reserved range takes one device's memory only.
func TestVMMTwoDevices(t *testing.T) {
	e := setup(t)
	r := e.r
	_, err := r.SetDevice(1)
	check(t, err)
	h0 := vmmPhysical(t, r, mib2)
	h1, err := r.MallocPhysical(mib2, gocann.DeviceMemProp(1, gocann.MemNormal), 0)
	check(t, err)
	a := vmmReserve(t, r, 2*mib2)
	check(t, r.MapMem(a, mib2, 0, h0, 0))
	wantErr(t, r.MapMem(a.Add(mib2), mib2, 0, h1, 0), gocann.CodeRTParamInvalid, "already maps memory of device 0")
	check(t, r.UnmapMem(a))
	check(t, r.FreePhysical(h0))
	check(t, r.FreePhysical(h1))
	check(t, r.ReleaseMemAddress(a))
}

// TestVMMWindowConfig: the simulator section of the configuration moves
// the windows (as sanitizer builds need); a window that is not whole GiB
// of user space, or overlaps the other, is a bad attribute of the file.
func TestVMMWindowConfig(t *testing.T) {
	r := newRuntime(t, `{"simulator":{"hbm_size":1073741824,"vmm_base":35184372088832,"vmm_size":1073741824,"managed_base":36283883716608,"managed_size":1073741824}}`)
	d, err := r.SetDevice(0)
	check(t, err)
	p := vmmReserve(t, r, mib2)
	if p != 32<<40 {
		t.Errorf("reservation at %#x, want the configured window's start 32 TiB", uint64(p))
	}
	_, err = r.ReserveMemAddress(2<<30, 0, 0, 0)
	wantErr(t, err, gocann.CodeRTMemoryAllocation, "address window")
	c, err := d.Context()
	check(t, err)
	m, err := c.MallocManaged(mib2, gocann.MemAttachGlobal)
	check(t, err)
	if m != 33<<40 {
		t.Errorf("managed memory at %#x, want the configured window's start 33 TiB", uint64(m))
	}
	check(t, c.Free(m))
	check(t, r.ReleaseMemAddress(p))

	for _, cfg := range []string{
		`{"simulator":{"vmm_base":4096,"vmm_size":1073741824}}`,
		`{"simulator":{"vmm_base":35184372088832,"vmm_size":1073741824,"managed_base":35184372088832,"managed_size":1073741824}}`,
	} {
		_, err := gocann.Open(gocann.WithConfigJSON([]byte(cfg)))
		wantErr(t, err, gocann.CodeFileAttrInvalid, "virtual memory window")
	}
}

// a3Config is a small Atlas A3 chip, which has the functions Atlas A2
// lacks (aclrtReserveMemAddressNoUCMemory, aclrtMemMapSelectedLink).
const a3Config = `{"simulator":{"hbm_size":1073741824,"soc_name":"Ascend910_9391"}}`

// TestVMMNoUC: on a chip that has it, aclrtReserveMemAddressNoUCMemory
// takes only a caller's address and whole GiB.
func TestVMMNoUC(t *testing.T) {
	r := newRuntime(t, a3Config)
	_, err := r.SetDevice(0)
	check(t, err)
	_, err = r.ReserveMemAddressNoUC(1<<30, 0, 0, 0)
	wantErr(t, err, gocann.CodeRTFeatureNotSupport, "expectPtr is NULL")
	p := vmmReserve(t, r, mib2)
	check(t, r.ReleaseMemAddress(p))
	hint := p.Add(8 << 30)
	nouc, err := r.ReserveMemAddressNoUC(1<<30, 0, hint, 0)
	check(t, err)
	if nouc != hint {
		t.Errorf("ReserveMemAddressNoUC at %#x gave %#x", uint64(hint), uint64(nouc))
	}
	_, err = r.ReserveMemAddressNoUC(mib2, 0, hint.Add(4<<30), 0)
	wantErr(t, err, gocann.CodeRTParamInvalid, "multiple of 1 GiB")
	check(t, r.ReleaseMemAddress(nouc))
}

// TestCheckMemTypeReserved: aclrtCheckMemType's ACL_RT_MEM_TYPE_RSVD is
// an address in a reserved range, until the range is released.
func TestCheckMemTypeReserved(t *testing.T) {
	e := setup(t)
	v := vmmReserve(t, e.r, 2*mib2)
	d := malloc(t, e.c, 4096)
	want := func(ptrs []gocann.DevPtr, mt uint32, ok bool) {
		t.Helper()
		got, err := e.c.CheckMemType(ptrs, mt)
		if err != nil || got != ok {
			t.Errorf("CheckMemType(%v, %#x) = %v, %v; want %v", ptrs, mt, got, err, ok)
		}
	}
	want([]gocann.DevPtr{v, v.Add(mib2 + 100)}, gocann.MemTypeRsvd, true)
	want([]gocann.DevPtr{v}, gocann.MemTypeDev, false)
	want([]gocann.DevPtr{v, d}, gocann.MemTypeRsvd, false)
	want([]gocann.DevPtr{v, d}, gocann.MemTypeRsvd|gocann.MemTypeDev, true)
	want([]gocann.DevPtr{v.Add(2 * mib2)}, gocann.MemTypeRsvd, false)
	check(t, e.r.ReleaseMemAddress(v))
	want([]gocann.DevPtr{v}, gocann.MemTypeRsvd, false)
}
