package gocann

import (
	"github.com/gocann/gocann/internal/config"
	"github.com/gocann/gocann/sim"
)

// Topology is the "topology" key of the simulator section: how the
// simulated devices are connected. Without it every pair of devices is
// connected over HCCS and can turn on peer access, as in one 8-card
// server. A pair listed with "no_peer" cannot:
//
//	"topology": {"link": "hccs", "pairs": [{"devices": [0, 3], "link": "sys", "no_peer": true}]}
type Topology = config.Topology

// Link kinds DevicesTopology reports, the ACL_RT_DEVS_TOPOLOGY_* values.
const (
	LinkHCCS   uint64 = 0x01 // HCCS
	LinkPIX    uint64 = 0x02 // one PCIe switch
	LinkPIB    uint64 = 0x04 // reserved
	LinkPHB    uint64 = 0x08 // a PCIe host bridge
	LinkSYS    uint64 = 0x10 // SMP between NUMA nodes
	LinkSIO    uint64 = 0x20 // the two dies of one chip
	LinkHCCSSW uint64 = 0x40 // an HCCS switch
)

// simTopology turns the configuration's topology into the simulator's.
func simTopology(t *config.Topology) (sim.Topology, error) {
	var st sim.Topology
	if t == nil {
		return st, nil
	}
	var err error
	if st.Link, err = sim.LinkNamed(t.Link); err != nil {
		return st, err
	}
	for _, p := range t.Pairs {
		l, err := sim.LinkNamed(p.Link)
		if err != nil {
			return st, err
		}
		st.Pairs = append(st.Pairs, sim.PairLink{A: p.Devices[0], B: p.Devices[1], Link: l, NoPeer: p.NoPeer})
	}
	return st, nil
}

// CanAccessPeer reports whether the topology lets device dev access the
// memory of device peer, once EnablePeerAccess turns that on. The two ids
// must differ.
//
// CANN: aclrtDeviceCanAccessPeer.
func (r *Runtime) CanAccessPeer(dev, peer int) (bool, error) {
	if err := r.require("aclrtDeviceCanAccessPeer"); err != nil {
		return false, err
	}
	ok, err := r.rt.CanAccessPeer(dev, peer)
	return ok, wrap("Runtime.CanAccessPeer (aclrtDeviceCanAccessPeer)", err)
}

// DevicesTopology is how two devices are connected: one Link* value.
//
// CANN: aclrtGetDevicesTopo.
func (r *Runtime) DevicesTopology(dev, other int) (uint64, error) {
	if err := r.require("aclrtGetDevicesTopo"); err != nil {
		return 0, err
	}
	l, err := r.rt.DevicesTopology(dev, other)
	return l, wrap("Runtime.DevicesTopology (aclrtGetDevicesTopo)", err)
}

// PeerAccessStatus reports whether device dev's peer access to device peer
// is on.
//
// CANN: aclrtDevicePeerAccessStatus.
func (r *Runtime) PeerAccessStatus(dev, peer int) (bool, error) {
	if err := r.require("aclrtDevicePeerAccessStatus"); err != nil {
		return false, err
	}
	ok, err := r.rt.PeerAccessStatus(dev, peer)
	return ok, wrap("Runtime.PeerAccessStatus (aclrtDevicePeerAccessStatus)", err)
}

// EnablePeerAccess turns on the direction from d to peer: copies from d's
// memory into peer's memory, issued on either device. The other direction
// needs peer.EnablePeerAccess(d.ID()). Enabling what is on is refused with
// ACL_ERROR_RT_PARAM_INVALID; a pair the topology does not connect with
// ACL_ERROR_RT_FEATURE_NOT_SUPPORT. Access stays on until
// DisablePeerAccess or Finalize.
//
// CANN: aclrtDeviceEnablePeerAccess (flags 0).
func (d *Device) EnablePeerAccess(peer int) error {
	if err := d.r.require("aclrtDeviceEnablePeerAccess"); err != nil {
		return err
	}
	return wrap("Device.EnablePeerAccess (aclrtDeviceEnablePeerAccess)", d.d.SetPeerAccess(peer, true, 0))
}

// DisablePeerAccess turns off the direction from d to peer; turning off
// what is off is refused with ACL_ERROR_RT_PARAM_INVALID.
//
// CANN: aclrtDeviceDisablePeerAccess.
func (d *Device) DisablePeerAccess(peer int) error {
	if err := d.r.require("aclrtDeviceDisablePeerAccess"); err != nil {
		return err
	}
	return wrap("Device.DisablePeerAccess (aclrtDeviceDisablePeerAccess)", d.d.SetPeerAccess(peer, false, 0))
}

// EnablePeerAccess is Device.EnablePeerAccess for device dev with CANN's
// reserved flags, which must be 0 (else ACL_ERROR_FEATURE_UNSUPPORTED).
//
// CANN: aclrtDeviceEnablePeerAccess (flags as given).
func (x RawRuntime) EnablePeerAccess(dev, peer int, flags uint32) error {
	if err := x.r.require("aclrtDeviceEnablePeerAccess"); err != nil {
		return err
	}
	d, err := x.r.device(dev)
	if err != nil {
		return wrap("Device.EnablePeerAccess (aclrtDeviceEnablePeerAccess)", err)
	}
	return wrap("Device.EnablePeerAccess (aclrtDeviceEnablePeerAccess)", d.d.SetPeerAccess(peer, true, flags))
}

// P2PMap maps n bytes of device memory at p for device dst, whose peer
// access to p's device must be on. The simulated devices' memory is always
// mapped for all of them, so the call only checks.
//
// CANN: aclrtMemP2PMap (typed).
func (r *Runtime) P2PMap(p DevPtr, n int64, dst int) error {
	if err := r.require("aclrtMemP2PMap"); err != nil {
		return err
	}
	if n < 0 {
		return Errorf("Runtime.P2PMap (aclrtMemP2PMap)", KindBadArgument, "size %d is invalid, expected a positive size", n)
	}
	return wrap("Runtime.P2PMap (aclrtMemP2PMap)", r.rt.MemP2PMap(uint64(p), uint64(n), dst, 0))
}

// MemP2PMap is P2PMap with CANN's reserved flags, which must be 0.
//
// CANN: aclrtMemP2PMap.
func (x RawRuntime) MemP2PMap(p uintptr, size uint64, dst int, flags uint64) error {
	if err := x.r.require("aclrtMemP2PMap"); err != nil {
		return err
	}
	return wrap("Runtime.P2PMap (aclrtMemP2PMap)", x.r.rt.MemP2PMap(uint64(p), size, dst, flags))
}
