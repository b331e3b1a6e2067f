package rt

import (
	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
	"github.com/gocann/gocann/internal/support"
)

// Float overflow modes (aclrtFloatOverflowMode), with the CANN values.
const (
	SatSaturation = 0 // an inf result becomes the largest finite value, a NaN 0
	SatInfNaN     = 1 // results keep their infs and NaNs
)

// defaultSatMode is the mode a device of product p starts in: Inf/NaN on
// Atlas A2, A3 and Ascend 950, saturation on the products that have no
// other.
func defaultSatMode(soc string) int32 {
	if satOnly(soc) {
		return SatSaturation
	}
	return SatInfNaN
}

// satOnly reports whether the chip has only the saturation mode.
func satOnly(soc string) bool {
	p, ok := support.ProductOf(soc)
	return ok && (p == support.Atlas200I500A2 || p == support.AtlasInference || p == support.AtlasTraining)
}

// SetSatMode sets the float overflow mode of d for the streams created on
// it from now on (aclrtSetDeviceSatMode); streams already created keep
// theirs.
func (d *Device) SetSatMode(mode int32) error {
	if mode != SatSaturation && mode != SatInfNaN {
		return rterr.Errorf(rterr.KindInvalidParam, "mode %d is invalid, expected ACL_RT_OVERFLOW_MODE_SATURATION (0) or ACL_RT_OVERFLOW_MODE_INFNAN (1)", mode)
	}
	soc := d.props.SoCName
	p, _ := support.ProductOf(soc)
	switch {
	case mode == SatSaturation && (p == support.Ascend950PR || p == support.Ascend950DT):
		return rterr.Errorf(rterr.KindNotSupported, "%s has only the Inf/NaN mode (ACL_RT_OVERFLOW_MODE_INFNAN)", soc)
	case mode == SatInfNaN && satOnly(soc):
		return rterr.Errorf(rterr.KindNotSupported, "%s has only the saturation mode (ACL_RT_OVERFLOW_MODE_SATURATION)", soc)
	}
	d.satMode.Store(mode)
	return nil
}

// SatMode is d's float overflow mode (aclrtGetDeviceSatMode).
func (d *Device) SatMode() int32 { return d.satMode.Load() }

// SetOverflowSwitch turns overflow detection on s on or off for the tasks
// queued from now on (aclrtSetStreamOverflowSwitch).
func (s *Stream) SetOverflowSwitch(on bool) error {
	if err := s.usable(); err != nil {
		return err
	}
	if s.Capture() != nil {
		return rterr.Errorf(rterr.KindStreamCaptured, "stream %d is capturing: its overflow switch cannot change during a capture", s.id)
	}
	if on {
		// Lend the area now, so a task never meets a failed allocation.
		if _, err := s.c.OverflowAddr(); err != nil {
			return err
		}
	}
	s.setOverflow(on)
	return nil
}

// OverflowSwitch reports whether s detects overflow
// (aclrtGetStreamOverflowSwitch).
func (s *Stream) OverflowSwitch() (bool, error) {
	if err := s.check(); err != nil {
		return false, err
	}
	return s.overflow.Load(), nil
}

// setOverflow sets the switch; the direct launch path, which writes no
// overflow area into its tasks, closes while it is on.
func (s *Stream) setOverflow(on bool) {
	s.withDirect(func() bool {
		s.overflow.Store(on)
		return s.eager()
	})
}

// overflowArea is the area a task queued on s flags, 0 with the switch
// off. The switch cannot be on without the area lent (SetOverflowSwitch).
func (s *Stream) overflowArea() uint64 {
	if !s.overflow.Load() {
		return 0
	}
	d := s.c.d
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.overflow.hd != d.hd {
		return 0
	}
	return d.overflow.addr
}

// OverflowAddr returns the device's overflow status area
// (aclrtCtxGetFloatOverflowAddr): one per device and process, as the
// reference says of Atlas A2 and A3, the address AI core operators take
// as their workspace. It is zero when first lent.
func (c *Context) OverflowAddr() (uint64, error) {
	if err := c.check(); err != nil {
		return 0, err
	}
	d := c.d
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.lend(&d.overflow, hal.OverflowSize, "the overflow status area")
}

// OverflowStatus queues the copy of the device's overflow status into the
// 64 bytes at out (aclrtGetOverflowStatus, aclrtGetFloatOverflowStatus):
// its first 32-bit word is 1 if a task on a stream with overflow
// detection overflowed since the last reset, else 0.
func (s *Stream) OverflowStatus(out uint64, size uint64, site uintptr) error {
	if err := s.overflowTask("out", size); err != nil {
		return err
	}
	if err := s.c.d.checkDevice("outputAddr", out, hal.OverflowSize); err != nil {
		return err
	}
	area, err := s.c.OverflowAddr()
	if err != nil {
		return err
	}
	_, err = s.submit(&hal.Task{Kind: hal.TaskCopy, Dst: hal.Loc{Dev: out}, Src: hal.Loc{Dev: area}, Size: hal.OverflowSize, Site: site})
	return err
}

// ResetOverflowStatus queues the clearing of the device's overflow status
// (aclrtResetOverflowStatus, aclrtResetFloatOverflowStatus).
func (s *Stream) ResetOverflowStatus(site uintptr) error {
	if err := s.overflowTask("", hal.OverflowSize); err != nil {
		return err
	}
	area, err := s.c.OverflowAddr()
	if err != nil {
		return err
	}
	_, err = s.submit(&hal.Task{Kind: hal.TaskMemset, Dst: hal.Loc{Dev: area}, Size: hal.OverflowSize, Site: site})
	return err
}

// overflowTask checks a status task on s: the stream usable and not
// capturing (CANN refuses both status tasks in a capture), and the output
// size, when there is one, 64 bytes.
func (s *Stream) overflowTask(out string, size uint64) error {
	if err := s.usable(); err != nil {
		return err
	}
	if s.Capture() != nil {
		return rterr.Errorf(rterr.KindStreamCaptured, "stream %d is capturing: overflow status tasks cannot be captured", s.id)
	}
	if out != "" && size != hal.OverflowSize {
		return rterr.Errorf(rterr.KindInvalidParam, "outputSize %d is invalid, expected %d", size, hal.OverflowSize)
	}
	return nil
}

// lentArea is device memory the runtime lends to kernels: taken the first
// time it is asked for while the device is open, and gone with the
// device's memory when it closes (hd tells whether the address still
// belongs to the open device).
type lentArea struct {
	addr uint64
	hd   hal.Device
}

// lend returns a's address on d, taking and zeroing size bytes the first
// time; what names it in errors. d.mu held.
func (d *Device) lend(a *lentArea, size uint64, what string) (uint64, error) {
	if d.hd == nil {
		return 0, rterr.Errorf(rterr.KindInvalidDevice, "device %d is not open; call aclrtSetDevice", d.id)
	}
	if a.hd == d.hd {
		return a.addr, nil
	}
	m, err := d.hd.Malloc(size, hal.MemPolicy{Page: hal.PageNormalOnly, Tag: uint8(useLent)})
	if err != nil {
		return 0, rterr.Wrap(rterr.KindOutOfMemory, err, "device %d: allocating %s", d.id, what)
	}
	// Reused memory keeps old bytes: the area starts at zero.
	if err := d.hd.Run(hal.Task{Kind: hal.TaskMemset, Dst: hal.Loc{Dev: m.Addr}, Size: size}); err != nil {
		d.hd.Free(m.Addr, uint8(useLent))
		return 0, rterr.Wrap(rterr.KindInternal, err, "device %d: clearing %s", d.id, what)
	}
	*a = lentArea{addr: m.Addr, hd: d.hd}
	return m.Addr, nil
}
