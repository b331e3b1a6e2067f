package gocann

import (
	"context"
	"time"

	"github.com/gocann/gocann/internal/rt"
)

// Context is a CANN context: a set of streams, events and notifies on one
// device. The Go API passes contexts explicitly; there is no current
// context. Keep the *Context where C code would call aclrtSetCurrentContext.
type Context struct {
	r *Runtime
	c *rt.Context
}

// context returns the one *Context for c.
func (r *Runtime) context(c *rt.Context) *Context {
	if f, ok := c.Front.Load().(*Context); ok {
		return f
	}
	c.Front.CompareAndSwap(nil, &Context{r: r, c: c})
	return c.Front.Load().(*Context)
}

// Device is the context's device.
//
// CANN: none.
func (c *Context) Device() *Device {
	d, _ := c.r.device(c.c.Device().ID())
	return d
}

// IsDefault reports whether this is a device's default context.
//
// CANN: none.
func (c *Context) IsDefault() bool { return c.c.IsDefault() }

// DefaultStream returns the context's default stream, which C code reaches
// by passing a NULL stream.
//
// CANN: aclrtCtxGetCurrentDefaultStream.
func (c *Context) DefaultStream() (*Stream, error) {
	if err := c.r.require("aclrtCtxGetCurrentDefaultStream"); err != nil {
		return nil, err
	}
	s, err := c.c.DefaultStream()
	if err != nil {
		return nil, wrap("Context.DefaultStream (aclrtCtxGetCurrentDefaultStream)", err)
	}
	return c.r.stream(s), nil
}

// Close destroys an explicit context after its streams' tasks finish,
// with its streams, events and notifies.
//
// CANN: aclrtDestroyContext.
func (c *Context) Close() error {
	return wrap("Context.Close (aclrtDestroyContext)", c.c.Destroy())
}

// Synchronize waits for every stream of the context and reports the first
// task fault not reported before.
//
// CANN: aclrtSynchronizeDevice (streams of one context).
func (c *Context) Synchronize(ctx context.Context) error {
	if err := c.r.require("aclrtSynchronizeDevice"); err != nil {
		return err
	}
	return wrap("Context.Synchronize", c.c.Synchronize(ctx, 0))
}

// SynchronizeTimeout is Synchronize bounded by timeout (0: no bound).
//
// CANN: aclrtSynchronizeDeviceWithTimeout (streams of one context).
func (c *Context) SynchronizeTimeout(timeout time.Duration) error {
	if err := c.r.require("aclrtSynchronizeDeviceWithTimeout"); err != nil {
		return err
	}
	return wrap("Context.SynchronizeTimeout", c.c.Synchronize(context.Background(), timeout))
}

// StreamOption configures NewStream; WithPriority and WithStreamFlags make
// them.
type StreamOption struct {
	apply func(*rt.StreamConfig)
}

// WithPriority sets a stream's priority; out-of-range values are clamped
// to Device.StreamPriorityRange, as CANN does.
//
// CANN: aclrtCreateStreamWithConfig (priority).
func WithPriority(p int) StreamOption {
	return StreamOption{func(c *rt.StreamConfig) { c.Priority = p }}
}

// StreamFlags are stream creation flags (ACL_STREAM_*).
type StreamFlags uint32

const (
	StreamFastLaunch StreamFlags = StreamFlags(rt.StreamFastLaunch) // ACL_STREAM_FAST_LAUNCH
	StreamFastSync   StreamFlags = StreamFlags(rt.StreamFastSync)   // ACL_STREAM_FAST_SYNC
	StreamHuge       StreamFlags = StreamFlags(rt.StreamHuge)       // ACL_STREAM_HUGE
	StreamPersistent StreamFlags = StreamFlags(rt.StreamPersistent) // ACL_STREAM_PERSISTENT: tasks are kept for the model it is bound to (ModelRI.Bind)
)

// WithStreamFlags sets stream creation flags.
//
// CANN: aclrtCreateStreamWithConfig (flag).
func WithStreamFlags(f StreamFlags) StreamOption {
	return StreamOption{func(c *rt.StreamConfig) { c.Flags = uint32(f) }}
}

// NewStream creates a stream in the context. The default priority is the
// greatest (most urgent), as for aclrtCreateStream.
//
// CANN: aclrtCreateStreamWithConfig.
func (c *Context) NewStream(opts ...StreamOption) (*Stream, error) {
	if err := c.r.require("aclrtCreateStreamWithConfig"); err != nil {
		return nil, err
	}
	return c.newStream("Context.NewStream (aclrtCreateStreamWithConfig)", opts)
}

// NewStream is Context.NewStream without the support check, for a caller
// that checks the call it serves: the C ABI's aclrtCreateStream,
// aclrtCreateStreamWithConfig and aclrtCreateStreamV2 (the one form IPV350
// offers) all make their streams with it.
//
// CANN: none (the stream of the aclrtCreateStream forms).
func (x RawContext) NewStream(opts ...StreamOption) (*Stream, error) {
	return x.c.newStream("RawContext.NewStream", opts)
}

func (c *Context) newStream(op string, opts []StreamOption) (*Stream, error) {
	cfg := rt.StreamConfig{Priority: c.c.Device().Props().GreatestPriority}
	for _, o := range opts {
		if o.apply != nil {
			o.apply(&cfg)
		}
	}
	s, err := c.c.NewStream(cfg)
	if err != nil {
		return nil, wrap(op, err)
	}
	return c.r.stream(s), nil
}
