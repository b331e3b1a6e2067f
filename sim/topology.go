package sim

import (
	"math/bits"
	"sync/atomic"

	"github.com/gocann/gocann/hal"
)

// Topology is how the simulated devices are connected. The zero value is
// one server of cards that all reach each other over HCCS, as an 8-card
// Atlas A2 server is.
type Topology struct {
	// Link is the link kind (a hal.Link* value) of every pair Pairs does
	// not name; default hal.LinkHCCS.
	Link uint64
	// Pairs are the pairs connected otherwise; a pair is unordered.
	Pairs []PairLink
}

// PairLink is one pair of devices and how they are connected.
type PairLink struct {
	A, B int
	// Link is the pair's link kind; 0 keeps Topology.Link.
	Link uint64
	// NoPeer means neither device can access the other's memory: peer
	// access between them cannot be turned on.
	NoPeer bool
}

// validLinks are the kinds a pair may have: one ACL_RT_DEVS_TOPOLOGY_* bit.
const validLinks = hal.LinkHCCS | hal.LinkPIX | hal.LinkPIB | hal.LinkPHB | hal.LinkSYS | hal.LinkSIO | hal.LinkHCCSSW

func checkLink(l uint64) error {
	if bits.OnesCount64(l) != 1 || l&validLinks == 0 {
		return hal.Errorf(hal.KindInvalidParam, "link kind %#x is invalid, expected one ACL_RT_DEVS_TOPOLOGY_* bit (0x01..0x40)", l)
	}
	return nil
}

// peers is a backend's topology and the peer accesses turned on, by
// dev*n+peer.
type peers struct {
	n      int
	link   []uint64
	reach  []bool
	access []atomic.Bool
}

// newPeers checks t for n logical devices and lays it out for the
// devices the backend shows, each on logical device show[i].
func newPeers(t Topology, n int, show []int) (peers, error) {
	all, err := logicalPeers(t, n)
	if err != nil {
		return peers{}, err
	}
	m := len(show)
	p := peers{n: m, link: make([]uint64, m*m), reach: make([]bool, m*m), access: make([]atomic.Bool, m*m)}
	for i, a := range show {
		for j, b := range show {
			p.link[i*m+j], p.reach[i*m+j] = all.link[a*n+b], all.reach[a*n+b]
		}
	}
	return p, nil
}

// logicalPeers is the topology of all n logical devices.
func logicalPeers(t Topology, n int) (peers, error) {
	if t.Link == 0 {
		t.Link = hal.LinkHCCS
	}
	if err := checkLink(t.Link); err != nil {
		return peers{}, err
	}
	p := peers{n: n, link: make([]uint64, n*n), reach: make([]bool, n*n)}
	for i := range p.link {
		p.link[i], p.reach[i] = t.Link, i/n != i%n
	}
	for _, pl := range t.Pairs {
		if pl.A < 0 || pl.A >= n || pl.B < 0 || pl.B >= n || pl.A == pl.B {
			return peers{}, hal.Errorf(hal.KindInvalidParam, "topology pair (%d, %d) is invalid, expected two different devices of 0..%d", pl.A, pl.B, n-1)
		}
		l := pl.Link
		if l == 0 {
			l = t.Link
		}
		if err := checkLink(l); err != nil {
			return peers{}, err
		}
		for _, i := range [2]int{pl.A*n + pl.B, pl.B*n + pl.A} {
			p.link[i], p.reach[i] = l, !pl.NoPeer
		}
	}
	return p, nil
}

func (p *peers) index(a, b int) (int, error) {
	if a < 0 || a >= p.n {
		return 0, hal.Errorf(hal.KindInvalidDevice, "device id %d is invalid, expected 0..%d", a, p.n-1)
	}
	if b < 0 || b >= p.n {
		return 0, hal.Errorf(hal.KindInvalidDevice, "peer device id %d is invalid, expected 0..%d", b, p.n-1)
	}
	return a*p.n + b, nil
}

var _ hal.Peer = (*Backend)(nil)

// PeerLink is how devices a and b are connected (hal.Peer).
func (b *Backend) PeerLink(x, y int) (uint64, bool, error) {
	i, err := b.peers.index(x, y)
	if err != nil {
		return 0, false, err
	}
	if x == y {
		return 0, false, nil
	}
	return b.peers.link[i], b.peers.reach[i], nil
}

// SetPeerAccess turns dev's access to peer's memory on or off (hal.Peer).
// Every device's memory is mapped in this process, so access needs no
// mapping: it is a permission the runtime checks.
func (b *Backend) SetPeerAccess(dev, peer int, on bool) (bool, error) {
	i, err := b.peers.index(dev, peer)
	if err != nil {
		return false, err
	}
	if dev == peer {
		return false, hal.Errorf(hal.KindInvalidDevice, "peer device id %d is the device itself, expected another device", peer)
	}
	if on && !b.peers.reach[i] {
		return false, hal.Errorf(hal.KindNotSupported, "devices %d and %d cannot access each other's memory: the topology connects them over link %#x without peer access", dev, peer, b.peers.link[i])
	}
	return b.peers.access[i].Swap(on), nil
}

// PeerAccess reports whether dev's access to peer's memory is on (hal.Peer).
func (b *Backend) PeerAccess(dev, peer int) bool {
	i, err := b.peers.index(dev, peer)
	return err == nil && b.peers.access[i].Load()
}

var linkNames = map[string]uint64{"hccs": hal.LinkHCCS, "pix": hal.LinkPIX, "pib": hal.LinkPIB,
	"phb": hal.LinkPHB, "sys": hal.LinkSYS, "sio": hal.LinkSIO, "hccs_sw": hal.LinkHCCSSW}

// LinkNamed is the link kind a configuration names; "" is 0 (the default).
func LinkNamed(name string) (uint64, error) {
	if name == "" {
		return 0, nil
	}
	if l, ok := linkNames[name]; ok {
		return l, nil
	}
	return 0, hal.Errorf(hal.KindInvalidParam, "link %q is invalid, expected hccs, pix, pib, phb, sys, sio or hccs_sw", name)
}
