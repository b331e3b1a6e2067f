package rt

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// Context is a CANN context: a device's streams, events and notifies. Each
// has a default stream. Failure mode is per context: STOP_ON_FAILURE on one
// stream applies to all of them.
type Context struct {
	// Front holds the API layer's object for this one, set once.
	Front atomic.Value

	d         *Device
	hd        hal.Device
	id        uint64 // also the hal queue group, so a fault stops the whole context
	isDefault bool
	dead      atomic.Bool
	sys       sysParams // aclrtCtxSetSysParamOpt's values

	// mu guards the fields below.
	mu        sync.Mutex
	defStream *Stream
	streams   map[*Stream]struct{} // explicit streams
	events    map[*Event]struct{}
	notifies  map[*Notify]struct{}
	models    map[*Model]struct{}  // captured and built models, not branches
	draining  map[*Stream]struct{} // force-destroyed streams whose tasks still run
	stopMode  bool

	drains sync.WaitGroup // the goroutines closing draining streams' queues
}

// newContext creates a context with its default stream. d.mu held, d open.
func (d *Device) newContext(isDefault bool) (*Context, error) {
	c := &Context{d: d, hd: d.hd, id: d.r.nextCtxID.Add(1), isDefault: isDefault,
		streams: make(map[*Stream]struct{}), events: make(map[*Event]struct{}), notifies: make(map[*Notify]struct{}),
		models: make(map[*Model]struct{}), draining: make(map[*Stream]struct{})}
	s, err := c.newStream(StreamConfig{Priority: d.props.GreatestPriority}, true)
	if err != nil {
		return nil, err
	}
	c.defStream = s
	return c, nil
}

func (c *Context) Device() *Device { return c.d }
func (c *Context) ID() uint64      { return c.id }
func (c *Context) IsDefault() bool { return c.isDefault }

// check returns an error if c was destroyed.
func (c *Context) check() error {
	if c.dead.Load() {
		return rterr.Errorf(rterr.KindInvalidHandle, "context %d was destroyed", c.id)
	}
	return nil
}

// DefaultStream returns the context's default stream.
func (c *Context) DefaultStream() (*Stream, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	return c.defStream, nil
}

// Destroy destroys an explicit context (aclrtDestroyContext), waiting for
// its streams' tasks first.
func (c *Context) Destroy() error {
	c.d.r.waitUnlocked()
	if c.isDefault {
		return rterr.Errorf(rterr.KindInvalidParam, "context %d is a default context; it ends with aclrtResetDevice, not aclrtDestroyContext", c.id)
	}
	d := c.d
	if !c.dead.Load() {
		c.contextState(StreamDestroyPre)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, ok := d.contexts[c]; !ok || c.dead.Load() {
		return rterr.Errorf(rterr.KindInvalidHandle, "context %d was already destroyed", c.id)
	}
	err := c.teardown(true)
	if ferr := d.forget(c); err == nil {
		err = ferr
	}
	return err
}

// teardown destroys every stream, event and notify of c. With wait, pending
// tasks finish first; otherwise tasks not started are dropped. d.mu held.
func (c *Context) teardown(wait bool) error {
	if c.dead.Swap(true) {
		return nil
	}
	c.mu.Lock()
	streams := make([]*Stream, 0, len(c.streams)+1)
	for s := range c.streams {
		streams = append(streams, s)
	}
	streams = append(streams, c.defStream)
	events, notifies, models := c.events, c.notifies, c.models
	c.streams, c.events, c.notifies, c.models = nil, nil, nil, nil
	c.mu.Unlock()
	var first error
	for _, s := range streams {
		if err := s.release(wait); err != nil && first == nil {
			first = err
		}
	}
	if wait {
		// A force-destroyed stream's tasks are the context's too: a reset
		// waits for them, as for the others.
		c.drains.Wait()
	}
	for m := range models {
		if err := m.release(); err != nil && first == nil {
			first = err
		}
	}
	for e := range events {
		e.release()
	}
	for n := range notifies {
		n.release()
	}
	return first
}

// Streams lists the context's streams, the default stream first.
func (c *Context) Streams() []*Stream {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.defStream == nil {
		return nil
	}
	out := []*Stream{c.defStream}
	for s := range c.streams {
		out = append(out, s)
	}
	return out
}

// syncStreams waits for every stream of c, by deadline if set.
func (c *Context) syncStreams(ctx context.Context, timeout time.Duration, deadline time.Time) error {
	streams := c.Streams()
	for _, s := range streams {
		if cp := s.Capture(); cp != nil {
			return refuseInCapture(cp, "synchronizing a device or context with a capturing stream")
		}
	}
	var first error
	for _, s := range append(streams, c.drainingStreams()...) {
		t := timeout
		if !deadline.IsZero() {
			t = time.Until(deadline)
			if t <= 0 {
				t = -1
			}
		}
		if err := s.syncOrDrain(ctx, t); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Synchronize waits for every stream of the context.
func (c *Context) Synchronize(ctx context.Context, timeout time.Duration) error {
	if err := c.check(); err != nil {
		return err
	}
	var deadline time.Time
	if timeout > 0 {
		deadline = time.Now().Add(timeout)
	}
	return c.syncStreams(ctx, timeout, deadline)
}

// setStopMode switches the whole context to STOP_ON_FAILURE.
func (c *Context) setStopMode(stop bool) {
	c.mu.Lock()
	c.stopMode = stop
	streams := []*Stream{c.defStream}
	for s := range c.streams {
		streams = append(streams, s)
	}
	c.mu.Unlock()
	for _, s := range streams {
		s.q.SetStopOnFailure(stop)
	}
}

// StopOnFailure reports the context's failure mode.
func (c *Context) StopOnFailure() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stopMode
}
