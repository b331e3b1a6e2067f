package haltest

import (
	"github.com/gocann/gocann/hal"
)

func testMallocAlignment(e *env) {
	t := e.t
	cases := []struct {
		size uint64
		page hal.PagePolicy
		want uint64
	}{
		{1, hal.PageNormalOnly, hal.PageSizeNormal},
		{4096, hal.PageHugeFirst, hal.PageSizeNormal},
		{1 << 20, hal.PageHugeFirst, hal.PageSizeNormal},
		{1<<20 + 1, hal.PageHugeFirst, hal.PageSizeHuge},
		{100, hal.PageHugeOnly, hal.PageSizeHuge},
		{3<<20 + 5, hal.PageNormalOnly, hal.PageSizeNormal},
		{3<<20 + 5, hal.PageHugeOnly, hal.PageSizeHuge},
	}
	var got []hal.Allocation
	for _, c := range cases {
		a, err := e.d.Malloc(c.size, hal.MemPolicy{Page: c.page})
		if err != nil {
			t.Fatalf("Malloc(%d, %d): %v", c.size, c.page, err)
		}
		if a.Size != c.size || a.PageSize != c.want || a.Addr%a.PageSize != 0 || a.Device != e.d.ID() || a.Host {
			t.Errorf("Malloc(%d, page policy %d) = %+v, want %d bytes on device %d aligned to %d-byte pages",
				c.size, c.page, a, c.size, e.d.ID(), c.want)
		}
		for _, addr := range []uint64{a.Addr, a.Addr + a.Size - 1} {
			if sp, ok := e.b.Owner(addr); !ok || sp.Device != e.d.ID() || !sp.Open || !sp.Contains(addr) {
				t.Errorf("Owner(%#x) of allocation %+v = %+v, %v", addr, a, sp, ok)
			}
		}
		if l, ok := e.d.Lookup(a.Addr + a.Size); ok && l.Addr == a.Addr {
			t.Errorf("Lookup one past allocation %+v finds it", a)
		}
		got = append(got, a)
	}
	for i, a := range got {
		for _, b := range got[i+1:] {
			if a.Addr < b.Addr+b.Size && b.Addr < a.Addr+a.Size {
				t.Errorf("allocations %+v and %+v overlap", a, b)
			}
		}
	}
}

func testNeverUsedReadsZero(e *env) {
	for _, size := range []uint64{64, 3<<20 + 7} {
		a := e.malloc(e.d, size)
		for i, v := range devBytes(e.t, e.d, a.Addr, a.Size) {
			if v != 0 {
				e.t.Fatalf("never-used allocation of %d bytes has %#x at offset %d", size, v, i)
			}
		}
	}
}

func testMemInfo(e *env) {
	t := e.t
	free0, total := e.d.MemInfo()
	if total != e.props.HBMSize || free0 > total {
		t.Fatalf("MemInfo() = %d free, %d total; want total %d (Props.HBMSize) and free <= total", free0, total, e.props.HBMSize)
	}
	const size = 64 << 20
	a := e.malloc(e.d, size)
	free1, _ := e.d.MemInfo()
	if free1 > free0-size {
		t.Errorf("free memory went from %d to %d after a %d-byte Malloc, want a drop of at least %d", free0, free1, size, size)
	}
	if err := e.d.Free(a.Addr, 0); err != nil {
		t.Fatal(err)
	}
	if free2, _ := e.d.MemInfo(); free2 != free0 {
		t.Errorf("free memory is %d after Free, was %d before Malloc", free2, free0)
	}
}

func testOutOfMemory(e *env) {
	_, err := e.d.Malloc(e.props.HBMSize+1, hal.MemPolicy{Page: hal.PageHugeFirst})
	wantKind(e.t, err, hal.KindOutOfMemory, "Malloc of more than HBMSize")
	// The failure leaves the device usable.
	e.malloc(e.d, 4096)
}

func testFreeErrors(e *env) {
	t := e.t
	a := e.malloc(e.d, 8192)
	wantKind(t, e.d.Free(a.Addr+8, 0), hal.KindInvalidAddress, "Free of an interior address")
	if _, ok := e.d.Lookup(a.Addr); !ok {
		t.Fatal("a failed Free of an interior address freed the allocation")
	}
	wantKind(t, e.d.Free(0, 0), hal.KindInvalidAddress, "Free(0)")
	if err := e.d.Free(a.Addr, 0); err != nil {
		t.Fatalf("Free: %v", err)
	}
	wantKind(t, e.d.Free(a.Addr, 0), hal.KindInvalidAddress, "second Free")

	// A tag is reported with the allocation and guards its free.
	tagged, err := e.d.Malloc(4096, hal.MemPolicy{Page: hal.PageNormalOnly, Tag: 7})
	if err != nil {
		t.Fatalf("Malloc with a tag: %v", err)
	}
	if tagged.Tag != 7 {
		t.Errorf("Malloc reports tag %d, want 7", tagged.Tag)
	}
	if got, ok := e.d.Lookup(tagged.Addr + 100); !ok || got.Tag != 7 {
		t.Errorf("Lookup inside a tagged allocation = %+v, %v; want tag 7", got, ok)
	}
	wantKind(t, e.d.Free(tagged.Addr, 0), hal.KindInvalidAddress, "Free with another tag")
	if _, ok := e.d.Lookup(tagged.Addr); !ok {
		t.Fatal("a Free with another tag freed the allocation")
	}
	if err := e.d.Free(tagged.Addr, 7); err != nil {
		t.Fatalf("Free with its tag: %v", err)
	}
}

func testPointerBounds(e *env) {
	t := e.t
	a, err := e.d.Malloc(10000, hal.MemPolicy{Page: hal.PageNormalOnly})
	if err != nil {
		t.Fatal(err)
	}
	for _, ok := range [][2]uint64{{a.Addr, a.Size}, {a.Addr + a.Size - 1, 1}, {a.Addr + 8, a.Size - 8}} {
		if _, err := e.d.Pointer(ok[0], ok[1]); err != nil {
			t.Errorf("Pointer(%#x, %d) inside %+v: %v", ok[0], ok[1], a, err)
		}
	}
	for _, bad := range [][2]uint64{
		{a.Addr, a.Size + 1},
		{a.Addr + a.Size, 1},
		{a.Addr + a.Size - 8, 16},
		{a.Addr, ^uint64(0)},
		{a.Addr + 1, ^uint64(0)},
		{0, 1},
	} {
		_, err := e.d.Pointer(bad[0], bad[1])
		wantKind(t, err, hal.KindInvalidAddress, "Pointer out of bounds")
	}
	// Bytes written through one mapping read back through another.
	copy(devBytes(t, e.d, a.Addr+100, 16), "sixteen bytes!!!")
	if got := string(devBytes(t, e.d, a.Addr+96, 20)[4:]); got != "sixteen bytes!!!" {
		t.Errorf("read back %q", got)
	}
	if err := e.d.Free(a.Addr, 0); err != nil {
		t.Fatal(err)
	}
	_, err = e.d.Pointer(a.Addr, 1)
	wantKind(t, err, hal.KindInvalidAddress, "Pointer into freed memory")
}
