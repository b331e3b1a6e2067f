package rt

import (
	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// peerCap returns the backend's peer capability, or refuses: a backend
// without one has devices that never reach each other's memory.
func (r *Runtime) peerCap() (hal.Peer, int, error) {
	b, err := r.live()
	if err != nil {
		return nil, 0, err
	}
	p, ok := b.(hal.Peer)
	if !ok {
		return nil, 0, rterr.Errorf(rterr.KindNotSupported, "this backend has no peer access between devices")
	}
	return p, b.DeviceCount(), nil
}

// pair checks two device ids for the peer calls: each in range
// (KindInvalidDevice), and different (KindBadArgument, as CANN's own
// check of deviceId against peerDeviceId).
func (r *Runtime) pair(dev, peer int, devParam, peerParam string) (hal.Peer, error) {
	p, n, err := r.peerCap()
	if err != nil {
		return nil, err
	}
	for _, x := range [...]struct {
		param string
		id    int
	}{{devParam, dev}, {peerParam, peer}} {
		if x.id < 0 || x.id >= n {
			return nil, rterr.Errorf(rterr.KindInvalidDevice, "%s %d is invalid, expected 0..%d", x.param, x.id, n-1)
		}
	}
	if dev == peer {
		return nil, rterr.Errorf(rterr.KindBadArgument, "%s %d cannot be equal to %s %d, expected another device", devParam, dev, peerParam, peer)
	}
	return p, nil
}

// CanAccessPeer reports whether the topology lets dev access peer's memory
// (aclrtDeviceCanAccessPeer).
func (r *Runtime) CanAccessPeer(dev, peer int) (bool, error) {
	p, err := r.pair(dev, peer, "deviceId", "peerDeviceId")
	if err != nil {
		return false, err
	}
	_, ok, err := p.PeerLink(dev, peer)
	return ok, err
}

// DevicesTopology is the link kind between two devices, one
// ACL_RT_DEVS_TOPOLOGY_* bit (aclrtGetDevicesTopo).
func (r *Runtime) DevicesTopology(a, b int) (uint64, error) {
	p, err := r.pair(a, b, "deviceId", "otherDeviceId")
	if err != nil {
		return 0, err
	}
	l, _, err := p.PeerLink(a, b)
	return l, err
}

// PeerAccessStatus reports whether dev's access to peer's memory is on
// (aclrtDevicePeerAccessStatus). The reference lets an id out of range be
// ACL_ERROR_RT_PARAM_INVALID; a device and itself read 0.
func (r *Runtime) PeerAccessStatus(dev, peer int) (bool, error) {
	p, n, err := r.peerCap()
	if err != nil {
		return false, err
	}
	for _, x := range [...]struct {
		param string
		id    int
	}{{"deviceId", dev}, {"peerDeviceId", peer}} {
		if x.id < 0 || x.id >= n {
			return false, rterr.Errorf(rterr.KindInvalidParam, "%s %d is invalid, expected 0..%d", x.param, x.id, n-1)
		}
	}
	return p.PeerAccess(dev, peer), nil
}

// SetPeerAccess turns d's access to peer's memory on
// (aclrtDeviceEnablePeerAccess) or off (aclrtDeviceDisablePeerAccess).
// flags is reserved and must be 0. Turning on what is on, or off what is
// off, is refused and changes nothing.
func (d *Device) SetPeerAccess(peer int, on bool, flags uint32) error {
	if flags != 0 {
		return rterr.Errorf(rterr.KindFeatureUnsupported, "flags %d is invalid, expected 0 (reserved)", flags)
	}
	p, err := d.r.pair(d.id, peer, "the current device", "peerDeviceId")
	if err != nil {
		return err
	}
	was, err := p.SetPeerAccess(d.id, peer, on)
	if err != nil {
		return err
	}
	if was == on {
		if on {
			return rterr.Errorf(rterr.KindInvalidParam, "peer access from device %d to device %d is already enabled, expected it disabled", d.id, peer)
		}
		return rterr.Errorf(rterr.KindInvalidParam, "peer access from device %d to device %d is not enabled, expected it enabled by aclrtDeviceEnablePeerAccess", d.id, peer)
	}
	return nil
}

// checkPeerCopy checks a copy between memory of two devices, src on
// device s and dst on device t, issued on d: d must be one of them, and
// peer access must be on in the copy's direction, from s to t (turned on
// by aclrtDeviceEnablePeerAccess(t) with s current).
func (d *Device) checkPeerCopy(dst, src uint64, t, s int) error {
	other, param, addr := t, "dst", dst
	if t == d.id {
		other, param, addr = s, "src", src
	}
	if s != d.id && t != d.id {
		return rterr.Errorf(rterr.KindInvalidAddress, "src %#x is memory of device %d and dst %#x of device %d, expected device %d at one end", src, s, dst, t, d.id)
	}
	if p, ok := d.b.(hal.Peer); ok && p.PeerAccess(s, t) {
		return nil
	}
	return rterr.Errorf(rterr.KindInvalidAddress,
		"%s %#x is memory of device %d, expected device %d, or device %d with peer access from device %d to device %d enabled (aclrtDeviceEnablePeerAccess)",
		param, addr, other, d.id, other, s, t)
}

// MemP2PMap maps [addr, addr+size) of device memory for device dst
// (aclrtMemP2PMap). Every simulated device's memory is mapped in this
// process, so nothing changes; the call checks what CANN checks: the
// range is live device memory, dst a device, flags 0, and dst's peer
// access to the memory's device on.
func (r *Runtime) MemP2PMap(addr, size uint64, dst int, flags uint64) error {
	b, err := r.live()
	if err != nil {
		return err
	}
	switch {
	case addr == 0:
		return rterr.Errorf(rterr.KindBadArgument, "devPtr is NULL, expected device memory")
	case size == 0:
		return rterr.Errorf(rterr.KindBadArgument, "size 0 is invalid, expected a positive size")
	case flags != 0:
		return rterr.Errorf(rterr.KindBadArgument, "flags %d is invalid, expected 0 (reserved)", flags)
	}
	if n := b.DeviceCount(); dst < 0 || dst >= n {
		return rterr.Errorf(rterr.KindInvalidDevice, "dstDevId %d is invalid, expected 0..%d", dst, n-1)
	}
	d, err := r.Device(dst)
	if err != nil {
		return err
	}
	owner, err := d.checkDeviceOf("devPtr", addr, size, false)
	if err != nil || owner == dst {
		return err
	}
	if p, ok := b.(hal.Peer); ok && p.PeerAccess(dst, owner) {
		return nil
	}
	return rterr.Errorf(rterr.KindInvalidParam, "devPtr %#x is memory of device %d, and peer access from device %d to device %d is not enabled, expected aclrtDeviceEnablePeerAccess(%d) on device %d first",
		addr, owner, dst, owner, owner, dst)
}
