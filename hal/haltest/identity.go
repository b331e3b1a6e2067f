package haltest

import (
	"sync/atomic"
	"time"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

// testIdentity checks the identity capability: every device has one,
// distinct logical and physical ids, PCI bus ids and UUIDs, the same each
// time it is asked; an id out of range is refused.
func testIdentity(e *env) {
	idr, ok := e.b.(hal.Identifier)
	if !ok {
		e.t.Skip("the backend does not know its devices' identities")
	}
	t := e.t
	n := e.b.DeviceCount()
	if idr.LogicalCount() < n {
		t.Errorf("LogicalCount = %d, fewer than the %d devices shown", idr.LogicalCount(), n)
	}
	seen := map[any]int{}
	for id := range n {
		x, err := idr.Identity(id)
		if err != nil {
			t.Fatalf("Identity(%d): %v", id, err)
		}
		if again, _ := idr.Identity(id); again != x {
			t.Errorf("Identity(%d) = %+v, then %+v", id, x, again)
		}
		if len(x.PCIBusID) != 12 || x.UUID == [16]byte{} || x.Logical < 0 || x.Logical >= idr.LogicalCount() || x.Physical < 0 {
			t.Errorf("Identity(%d) = %+v: expected a 12-character bus id, a UUID and ids in range", id, x)
		}
		for _, k := range []any{[2]int{0, x.Logical}, [2]int{1, x.Physical}, x.PCIBusID, x.UUID} {
			if prev, dup := seen[k]; dup {
				t.Errorf("devices %d and %d share %v", prev, id, k)
			}
			seen[k] = id
		}
	}
	_, err := idr.Identity(n)
	wantKind(t, err, hal.KindInvalidDevice, "Identity of a device out of range")
}

// testUtilization checks that a device running blocks on every core reads
// busy, and an idle one does not.
func testUtilization(e *env) {
	u, ok := e.d.(hal.Utilizer)
	if !ok {
		e.t.Skip("the device does not measure how busy it is")
	}
	t := e.t
	time.Sleep(300 * time.Millisecond) // past what opening the device did
	if idle := u.Utilization(); idle.Cube > 0.1 || idle.Vector > 0.1 {
		t.Errorf("idle device: %+v, expected cube and vector near 0", idle)
	}
	// Blocks that sleep rather than spin, so that every one starts however
	// few CPUs run the test.
	cores := e.props.AICores
	q := e.queue()
	var stop atomic.Bool
	e.submit(q, kernelTask("haltest_busy", cores, func(b *kernel.Block) {
		for !stop.Load() && !e.quit.Load() {
			time.Sleep(time.Millisecond / 10)
		}
	}))
	time.Sleep(300 * time.Millisecond)
	busy := u.Utilization()
	stop.Store(true)
	e.wait(q)
	if busy.Cube < 0.6 {
		t.Errorf("device with every core running a block for 300 ms: %+v, expected cube above 0.6", busy)
	}
}

// testMemUsage checks the memory counts by tag: an allocation adds its
// reserved bytes to its tag, a free takes them away, the peak stays.
func testMemUsage(e *env) {
	mu, ok := e.d.(hal.MemUser)
	if !ok {
		e.t.Skip("the device does not count its memory by tag")
	}
	t := e.t
	of := func(tag uint8) hal.MemUse {
		for _, u := range mu.MemUsage() {
			if u.Tag == tag {
				return u
			}
		}
		return hal.MemUse{Tag: tag}
	}
	before := of(1)
	a, err := e.d.Malloc(3<<20, hal.MemPolicy{Page: hal.PageNormalOnly, Tag: 1})
	if err != nil {
		t.Fatal(err)
	}
	if u := of(1); u.Bytes < before.Bytes+3<<20 || u.Peak < u.Bytes {
		t.Errorf("tag 1 after a 3 MiB allocation: %+v (before %+v)", u, before)
	}
	if err := e.d.Free(a.Addr, 1); err != nil {
		t.Fatal(err)
	}
	if u := of(1); u.Bytes != before.Bytes || u.Peak < before.Bytes+3<<20 {
		t.Errorf("tag 1 after the free: %+v, expected %d bytes and the peak kept", u, before.Bytes)
	}
}
