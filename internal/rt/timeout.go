package rt

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// opTimeouts are the process's operator timeouts: the execute timeout of
// kernels (aclrtSetOpExecuteTimeOut, ...V2) and the timeout of device-side
// waits (aclrtSetOpWaitTimeout). As in CANN they belong to the process,
// not to a device or an initialization: they apply to every device open
// now or later and outlive aclFinalize.
type opTimeouts struct {
	wait atomic.Int64 // the wait timeout in ns; 0: waits never time out

	// mu guards the fields below.
	mu      sync.Mutex
	execSet bool          // an execute timeout was set
	exec    time.Duration // the one asked for; 0: the longest (or never, ZeroNeverTimesOut)
}

// MaxOpWaitTimeout is the longest wait timeout aclrtSetOpWaitTimeout takes
// (its uint32_t seconds).
const MaxOpWaitTimeout = (1<<32 - 1) * time.Second

// execFor is the execute timeout a device with ticks of interval applies;
// 0: kernels never time out. o.mu must be held.
func (o *opTimeouts) execFor(interval time.Duration) time.Duration {
	if o.execSet && o.exec == 0 && hal.ZeroNeverTimesOut(interval) {
		return 0
	}
	if !o.execSet {
		return hal.OpTimeout(interval, 0)
	}
	return hal.OpTimeout(interval, o.exec)
}

// OpTimeoutInterval is the tick of operator timeouts of the runtime's
// chip (aclrtGetOpTimeOutInterval): every device of a backend has the same.
func (r *Runtime) OpTimeoutInterval() (time.Duration, error) {
	d, err := r.Device(0)
	if err != nil {
		return 0, err
	}
	return d.props.OpTimeoutInterval, nil
}

// SetOpExecuteTimeout sets the execute timeout of the kernels launched
// without one of their own, on every device (aclrtSetOpExecuteTimeOut,
// aclrtSetOpExecuteTimeOutV2): timeout rounded up to whole ticks of the
// chip's interval, at most hal.MaxOpTimeoutTicks of them; 0 is the longest,
// or no timeout on a chip whose ticks are under 100 ms. It returns the
// timeout in force, 0 for none.
func (r *Runtime) SetOpExecuteTimeout(timeout time.Duration) (time.Duration, error) {
	interval, err := r.OpTimeoutInterval()
	if err != nil {
		return 0, err
	}
	if timeout < 0 {
		return 0, rterr.Errorf(rterr.KindInvalidParam, "timeout %v is invalid, expected >= 0", timeout)
	}
	o := &r.timeouts
	o.mu.Lock()
	o.execSet, o.exec = true, timeout
	actual := o.execFor(interval)
	o.mu.Unlock()
	r.mu.Lock()
	devices := r.devices
	r.mu.Unlock()
	for _, d := range devices {
		d.mu.Lock()
		d.applyTimeouts()
		d.mu.Unlock()
	}
	return actual, nil
}

// OpExecuteTimeout is the execute timeout in force for kernels without one
// of their own (aclrtGetOpExecuteTimeout), 0 for none: the one set, else
// the chip's default, the longest.
func (r *Runtime) OpExecuteTimeout() (time.Duration, error) {
	interval, err := r.OpTimeoutInterval()
	if err != nil {
		return 0, err
	}
	o := &r.timeouts
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.execFor(interval), nil
}

// SetOpWaitTimeout sets the timeout of the device-side waits queued from
// now on without one of their own (aclrtSetOpWaitTimeout): a wait for an
// event or a notify that is still unsatisfied after it fails with a wait
// timeout fault; 0: such waits never time out. It needs an initialized
// runtime, as CANN does once aclInit returned.
func (r *Runtime) SetOpWaitTimeout(timeout time.Duration) error {
	if _, err := r.live(); err != nil {
		return err
	}
	if timeout < 0 || timeout > MaxOpWaitTimeout {
		return rterr.Errorf(rterr.KindInvalidParam, "timeout %v is invalid, expected 0..%v", timeout, MaxOpWaitTimeout)
	}
	r.timeouts.wait.Store(int64(timeout))
	return nil
}

// waitTimeout is the timeout of a device-side wait queued with timeout:
// its own, else the process's (SetOpWaitTimeout).
func (r *Runtime) waitTimeout(timeout time.Duration) time.Duration {
	if timeout != 0 {
		return timeout
	}
	return time.Duration(r.timeouts.wait.Load())
}

// applyTimeouts hands the process's execute timeout to the open device.
// d.mu held.
func (d *Device) applyTimeouts() {
	kt, ok := d.hd.(hal.KernelTimeouter)
	if !ok {
		return
	}
	o := &d.r.timeouts
	o.mu.Lock()
	timeout := o.execFor(d.props.OpTimeoutInterval)
	o.mu.Unlock()
	kt.SetKernelTimeout(timeout)
}
