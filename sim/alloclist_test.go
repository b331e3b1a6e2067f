package sim

import (
	"testing"

	"github.com/gocann/gocann/hal"
)

func TestAllocationsListsLiveAllocations(t *testing.T) {
	d := openDev(t, hal.Props{})
	l, ok := d.(hal.AllocLister)
	if !ok {
		t.Fatal("the simulated device does not list its allocations")
	}
	a, err := d.Malloc(100, hal.MemPolicy{Tag: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := d.Malloc(3<<20, hal.MemPolicy{Tag: 2})
	if err != nil {
		t.Fatal(err)
	}
	c, err := d.Malloc(64, hal.MemPolicy{Tag: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Free(c.Addr, 1); err != nil {
		t.Fatal(err)
	}
	got := l.Allocations()
	if len(got) != 2 {
		t.Fatalf("Allocations() = %+v, want the 2 live ones", got)
	}
	want := map[uint64]hal.Allocation{a.Addr: a, b.Addr: b}
	for i, g := range got {
		if i > 0 && got[i-1].Addr >= g.Addr {
			t.Errorf("Allocations() not in address order: %+v", got)
		}
		w, ok := want[g.Addr]
		if !ok || g.Size != w.Size || g.Tag != w.Tag || g.Device != 0 {
			t.Errorf("Allocations() lists %+v, want one of %+v", g, want)
		}
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if got := l.Allocations(); len(got) != 0 {
		t.Errorf("a closed device lists %+v, want none", got)
	}
}
