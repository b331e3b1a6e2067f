package gocann_test

import (
	"testing"

	"github.com/gocann/gocann"
)

// TestVMMAccess checks per-device access: a mapping made without access is
// refused to copies and memsets and faults a kernel until MemSetAccess
// gives it; read-only access refuses writes; every refusal of SetAccess
// and GetAccess has its code.
func TestVMMAccess(t *testing.T) {
	e := setup(t)
	r, c, s := e.r, e.c, e.s
	h := vmmPhysical(t, r, mib2)
	a := vmmReserve(t, r, mib2)
	check(t, r.MemMapNoAccess(a, mib2, 0, h, 0))
	for _, loc := range []struct{ typ, id uint32 }{{gocann.MemLocDevice, 0}, {gocann.MemLocDevice, 1}, {gocann.MemLocHost, 0}} {
		f, err := r.MemGetAccess(a, loc.typ, loc.id)
		check(t, err)
		if f != gocann.AccessNone {
			t.Errorf("access of %v to a mapping without access = %d", loc, f)
		}
	}
	buf := make([]byte, 64)
	wantErr(t, c.CopyToDevice(a, buf), gocann.CodeRTParamInvalid, "device 0 may not read and write", "aclrtMemSetAccess")
	wantErr(t, c.CopyFromDevice(buf, a), gocann.CodeRTParamInvalid, "device 0 may not read")
	wantErr(t, c.Memset(a, 1, 64), gocann.CodeRTParamInvalid, "may not read and write")
	wantErr(t, s.Memset(a, 1, 64), gocann.CodeRTParamInvalid, "may not read and write")
	wantErr(t, s.WriteValue(a, 1), gocann.CodeRTParamInvalid, "may not read and write")
	ran := false
	k, err := r.RegisterKernel("vmm_touch", func(b *gocann.Block) { ran = true; b.Store64(b.Arg(0).Ptr(), 7) })
	check(t, err)
	check(t, s.Launch(k, 1, gocann.Ptr(a)))
	wantErr(t, s.SynchronizeTimeout(long), gocann.CodeRTAICoreException, "no access", "aclrtMemSetAccess")
	if ran {
		t.Error("a kernel ran on memory its device has no access to")
	}

	// Read-only access: reads pass, writes do not.
	check(t, r.MemSetAccess(a, mib2, gocann.MemAccessDesc{Flags: gocann.AccessRead, LocType: gocann.MemLocDevice, LocID: 0}))
	check(t, c.CopyFromDevice(buf, a))
	wantErr(t, c.CopyToDevice(a, buf), gocann.CodeRTParamInvalid, "may not read and write", "access flags 0x1")
	// Read and write for the device and the host at once.
	check(t, r.MemSetAccess(a, mib2,
		gocann.MemAccessDesc{Flags: gocann.AccessReadWrite, LocType: gocann.MemLocDevice, LocID: 0},
		gocann.MemAccessDesc{Flags: gocann.AccessRead, LocType: gocann.MemLocHost}))
	if f, err := r.MemGetAccess(a, gocann.MemLocHost, 0); err != nil || f != gocann.AccessRead {
		t.Errorf("host access = %d, %v; want READ", f, err)
	}
	if f, err := r.MemGetAccess(a, gocann.MemLocDevice, 0); err != nil || f != gocann.AccessReadWrite {
		t.Errorf("device 0 access = %d, %v; want READWRITE", f, err)
	}
	check(t, c.CopyToDevice(a, vmmPattern(64, 4)))
	check(t, s.Launch(k, 1, gocann.Ptr(a)))
	syncOK(t, s)
	if v := readU64(t, c, a); !ran || v != 7 {
		t.Errorf("kernel with access: ran %v, wrote %d", ran, v)
	}

	// Refusals.
	rw := gocann.MemAccessDesc{Flags: gocann.AccessReadWrite, LocType: gocann.MemLocDevice}
	wantErr(t, r.MemSetAccess(0, mib2, rw), gocann.CodeRTParamInvalid, "virPtr is NULL")
	wantErr(t, r.MemSetAccess(a, mib2), gocann.CodeRTParamInvalid, "count 0")
	wantErr(t, r.MemSetAccess(a, mib2/2, rw), gocann.CodeRTParamInvalid, "expected the mapping")
	wantErr(t, r.MemSetAccess(a.Add(mib2), mib2, rw), gocann.CodeRTParamInvalid, "not mapped")
	wantErr(t, r.MemSetAccess(a, mib2, gocann.MemAccessDesc{Flags: 2, LocType: gocann.MemLocDevice}), gocann.CodeRTParamInvalid, "desc[0].flags 0x2")
	wantErr(t, r.MemSetAccess(a, mib2, rw, gocann.MemAccessDesc{Flags: 1, LocType: gocann.MemLocDevice, LocID: 7}),
		gocann.CodeRTInvalidDeviceID, "desc[1].location.id 7")
	wantErr(t, r.MemSetAccess(a, mib2, gocann.MemAccessDesc{Flags: 1, LocType: 3}), gocann.CodeRTParamInvalid, "desc[0].location.type 3")
	// A refused descriptor leaves the others unapplied.
	if f, _ := r.MemGetAccess(a, gocann.MemLocDevice, 0); f != gocann.AccessReadWrite {
		t.Errorf("a refused MemSetAccess changed device 0's access to %d", f)
	}
	_, err = r.MemGetAccess(0, gocann.MemLocDevice, 0)
	wantErr(t, err, gocann.CodeInvalidParam, "virPtr is NULL")
	_, err = r.MemGetAccess(a.Add(4096), gocann.MemLocDevice, 0)
	wantErr(t, err, gocann.CodeRTParamInvalid, "not the start of a mapping")
	_, err = r.MemGetAccess(a, gocann.MemLocHostNUMA, 0)
	wantErr(t, err, gocann.CodeRTParamInvalid, "location.type 4")
	check(t, r.UnmapMem(a))
	check(t, r.FreePhysical(h))
	check(t, r.ReleaseMemAddress(a))
}

// TestVMMRetainAndProperties: RetainAllocation hands back the mapped
// handle with a reference of its own, and the properties read back as the
// HBM attribute the request became.
func TestVMMRetainAndProperties(t *testing.T) {
	e := setup(t)
	r := e.r
	for _, tc := range []struct{ in, out gocann.MemAttr }{
		{gocann.MemNormal, gocann.MemHBMNormal}, {gocann.MemHuge, gocann.MemHBMHuge},
		{gocann.MemHBMHuge, gocann.MemHBMHuge}, {gocann.MemP2PHuge, gocann.MemP2PHuge},
	} {
		h, err := r.MallocPhysical(mib2, gocann.DeviceMemProp(0, tc.in), 0)
		check(t, err)
		p, err := r.PhysicalMemProperties(h)
		check(t, err)
		if p.MemAttr != tc.out || p.LocType != gocann.MemLocDevice || p.LocID != 0 {
			t.Errorf("memAttr %d reads back as %+v, want memAttr %d on device 0", tc.in, p, tc.out)
		}
		check(t, r.FreePhysical(h))
	}
	g, err := r.MemAllocationGranularity(gocann.DeviceMemProp(0, gocann.MemHuge1G), gocann.GranularityRecommend)
	check(t, err)
	if g != 1<<30 {
		t.Errorf("1 GiB pages have granularity %d", g)
	}

	h := vmmPhysical(t, r, mib2)
	a := vmmReserve(t, r, mib2)
	check(t, r.MapMem(a, mib2, 0, h, 0))
	h2, err := r.RetainAllocation(a)
	check(t, err)
	if h2 != h {
		t.Errorf("RetainAllocation = %d, want the mapped handle %d", h2, h)
	}
	if ph, _ := r.PhysicalMemInfo(h); ph.Refs != 2 || ph.Mappings != 1 {
		t.Errorf("after a retain: %+v, want 2 references and 1 mapping", ph)
	}
	_, err = r.RetainAllocation(a.Add(4096))
	wantErr(t, err, gocann.CodeRTParamInvalid, "not the start of a mapping")
	_, err = r.RetainAllocation(0)
	wantErr(t, err, gocann.CodeInvalidParam, "virPtr is NULL")
	check(t, r.FreePhysical(h))
	check(t, r.FreePhysical(h2))
	_, err = r.RetainAllocation(a)
	wantErr(t, err, gocann.CodeRTParamInvalid, "handle was freed")
	check(t, r.UnmapMem(a))
	check(t, r.ReleaseMemAddress(a))
}

// TestVMMLinks: MemMapSelectedLink maps a reservation to the memory mapped
// at another over the link chosen, which reads back; the simulated
// topology has HCCS links only, so SIO and the UB paths are refused with
// ACL_ERROR_RT_LINK_TYPE_NOT_SUPPORTED.
func TestVMMLinks(t *testing.T) {
	a2 := setup(t)
	wantErr(t, a2.r.MemMapSelectedLink(1<<44, mib2, 1<<44, 1), gocann.CodeRTFeatureNotSupport, "not supported on Ascend910B1")
	e := setup(t, a3Config)
	r, c := e.r, e.c
	h1, h2 := vmmPhysical(t, r, mib2), vmmPhysical(t, r, mib2)
	src := vmmReserve(t, r, 2*mib2)
	dst := vmmReserve(t, r, 2*mib2)
	check(t, r.MapMem(src, mib2, 0, h1, 0))
	check(t, r.MapMem(src.Add(mib2), mib2, 0, h2, 0))
	check(t, c.CopyToDevice(src.Add(mib2-8), vmmPattern(16, 5)))
	wantErr(t, r.MemMapSelectedLink(dst, 2*mib2, src, gocann.MemLinkSIO), gocann.CodeRTLinkTypeNotSupported, "SIO", "link kinds 0x1")
	wantErr(t, r.MemMapSelectedLink(dst, 2*mib2, src, 2), gocann.CodeInvalidParam, "linkIdx 2")
	wantErr(t, r.MemMapSelectedLink(0, 2*mib2, src, 1), gocann.CodeInvalidParam, "virPtrDst is NULL")
	wantErr(t, r.MemMapSelectedLink(dst, 0, src, 1), gocann.CodeInvalidParam, "size 0")
	wantErr(t, r.MemMapSelectedLink(dst, mib2, src, 1), gocann.CodeRTParamInvalid, "reserved size")
	wantErr(t, r.MemMapSelectedLink(dst.Add(mib2), mib2, src, 1), gocann.CodeRTParamInvalid, "not the start")
	wantErr(t, r.MemMapSelectedLink(dst, 2*mib2, src.Add(4096), 1), gocann.CodeRTParamInvalid, "virPtrSrc")
	check(t, r.MemMapSelectedLink(dst, 2*mib2, src, gocann.MemLinkHCCS))
	got := make([]byte, 16)
	check(t, c.CopyFromDevice(got[:8], dst.Add(mib2-8)))
	check(t, c.CopyFromDevice(got[8:], dst.Add(mib2)))
	if string(got) != string(vmmPattern(16, 5)) {
		t.Errorf("memory mapped by MemMapSelectedLink reads %x, want %x", got, vmmPattern(16, 5))
	}
	for _, at := range []gocann.DevPtr{dst, dst.Add(mib2)} {
		if l, ok := r.MappingLink(at); !ok || l != gocann.MemLinkHCCS {
			t.Errorf("link of the mapping at +%#x = %d, %v", uint64(at-dst), l, ok)
		}
	}
	wantErr(t, r.MemMapSelectedLink(dst, 2*mib2, src, 1), gocann.CodeRTParamInvalid, "already has 2 mapping")
	// Unmapping takes one call per physical allocation, as CANN documents.
	check(t, r.UnmapMem(dst))
	check(t, r.UnmapMem(dst.Add(mib2)))

	// MemMapSetLink.
	if l, ok := r.PhysicalMemLink(h1); !ok || l != gocann.MemLinkHCCS {
		t.Errorf("default link %d, %v", l, ok)
	}
	check(t, r.MemMapSetLink(h1, gocann.MemLinkHCCS))
	for _, l := range []uint32{gocann.MemLinkSIO, 2, 3} {
		wantErr(t, r.MemMapSetLink(h1, l), gocann.CodeRTLinkTypeNotSupported, "not a link of device 0 in the simulated topology")
	}
	wantErr(t, r.MemMapSetLink(h1, 4), gocann.CodeRTParamInvalid, "adviceLink 4")
	wantErr(t, r.MemMapSetLink(0, 1), gocann.CodeInvalidParam, "handle is NULL")
	for _, p := range []gocann.DevPtr{src, src.Add(mib2)} {
		check(t, r.UnmapMem(p))
	}
	check(t, r.FreePhysical(h1))
	check(t, r.FreePhysical(h2))
	wantErr(t, r.MemMapSetLink(h1, 1), gocann.CodeRTInvalidHandle, "not live")
}

// TestVMMFakeBackend: a backend without the capability refuses every call
// with ACL_ERROR_RT_FEATURE_NOT_SUPPORT and says why.
func TestVMMFakeBackend(t *testing.T) {
	fb := newFakeBackend()
	r, err := gocann.Open(gocann.WithBackend(fb.open))
	check(t, err)
	t.Cleanup(func() { check(t, r.Close()) })
	d, err := r.SetDevice(0)
	check(t, err)
	c, err := d.Context()
	check(t, err)
	const why = "no virtual memory management"
	_, err = r.ReserveMemAddress(mib2, 0, 0, 0)
	wantErr(t, err, gocann.CodeRTFeatureNotSupport, why)
	_, err = r.MallocPhysical(mib2, devProp(), 0)
	wantErr(t, err, gocann.CodeRTFeatureNotSupport, why)
	_, err = r.MemAllocationGranularity(devProp(), 0)
	wantErr(t, err, gocann.CodeRTFeatureNotSupport, why)
	wantErr(t, r.MapMem(1<<44, mib2, 0, 1, 0), gocann.CodeRTFeatureNotSupport, why)
	wantErr(t, r.UnmapMem(1<<44), gocann.CodeRTFeatureNotSupport, why)
	wantErr(t, r.FreePhysical(1), gocann.CodeRTFeatureNotSupport, why)
	_, err = c.MallocManaged(mib2, gocann.MemAttachGlobal)
	wantErr(t, err, gocann.CodeRTFeatureNotSupport, why)
}

// TestVMMLinksSIO: with the two dies of a chip linked by SIO in the
// topology, SIO is the link to select and HCCS is refused.
func TestVMMLinksSIO(t *testing.T) {
	e := setup(t, `{"simulator":{"hbm_size":1073741824,"soc_name":"Ascend910_9391","topology":{"link":"sio"}}}`)
	r, c := e.r, e.c
	h := vmmPhysical(t, r, mib2)
	src, dst := vmmReserve(t, r, mib2), vmmReserve(t, r, mib2)
	check(t, r.MapMem(src, mib2, 0, h, 0))
	check(t, c.CopyToDevice(src, vmmPattern(64, 8)))
	wantErr(t, r.MemMapSelectedLink(dst, mib2, src, gocann.MemLinkHCCS), gocann.CodeRTLinkTypeNotSupported, "HCCS", "link kinds 0x20")
	check(t, r.MemMapSelectedLink(dst, mib2, src, gocann.MemLinkSIO))
	if l, ok := r.MappingLink(dst); !ok || l != gocann.MemLinkSIO {
		t.Errorf("link of the mapping = %d, %v; want SIO", l, ok)
	}
	got := make([]byte, 64)
	check(t, c.CopyFromDevice(got, dst))
	if string(got) != string(vmmPattern(64, 8)) {
		t.Error("memory mapped over SIO reads back wrong")
	}
	check(t, r.MemMapSetLink(h, gocann.MemLinkSIO))
	if l, _ := r.PhysicalMemLink(h); l != gocann.MemLinkSIO {
		t.Errorf("PhysicalMemLink = %d after MemMapSetLink(SIO)", l)
	}
	wantErr(t, r.MemMapSetLink(h, gocann.MemLinkHCCS), gocann.CodeRTLinkTypeNotSupported, "HCCS")
	check(t, r.UnmapMem(dst))
	check(t, r.UnmapMem(src))
	check(t, r.FreePhysical(h))
}
