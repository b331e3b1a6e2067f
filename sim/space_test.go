package sim

import (
	"testing"

	"github.com/gocann/gocann/hal"
)

// TestSpaceOutlivesBackend: backends given one address space keep each
// device's range from one to the next, the same for the same device id and
// size, known as a closed device's until that device opens again.
func TestSpaceOutlivesBackend(t *testing.T) {
	s := NewAddressSpace()
	cfg := Config{Devices: 2, Profile: hal.Props{HBMSize: 1 << 30}, Space: s}
	b, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	d, err := b.Open(0)
	if err != nil {
		t.Fatal(err)
	}
	a, err := d.Malloc(4096, hal.MemPolicy{Page: normalOnly})
	if err != nil {
		t.Fatal(err)
	}
	first, _ := b.Owner(a.Addr)
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if !reserved(t, a.Addr) {
		t.Fatal("the range went with the backend, not with its space")
	}

	b2, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := hal.Span{Device: 0, Lo: first.Lo, Hi: first.Hi}
	if sp, ok := b2.Owner(a.Addr); !ok || sp != want {
		t.Errorf("Owner(%#x) in the next backend = %+v, %v; want %+v", a.Addr, sp, ok, want)
	}
	if got, ok := b2.Lookup(a.Addr); ok {
		t.Errorf("Lookup(%#x) in the next backend = %+v, want nothing live", a.Addr, got)
	}
	if err := b2.closedIn(0, []uint64{a.Addr}); err == nil {
		t.Error("a kernel argument in the earlier backend's memory passes the closed-device check")
	}
	d2, err := b2.Open(0)
	if err != nil {
		t.Fatal(err)
	}
	if sp, ok := b2.Owner(a.Addr); !ok || sp != first {
		t.Errorf("Owner(%#x) once device 0 opens = %+v, %v; want %+v", a.Addr, sp, ok, first)
	}
	again, err := d2.Malloc(4096, hal.MemPolicy{Page: normalOnly})
	if err != nil {
		t.Fatal(err)
	}
	if again.Addr != a.Addr {
		t.Errorf("first allocation in the next backend at %#x, want %#x", again.Addr, a.Addr)
	}
	// Device 1 opens with a range of its own.
	d21, err := b2.Open(1)
	if err != nil {
		t.Fatal(err)
	}
	if sp, _ := b2.Owner(a.Addr); sp.Device != 0 {
		t.Errorf("device 1 took device 0's range: %+v", sp)
	}
	if err := d21.Close(); err != nil {
		t.Fatal(err)
	}
	if err := b2.Close(); err != nil {
		t.Fatal(err)
	}
	if n := len(s.ranges()); n != 2 {
		t.Errorf("the space holds %d ranges after two backends, want 2 (one per device)", n)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if reserved(t, a.Addr) {
		t.Error("the range is still reserved after the space closed")
	}
	b3, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b3.Open(0); err == nil {
		t.Error("a device opened on a closed space")
	}
	if err := b3.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestSpaceOtherSize: a device of another size gets another range; the old
// one stays reserved, a closed span, and comes back for its size.
func TestSpaceOtherSize(t *testing.T) {
	s := NewAddressSpace()
	t.Cleanup(func() { s.Close() })
	open := func(hbm uint64) (*Backend, hal.Allocation) {
		b, err := New(Config{Devices: 1, Profile: hal.Props{HBMSize: hbm}, Space: s})
		if err != nil {
			t.Fatal(err)
		}
		d, err := b.Open(0)
		if err != nil {
			t.Fatal(err)
		}
		a, err := d.Malloc(4096, hal.MemPolicy{Page: normalOnly})
		if err != nil {
			t.Fatal(err)
		}
		return b, a
	}
	b, small := open(1 << 30)
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	b, big := open(2 << 30)
	if sp, ok := b.Owner(small.Addr); !ok || sp.Open || sp.Device != 0 {
		t.Errorf("Owner of the 1 GiB range while a 2 GiB device 0 is open = %+v, %v; want device 0, closed", sp, ok)
	}
	if sp, ok := b.Owner(big.Addr); !ok || !sp.Open || big.Addr == small.Addr {
		t.Errorf("the 2 GiB device at %#x: Owner %+v, %v; want its own open span", big.Addr, sp, ok)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	b, again := open(1 << 30)
	if again.Addr != small.Addr {
		t.Errorf("a 1 GiB device 0 again at %#x, want its range at %#x", again.Addr, small.Addr)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
}
