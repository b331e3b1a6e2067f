package rt

import (
	"time"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// DeviceState is a point in a device's life that the device state hook
// hears of (aclrtDeviceState).
type DeviceState int

const (
	DeviceSetPre    DeviceState = iota // before the aclrtSetDevice that opens the device
	DeviceSetPost                      // after each aclrtSetDevice
	DeviceResetPre                     // before the reset that ends the default context
	DeviceResetPost                    // after it
)

// AbortStage is a point of aclrtDeviceTaskAbort the abort hook hears of.
type AbortStage int

const (
	AbortPre  AbortStage = iota // the streams are about to be aborted
	AbortPost                   // they were
)

// MaxAbortTimeout is the longest timeout aclrtDeviceTaskAbort takes, as
// CANN's runtime bounds it (36 minutes).
const MaxAbortTimeout = 36 * time.Minute

// SetDeviceStateHook installs the function told of device state changes,
// called on the goroutine making the change with no lock of the device
// held, so it may call the runtime.
func (r *Runtime) SetDeviceStateHook(fn func(dev int, st DeviceState)) {
	if fn == nil {
		r.devHook.Store(nil)
		return
	}
	r.devHook.Store(&fn)
}

// SetAbortHook installs the function called at each stage of a device task
// abort; an error from it ends the abort with that error.
func (r *Runtime) SetAbortHook(fn func(dev int, st AbortStage, left time.Duration) error) {
	if fn == nil {
		r.abortHook.Store(nil)
		return
	}
	r.abortHook.Store(&fn)
}

func (r *Runtime) deviceState(dev int, st DeviceState) {
	if h := r.devHook.Load(); h != nil {
		(*h)(dev, st)
	}
}

// releasing reports whether a reset now (force: every reference) would end
// the default context.
func (d *Device) releasing(force bool) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return !d.dead && (d.setRefs == 1 || force && d.setRefs > 0)
}

// resetNotified is Reset or ResetForce between the state hook's RESET_PRE
// and RESET_POST when it ends the default context.
func (d *Device) resetNotified(force bool, reset func() error) error {
	d.r.waitUnlocked()
	last := d.releasing(force)
	if last {
		if c, err := d.DefaultContext(); err == nil {
			d.r.streamState(c.defStream, StreamDestroyPre)
			d.r.deviceState(d.id, DeviceResetPre)
			for _, s := range c.liveStreams()[1:] {
				d.r.streamState(s, StreamDestroyPre)
			}
		}
	}
	err := reset()
	if last && err == nil {
		d.r.deviceState(d.id, DeviceResetPost)
	}
	return err
}

// TaskAbort is aclrtDeviceTaskAbort: every stream of every context of the
// device drops its tasks not yet started and waits for its running one;
// the abort hook runs before and after. The streams stay usable. timeout
// 0 waits for ever; otherwise running past it fails with
// ACL_ERROR_RT_WAIT_TIMEOUT, the streams aborted meanwhile staying so.
func (d *Device) TaskAbort(timeout time.Duration) error {
	if timeout < 0 || timeout > MaxAbortTimeout {
		return rterr.Errorf(rterr.KindInvalidParam, "timeout %v is invalid, expected 0 (wait for ever) up to %v", timeout, MaxAbortTimeout)
	}
	d.mu.Lock()
	if d.dead {
		d.mu.Unlock()
		return d.errFinalized()
	}
	if d.hd == nil {
		d.mu.Unlock()
		return rterr.Errorf(rterr.KindInvalidDevice, "device %d is not open; call aclrtSetDevice", d.id)
	}
	cs := d.contextsLocked()
	d.mu.Unlock()
	start := time.Now()
	left := func() (time.Duration, error) {
		if timeout == 0 {
			return 0, nil
		}
		l := timeout - time.Since(start)
		if l <= 0 {
			return 0, rterr.Errorf(rterr.KindWaitTimeout, "aborting the tasks of device %d took longer than the timeout %v", d.id, timeout)
		}
		return l, nil
	}
	hook := d.r.abortHook.Load()
	stage := func(st AbortStage) error {
		l, err := left()
		if err != nil || hook == nil {
			return err
		}
		return (*hook)(d.id, st, l)
	}
	d.lastFault.Store(nil)
	if err := stage(AbortPre); err != nil {
		return err
	}
	if err := d.abortStreams(cs, timeout, left); err != nil {
		return err
	}
	return stage(AbortPost)
}

// abortStreams aborts every stream of cs at once, so each drops its queued
// tasks before any waits for a running one; past the timeout it returns
// the timeout error and the aborts go on.
func (d *Device) abortStreams(cs []*Context, timeout time.Duration, left func() (time.Duration, error)) error {
	var streams []*Stream
	for _, c := range cs {
		streams = append(streams, c.liveStreams()...)
	}
	errs := make(chan error, len(streams))
	for _, s := range streams {
		go func() {
			err := s.q.Abort()
			if s.dead.Load() {
				err = nil // destroyed meanwhile: nothing left to abort
			}
			errs <- err
		}()
	}
	var expired <-chan time.Time
	if timeout > 0 {
		l, err := left()
		if err != nil {
			return err
		}
		tm := time.NewTimer(l)
		defer tm.Stop()
		expired = tm.C
	}
	var first error
	for range streams {
		select {
		case err := <-errs:
			if err != nil && first == nil {
				first = err
			}
		case <-expired:
			_, err := left()
			return err
		}
	}
	return first
}

// liveStreams lists the context's streams, its default stream first.
func (c *Context) liveStreams() []*Stream {
	c.mu.Lock()
	defer c.mu.Unlock()
	ss := make([]*Stream, 0, len(c.streams)+1)
	if c.defStream != nil {
		ss = append(ss, c.defStream)
	}
	for s := range c.streams {
		ss = append(ss, s)
	}
	return ss
}

// LastFault is the latest task fault since the device opened or its tasks
// were last aborted, if any.
func (d *Device) LastFault() (hal.Fault, bool) {
	if f := d.lastFault.Load(); f != nil {
		return *f, true
	}
	return hal.Fault{}, false
}
