package haltest

import (
	"cmp"
	"slices"

	"github.com/gocann/gocann/hal"
)

func accesses(t *hal.Task, lookup func(uint64) (hal.Allocation, bool)) []hal.Range {
	var rs []hal.Range
	t.Accesses(lookup, func(r hal.Range) { rs = append(rs, r) })
	slices.SortFunc(rs, func(a, b hal.Range) int {
		if c := cmp.Compare(a.Addr, b.Addr); c != 0 {
			return c
		}
		if a.Write != b.Write {
			if a.Write {
				return 1
			}
			return -1
		}
		return cmp.Compare(a.Size, b.Size)
	})
	return rs
}

// testAccesses checks Task.Accesses, the device ranges a descriptor reads
// and writes, on descriptors of every kind, with a fixed lookup and with
// the backend's own.
func testAccesses(e *env) {
	t := e.t
	host := make([]byte, 64)
	h := hostLoc(host)
	const d1, d2 = 0x10000, 0x20000
	allocs := []hal.Allocation{
		{Device: 0, Addr: d1, Size: 0x100},
		{Device: 0, Addr: d2, Size: 0x40},
		{Device: -1, Addr: 0x30000, Size: 0x100, Host: true},
	}
	lookup := func(addr uint64) (hal.Allocation, bool) {
		for _, a := range allocs {
			if a.Contains(addr, 1) {
				return a, true
			}
		}
		return hal.Allocation{}, false
	}
	r := func(addr, size uint64, w bool) hal.Range { return hal.Range{Addr: addr, Size: size, Write: w} }
	kernel := kernelTask("k", 1, nil, d1+0x10, 42, 0x30008, d2)
	cases := []struct {
		name string
		task hal.Task
		want []hal.Range
	}{
		{"copy H2D", copyTask(hal.DevLoc(d1), h, 10), []hal.Range{r(d1, 10, true)}},
		{"copy D2H", copyTask(h, hal.DevLoc(d1+4), 10), []hal.Range{r(d1+4, 10, false)}},
		{"copy D2D", copyTask(hal.DevLoc(d2), hal.DevLoc(d1), 32), []hal.Range{r(d1, 32, false), r(d2, 32, true)}},
		{"copy H2H", copyTask(h, h, 10), nil},
		{"copy2d D2D", copy2DTask(hal.DevLoc(d2), hal.DevLoc(d1), 11, 13, 7, 5), []hal.Range{r(d1, 13*4+7, false), r(d2, 11*4+7, true)}},
		{"copy2d H2D", copy2DTask(hal.DevLoc(d2), h, 11, 13, 7, 5), []hal.Range{r(d2, 11*4+7, true)}},
		{"copy2d no rows", copy2DTask(hal.DevLoc(d2), hal.DevLoc(d1), 11, 13, 7, 0), nil},
		{"memset", memsetTask(d1+8, 3, 100), []hal.Range{r(d1+8, 100, true)}},
		{"memset host", hal.Task{Kind: hal.TaskMemset, Dst: h, Size: 10}, nil},
		{"value write", valueWrite(d2+8, 1), []hal.Range{r(d2+8, 8, true)}},
		{"value wait", valueWait(d2+16, 1, hal.WaitGEQ), []hal.Range{r(d2+16, 8, false)}},
		{"kernel", kernel, []hal.Range{r(d1+0x10, 0xf0, false), r(d1+0x10, 0xf0, true), r(d2, 0x40, false), r(d2, 0x40, true)}},
		{"host func", hostTask(func() {}), nil},
		{"event record", hal.Task{Kind: hal.TaskEventRecord}, nil},
		{"copy batch", hal.Task{Kind: hal.TaskCopyBatch, Batch: &hal.Batch{Copies: []hal.Copy{
			{Dst: hal.DevLoc(d1), Src: h, Size: 4}, {Dst: h, Src: hal.DevLoc(d2), Size: 6}}}},
			[]hal.Range{r(d1, 4, true), r(d2, 6, false)}},
		{"copy batch nil", hal.Task{Kind: hal.TaskCopyBatch}, nil},
		{"copy indirect", hal.Task{Kind: hal.TaskCopyIndirect, Dst: hal.DevLoc(d2), Src: hal.DevLoc(d2 + 8), Value: d2 + 16},
			[]hal.Range{r(d2, 8, false), r(d2+8, 8, false), r(d2+16, 8, false)}},
		{"cmo", hal.Task{Kind: hal.TaskCmo, Dst: hal.DevLoc(d1), Size: 64}, nil},
	}
	for _, c := range cases {
		if got := accesses(&c.task, lookup); !slices.Equal(got, c.want) {
			t.Errorf("%s: Accesses = %+v, want %+v", c.name, got, c.want)
		}
	}
	if got := accesses(&kernel, nil); got != nil {
		t.Errorf("kernel without a lookup: Accesses = %+v, want none", got)
	}
	// Slots past NArgs are not arguments.
	short := kernel
	short.NArgs = 1
	if got, want := accesses(&short, lookup), []hal.Range{r(d1+0x10, 0xf0, false), r(d1+0x10, 0xf0, true)}; !slices.Equal(got, want) {
		t.Errorf("kernel with one argument slot: Accesses = %+v, want %+v", got, want)
	}

	// The backend's Lookup resolves real allocations the same way.
	a := e.malloc(e.d, 1000)
	k := kernelTask("k", 1, nil, a.Addr+100)
	if got, want := accesses(&k, e.b.Lookup), []hal.Range{r(a.Addr+100, 900, false), r(a.Addr+100, 900, true)}; !slices.Equal(got, want) {
		t.Errorf("kernel over a real allocation: Accesses = %+v, want %+v", got, want)
	}
}
