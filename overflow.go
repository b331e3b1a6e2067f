package gocann

import (
	"github.com/gocann/gocann/internal/callsite"
	"github.com/gocann/gocann/internal/rt"
)

// Float overflow: how float results overflow (the device's mode, taken by
// each stream when it is created) and the overflow status that tasks on
// streams with overflow detection set when they produce an inf or a NaN.

// FloatOverflowMode is aclrtFloatOverflowMode, with the CANN values.
type FloatOverflowMode int32

const (
	OverflowSaturation FloatOverflowMode = rt.SatSaturation // ACL_RT_OVERFLOW_MODE_SATURATION: inf becomes the largest finite value, NaN 0
	OverflowInfNaN     FloatOverflowMode = rt.SatInfNaN     // ACL_RT_OVERFLOW_MODE_INFNAN: the default on Atlas A2, A3 and Ascend 950
)

// OverflowStatusSize is the size of the overflow status the status calls
// copy out; its first 32-bit word is 1 after an overflow, else 0.
const OverflowStatusSize = 64

// SetSatMode sets the device's float overflow mode for the streams created
// on it from now on; streams already created keep theirs. Ascend 950 has
// only the Inf/NaN mode, Atlas 200I/500 A2 only saturation.
//
// CANN: aclrtSetDeviceSatMode (on the current device).
func (d *Device) SetSatMode(m FloatOverflowMode) error {
	if err := d.r.require("aclrtSetDeviceSatMode"); err != nil {
		return err
	}
	return wrap("Device.SetSatMode (aclrtSetDeviceSatMode)", d.d.SetSatMode(int32(m)))
}

// SatMode is the device's float overflow mode.
//
// CANN: aclrtGetDeviceSatMode (on the current device).
func (d *Device) SatMode() FloatOverflowMode { return FloatOverflowMode(d.d.SatMode()) }

// SetOverflowSwitch turns overflow detection on the stream on or off for
// the tasks queued from now on. The stream attribute
// StreamAttrOverflowCheck is the same switch.
//
// CANN: aclrtSetStreamOverflowSwitch.
func (s *Stream) SetOverflowSwitch(on bool) error {
	if err := s.r.require("aclrtSetStreamOverflowSwitch"); err != nil {
		return err
	}
	return wrap("Stream.SetOverflowSwitch (aclrtSetStreamOverflowSwitch)", s.s.SetOverflowSwitch(on))
}

// OverflowSwitch reports whether the stream detects overflow.
//
// CANN: aclrtGetStreamOverflowSwitch.
func (s *Stream) OverflowSwitch() (bool, error) {
	if err := s.r.require("aclrtGetStreamOverflowSwitch"); err != nil {
		return false, err
	}
	on, err := s.s.OverflowSwitch()
	return on, wrap("Stream.OverflowSwitch (aclrtGetStreamOverflowSwitch)", err)
}

// OverflowStatus queues the copy of the device's overflow status into the
// OverflowStatusSize bytes at out, on the stream's device; size must be
// OverflowStatusSize. The status is the device's, whichever stream
// overflowed. A capturing stream refuses it.
//
// CANN: aclrtGetOverflowStatus.
//
//go:noinline
func (s *Stream) OverflowStatus(out DevPtr, size int64) error {
	if err := s.r.require("aclrtGetOverflowStatus"); err != nil {
		return err
	}
	return wrap("Stream.OverflowStatus (aclrtGetOverflowStatus)", s.s.OverflowStatus(uint64(out), uint64(size), callsite.Caller()))
}

// FloatOverflowStatus is OverflowStatus under its other CANN name.
//
// CANN: aclrtGetFloatOverflowStatus.
//
//go:noinline
func (s *Stream) FloatOverflowStatus(out DevPtr, size int64) error {
	return wrap("Stream.FloatOverflowStatus (aclrtGetFloatOverflowStatus)", s.s.OverflowStatus(uint64(out), uint64(size), callsite.Caller()))
}

// NpuFloatOverflowStatus is OverflowStatus as the NPU float status task:
// checkMode, which selects what the hardware checks, changes nothing on
// the simulated NPU, whose one status covers every check.
//
// CANN: aclrtNpuGetFloatOverFlowStatus.
//
//go:noinline
func (s *Stream) NpuFloatOverflowStatus(out DevPtr, size int64, checkMode uint32) error {
	return wrap("Stream.NpuFloatOverflowStatus (aclrtNpuGetFloatOverFlowStatus)", s.s.OverflowStatus(uint64(out), uint64(size), callsite.Caller()))
}

// ResetOverflowStatus queues the clearing of the device's overflow status.
// A capturing stream refuses it.
//
// CANN: aclrtResetOverflowStatus.
//
//go:noinline
func (s *Stream) ResetOverflowStatus() error {
	if err := s.r.require("aclrtResetOverflowStatus"); err != nil {
		return err
	}
	return wrap("Stream.ResetOverflowStatus (aclrtResetOverflowStatus)", s.s.ResetOverflowStatus(callsite.Caller()))
}

// ResetFloatOverflowStatus is ResetOverflowStatus under its other CANN
// name.
//
// CANN: aclrtResetFloatOverflowStatus.
//
//go:noinline
func (s *Stream) ResetFloatOverflowStatus() error {
	return wrap("Stream.ResetFloatOverflowStatus (aclrtResetFloatOverflowStatus)", s.s.ResetOverflowStatus(callsite.Caller()))
}

// NpuClearFloatOverflowStatus is ResetOverflowStatus as the NPU float
// status task; checkMode changes nothing (see NpuFloatOverflowStatus).
//
// CANN: aclrtNpuClearFloatOverFlowStatus.
//
//go:noinline
func (s *Stream) NpuClearFloatOverflowStatus(checkMode uint32) error {
	return wrap("Stream.NpuClearFloatOverflowStatus (aclrtNpuClearFloatOverFlowStatus)", s.s.ResetOverflowStatus(callsite.Caller()))
}

// FloatOverflowAddr returns the device address of the overflow status
// area, which AI core operators take as a workspace to report overflow
// into; one per device, zero when first lent.
//
// CANN: aclrtCtxGetFloatOverflowAddr.
func (c *Context) FloatOverflowAddr() (DevPtr, error) {
	if err := c.r.require("aclrtCtxGetFloatOverflowAddr"); err != nil {
		return 0, err
	}
	a, err := c.c.OverflowAddr()
	return DevPtr(a), wrap("Context.FloatOverflowAddr (aclrtCtxGetFloatOverflowAddr)", err)
}
