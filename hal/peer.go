package hal

// Link kinds of a device pair, with the values of CANN's
// ACL_RT_DEVS_TOPOLOGY_* bits.
const (
	LinkHCCS   uint64 = 0x01 // HCCS, Huawei's cache-coherent interconnect
	LinkPIX    uint64 = 0x02 // one PCIe switch
	LinkPIB    uint64 = 0x04 // reserved by CANN
	LinkPHB    uint64 = 0x08 // a PCIe host bridge
	LinkSYS    uint64 = 0x10 // SMP between NUMA nodes
	LinkSIO    uint64 = 0x20 // the two dies of one chip
	LinkHCCSSW uint64 = 0x40 // an HCCS switch
)

// Peer is implemented by backends whose devices can reach each other's
// memory (CANN's peer access). Every device's memory is addressable by
// every device of the backend; Peer says which pairs the topology lets
// access it and which accesses are turned on. Access is directional: dev's
// access to peer says nothing of peer's access to dev.
type Peer interface {
	// PeerLink is how devices a and b are connected: one Link* kind, and
	// whether the topology lets them access each other's memory. Ids out
	// of range are KindInvalidDevice.
	PeerLink(a, b int) (link uint64, reachable bool, err error)
	// SetPeerAccess turns dev's access to peer's memory on or off and
	// reports whether it was on before. Ids out of range, or equal, are
	// KindInvalidDevice; turning on access between devices the topology
	// does not connect is KindNotSupported.
	SetPeerAccess(dev, peer int, on bool) (was bool, err error)
	// PeerAccess reports whether dev's access to peer's memory is on; false
	// for ids out of range.
	PeerAccess(dev, peer int) bool
}
