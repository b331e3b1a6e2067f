package rt

import (
	"sync/atomic"

	"github.com/gocann/gocann/internal/rterr"
)

// Core resource limits (aclrtSetDeviceResLimit, aclrtSetStreamResLimit and
// the thread binding of a stream's limits). A stream's limit comes before
// its device's, which comes before the hardware's core counts. Kernels
// queued on a stream carry the tighter of the cube and vector limits in
// force for it when they are submitted (hal.Task.Cores), which the
// scheduler enforces: the simulator does not know whether a kernel runs on
// cube or vector cores, so each of its blocks counts as one core of each.

// ResType is aclrtDevResLimitType, with the CANN values.
type ResType uint32

const (
	ResCubeCore   ResType = 0
	ResVectorCore ResType = 1
	numResTypes           = 2
)

// resLimits are the limits set on a device or a stream, per type: the
// value plus one, 0 when none is set. Submissions read them without a lock.
type resLimits [numResTypes]atomic.Uint32

func (l *resLimits) get(t ResType) (uint32, bool) {
	v := l[t].Load()
	return v - 1, v != 0
}

func (l *resLimits) set(t ResType, v uint32) { l[t].Store(v + 1) }

func (l *resLimits) reset() {
	for i := range l {
		l[i].Store(0)
	}
}

func (l *resLimits) any() bool { return l[0].Load() != 0 || l[1].Load() != 0 }

// checkResType checks t is an aclrtDevResLimitType value.
func checkResType(t ResType) error {
	if t >= numResTypes {
		return rterr.Errorf(rterr.KindInvalidParam, "type %d is invalid, expected an aclrtDevResLimitType value in [0, 2)", t)
	}
	return nil
}

// hardwareRes is the device's number of cores of type t.
func (d *Device) hardwareRes(t ResType) uint32 {
	if t == ResVectorCore {
		return uint32(d.props.VectorCores)
	}
	return uint32(d.props.CubeCores)
}

// checkResValue checks a limit against the cores the device has; CANN
// allows any count up to them, 0 included.
func (d *Device) checkResValue(t ResType, v uint32) error {
	if hw := d.hardwareRes(t); v > hw {
		return rterr.Errorf(rterr.KindInvalidParam, "value %d is invalid, expected at most the device's %d %s cores", v, hw, resName(t))
	}
	return nil
}

func resName(t ResType) string {
	if t == ResVectorCore {
		return "vector"
	}
	return "cube"
}

// ResLimit is the device's limit of type t for this process: the one set,
// else the hardware's core count (aclrtGetDeviceResLimit).
func (d *Device) ResLimit(t ResType) (uint32, error) {
	if err := checkResType(t); err != nil {
		return 0, err
	}
	if _, err := d.halDevice(); err != nil {
		return 0, err
	}
	return d.resValue(t), nil
}

func (d *Device) resValue(t ResType) uint32 {
	if v, ok := d.res.get(t); ok {
		return v
	}
	return d.hardwareRes(t)
}

// SetResLimit limits the device's cores of type t for the kernels queued
// from now on, on every stream without a limit of its own
// (aclrtSetDeviceResLimit).
func (d *Device) SetResLimit(t ResType, v uint32) error {
	if err := checkResType(t); err != nil {
		return err
	}
	if _, err := d.halDevice(); err != nil {
		return err
	}
	if err := d.checkResValue(t, v); err != nil {
		return err
	}
	d.res.set(t, v)
	d.refreshDirect()
	return nil
}

// ResetResLimit returns the device's limits to the hardware's core counts
// (aclrtResetDeviceResLimit).
func (d *Device) ResetResLimit() error {
	if _, err := d.halDevice(); err != nil {
		return err
	}
	d.res.reset()
	d.refreshDirect()
	return nil
}

// refreshDirect has each stream of d take direct launches only as eager
// says, after a core limit or the dump changed: the direct path writes
// no core bound and bypasses the dump's tasks.
func (d *Device) refreshDirect() {
	d.mu.Lock()
	cs := d.contextsLocked()
	d.mu.Unlock()
	for _, c := range cs {
		for _, s := range c.Streams() {
			s.withDirect(s.eager)
		}
	}
}

// ResLimit is the stream's limit of type t: its own, else its device's
// (aclrtGetStreamResLimit).
func (s *Stream) ResLimit(t ResType) (uint32, error) {
	if err := checkResType(t); err != nil {
		return 0, err
	}
	if err := s.check(); err != nil {
		return 0, err
	}
	return s.resValue(t), nil
}

func (s *Stream) resValue(t ResType) uint32 {
	if v, ok := s.res.get(t); ok {
		return v
	}
	return s.c.d.resValue(t)
}

// SetResLimit limits the stream's cores of type t for the kernels queued
// on it from now on, whatever its device's limit (aclrtSetStreamResLimit).
func (s *Stream) SetResLimit(t ResType, v uint32) error {
	if err := checkResType(t); err != nil {
		return err
	}
	if err := s.check(); err != nil {
		return err
	}
	if err := s.c.d.checkResValue(t, v); err != nil {
		return err
	}
	s.withDirect(func() bool {
		s.res.set(t, v)
		return s.eager()
	})
	return nil
}

// ResetResLimit drops the stream's own limits (aclrtResetStreamResLimit).
func (s *Stream) ResetResLimit() error {
	if err := s.check(); err != nil {
		return err
	}
	s.withDirect(func() bool {
		s.res.reset()
		return s.eager()
	})
	return nil
}

// coreBound is the hal.Task.Cores of a kernel queued on s now: the tighter
// of its cube and vector limits, at least 1 (a limit of 0 runs one block
// at a time), or 0 when neither s nor its device has a limit.
func (s *Stream) coreBound() uint32 {
	d := s.c.d
	if !s.res.any() && !d.res.any() {
		return 0
	}
	return max(1, min(s.resValue(ResCubeCore), s.resValue(ResVectorCore)))
}

// UseStreamRes makes the thread's resources those of s
// (aclrtUseStreamResInCurrentThread); a later call replaces it.
func (r *Runtime) UseStreamRes(caller Caller, s *Stream) error {
	if err := s.check(); err != nil {
		return err
	}
	r.threadRes.Store(caller.Thread, s)
	return nil
}

// UnuseStreamRes ends the thread's use of s's resources
// (aclrtUnuseStreamResInCurrentThread); as in CANN, a stream the thread
// does not use is no error and changes nothing.
func (r *Runtime) UnuseStreamRes(caller Caller, s *Stream) error {
	if err := s.check(); err != nil {
		return err
	}
	r.threadRes.CompareAndDelete(caller.Thread, s)
	return nil
}

// ResInThread is the resources of type t the thread may use
// (aclrtGetResInCurrentThread): the limit set on the stream it uses, else
// the limit of c's device, else the hardware's count.
func (r *Runtime) ResInThread(caller Caller, c *Context, t ResType) (uint32, error) {
	if err := checkResType(t); err != nil {
		return 0, err
	}
	if v, ok := r.threadRes.Load(caller.Thread); ok {
		if s := v.(*Stream); !s.dead.Load() {
			if n, ok := s.res.get(t); ok {
				return n, nil
			}
		}
	}
	if err := c.check(); err != nil {
		return 0, err
	}
	return c.d.resValue(t), nil
}
