package gocann_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/gocann/gocann"
)

const fourDevices = `{"simulator":{"devices":4,"hbm_size":1073741824}}`

// pattern is n bytes that differ for each seed.
func pattern(n, seed int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + seed*31 + 1)
	}
	return b
}

// TestPeerAllPairs: on four devices, every ordered pair copies device to
// device, synchronously and asynchronously, issued on either end, only with
// peer access on in the copy's direction; the bytes moved are exactly the
// source's, and a refused copy writes nothing.
func TestPeerAllPairs(t *testing.T) {
	r := newRuntime(t, fourDevices)
	const n = 3<<20 + 5 // large enough to be split over the DMA workers
	ctxs := make([]*gocann.Context, 4)
	bufs := make([]gocann.DevPtr, 4)
	streams := make([]*gocann.Stream, 4)
	for i := range 4 {
		d, err := r.SetDevice(i)
		check(t, err)
		ctxs[i], err = d.Context()
		check(t, err)
		streams[i], err = ctxs[i].NewStream()
		check(t, err)
		bufs[i] = malloc(t, ctxs[i], n)
	}
	fill := func(i, seed int) []byte {
		p := pattern(n, seed)
		check(t, ctxs[i].CopyToDevice(bufs[i], p))
		return p
	}
	read := func(i int) []byte {
		got := make([]byte, n)
		check(t, ctxs[i].CopyFromDevice(got, bufs[i]))
		return got
	}
	seed := 0
	for s := range 4 {
		for d := range 4 {
			if s == d {
				continue
			}
			for _, on := range []int{s, d} { // the device issuing the copy
				for _, async := range []bool{false, true} {
					name := fmt.Sprintf("%d->%d on %d async=%v", s, d, on, async)
					copyOnce := func() error {
						if async {
							if err := streams[on].CopyDeviceToDevice(bufs[d], bufs[s], n); err != nil {
								return err
							}
							return streams[on].Synchronize(context.Background())
						}
						return ctxs[on].CopyDevice(bufs[d], bufs[s], n)
					}
					seed++
					src := fill(s, seed)
					before := fill(d, seed+1000)
					wantErr(t, copyOnce(), gocann.CodeRTParamInvalid,
						fmt.Sprintf("memory of device %d", map[bool]int{true: s, false: d}[on == d]),
						fmt.Sprintf("peer access from device %d to device %d", s, d))
					if !bytes.Equal(read(d), before) {
						t.Fatalf("%s: a refused copy changed the destination", name)
					}
					// The other direction does not open this one.
					check(t, mustDevice(t, r, d).EnablePeerAccess(s))
					wantErr(t, copyOnce(), gocann.CodeRTParamInvalid, "peer access")
					check(t, mustDevice(t, r, s).EnablePeerAccess(d))
					check(t, copyOnce())
					if !bytes.Equal(read(d), src) {
						t.Fatalf("%s: destination differs from the source", name)
					}
					check(t, mustDevice(t, r, s).DisablePeerAccess(d))
					check(t, mustDevice(t, r, d).DisablePeerAccess(s))
					fill(d, seed+2000)
					wantErr(t, copyOnce(), gocann.CodeRTParamInvalid, "peer access")
				}
			}
		}
	}
}

func mustDevice(t *testing.T, r *gocann.Runtime, id int) *gocann.Device {
	t.Helper()
	d, err := r.Device(id)
	check(t, err)
	return d
}

// TestPeerAccessRefusals: the documented refusals of the peer calls, with
// their codes, and the status they leave.
func TestPeerAccessRefusals(t *testing.T) {
	r := newRuntime(t, `{"simulator":{"devices":4,"hbm_size":1073741824,
		"topology":{"link":"hccs","pairs":[{"devices":[0,3],"link":"sys","no_peer":true},{"devices":[1,2],"link":"sio"}]}}}`)
	d0 := mustDevice(t, r, 0)
	ok, err := r.CanAccessPeer(0, 1)
	check(t, err)
	if !ok {
		t.Error("CanAccessPeer(0, 1) = false, expected true")
	}
	for _, p := range [][2]int{{0, 3}, {3, 0}} {
		if ok, err := r.CanAccessPeer(p[0], p[1]); err != nil || ok {
			t.Errorf("CanAccessPeer(%d, %d) = %v, %v; expected false (no_peer)", p[0], p[1], ok, err)
		}
	}
	wantErr(t, d0.EnablePeerAccess(3), gocann.CodeRTFeatureNotSupport, "cannot access each other's memory")
	_, err = r.CanAccessPeer(1, 1)
	wantErr(t, err, gocann.CodeInvalidParam, "deviceId 1 cannot be equal to peerDeviceId 1")
	_, err = r.CanAccessPeer(0, 4)
	wantErr(t, err, gocann.CodeRTInvalidDeviceID, "peerDeviceId 4 is invalid, expected 0..3")
	_, err = r.CanAccessPeer(-1, 0)
	wantErr(t, err, gocann.CodeRTInvalidDeviceID, "deviceId -1 is invalid")
	wantErr(t, d0.EnablePeerAccess(0), gocann.CodeInvalidParam, "cannot be equal to peerDeviceId 0")
	wantErr(t, d0.EnablePeerAccess(9), gocann.CodeRTInvalidDeviceID, "peerDeviceId 9 is invalid")
	wantErr(t, r.Raw().EnablePeerAccess(0, 1, 1), gocann.CodeFeatureUnsupported, "flags 1 is invalid, expected 0")
	wantErr(t, d0.DisablePeerAccess(1), gocann.CodeRTParamInvalid, "is not enabled")
	check(t, d0.EnablePeerAccess(1))
	wantErr(t, d0.EnablePeerAccess(1), gocann.CodeRTParamInvalid, "already enabled")
	for _, c := range []struct {
		a, b int
		want bool
	}{{0, 1, true}, {1, 0, false}, {0, 2, false}, {0, 0, false}} {
		on, err := r.PeerAccessStatus(c.a, c.b)
		check(t, err)
		if on != c.want {
			t.Errorf("PeerAccessStatus(%d, %d) = %v, expected %v", c.a, c.b, on, c.want)
		}
	}
	_, err = r.PeerAccessStatus(0, 4)
	wantErr(t, err, gocann.CodeRTParamInvalid, "peerDeviceId 4 is invalid, expected 0..3")
	check(t, d0.DisablePeerAccess(1))
	if on, _ := r.PeerAccessStatus(0, 1); on {
		t.Error("PeerAccessStatus(0, 1) still on after DisablePeerAccess")
	}
	for _, c := range []struct {
		a, b int
		want uint64
	}{{0, 1, gocann.LinkHCCS}, {3, 0, gocann.LinkSYS}, {2, 1, gocann.LinkSIO}, {1, 3, gocann.LinkHCCS}} {
		l, err := r.DevicesTopology(c.a, c.b)
		check(t, err)
		if l != c.want {
			t.Errorf("DevicesTopology(%d, %d) = %#x, expected %#x", c.a, c.b, l, c.want)
		}
	}
	_, err = r.DevicesTopology(2, 2)
	wantErr(t, err, gocann.CodeInvalidParam, "cannot be equal")
}

// TestPeerTopologyConfig: a bad topology is a bad attribute of the
// configuration file.
func TestPeerTopologyConfig(t *testing.T) {
	for _, c := range []struct{ topo, want string }{
		{`{"link":"nvlink"}`, `link "nvlink" is invalid`},
		{`{"pairs":[{"devices":[0,0]}]}`, "topology pair (0, 0) is invalid"},
		{`{"pairs":[{"devices":[0,5]}]}`, "topology pair (0, 5) is invalid"},
		{`{"hops":1}`, "section simulator is invalid"},
	} {
		_, err := gocann.Open(gocann.WithConfigJSON([]byte(`{"simulator":{"devices":2,"topology":` + c.topo + `}}`)))
		wantErr(t, err, gocann.CodeFileAttrInvalid, c.want)
	}
}

// TestP2PMap: aclrtMemP2PMap checks the range, the device and the peer
// access, and changes no bytes.
func TestP2PMap(t *testing.T) {
	e := setup(t)
	p := malloc(t, e.c, 4096)
	check(t, e.c.CopyToDevice(p, pattern(4096, 3)))
	check(t, e.r.P2PMap(p, 4096, 0)) // its own device
	wantErr(t, e.r.P2PMap(p, 4096, 1), gocann.CodeRTParamInvalid, "peer access from device 1 to device 0 is not enabled")
	d1, err := e.r.SetDevice(1)
	check(t, err)
	check(t, d1.EnablePeerAccess(0))
	check(t, e.r.P2PMap(p, 4096, 1))
	wantErr(t, e.r.P2PMap(p, 8192, 1), gocann.CodeRTParamInvalid, "runs past its allocation")
	wantErr(t, e.r.P2PMap(p, 4096, 2), gocann.CodeRTInvalidDeviceID, "dstDevId 2 is invalid")
	wantErr(t, e.r.P2PMap(0, 4096, 1), gocann.CodeInvalidParam, "devPtr is NULL")
	wantErr(t, e.r.P2PMap(p, 0, 1), gocann.CodeInvalidParam, "size 0")
	wantErr(t, e.r.Raw().MemP2PMap(uintptr(p), 4096, 1, 1), gocann.CodeInvalidParam, "flags 1")
	got := make([]byte, 4096)
	check(t, e.c.CopyFromDevice(got, p))
	if !bytes.Equal(got, pattern(4096, 3)) {
		t.Error("P2PMap changed the bytes")
	}
}

// TestEightDevices: eight devices, as one 8-card server, pass a buffer
// around a ring of peer copies, each device copying into the next.
func TestEightDevices(t *testing.T) {
	r := newRuntime(t, `{"simulator":{"devices":8,"hbm_size":268435456}}`)
	const n = 1 << 20
	ctxs := make([]*gocann.Context, 8)
	bufs := make([]gocann.DevPtr, 8)
	for i := range 8 {
		d, err := r.SetDevice(i)
		check(t, err)
		ctxs[i], err = d.Context()
		check(t, err)
		bufs[i] = malloc(t, ctxs[i], n)
		check(t, d.EnablePeerAccess((i+1)%8))
	}
	want := pattern(n, 8)
	check(t, ctxs[0].CopyToDevice(bufs[0], want))
	for i := range 7 {
		check(t, ctxs[i].CopyDevice(bufs[i+1], bufs[i], n))
	}
	got := make([]byte, n)
	check(t, ctxs[7].CopyFromDevice(got, bufs[7]))
	if !bytes.Equal(got, want) {
		t.Fatal("the buffer changed on its way around eight devices")
	}
	// The ring's last hop, 7 to 0, is on; 0 to 7 is not.
	check(t, ctxs[0].CopyDevice(bufs[0], bufs[7], n))
	wantErr(t, ctxs[0].CopyDevice(bufs[7], bufs[0], n), gocann.CodeRTParamInvalid, "peer access from device 0 to device 7")
}
