package haltest

import (
	"bytes"
	"math/bits"

	"github.com/gocann/gocann/hal"
)

// testPeer checks the peer capability: every pair of different devices has
// one link kind, access is turned on and off per direction and reports its
// previous state, bad ids are refused, and a device's copy between its
// memory and another device's moves the exact bytes.
func testPeer(e *env) {
	p, ok := e.b.(hal.Peer)
	if !ok {
		e.t.Skip("the backend has no peer capability")
	}
	t := e.t
	if e.b.DeviceCount() < 2 {
		t.Skip("one device")
	}
	l, reach, err := p.PeerLink(0, 1)
	if err != nil || bits.OnesCount64(l) != 1 || l > hal.LinkHCCSSW {
		t.Fatalf("PeerLink(0, 1) = %#x, %v, %v; expected one link bit", l, reach, err)
	}
	if l2, reach2, _ := p.PeerLink(1, 0); l2 != l || reach2 != reach {
		t.Errorf("PeerLink(1, 0) = %#x, %v; expected PeerLink(0, 1)'s %#x, %v", l2, reach2, l, reach)
	}
	_, _, err = p.PeerLink(0, e.b.DeviceCount())
	wantKind(t, err, hal.KindInvalidDevice, "PeerLink to a device out of range")
	_, err = p.SetPeerAccess(0, 0, true)
	wantKind(t, err, hal.KindInvalidDevice, "SetPeerAccess of a device to itself")
	_, err = p.SetPeerAccess(-1, 1, true)
	wantKind(t, err, hal.KindInvalidDevice, "SetPeerAccess from a device out of range")
	if !reach {
		_, err = p.SetPeerAccess(0, 1, true)
		wantKind(t, err, hal.KindNotSupported, "SetPeerAccess between devices the topology does not connect")
		return
	}
	for i, c := range []struct{ on, was bool }{{true, false}, {true, true}, {false, true}, {false, false}, {true, false}} {
		was, err := p.SetPeerAccess(0, 1, c.on)
		if err != nil || was != c.was {
			t.Fatalf("step %d: SetPeerAccess(0, 1, %v) = %v, %v; expected %v", i, c.on, was, err, c.was)
		}
	}
	if !p.PeerAccess(0, 1) || p.PeerAccess(1, 0) || p.PeerAccess(0, 99) {
		t.Errorf("PeerAccess after turning on 0 to 1: (0,1) %v, (1,0) %v, (0,99) %v; expected true, false, false",
			p.PeerAccess(0, 1), p.PeerAccess(1, 0), p.PeerAccess(0, 99))
	}
	d0, d1 := e.device(0), e.device(1)
	const n = 5 << 20
	a, b := e.malloc(d0, n), e.malloc(d1, n)
	want := pattern(n, 9)
	copy(devBytes(t, d0, a.Addr, n), want)
	for _, d := range []hal.Device{d0, d1} {
		copy(devBytes(t, d1, b.Addr, n), make([]byte, n))
		if err := d.Run(copyTask(hal.DevLoc(b.Addr), hal.DevLoc(a.Addr), n)); err != nil {
			t.Fatalf("device %d: copy from device 0 to device 1 memory: %v", d.ID(), err)
		}
		if !bytes.Equal(devBytes(t, d1, b.Addr, n), want) {
			t.Errorf("device %d: copy from device 0 to device 1 memory moved other bytes", d.ID())
		}
	}
}
