package rt

import (
	"slices"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/gocann/gocann/hal"
)

// Profilers watch the devices as they open and close, and have each task
// stamped with the OS thread that submitted it, so a timeline can tie the
// task to the host call that queued it. A profiling session and the model
// subscriptions watch at once, each reading the device traces on its own.

// DeviceWatcher learns of devices opening and closing. Its methods run
// with the device's lock held: they must not call back into the device.
type DeviceWatcher interface {
	DeviceOpened(id int, hd hal.Device, p hal.Props)
	DeviceClosing(id int, hd hal.Device)
}

type watchers struct {
	// mu serializes changes of list; readers load it without a lock.
	mu       sync.Mutex
	list     atomic.Pointer[[]DeviceWatcher]
	stampTID atomic.Bool // stamp every task with its submitting thread
}

// WatchDevices hands w the devices open now and those that open or close
// from now on, until UnwatchDevices; tasks are stamped with their
// submitting thread while any watcher watches.
func (r *Runtime) WatchDevices(w DeviceWatcher) {
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
	r.watch.mu.Lock()
	defer r.watch.mu.Unlock()
	var list []DeviceWatcher
	if p := r.watch.list.Load(); p != nil {
		list = slices.Clone(*p)
	}
	list = append(list, w)
	r.watch.list.Store(&list)
}

// UnwatchDevices stops telling w; the last watcher gone, tasks are no
// longer stamped.
func (r *Runtime) UnwatchDevices(w DeviceWatcher) {
	r.watch.mu.Lock()
	defer r.watch.mu.Unlock()
	p := r.watch.list.Load()
	if p == nil {
		return
	}
	list := slices.DeleteFunc(slices.Clone(*p), func(x DeviceWatcher) bool { return x == w })
	if len(list) == 0 {
		r.watch.list.Store(nil)
		r.watch.stampTID.Store(false)
		return
	}
	r.watch.list.Store(&list)
}

// opened and closing tell the watchers, if any. d.mu held.
func (d *Device) opened() {
	if p := d.r.watch.list.Load(); p != nil {
		for _, w := range *p {
			w.DeviceOpened(d.id, d.hd, d.props)
		}
	}
}

func (d *Device) closing() {
	if p := d.r.watch.list.Load(); p != nil {
		for _, w := range *p {
			w.DeviceClosing(d.id, d.hd)
		}
	}
}

// stampThread gives t the calling OS thread while a profiler watches.
func (r *Runtime) stampThread(t *hal.Task) {
	if t.Thread == 0 && r.watch.stampTID.Load() {
		t.Thread = uint32(syscall.Gettid())
	}
}
