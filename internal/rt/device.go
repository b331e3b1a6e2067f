package rt

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// Device is one device of the runtime. It is open while aclrtSetDevice
// references or explicit contexts hold it; closing it frees its memory.
type Device struct {
	// Front holds the API layer's object for this one, set once.
	Front atomic.Value

	r     *Runtime
	b     hal.Backend
	id    int
	props hal.Props
	stack uint64 // AI core stack bytes per core
	// eventID numbers the device's events (aclrtGetEventId).
	eventID atomic.Uint32
	// satMode is the float overflow mode new streams take (overflow.go).
	satMode atomic.Int32
	// lastFault is the latest task fault since the device opened or its
	// tasks were last aborted (aclrtGetErrorVerbose).
	lastFault atomic.Pointer[hal.Fault]

	// mu guards the fields below.
	mu       sync.Mutex
	hd       hal.Device // nil while closed
	setRefs  int        // aclrtSetDevice minus aclrtResetDevice calls
	defCtx   *Context
	contexts map[*Context]struct{} // explicit contexts
	dead     bool                  // the runtime was finalized
	hwSync   lentArea              // aclrtGetHardwareSyncAddr's word (hwsync.go)
	overflow lentArea              // the overflow status area (overflow.go)

	res resLimits // core limits of the process (reslimit.go), until the device closes
	// group is 1 + the capability group set (coregroup.go), 0 for none,
	// until the device closes; defGroup is 1 + its default group's id.
	group    atomic.Uint32
	defGroup uint8
}

func (d *Device) ID() int          { return d.id }
func (d *Device) Props() hal.Props { return d.props }

// mallocPad is the tail CANN adds to every aclrtMalloc allocation ("aligned
// to 32 bytes and padded with 32 bytes").
const mallocPad = 32

// open brings the device up if it is closed. d.mu held.
func (d *Device) open() error {
	if d.dead {
		return d.errFinalized()
	}
	if d.hd != nil {
		return nil
	}
	hd, err := d.b.Open(d.id)
	if err != nil {
		return err
	}
	d.lastFault.Store(nil)
	hd.SetFaultHandler(func(f hal.Fault) {
		d.lastFault.Store(&f)
		d.r.reportFault(f)
	})
	// Each AI core gets its stack in device memory when the device is set:
	// exactly stack × cores, which aclrtGetMemInfo shows as used; it is the
	// runtime's, never the caller's (its tag is useNone). Device
	// allocations carry aclrtMalloc's 32-byte tail pad, so ask for that much
	// less; the stack is a multiple of 16 KiB, so no page rounding adds to it.
	stack := d.stack * uint64(d.props.AICores)
	if _, err := hd.Malloc(stack-mallocPad, hal.MemPolicy{Page: hal.PageNormalOnly}); err != nil {
		hd.Close()
		d.r.closed.refresh(d.b)
		return rterr.Wrap(rterr.KindOutOfMemory, err, "device %d: reserving %d bytes of AI core stack", d.id, stack)
	}
	d.hd = hd
	d.opened()
	d.applyTimeouts()
	d.contexts = make(map[*Context]struct{})
	d.r.closed.refresh(d.b)
	return nil
}

// errFinalized is the error of every call on a device of a finalized
// runtime: its handles are gone for good, whatever the device's state was.
func (d *Device) errFinalized() error {
	return rterr.Errorf(rterr.KindInvalidHandle, "device %d belongs to a finalized runtime", d.id)
}

// closeIfUnused closes the device once nothing references it. d.mu held.
func (d *Device) closeIfUnused() error {
	if d.hd == nil || d.setRefs > 0 || len(d.contexts) > 0 {
		return nil
	}
	d.r.ipc.closeDevice(d.id, d.hd)
	d.closing()
	err := d.hd.Close()
	d.hd = nil
	d.res.reset()
	d.group.Store(0)
	d.r.closed.refresh(d.b)
	d.r.managedGone()
	return err
}

// set is aclrtSetDevice: a reference, and the default context on the first.
func (d *Device) set() error {
	d.r.waitUnlocked()
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.open(); err != nil {
		return err
	}
	if d.defCtx == nil {
		c, err := d.newContext(true)
		if err != nil {
			d.closeIfUnused()
			return err
		}
		d.defCtx = c
	}
	d.setRefs++
	return nil
}

// Reset is aclrtResetDevice: drops a reference; the last one destroys the
// default context and its streams, after their tasks finish.
func (d *Device) Reset() error { return d.resetNotified(false, d.reset) }

func (d *Device) reset() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.dead {
		return d.errFinalized()
	}
	if d.setRefs == 0 {
		return rterr.Errorf(rterr.KindInvalidDevice, "device %d is not set: reset without a matching aclrtSetDevice", d.id)
	}
	d.setRefs--
	if d.setRefs > 0 {
		return nil
	}
	return d.release()
}

// ResetForce is aclrtResetDeviceForce: drops every reference at once.
func (d *Device) ResetForce() error { return d.resetNotified(true, d.resetForce) }

func (d *Device) resetForce() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.dead {
		return d.errFinalized()
	}
	if d.setRefs == 0 {
		return rterr.Errorf(rterr.KindInvalidDevice, "device %d is not set: already reset", d.id)
	}
	d.setRefs = 0
	return d.release()
}

// release destroys the default context and closes the device if unused.
// d.mu held.
func (d *Device) release() error {
	var first error
	if d.defCtx != nil {
		first = d.defCtx.teardown(true)
		d.defCtx = nil
	}
	if err := d.closeIfUnused(); err != nil && first == nil {
		first = err
	}
	return first
}

// shutdown ends everything on the device for Finalize: queued work that has
// not started is dropped.
func (d *Device) shutdown() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.defCtx != nil {
		d.defCtx.teardown(false)
		d.defCtx = nil
	}
	for c := range d.contexts {
		c.teardown(false)
	}
	d.contexts = nil
	d.setRefs = 0
	if d.hd != nil {
		d.closing()
		d.hd.Close()
		d.hd = nil
		d.r.closed.refresh(d.b)
	}
	d.dead = true
}

// IsSet reports whether aclrtSetDevice references the device.
func (d *Device) IsSet() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.setRefs > 0
}

// DefaultContext returns the default context, or an error if the device is
// not set.
func (d *Device) DefaultContext() (*Context, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.dead {
		return nil, d.errFinalized()
	}
	if d.defCtx == nil {
		return nil, rterr.Errorf(rterr.KindContextNull, "device %d is not set, so it has no default context; call aclrtSetDevice", d.id)
	}
	return d.defCtx, nil
}

// NewContext creates an explicit context (aclrtCreateContext); it keeps the
// device open until destroyed.
func (d *Device) NewContext() (*Context, error) {
	d.r.waitUnlocked()
	c, err := d.addContext()
	if err != nil {
		return nil, err
	}
	d.r.streamState(c.defStream, StreamCreatePost)
	return c, nil
}

func (d *Device) addContext() (*Context, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.open(); err != nil {
		return nil, err
	}
	c, err := d.newContext(false)
	if err != nil {
		d.closeIfUnused()
		return nil, err
	}
	d.contexts[c] = struct{}{}
	return c, nil
}

// forget removes a destroyed explicit context. d.mu held.
func (d *Device) forget(c *Context) error {
	delete(d.contexts, c)
	return d.closeIfUnused()
}

// contextsLocked lists the device's live contexts. d.mu held.
func (d *Device) contextsLocked() []*Context {
	var cs []*Context
	if d.defCtx != nil {
		cs = append(cs, d.defCtx)
	}
	for c := range d.contexts {
		cs = append(cs, c)
	}
	return cs
}

// Synchronize waits for every stream on the device (aclrtSynchronizeDevice)
// and reports the first fault not yet reported.
func (d *Device) Synchronize(ctx context.Context, timeout time.Duration) error {
	d.mu.Lock()
	if d.dead {
		d.mu.Unlock()
		return d.errFinalized()
	}
	cs := d.contextsLocked()
	d.mu.Unlock()
	if len(cs) == 0 {
		return rterr.Errorf(rterr.KindContextNull, "device %d has no context; call aclrtSetDevice", d.id)
	}
	var deadline time.Time
	if timeout > 0 {
		deadline = time.Now().Add(timeout)
	}
	var first error
	for _, c := range cs {
		if err := c.syncStreams(ctx, timeout, deadline); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// hal returns the open device, or an error.
func (d *Device) halDevice() (hal.Device, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.dead {
		return nil, d.errFinalized()
	}
	if d.hd == nil {
		return nil, rterr.Errorf(rterr.KindInvalidDevice, "device %d is not open; call aclrtSetDevice", d.id)
	}
	return d.hd, nil
}

// MemInfo reports free and total device memory (aclrtGetMemInfo).
func (d *Device) MemInfo() (free, total uint64, err error) {
	hd, err := d.halDevice()
	if err != nil {
		return 0, 0, err
	}
	free, total = hd.MemInfo()
	return free, total, nil
}

// HAL returns the open hal device for diagnosis (trace, sharing).
func (d *Device) HAL() (hal.Device, error) { return d.halDevice() }

// StreamsAvailable is how many more streams the device's pool can give
// (aclrtGetStreamAvailableNum): its limit less the streams of its contexts,
// default streams included, and the streams models hold.
func (d *Device) StreamsAvailable() (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.dead || d.hd == nil {
		return 0, rterr.Errorf(rterr.KindInvalidDevice, "device %d is not set", d.id)
	}
	used := 0
	for _, c := range d.contextsLocked() {
		c.mu.Lock()
		if c.defStream != nil {
			used++
		}
		used += len(c.streams)
		models := make([]*Model, 0, len(c.models))
		for m := range c.models {
			models = append(models, m)
		}
		c.mu.Unlock()
		for _, m := range models {
			m.mu.Lock()
			used += len(m.queues)
			for _, sub := range m.subs {
				sub.mu.Lock()
				used += len(sub.queues)
				sub.mu.Unlock()
			}
			m.mu.Unlock()
		}
	}
	return max(0, d.props.StreamLimit-used), nil
}
