package rt

import (
	"strings"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
	"github.com/gocann/gocann/internal/support"
)

// NPUArch is the instruction-set generation of a SoC, the value
// ACL_DEV_ATTR_NPU_ARCH reads, by the reference's table of products
// (aclplatformNpuArch) and CANN's platform configuration: every Atlas A2
// and A3 chip is 2201, an Atlas training chip (Ascend910B alone among
// them) 1001, an IPV350 (Ascend035*) 3505. The first Ascend310, of no
// product of the reference, is 1001 too.
func NPUArch(soc string) (int, bool) {
	p, ok := support.ProductOf(soc)
	switch {
	case !ok:
		if strings.HasPrefix(soc, "Ascend310") { // Ascend310B* and 310P* have products
			return 1001, true
		}
		return 0, false
	case p == support.AtlasA2 || p == support.AtlasA3:
		return 2201, true
	case p == support.Ascend950PR || p == support.Ascend950DT:
		return 3510, true
	case p == support.AtlasInference:
		return 2002, true
	case p == support.Atlas200I500A2:
		return 3002, true
	case p == support.AtlasTraining:
		return 1001, true
	case p == support.IPV350:
		return 3505, true
	}
	return 0, false
}

// CheckArchCompatibility reports whether kernels built for soc run on the
// devices' chip: the same NPU architecture (aclrtCheckArchCompatibility).
func (r *Runtime) CheckArchCompatibility(soc string) (bool, error) {
	b, err := r.live()
	if err != nil {
		return false, err
	}
	if soc == "" {
		return false, rterr.Errorf(rterr.KindInvalidParam, "socVersion is empty, expected a SoC name such as Ascend910B1")
	}
	want, ok := NPUArch(soc)
	if !ok {
		return false, rterr.Errorf(rterr.KindInvalidParam, "socVersion %q is invalid, expected a known SoC name such as Ascend910B1", soc)
	}
	p, err := b.Props(0)
	if err != nil {
		return false, err
	}
	have, ok := NPUArch(p.SoCName)
	return ok && have == want, nil
}

// Device features of aclrtGetDeviceCapability, with the CANN values.
const (
	FeatureTaskUpdateAICAIV  = 1
	FeatureMemQEventCrossDev = 21
)

// DeviceCapability reports whether device id has a feature
// (aclrtGetDeviceCapability): task update of AI core and vector kernels
// (the simulator updates every kernel task), and memory-queue events across
// devices (the simulator has no memory queues).
func (r *Runtime) DeviceCapability(id, feature int) (bool, error) {
	if err := r.checkDeviceID("deviceId", id); err != nil {
		return false, err
	}
	switch feature {
	case FeatureTaskUpdateAICAIV:
		return true, nil
	case FeatureMemQEventCrossDev:
		return false, nil
	}
	return false, rterr.Errorf(rterr.KindInvalidParam,
		"devFeatureType %d is invalid, expected ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV (1) or ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV (21)", feature)
}

// Atomic operations and capability bits of the atomic capability queries,
// with the CANN values.
const (
	AtomicLast    = 44 // ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_EXCH
	atomicDMAAdd  = 30
	atomicDMAMin  = 31
	atomicDMAMax  = 32
	capSigned     = 1 << 0
	capScalar8    = 1 << 3
	capScalar16   = 1 << 4
	capScalar32   = 1 << 5
	dmaAtomicCaps = capSigned | capScalar8 | capScalar16 | capScalar32
)

func checkAtomicOps(ops []int32) error {
	if len(ops) == 0 {
		return rterr.Errorf(rterr.KindInvalidParam, "count 0 is invalid, expected at least one operation")
	}
	for i, op := range ops {
		if op < 0 || op > AtomicLast {
			return rterr.Errorf(rterr.KindInvalidParam, "operations[%d] %d is invalid, expected an aclrtAtomicOperation value 0..%d", i, op, AtomicLast)
		}
	}
	return nil
}

// HostAtomicCapabilities stores in caps the capability bits of each of ops
// between device id and the host (aclrtDeviceGetHostAtomicCapabilities).
// An Atlas A2 card reaches its host over PCIe, which carries no atomics:
// every entry is 0.
func (r *Runtime) HostAtomicCapabilities(caps []uint32, ops []int32, id int) error {
	if len(ops) == 0 {
		return checkAtomicOps(ops)
	}
	if err := r.checkDeviceID("deviceId", id); err != nil {
		return err
	}
	if err := checkAtomicOps(ops); err != nil {
		return err
	}
	clear(caps)
	return nil
}

// P2PAtomicCapabilities stores in caps the capability bits of each of ops
// between devices src and dst (aclrtDeviceGetP2PAtomicCapabilities): the
// DMA atomics (add, min, max on signed 8-, 16- and 32-bit integers) over an
// HCCS, SIO or HCCS switch link, as on Atlas A2; nothing otherwise.
func (r *Runtime) P2PAtomicCapabilities(caps []uint32, ops []int32, src, dst int) error {
	if len(ops) == 0 {
		return checkAtomicOps(ops)
	}
	if src == dst {
		return rterr.Errorf(rterr.KindInvalidDevice, "srcDeviceId %d is invalid, expected a device other than dstDeviceId %d", src, dst)
	}
	if err := r.checkDeviceID("srcDeviceId", src); err != nil {
		return err
	}
	if err := r.checkDeviceID("dstDeviceId", dst); err != nil {
		return err
	}
	if err := checkAtomicOps(ops); err != nil {
		return err
	}
	clear(caps)
	p, _, err := r.peerCap()
	if err != nil {
		return nil // no topology: no links, no atomics
	}
	link, _, err := p.PeerLink(src, dst)
	if err != nil {
		return err
	}
	if link != hal.LinkHCCS && link != hal.LinkSIO && link != hal.LinkHCCSSW {
		return nil
	}
	for i, op := range ops {
		if op == atomicDMAAdd || op == atomicDMAMin || op == atomicDMAMax {
			caps[i] = dmaAtomicCaps
		}
	}
	return nil
}

// Task schedulers of aclrtSetTsDevice, with the CANN values.
const (
	TsAICore   = 0
	TsAIVector = 1
)

// CheckTsID checks an aclrtSetTsDevice scheduler. The simulated chip, like
// an Atlas A2, has one scheduler for AI core and vector kernels, so the
// choice changes nothing.
func CheckTsID(ts int) error {
	if ts != TsAICore && ts != TsAIVector {
		return rterr.Errorf(rterr.KindBadArgument, "tsId %d is invalid, expected ACL_TS_ID_AICORE (0) or ACL_TS_ID_AIVECTOR (1)", ts)
	}
	return nil
}

// checkDeviceID checks a device id argument against the device count.
func (r *Runtime) checkDeviceID(param string, id int) error {
	b, err := r.live()
	if err != nil {
		return err
	}
	if n := b.DeviceCount(); id < 0 || id >= n {
		return rterr.Errorf(rterr.KindInvalidDevice, "%s %d is invalid, expected 0..%d", param, id, n-1)
	}
	return nil
}
