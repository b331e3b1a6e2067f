package gocann

import (
	"context"
	"time"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rt"
	"github.com/gocann/gocann/internal/rterr"
)

// Device is one NPU. A Device value is stable for the runtime's current
// initialization; SetDevice and Reset count references on it.
type Device struct {
	r *Runtime
	d *rt.Device
}

// ID is the device id.
//
// CANN: aclrtGetDevice.
func (d *Device) ID() int { return d.d.ID() }

// Reset drops one SetDevice reference. The last one waits for the default
// context's streams, then destroys the default context, its default stream
// and every stream created in it; with no explicit context left the device
// closes and its memory is freed.
//
// CANN: aclrtResetDevice.
func (d *Device) Reset() error { return wrap("Device.Reset (aclrtResetDevice)", d.d.Reset()) }

// ResetForce drops every SetDevice reference at once, with Reset's effect.
//
// CANN: aclrtResetDeviceForce.
func (d *Device) ResetForce() error {
	return wrap("Device.ResetForce (aclrtResetDeviceForce)", d.d.ResetForce())
}

// IsSet reports whether SetDevice references the device.
//
// CANN: none.
func (d *Device) IsSet() bool { return d.d.IsSet() }

// Context returns the device's default context; the device must be set.
//
// CANN: aclrtGetCurrentContext (after aclrtSetDevice).
func (d *Device) Context() (*Context, error) {
	c, err := d.d.DefaultContext()
	if err != nil {
		return nil, wrap("Device.Context (aclrtGetCurrentContext)", err)
	}
	return d.r.context(c), nil
}

// NewContext creates an explicit context with its own default stream. It
// keeps the device open until Close.
//
// CANN: aclrtCreateContext.
func (d *Device) NewContext() (*Context, error) {
	c, err := d.d.NewContext()
	if err != nil {
		return nil, wrap("Device.NewContext (aclrtCreateContext)", err)
	}
	return d.r.context(c), nil
}

// Synchronize waits for every stream on the device and reports the first
// task fault not reported before. Cancelling ctx ends the wait, not the
// work.
//
// CANN: aclrtSynchronizeDevice.
func (d *Device) Synchronize(ctx context.Context) error {
	if err := d.r.require("aclrtSynchronizeDevice"); err != nil {
		return err
	}
	return wrap("Device.Synchronize (aclrtSynchronizeDevice)", d.d.Synchronize(ctx, 0))
}

// SynchronizeTimeout is Synchronize bounded by timeout (0: no bound); an
// expired wait fails with ACL_ERROR_RT_STREAM_SYNC_TIMEOUT.
//
// CANN: aclrtSynchronizeDeviceWithTimeout.
func (d *Device) SynchronizeTimeout(timeout time.Duration) error {
	if err := d.r.require("aclrtSynchronizeDeviceWithTimeout"); err != nil {
		return err
	}
	return wrap("Device.SynchronizeTimeout (aclrtSynchronizeDeviceWithTimeout)", d.d.Synchronize(context.Background(), timeout))
}

// MemInfo reports free and total device memory in bytes. The AI core
// stacks reserved when the device was set count as used.
//
// CANN: aclrtGetMemInfo.
func (d *Device) MemInfo() (free, total int64, err error) {
	f, t, err := d.d.MemInfo()
	return int64(f), int64(t), wrap("Device.MemInfo (aclrtGetMemInfo)", err)
}

// SoCName is the chip's SoC name, such as "Ascend910B1".
//
// CANN: aclrtGetSocName.
func (d *Device) SoCName() string { return d.d.Props().SoCName }

// Props is the device's chip profile.
//
// CANN: none.
func (d *Device) Props() hal.Props { return d.d.Props() }

// DeviceAttr names a device attribute (aclrtDevAttr), with the CANN values.
type DeviceAttr int

const (
	AttrAICPUCoreNum      DeviceAttr = 1
	AttrAICoreNum         DeviceAttr = 101
	AttrCubeCoreNum       DeviceAttr = 102
	AttrVectorCoreNum     DeviceAttr = 201
	AttrTotalGlobalMem    DeviceAttr = 301
	AttrL2CacheSize       DeviceAttr = 302
	AttrSMPID             DeviceAttr = 401
	AttrPhyChipID         DeviceAttr = 402
	AttrSuperPodDeviceID  DeviceAttr = 403
	AttrSuperPodServerID  DeviceAttr = 404
	AttrSuperPodID        DeviceAttr = 405
	AttrCustOpPrivilege   DeviceAttr = 406
	AttrMainboardID       DeviceAttr = 407
	AttrIsVirtual         DeviceAttr = 501
	AttrNPUArch           DeviceAttr = 601
	attrSIMTFirst         DeviceAttr = 202
	attrSIMTLast          DeviceAttr = 212
	npuArchAtlasA2                   = 2201
	deviceAttrDescription            = "ACL_DEV_ATTR_* values 1, 101, 102, 201..212, 301, 302, 401..407, 501 or 601"
)

// Info reads a device attribute. SIMT attributes (202..212) read 0, as on
// chips without SIMT units.
//
// CANN: aclrtGetDeviceInfo.
func (d *Device) Info(attr DeviceAttr) (int64, error) {
	if err := d.r.require("aclrtGetDeviceInfo"); err != nil {
		return 0, err
	}
	p := d.d.Props()
	switch attr {
	case AttrAICPUCoreNum:
		return int64(p.AICPUs), nil
	case AttrAICoreNum:
		return int64(p.AICores), nil
	case AttrCubeCoreNum:
		return int64(p.CubeCores), nil
	case AttrVectorCoreNum:
		return int64(p.VectorCores), nil
	case AttrTotalGlobalMem:
		return int64(p.HBMSize), nil
	case AttrL2CacheSize:
		return int64(p.L2Size), nil
	case AttrSMPID, AttrSuperPodServerID, AttrSuperPodID, AttrMainboardID, AttrIsVirtual:
		return 0, nil
	case AttrPhyChipID, AttrSuperPodDeviceID:
		return int64(d.d.ID()), nil
	case AttrCustOpPrivilege:
		return 1, nil
	case AttrNPUArch:
		if a, ok := rt.NPUArch(p.SoCName); ok {
			return int64(a), nil
		}
		return npuArchAtlasA2, nil // another backend's chip: the default chip's
	}
	if attr >= attrSIMTFirst && attr <= attrSIMTLast {
		return 0, nil
	}
	return 0, wrap("Device.Info (aclrtGetDeviceInfo)", rterr.Errorf(rterr.KindInvalidParam,
		"attr %d is invalid, expected one of the %s", attr, deviceAttrDescription))
}

// StreamPriorityRange returns the least and greatest stream priorities;
// numerically greatest <= least, and lower numbers run first.
//
// CANN: aclrtDeviceGetStreamPriorityRange.
func (d *Device) StreamPriorityRange() (least, greatest int) {
	p := d.d.Props()
	return p.LeastPriority, p.GreatestPriority
}

// StreamsAvailable is how many more streams the device's pool can give:
// its limit less the streams of its contexts (default streams included) and
// the streams its models hold.
//
// CANN: aclrtGetStreamAvailableNum.
func (d *Device) StreamsAvailable() (int, error) {
	if err := d.r.require("aclrtGetStreamAvailableNum"); err != nil {
		return 0, err
	}
	n, err := d.d.StreamsAvailable()
	return n, wrap("Device.StreamsAvailable (aclrtGetStreamAvailableNum)", err)
}

// TaskRecord is one task's entry in the device trace: when the scheduler
// saw it submitted, started and completed it, and which engine ran it.
type TaskRecord = hal.Record

// Trace returns the device's retained task records, oldest first.
//
// CANN: none.
func (d *Device) Trace() ([]TaskRecord, error) {
	hd, err := d.d.HAL()
	if err != nil {
		return nil, wrap("Device.Trace", err)
	}
	t, ok := hd.(hal.Tracer)
	if !ok {
		return nil, wrap("Device.Trace", rterr.Errorf(rterr.KindNotSupported, "this backend keeps no trace"))
	}
	return t.Trace(nil), nil
}

// ShareMemory returns a file another process can map to see the device
// memory at p, and p's offset in it.
//
// CANN: none.
func (d *Device) ShareMemory(p DevPtr) (path string, off int64, err error) {
	if a, ok := d.r.rt.Lookup(uint64(p)); !ok || a.Host || a.Device != d.ID() {
		return "", 0, wrap("Device.ShareMemory", rterr.Errorf(rterr.KindInvalidAddress,
			"device address %#x is not in a live allocation on device %d, expected one to share", uint64(p), d.ID()))
	}
	hd, err := d.d.HAL()
	if err != nil {
		return "", 0, wrap("Device.ShareMemory", err)
	}
	s, ok := hd.(hal.Sharer)
	if !ok {
		return "", 0, wrap("Device.ShareMemory", rterr.Errorf(rterr.KindNotSupported, "this backend cannot share memory"))
	}
	path, off, err = s.Share(uint64(p))
	return path, off, wrap("Device.ShareMemory", err)
}

// Now reads the device clock, the time base of event timestamps and the
// trace, in nanoseconds.
//
// CANN: none.
func (d *Device) Now() (int64, error) {
	hd, err := d.d.HAL()
	if err != nil {
		return 0, wrap("Device.Now", err)
	}
	return hd.Now(), nil
}
