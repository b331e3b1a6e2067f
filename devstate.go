package gocann

import (
	"sort"
	"sync"
	"time"

	"github.com/gocann/gocann/internal/rt"
	"github.com/gocann/gocann/internal/rterr"
)

// DeviceState is a point in a device's life a device state callback is
// called at.
type DeviceState int

const (
	DeviceSetPre    DeviceState = DeviceState(rt.DeviceSetPre)    // ACL_RT_DEVICE_STATE_SET_PRE: before the SetDevice that opens the device
	DeviceSetPost   DeviceState = DeviceState(rt.DeviceSetPost)   // ACL_RT_DEVICE_STATE_SET_POST: after each SetDevice
	DeviceResetPre  DeviceState = DeviceState(rt.DeviceResetPre)  // ACL_RT_DEVICE_STATE_RESET_PRE: before the Reset that ends the default context
	DeviceResetPost DeviceState = DeviceState(rt.DeviceResetPost) // ACL_RT_DEVICE_STATE_RESET_POST: after it
)

// StreamState is a point in a stream's life a stream state callback is
// called at.
type StreamState int

const (
	StreamCreatePost StreamState = StreamState(rt.StreamCreatePost) // ACL_RT_STREAM_STATE_CREATE_POST
	StreamDestroyPre StreamState = StreamState(rt.StreamDestroyPre) // ACL_RT_STREAM_STATE_DESTROY_PRE
)

// AbortStage is a point of Device.TaskAbort a task abort callback is
// called at.
type AbortStage int

const (
	AbortPre  AbortStage = AbortStage(rt.AbortPre)  // ACL_RT_DEVICE_TASK_ABORT_PRE
	AbortPost AbortStage = AbortStage(rt.AbortPost) // ACL_RT_DEVICE_TASK_ABORT_POST
)

// namedHooks is a set of callbacks registered under unique names, called
// in the order of their names, as CANN keeps them.
type namedHooks[F any] struct {
	// mu guards fns.
	mu  sync.Mutex
	fns map[string]F
}

// register adds fn under name, or removes name's callback if remove.
func (h *namedHooks[F]) register(fn, name string, f F, remove bool) error {
	if name == "" {
		return Errorf(fn, KindBadArgument, "regName is empty, expected a unique name")
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if remove {
		delete(h.fns, name)
		return nil
	}
	if _, dup := h.fns[name]; dup {
		return Errorf(fn, KindInvalidParam, "regName %q is already registered; unregister it (NULL callback) first", name)
	}
	if h.fns == nil {
		h.fns = make(map[string]F)
	}
	h.fns[name] = f
	return nil
}

// list returns the callbacks in name order, for calling without the lock.
func (h *namedHooks[F]) list() []F {
	h.mu.Lock()
	defer h.mu.Unlock()
	names := make([]string, 0, len(h.fns))
	for n := range h.fns {
		names = append(names, n)
	}
	sort.Strings(names)
	fs := make([]F, len(names))
	for i, n := range names {
		fs[i] = h.fns[n]
	}
	return fs
}

// stateHooks holds the device state and task abort callbacks.
type stateHooks struct {
	stream namedHooks[func(s *Stream, st StreamState)]
	device namedHooks[func(dev int, st DeviceState)]
	abort  namedHooks[func(dev int, st AbortStage, left time.Duration) error]
}

// installStateHooks tells the core to call the registered callbacks.
func (r *Runtime) installStateHooks() {
	r.rt.SetStreamStateHook(func(s *rt.Stream, st rt.StreamState) {
		fns := r.hooks.stream.list()
		if len(fns) == 0 {
			return
		}
		gs := r.stream(s)
		for _, fn := range fns {
			fn(gs, StreamState(st))
		}
	})
	r.rt.SetDeviceStateHook(func(dev int, st rt.DeviceState) {
		for _, fn := range r.hooks.device.list() {
			fn(dev, DeviceState(st))
		}
	})
	r.rt.SetAbortHook(func(dev int, st rt.AbortStage, left time.Duration) error {
		for _, fn := range r.hooks.abort.list() {
			if err := fn(dev, AbortStage(st), left); err != nil {
				return rterr.Wrap(rterr.KindInternal, err, "the task abort callback failed at stage %d", st)
			}
		}
		return nil
	})
}

// RegisterStreamStateCallback registers fn under name, a name not
// registered yet; a nil fn removes name's callback. The callbacks are
// called, in the order of their names, after a stream is created and
// before it is destroyed, default streams included (they come with
// SetDevice and NewContext and go with the Reset or Close that ends their
// context), on the goroutine creating or destroying it.
//
// CANN: aclrtRegStreamStateCallback.
func (r *Runtime) RegisterStreamStateCallback(name string, fn func(s *Stream, st StreamState)) error {
	if err := r.require("aclrtRegStreamStateCallback"); err != nil {
		return err
	}
	return r.hooks.stream.register("aclrtRegStreamStateCallback", name, fn, fn == nil)
}

// RegisterDeviceStateCallback registers fn under name, a name not
// registered yet; a nil fn removes name's callback. The callbacks are
// called, in the order of their names, before the SetDevice that opens a
// device, after each SetDevice, and before and after the Reset that ends
// its default context, on the goroutine making the change.
//
// CANN: aclrtRegDeviceStateCallback.
func (r *Runtime) RegisterDeviceStateCallback(name string, fn func(dev int, st DeviceState)) error {
	if err := r.require("aclrtRegDeviceStateCallback"); err != nil {
		return err
	}
	return r.hooks.device.register("aclrtRegDeviceStateCallback", name, fn, fn == nil)
}

// RegisterTaskAbortCallback registers fn under name, a name not registered
// yet; a nil fn removes name's callback. Device.TaskAbort calls the
// callbacks, in the order of their names, before and after aborting, with
// the time left of its timeout (0 for none); an error from one ends the
// abort with ACL_ERROR_RT_INTERNAL_ERROR.
//
// CANN: aclrtSetDeviceTaskAbortCallback.
func (r *Runtime) RegisterTaskAbortCallback(name string, fn func(dev int, st AbortStage, left time.Duration) error) error {
	if err := r.require("aclrtSetDeviceTaskAbortCallback"); err != nil {
		return err
	}
	return r.hooks.abort.register("aclrtSetDeviceTaskAbortCallback", name, fn, fn == nil)
}

// TaskAbort stops the device's work: every stream of every context on it
// drops its tasks not yet started and waits for the one running, waits in
// progress fail with ACL_ERROR_RT_STREAM_ABORT, and a STOP_ON_FAILURE stop
// is cleared. The streams stay usable. timeout 0 waits for ever; past a
// timeout (at most 36 minutes) it fails with ACL_ERROR_RT_WAIT_TIMEOUT.
//
// CANN: aclrtDeviceTaskAbort.
func (d *Device) TaskAbort(timeout time.Duration) error {
	if err := d.r.require("aclrtDeviceTaskAbort"); err != nil {
		return err
	}
	return wrap("Device.TaskAbort (aclrtDeviceTaskAbort)", d.d.TaskAbort(timeout))
}

// PrimaryContextActive reports whether the device's default context
// exists: SetDevice holds a reference on the device.
//
// CANN: aclrtGetPrimaryCtxState.
func (d *Device) PrimaryContextActive() bool { return d.d.IsSet() }
