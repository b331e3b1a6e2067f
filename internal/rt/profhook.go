package rt

import (
	"sync/atomic"
	"syscall"

	"github.com/gocann/gocann/hal"
)

// A profiler watches the devices as they open and close, and has each
// task stamped with the OS thread that submitted it, so its timeline can
// tie the task to the host call that queued it.

// DeviceWatcher learns of devices opening and closing. Its methods run
// with the device's lock held: they must not call back into the device.
type DeviceWatcher interface {
	DeviceOpened(id int, hd hal.Device, p hal.Props)
	DeviceClosing(id int, hd hal.Device)
}

type watchers struct {
	w        atomic.Pointer[DeviceWatcher]
	stampTID atomic.Bool // stamp every task with its submitting thread
}

// WatchDevices hands w the devices open now and those that open or close
// from now on, and stamps tasks with their submitting thread; nil stops
// both.
func (r *Runtime) WatchDevices(w DeviceWatcher) {
	if w == nil {
		r.watch.w.Store(nil)
		r.watch.stampTID.Store(false)
		return
	}
	r.watch.stampTID.Store(true)
	r.mu.Lock()
	devs := append([]*Device(nil), r.devices...)
	r.mu.Unlock()
	for _, d := range devs {
		d.mu.Lock()
		if d.hd != nil && !d.dead {
			w.DeviceOpened(d.id, d.hd, d.props)
		}
		d.mu.Unlock()
	}
	r.watch.w.Store(&w)
}

// opened and closing tell the watcher, if any. d.mu held.
func (d *Device) opened() {
	if w := d.r.watch.w.Load(); w != nil {
		(*w).DeviceOpened(d.id, d.hd, d.props)
	}
}

func (d *Device) closing() {
	if w := d.r.watch.w.Load(); w != nil {
		(*w).DeviceClosing(d.id, d.hd)
	}
}

// stampThread gives t the calling OS thread while a profiler watches.
func (r *Runtime) stampThread(t *hal.Task) {
	if t.Thread == 0 && r.watch.stampTID.Load() {
		t.Thread = uint32(syscall.Gettid())
	}
}
