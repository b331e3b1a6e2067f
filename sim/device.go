package sim

import (
	"fmt"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/gocann/gocann/hal"
)

// device is one opened simulated device.
type device struct {
	b            *Backend
	id           int
	props        hal.Props
	clock        func() int64
	mem          *devMem
	kmem         blockMem // what kernel blocks see: mem and mapped host ranges
	s            *scheduler
	faultHandler atomic.Pointer[func(hal.Fault)]
	closed       atomic.Bool
}

var (
	_ hal.Device = (*device)(nil)
	_ hal.Tracer = (*device)(nil)
	_ hal.Sharer = (*device)(nil)
)

func (d *device) ID() int          { return d.id }
func (d *device) Props() hal.Props { return d.props }
func (d *device) Now() int64       { return d.clock() }

// The memory calls of a closed handle reach nothing: the device's next
// opening has the same memory, which is not this handle's.

func (d *device) errClosed() error {
	return hal.Errorf(hal.KindInvalidDevice, "device %d handle is closed", d.id)
}

func (d *device) Malloc(size uint64, p hal.MemPolicy) (hal.Allocation, error) {
	if d.closed.Load() {
		return hal.Allocation{}, d.errClosed()
	}
	return d.mem.malloc(size, p)
}

func (d *device) Free(addr uint64, tag uint8) error {
	if d.closed.Load() {
		return d.errClosed()
	}
	return d.mem.free(addr, tag)
}

func (d *device) Lookup(addr uint64) (hal.Allocation, bool) {
	if d.closed.Load() {
		return hal.Allocation{}, false
	}
	return d.mem.lookup(addr)
}

func (d *device) MemInfo() (free, total uint64) {
	if d.closed.Load() {
		return 0, d.mem.hbm
	}
	return d.mem.info()
}

func (d *device) Pointer(addr, n uint64) (unsafe.Pointer, error) {
	if d.closed.Load() {
		return nil, d.errClosed()
	}
	return d.mem.pointer(addr, n)
}

func (d *device) Share(addr uint64) (string, int64, error) {
	if d.closed.Load() {
		return "", 0, d.errClosed()
	}
	return d.mem.share(addr)
}

func (d *device) NewQueue(cfg hal.QueueConfig) (hal.Queue, error) { return d.s.newQueue(cfg) }

func (d *device) NewEvent(cfg hal.EventConfig) (hal.Event, error) { return d.s.newEvent(cfg) }

func (d *device) NewNotify() (hal.Notify, error) { return d.s.newNotify() }

func (d *device) EventsInUse() int {
	d.s.mu.Lock()
	defer d.s.mu.Unlock()
	return d.s.events
}

func (d *device) SetFaultHandler(fn func(hal.Fault)) {
	if fn == nil {
		d.faultHandler.Store(nil)
		return
	}
	d.faultHandler.Store(&fn)
}

func (d *device) Trace(buf []hal.Record) []hal.Record {
	d.s.mu.Lock()
	defer d.s.mu.Unlock()
	return d.s.trace.appendTo(buf)
}

// Run executes a transfer synchronously. Small ones run on the caller; large
// ones are split, the caller taking parts alongside the DMA workers.
func (d *device) Run(t hal.Task) error {
	if d.closed.Load() {
		return d.errClosed()
	}
	switch t.Kind {
	case hal.TaskCopy, hal.TaskCopy2D, hal.TaskMemset, hal.TaskCopyBatch, hal.TaskCopyIndirect, hal.TaskReduce, hal.TaskRandom:
	default:
		return hal.Errorf(hal.KindInvalidParam, "task kind %s cannot run synchronously", t.Kind)
	}
	parts := partsOf(&t, d.s.engines[hal.EngineDMA].maxWorkers)
	if parts <= 1 {
		return d.b.transfer(&t, 0, 1) // t stays on the stack
	}
	return d.runParts(t, parts)
}

// runParts runs a synchronous transfer in parts the DMA workers share.
func (d *device) runParts(t hal.Task, parts int32) error {
	e := d.s.engines[hal.EngineDMA]
	it := &item{t: &t, prio: -1 << 30, parts: parts, wake: make(chan struct{}), hidx: -1}
	s := d.s
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return hal.Errorf(hal.KindInvalidDevice, "device %d is closed", d.id)
	}
	it.ticket = s.ticket
	s.ticket++
	e.push(it)
	var err error
	for {
		if it.next == it.parts {
			s.mu.Unlock()
			break
		}
		p := e.takeFrom(it, 0)
		s.mu.Unlock()
		if perr := d.b.transfer(&t, p, parts); perr != nil && err == nil {
			err = perr
		}
		if it.done.Add(1) == parts {
			close(it.wake)
		}
		s.mu.Lock()
	}
	<-it.wake
	if err == nil {
		if f := it.fault.Load(); f != nil {
			err = &hal.Error{Kind: f.Kind, Msg: f.Msg, Err: f.Err}
		}
	}
	return err
}

// Close stops the engines and releases memory. Queues should be closed
// first; tasks still queued are dropped.
func (d *device) Close() error {
	if d.closed.Swap(true) {
		return hal.Errorf(hal.KindInvalidDevice, "device %d is already closed", d.id)
	}
	s := d.s
	s.closing.Store(true)
	s.mu.Lock()
	s.closed = true
	for _, q := range s.queues {
		q.completed.interrupt() // waiters see the device closed
	}
	for _, e := range s.engines[1:] {
		for _, w := range e.idle {
			w.wake <- struct{}{}
		}
		e.idle = nil
		if e.gang != nil {
			e.dropGang(e.gang)
		}
	}
	s.mu.Unlock()
	s.wakePoller()
	s.wakeWatcher()
	d.b.detach(d)
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
		d.b.vm.deviceClosed(d.id)
		return d.mem.close()
	case <-time.After(closeGrace):
		// A kernel or host function never returned. Its memory stays mapped
		// so it cannot crash the process; the mapping leaks.
		d.b.cfg.Logger.Warn("device closed with tasks still running; device memory left mapped", "device", d.id)
		return hal.Errorf(hal.KindNotReady, "device %d: tasks still running %v after close", d.id, closeGrace)
	}
}

// closeGrace bounds how long Close waits for running tasks.
const closeGrace = 5 * time.Second

func (d *device) String() string { return fmt.Sprintf("device %d (%s)", d.id, d.props.SoCName) }
