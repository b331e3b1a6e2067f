package haltest

import (
	"github.com/gocann/gocann/hal"
)

func testDeviceCount(e *env) {
	if n := e.b.DeviceCount(); n < 1 {
		e.t.Fatalf("DeviceCount() = %d, want >= 1", n)
	}
	if id := e.d.ID(); id != 0 {
		e.t.Errorf("device opened as 0 reports ID %d", id)
	}
}

func testProps(e *env) {
	t := e.t
	n := e.b.DeviceCount()
	for _, id := range []int{-1, n, n + 1, 1 << 20} {
		_, err := e.b.Props(id)
		wantKind(t, err, hal.KindInvalidDevice, "Props of invalid device id")
	}
	for id := range n {
		p, err := e.b.Props(id)
		if err != nil {
			t.Fatalf("Props(%d): %v", id, err)
		}
		switch {
		case p.AICores < 1, p.StreamLimit < 1, p.QueueDepth < 1, p.EventLimit < 1, p.NotifyLimit < 1, p.HBMSize == 0:
			t.Errorf("Props(%d) = %+v: a limit is not positive", id, p)
		case p.GreatestPriority > p.LeastPriority:
			t.Errorf("Props(%d): greatest priority %d is numerically above least %d", id, p.GreatestPriority, p.LeastPriority)
		}
	}
	if p, _ := e.b.Props(0); p != e.props {
		t.Errorf("Backend.Props(0) = %+v, Device.Props() = %+v", p, e.props)
	}
}

func testOpen(e *env) {
	t := e.t
	if _, err := e.b.Open(0); err == nil {
		t.Fatal("Open of an already open device succeeded")
	}
	for _, id := range []int{-1, e.b.DeviceCount()} {
		_, err := e.b.Open(id)
		wantKind(t, err, hal.KindInvalidDevice, "Open of invalid device id")
	}
	// Close ends a device; its id can be opened again.
	e.closeDevice(0)
	d := e.device(0)
	if d.ID() != 0 {
		t.Errorf("reopened device reports ID %d", d.ID())
	}
	q := e.queueOn(d, hal.QueueConfig{Priority: e.props.LeastPriority})
	ran := false
	e.submit(q, hostTask(func() { ran = true }))
	e.wait(q)
	if !ran {
		t.Error("a reopened device did not run a task")
	}
	if e.b.DeviceCount() > 1 {
		if d1 := e.device(1); d1.ID() != 1 {
			t.Errorf("device opened as 1 reports ID %d", d1.ID())
		}
	}
}

// checkLookup checks that addr resolves to allocation a through the backend
// and the device.
func checkLookup(e *env, d hal.Device, a hal.Allocation, addr uint64) {
	t := e.t
	t.Helper()
	for _, l := range []struct {
		name   string
		lookup func(uint64) (hal.Allocation, bool)
	}{{"Backend.Lookup", e.b.Lookup}, {"Device.Lookup", d.Lookup}} {
		got, ok := l.lookup(addr)
		if !ok || got.Addr != a.Addr || got.Size != a.Size || got.Device != d.ID() || got.Host {
			t.Errorf("%s(%#x) = %+v, %v; want %+v", l.name, addr, got, ok, a)
		}
	}
	if sp, ok := e.b.Owner(addr); !ok || sp.Device != d.ID() || !sp.Open || !sp.Contains(addr) {
		t.Errorf("Owner(%#x) = %+v, %v; want device %d's open span", addr, sp, ok, d.ID())
	}
}

func testLookupDevice(e *env) {
	t := e.t
	a := e.malloc(e.d, 4096+100)
	if a.Device != e.d.ID() || a.Host {
		t.Errorf("Malloc returned %+v, want device %d memory", a, e.d.ID())
	}
	for _, addr := range []uint64{a.Addr, a.Addr + 1, a.Addr + a.Size - 1} {
		checkLookup(e, e.d, a, addr)
	}
	heap := make([]byte, 64)
	if _, ok := e.b.Lookup(hostAddr(heap)); ok {
		t.Error("Lookup of Go heap memory found an allocation")
	}
	if _, ok := e.b.Owner(hostAddr(heap)); ok {
		t.Error("Owner of Go heap memory found a device")
	}
	if _, ok := e.b.Owner(0); ok {
		t.Error("Owner(0) found a device")
	}
	if err := e.d.Free(a.Addr, 0); err != nil {
		t.Fatal(err)
	}
	if got, ok := e.b.Lookup(a.Addr); ok {
		t.Errorf("Backend.Lookup of freed memory = %+v", got)
	}
	if got, ok := e.d.Lookup(a.Addr); ok {
		t.Errorf("Device.Lookup of freed memory = %+v", got)
	}
	// A freed device pointer is still known to be a device pointer.
	if sp, ok := e.b.Owner(a.Addr); !ok || sp.Device != e.d.ID() || !sp.Open {
		t.Errorf("Owner of freed memory = %+v, %v; want device %d's open span", sp, ok, e.d.ID())
	}
}

func testLookupTwoDevices(e *env) {
	if e.b.DeviceCount() < 2 {
		e.t.Skip("backend has one device")
	}
	t := e.t
	d1 := e.device(1)
	a0, a1 := e.malloc(e.d, 8192), e.malloc(d1, 8192)
	checkLookup(e, e.d, a0, a0.Addr+10)
	checkLookup(e, d1, a1, a1.Addr+10)
	if _, ok := e.d.Lookup(a1.Addr); ok {
		t.Error("device 0 finds device 1's allocation")
	}
	if _, ok := d1.Lookup(a0.Addr); ok {
		t.Error("device 1 finds device 0's allocation")
	}
}

func testMallocHost(e *env) {
	t := e.t
	const n = 1000
	p, err := e.b.MallocHost(n)
	if err != nil {
		t.Fatal(err)
	}
	addr := ptrAddr(p)
	if addr%64 != 0 {
		t.Errorf("MallocHost returned %#x, not 64-byte aligned", addr)
	}
	buf := ptrBytes(p, n)
	copy(buf, pattern(n, 1))
	for _, at := range []uint64{addr, addr + n - 1} {
		a, ok := e.b.Lookup(at)
		if !ok || !a.Host || a.Device != -1 || a.Addr != addr || a.Size != n {
			t.Errorf("Lookup(%#x) = %+v, %v; want host allocation at %#x of %d bytes, device -1", at, a, ok, addr, n)
		}
	}
	if sp, ok := e.b.Owner(addr); ok {
		t.Errorf("Owner of pinned host memory = %+v, want none", sp)
	}
	wantKind(t, e.b.FreeHost(offset(p, 64)), hal.KindInvalidAddress, "FreeHost of an interior pointer")
	if _, ok := e.b.Lookup(addr); !ok {
		t.Fatal("a failed FreeHost freed the allocation")
	}
	if err := e.b.FreeHost(p); err != nil {
		t.Fatalf("FreeHost: %v", err)
	}
	if a, ok := e.b.Lookup(addr); ok {
		t.Errorf("Lookup of freed host memory = %+v", a)
	}
	wantKind(t, e.b.FreeHost(p), hal.KindInvalidAddress, "second FreeHost")
}
