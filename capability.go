package gocann

import "github.com/gocann/gocann/internal/rt"

// AtomicOp is aclrtAtomicOperation, with the CANN values (0..44).
type AtomicOp int32

// The atomic operations the simulated devices have capabilities for.
const (
	AtomicDMAAdd AtomicOp = 30
	AtomicDMAMin AtomicOp = 31
	AtomicDMAMax AtomicOp = 32
)

// The capability bits (aclrtAtomicOperationCapability) the queries report.
const (
	AtomicCapSigned   uint32 = 1 << 0
	AtomicCapUnsigned uint32 = 1 << 1
	AtomicCapScalar8  uint32 = 1 << 3
	AtomicCapScalar16 uint32 = 1 << 4
	AtomicCapScalar32 uint32 = 1 << 5
	AtomicCapScalar64 uint32 = 1 << 6
)

func opsInt32(ops []AtomicOp) []int32 {
	v := make([]int32, len(ops))
	for i, op := range ops {
		v[i] = int32(op)
	}
	return v
}

// HostAtomicCapabilities is the capability bits of each of ops between
// device dev and the host: none on a card attached over PCIe, as the
// simulated Atlas A2 is.
//
// CANN: aclrtDeviceGetHostAtomicCapabilities.
func (r *Runtime) HostAtomicCapabilities(dev int, ops ...AtomicOp) ([]uint32, error) {
	if err := r.require("aclrtDeviceGetHostAtomicCapabilities"); err != nil {
		return nil, err
	}
	caps := make([]uint32, len(ops))
	err := r.rt.HostAtomicCapabilities(caps, opsInt32(ops), dev)
	return caps, wrap("Runtime.HostAtomicCapabilities (aclrtDeviceGetHostAtomicCapabilities)", err)
}

// P2PAtomicCapabilities is the capability bits of each of ops between
// devices src and dst: the DMA atomics on signed 8-, 16- and 32-bit
// integers over HCCS, SIO or an HCCS switch, none over other links.
//
// CANN: aclrtDeviceGetP2PAtomicCapabilities.
func (r *Runtime) P2PAtomicCapabilities(src, dst int, ops ...AtomicOp) ([]uint32, error) {
	if err := r.require("aclrtDeviceGetP2PAtomicCapabilities"); err != nil {
		return nil, err
	}
	caps := make([]uint32, len(ops))
	err := r.rt.P2PAtomicCapabilities(caps, opsInt32(ops), src, dst)
	return caps, wrap("Runtime.P2PAtomicCapabilities (aclrtDeviceGetP2PAtomicCapabilities)", err)
}

// DeviceFeature is aclrtDevFeatureType, with the CANN values.
type DeviceFeature int

const (
	FeatureTaskUpdateAICAIV  DeviceFeature = rt.FeatureTaskUpdateAICAIV  // updating AI core and vector kernel tasks of a model
	FeatureMemQEventCrossDev DeviceFeature = rt.FeatureMemQEventCrossDev // memory-queue events across devices
)

// HasFeature reports whether the device has feature f: the simulator
// updates every kernel task, and has no memory queues.
//
// CANN: aclrtGetDeviceCapability.
func (d *Device) HasFeature(f DeviceFeature) (bool, error) {
	if err := d.r.require("aclrtGetDeviceCapability"); err != nil {
		return false, err
	}
	ok, err := d.r.rt.DeviceCapability(d.ID(), int(f))
	return ok, wrap("Device.HasFeature (aclrtGetDeviceCapability)", err)
}

// DeviceFeature is Device.HasFeature for device id, as C passes it.
//
// CANN: aclrtGetDeviceCapability (device id).
func (x RawRuntime) DeviceFeature(id int, f DeviceFeature) (bool, error) {
	if err := x.r.require("aclrtGetDeviceCapability"); err != nil {
		return false, err
	}
	ok, err := x.r.rt.DeviceCapability(id, int(f))
	return ok, wrap("Device.HasFeature (aclrtGetDeviceCapability)", err)
}

// CheckArchCompatibility reports whether kernels built for the SoC named
// soc run on the devices: the same NPU architecture. An unknown name is
// ACL_ERROR_RT_PARAM_INVALID.
//
// CANN: aclrtCheckArchCompatibility.
func (r *Runtime) CheckArchCompatibility(soc string) (bool, error) {
	if err := r.require("aclrtCheckArchCompatibility"); err != nil {
		return false, err
	}
	ok, err := r.rt.CheckArchCompatibility(soc)
	return ok, wrap("Runtime.CheckArchCompatibility (aclrtCheckArchCompatibility)", err)
}

// Utilization is how busy a device's engines were over the last few
// hundred milliseconds, in percent, as aclrtUtilizationInfo has it; -1 is
// an engine the device does not have (the simulator has no AI CPU engine)
// or a figure it does not measure (memory, as CANN).
type Utilization struct {
	Cube, Vector, AICPU, Memory int32
}

// Utilization measures how busy the device is: the share of its AI core
// workers running kernel blocks, averaged over a window of about 100 ms.
// The AI core pool runs cube and vector kernels alike, so both read it.
//
// CANN: aclrtGetDeviceUtilizationRate.
func (d *Device) Utilization() (Utilization, error) {
	if err := d.r.require("aclrtGetDeviceUtilizationRate"); err != nil {
		return Utilization{}, err
	}
	u, err := d.r.rt.Utilization(d.ID())
	if err != nil {
		return Utilization{}, wrap("Device.Utilization (aclrtGetDeviceUtilizationRate)", err)
	}
	pct := func(f float64) int32 {
		if f < 0 {
			return -1
		}
		return int32(f*100 + 0.5)
	}
	return Utilization{Cube: pct(u.Cube), Vector: pct(u.Vector), AICPU: pct(u.AICPU), Memory: -1}, nil
}

// DeviceLimit is aclrtDeviceLimit, with the CANN values.
type DeviceLimit int

const (
	LimitSIMTStackSize         DeviceLimit = DeviceLimit(rt.LimitSIMTStackSize)
	LimitSIMTDvgWarpStackSize  DeviceLimit = DeviceLimit(rt.LimitSIMTDvgWarpStackSize)
	LimitSIMDStackSize         DeviceLimit = DeviceLimit(rt.LimitSIMDStackSize)
	LimitSIMDPrintfFIFOPerCore DeviceLimit = DeviceLimit(rt.LimitSIMDPrintfFIFOPerCore)
	LimitSIMTPrintfFIFOSize    DeviceLimit = DeviceLimit(rt.LimitSIMTPrintfFIFOSize)
)

// SetDeviceLimit sets a limit of every device of the process. The SIMD
// (AI core) stack size is rounded as aclInit's StackSize.aicore_stack_size
// is (up to 16 KiB, at least 32 KiB, at most 192 KiB) and reserved for each
// device when it is next set up; the printf buffer per core is [1 KiB,
// 64 MiB], rounded up to 8 bytes. The SIMT limits are
// ACL_ERROR_RT_FEATURE_NOT_SUPPORT: the simulated chip has no SIMT units.
//
// CANN: aclrtDeviceSetLimit.
func (r *Runtime) SetDeviceLimit(l DeviceLimit, value uint64) error {
	if err := r.require("aclrtDeviceSetLimit"); err != nil {
		return err
	}
	return wrap("Runtime.SetDeviceLimit (aclrtDeviceSetLimit)", r.rt.SetLimit(rt.DeviceLimit(l), value))
}

// DeviceLimit reads a limit SetDeviceLimit or aclInit set.
//
// CANN: aclrtDeviceGetLimit.
func (r *Runtime) DeviceLimit(l DeviceLimit) (uint64, error) {
	if err := r.require("aclrtDeviceGetLimit"); err != nil {
		return 0, err
	}
	v, err := r.rt.Limit(rt.DeviceLimit(l))
	return v, wrap("Runtime.DeviceLimit (aclrtDeviceGetLimit)", err)
}

// SetTsDevice checks a task scheduler choice, ACL_TS_ID_AICORE (0) or
// ACL_TS_ID_AIVECTOR (1). The simulated chip, as an Atlas A2, has one
// scheduler for both, so a valid choice changes nothing.
//
// CANN: aclrtSetTsDevice.
func (x RawRuntime) SetTsDevice(ts int) error {
	if err := x.r.require("aclrtSetTsDevice"); err != nil {
		return err
	}
	if _, err := x.r.DeviceCount(); err != nil {
		return wrap("RawRuntime.SetTsDevice (aclrtSetTsDevice)", err)
	}
	return wrap("RawRuntime.SetTsDevice (aclrtSetTsDevice)", rt.CheckTsID(ts))
}

// MemComponent is one component's device memory: APP (the caller's, from
// Malloc), RUNTIME (the runtime's own: AI core stacks, staging buffers,
// argument copies) or MODEL (what models hold: condition words and task
// argument blocks), in bytes reserved now and at most since the device
// was set up.
type MemComponent = rt.MemComponent

// MemUsage reports the device's memory by component, most in use first;
// a device not set up has none.
//
// CANN: aclrtGetMemUsageInfo.
func (r *Runtime) MemUsage(dev int) ([]MemComponent, error) {
	if err := r.require("aclrtGetMemUsageInfo"); err != nil {
		return nil, err
	}
	c, err := r.rt.MemUsage(dev)
	return c, wrap("Runtime.MemUsage (aclrtGetMemUsageInfo)", err)
}
