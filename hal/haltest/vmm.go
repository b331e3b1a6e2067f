package haltest

import (
	"bytes"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

const vmmPage = hal.PageSizeHuge

// vmm returns the backend's hal.VMM, or skips.
func (e *env) vmm() hal.VMM {
	v, ok := e.b.(hal.VMM)
	if !ok {
		e.t.Skip("the backend has no virtual memory management")
	}
	return v
}

func (e *env) reserve(v hal.VMM, size, hint uint64) uint64 {
	e.t.Helper()
	addr, err := v.Reserve(size, 0, hint, false)
	if err != nil {
		e.t.Fatalf("Reserve(%d, hint %#x): %v", size, hint, err)
	}
	e.t.Cleanup(func() { _ = v.Release(addr) })
	return addr
}

func (e *env) physical(v hal.VMM, size uint64) hal.Physical {
	e.t.Helper()
	p, err := v.AllocPhysical(0, size, hal.MemPolicy{}, vmmPage)
	if err != nil {
		e.t.Fatalf("AllocPhysical(%d): %v", size, err)
	}
	return p
}

// testVMMReserve checks reservations: inside the window, aligned, the hint
// honoured when free and refused otherwise, released only when unmapped.
func testVMMReserve(e *env) {
	t, v := e.t, e.vmm()
	lo, hi := v.VMMWindow()
	a := e.reserve(v, 2*vmmPage, 0)
	if a < lo || a+2*vmmPage > hi || a%vmmPage != 0 {
		t.Errorf("Reserve gave %#x, want a %d-aligned range inside [%#x, %#x)", a, vmmPage, lo, hi)
	}
	hint := lo + (hi-lo)/2
	if got := e.reserve(v, vmmPage, hint); got != hint {
		t.Errorf("Reserve with free hint %#x gave %#x", hint, got)
	}
	_, err := v.Reserve(vmmPage, 0, hint, false)
	wantKind(t, err, hal.KindInvalidParam, "Reserve at a reserved hint")
	_, err = v.Reserve(vmmPage, 0, hi, false)
	wantKind(t, err, hal.KindInvalidParam, "Reserve at a hint past the window")
	_, err = v.Reserve(vmmPage+1, 0, 0, false)
	wantKind(t, err, hal.KindInvalidParam, "Reserve of a size off the granularity")
	if r, ok := v.Reservation(a + vmmPage); !ok || r.Addr != a || r.Size != 2*vmmPage {
		t.Errorf("Reservation(%#x) = %+v, %v", a+vmmPage, r, ok)
	}
	wantKind(t, v.Release(a+vmmPage), hal.KindInvalidParam, "Release inside a reservation")
	if err := v.Release(a); err != nil {
		t.Fatal(err)
	}
	wantKind(t, v.Release(a), hal.KindInvalidParam, "Release twice")
	// A released range stays known: a kernel given a pointer there faults
	// instead of touching it, and a copy is refused.
	if r, ok := v.Reservation(a); !ok || !r.Released {
		t.Errorf("Reservation of a released range = %+v, %v; want it Released", r, ok)
	}
	q := e.queue()
	ran := false
	seq := e.submit(q, kernelTask("haltest_vmm_released", 1, func(*kernel.Block) { ran = true }, a))
	if err := waitSeq(q, seq, patience); err != nil {
		t.Fatal(err)
	}
	if fs := q.TakeFaults(seq); len(fs) != 1 || ran {
		t.Errorf("kernel on released virtual memory: ran %v, faults %+v", ran, fs)
	}
	buf := make([]byte, 8)
	wantKind(t, e.d.Run(hal.Task{Kind: hal.TaskCopy, Dst: hostLoc(buf), Src: hal.DevLoc(a), Size: 8}), hal.KindInvalidAddress, "copy from released virtual memory")
	// It can be reserved again, with free memory beside it.
	if got := e.reserve(v, 4*vmmPage, a); got != a {
		t.Errorf("reserving a released range and the free range after it gave %#x, want %#x", got, a)
	}
}

// testVMMDoubleMap maps one physical allocation at two addresses: bytes
// copied in through one read back through the other, copies and memsets
// reach mapped memory, and the memory counts against the device's.
func testVMMDoubleMap(e *env) {
	t, v := e.t, e.vmm()
	free0, _ := e.d.MemInfo()
	p := e.physical(v, 2*vmmPage)
	if free1, _ := e.d.MemInfo(); free0-free1 != 2*vmmPage {
		t.Errorf("a physical allocation of %d bytes took %d bytes of device memory", 2*vmmPage, free0-free1)
	}
	a := e.reserve(v, 4*vmmPage, 0)
	b := e.reserve(v, 2*vmmPage, 0)
	for _, at := range []uint64{a + 2*vmmPage, b} {
		if err := v.Map(at, 2*vmmPage, 0, p.ID, true); err != nil {
			t.Fatalf("Map at %#x: %v", at, err)
		}
	}
	if got, ok := v.PhysicalInfo(p.ID); !ok || got.Mappings != 2 || got.Device != 0 {
		t.Errorf("PhysicalInfo = %+v, %v, want 2 mappings on device 0", got, ok)
	}
	al, ok := e.b.Lookup(b + 100)
	if !ok || al.Device != 0 || al.Addr != b || al.Size != 2*vmmPage {
		t.Errorf("Lookup of mapped memory = %+v, %v", al, ok)
	}
	want := pattern(3<<20, 9)
	e.run(e.queue(), hal.Task{Kind: hal.TaskCopy, Dst: hal.DevLoc(a + 2*vmmPage), Src: hostLoc(want), Size: uint64(len(want))})
	got := make([]byte, len(want))
	e.run(nil, hal.Task{Kind: hal.TaskCopy, Dst: hostLoc(got), Src: hal.DevLoc(b), Size: uint64(len(got))})
	if !bytes.Equal(got, want) {
		t.Error("bytes copied into one mapping do not read back through the other")
	}
	e.run(nil, hal.Task{Kind: hal.TaskMemset, Dst: hal.DevLoc(b + 10), Size: 5, Value: 0xab})
	e.run(nil, hal.Task{Kind: hal.TaskCopy, Dst: hostLoc(got[:16]), Src: hal.DevLoc(a + 2*vmmPage), Size: 16})
	if got[10] != 0xab || got[14] != 0xab || got[15] != want[15] || got[9] != want[9] {
		t.Errorf("a memset through one mapping reads back %x through the other", got[:16])
	}
	// A kernel reaches the bytes at a mapped address.
	q := e.queue()
	e.submit(q, kernelTask("haltest_vmm", 1, func(blk *kernel.Block) { blk.Store64(blk.Arg(0), 0x1122334455667788) }, a+2*vmmPage+64))
	e.wait(q)
	e.run(nil, hal.Task{Kind: hal.TaskCopy, Dst: hostLoc(got[:8]), Src: hal.DevLoc(b + 64), Size: 8})
	if !bytes.Equal(got[:8], []byte{0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11}) {
		t.Errorf("a kernel's store through one mapping reads %x through the other", got[:8])
	}

	// Misuse.
	wantKind(t, v.Map(b, 2*vmmPage, 0, p.ID, true), hal.KindInvalidParam, "Map over a mapping")
	wantKind(t, v.Unmap(a), hal.KindInvalidParam, "Unmap of a reserved range with nothing mapped at it")
	wantKind(t, v.Unmap(b+vmmPage), hal.KindInvalidParam, "Unmap inside a mapping")
	wantKind(t, v.Release(b), hal.KindInvalidParam, "Release with a mapping")
	wantKind(t, v.Map(a, 2*vmmPage, vmmPage, p.ID, true), hal.KindInvalidParam, "Map of a part past the physical size")
	wantKind(t, v.Map(a, 2*vmmPage, 0, p.ID+1000, true), hal.KindInvalidHandle, "Map of an unknown handle")

	// Freeing a mapped allocation keeps its memory until the last unmap.
	if err := v.FreePhysical(p.ID); err != nil {
		t.Fatal(err)
	}
	if _, ok := v.PhysicalInfo(p.ID); ok {
		t.Error("a freed handle is still described")
	}
	if free, _ := e.d.MemInfo(); free0-free != 2*vmmPage {
		t.Errorf("freeing a mapped allocation gave back %d bytes before its unmap", 2*vmmPage-(free0-free))
	}
	e.run(nil, hal.Task{Kind: hal.TaskCopy, Dst: hostLoc(got[:8]), Src: hal.DevLoc(b + 64), Size: 8})
	for _, at := range []uint64{a + 2*vmmPage, b} {
		if err := v.Unmap(at); err != nil {
			t.Fatalf("Unmap(%#x): %v", at, err)
		}
	}
	if free, _ := e.d.MemInfo(); free != free0 {
		t.Errorf("free memory %d after the last unmap, want %d", free, free0)
	}
	if _, ok := e.b.Lookup(b); ok {
		t.Error("Lookup finds unmapped memory")
	}
	wantKind(t, e.d.Run(hal.Task{Kind: hal.TaskCopy, Dst: hostLoc(got[:8]), Src: hal.DevLoc(b), Size: 8}), hal.KindInvalidAddress, "copy from unmapped memory")
	wantKind(t, v.FreePhysical(p.ID), hal.KindInvalidHandle, "FreePhysical twice")
}

// testVMMAccess checks that a kernel whose argument points at memory its
// device has no access to faults instead of running, until access is set.
func testVMMAccess(e *env) {
	t, v := e.t, e.vmm()
	p := e.physical(v, vmmPage)
	defer func() { _ = v.FreePhysical(p.ID) }()
	a := e.reserve(v, vmmPage, 0)
	if err := v.Map(a, vmmPage, 0, p.ID, false); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = v.Unmap(a) }()
	if m, ok := v.Mapping(a); !ok || m.Access(0) != hal.AccessNone {
		t.Fatalf("Mapping without access = %+v, %v", m, ok)
	}
	q := e.queue()
	ran := false
	k := kernelTask("haltest_vmm_access", 1, func(*kernel.Block) { ran = true }, a)
	seq := e.submit(q, k)
	if err := waitSeq(q, seq, patience); err != nil {
		t.Fatal(err)
	}
	if fs := q.TakeFaults(seq); len(fs) != 1 || ran || hal.KindOf(fs[0].Err) != hal.KindInvalidAddress {
		t.Errorf("kernel on memory without access: ran %v, faults %+v", ran, fs)
	}
	if err := v.SetAccess(a, vmmPage, 0, hal.AccessReadWrite); err != nil {
		t.Fatal(err)
	}
	wantKind(t, v.SetAccess(a, 2*vmmPage, 0, hal.AccessRead), hal.KindInvalidParam, "SetAccess over more than the mapping")
	wantKind(t, v.SetAccess(a, vmmPage, 0, 2), hal.KindInvalidParam, "SetAccess with flags 2")
	e.submit(q, k)
	e.wait(q)
	if !ran {
		t.Error("the kernel did not run once its device had access")
	}
}
