package gocann

import "github.com/gocann/gocann/internal/rt"

// ResType is a kind of core a resource limit counts.
//
// CANN: aclrtDevResLimitType.
type ResType uint32

const (
	ResCubeCore   ResType = 0 // AI cores, counted by their cube units (ACL_RT_DEV_RES_CUBE_CORE)
	ResVectorCore ResType = 1 // vector cores (ACL_RT_DEV_RES_VECTOR_CORE)
)

// ResLimit is the process's limit on the device's cores of type t: the one
// set with SetResLimit, else the number the chip has.
//
// CANN: aclrtGetDeviceResLimit.
func (d *Device) ResLimit(t ResType) (uint32, error) {
	if err := d.r.require("aclrtGetDeviceResLimit"); err != nil {
		return 0, err
	}
	v, err := d.d.ResLimit(rt.ResType(t))
	return v, wrap("Device.ResLimit (aclrtGetDeviceResLimit)", err)
}

// SetResLimit limits the cores of type t the kernels queued from now on
// may use, on every stream of the device without a limit of its own: a
// kernel's blocks run at most that many at once, in waves when there are
// more (each block counts as one cube and one vector core). The value is
// at most the chip's count; 0 runs one block at a time. Kernels captured
// into a model keep the limit in force when they were captured.
//
// CANN: aclrtSetDeviceResLimit.
func (d *Device) SetResLimit(t ResType, value uint32) error {
	if err := d.r.require("aclrtSetDeviceResLimit"); err != nil {
		return err
	}
	return wrap("Device.SetResLimit (aclrtSetDeviceResLimit)", d.d.SetResLimit(rt.ResType(t), value))
}

// ResetResLimit returns the device's limits to the chip's core counts.
// Limits also end when the device's last reference is reset.
//
// CANN: aclrtResetDeviceResLimit.
func (d *Device) ResetResLimit() error {
	if err := d.r.require("aclrtResetDeviceResLimit"); err != nil {
		return err
	}
	return wrap("Device.ResetResLimit (aclrtResetDeviceResLimit)", d.d.ResetResLimit())
}

// ResLimit is the stream's limit on cores of type t: its own, else its
// device's.
//
// CANN: aclrtGetStreamResLimit.
func (s *Stream) ResLimit(t ResType) (uint32, error) {
	if err := s.r.require("aclrtGetStreamResLimit"); err != nil {
		return 0, err
	}
	v, err := s.s.ResLimit(rt.ResType(t))
	return v, wrap("Stream.ResLimit (aclrtGetStreamResLimit)", err)
}

// SetResLimit limits the cores of type t the kernels queued on the stream
// from now on may use, whatever the device's limit says (see
// Device.SetResLimit).
//
// CANN: aclrtSetStreamResLimit.
func (s *Stream) SetResLimit(t ResType, value uint32) error {
	if err := s.r.require("aclrtSetStreamResLimit"); err != nil {
		return err
	}
	return wrap("Stream.SetResLimit (aclrtSetStreamResLimit)", s.s.SetResLimit(rt.ResType(t), value))
}

// ResetResLimit drops the stream's own limits; its device's apply again.
//
// CANN: aclrtResetStreamResLimit.
func (s *Stream) ResetResLimit() error {
	if err := s.r.require("aclrtResetStreamResLimit"); err != nil {
		return err
	}
	return wrap("Stream.ResetResLimit (aclrtResetStreamResLimit)", s.s.ResetResLimit())
}

// UseResInCurrentThread makes the stream's limits the resources thread th
// reports (RawContext.ResInCurrentThread), as operator libraries read
// them to split their work; a later call replaces the stream.
//
// CANN: aclrtUseStreamResInCurrentThread.
func (x RawStream) UseResInCurrentThread(th CaptureThread) error {
	if err := x.s.r.require("aclrtUseStreamResInCurrentThread"); err != nil {
		return err
	}
	return wrap("RawStream.UseResInCurrentThread (aclrtUseStreamResInCurrentThread)", x.s.r.rt.UseStreamRes(th.rt(), x.s.s))
}

// UnuseResInCurrentThread ends thread th's use of the stream's limits; a
// stream the thread does not use changes nothing.
//
// CANN: aclrtUnuseStreamResInCurrentThread.
func (x RawStream) UnuseResInCurrentThread(th CaptureThread) error {
	if err := x.s.r.require("aclrtUnuseStreamResInCurrentThread"); err != nil {
		return err
	}
	return wrap("RawStream.UnuseResInCurrentThread (aclrtUnuseStreamResInCurrentThread)", x.s.r.rt.UnuseStreamRes(th.rt(), x.s.s))
}

// ResInCurrentThread is the number of cores of type t thread th may use:
// the limit of that type set on the stream it uses, else the limit of the
// context's device, else the chip's count.
//
// CANN: aclrtGetResInCurrentThread.
func (x RawContext) ResInCurrentThread(th CaptureThread, t ResType) (uint32, error) {
	if err := x.c.r.require("aclrtGetResInCurrentThread"); err != nil {
		return 0, err
	}
	v, err := x.c.r.rt.ResInThread(th.rt(), x.c.c, rt.ResType(t))
	return v, wrap("RawContext.ResInCurrentThread (aclrtGetResInCurrentThread)", err)
}
