package rt

import (
	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// StreamState is a point in a stream's life the stream state hook hears
// of (aclrtStreamState).
type StreamState int

const (
	StreamCreatePost StreamState = 1 // after the stream was created
	StreamDestroyPre StreamState = 2 // before it is destroyed
)

// SetStreamStateHook installs the function told of stream creations and
// destructions, explicit and default streams alike; it is called on the
// goroutine creating or destroying, with no lock of the runtime held.
// Finalize destroys streams without telling it, as CANN's runtime does
// once the process exits.
func (r *Runtime) SetStreamStateHook(fn func(*Stream, StreamState)) {
	if fn == nil {
		r.streamHook.Store(nil)
		return
	}
	r.streamHook.Store(&fn)
}

func (r *Runtime) streamState(s *Stream, st StreamState) {
	if h := r.streamHook.Load(); h != nil {
		(*h)(s, st)
	}
}

// contextState tells the hook of every stream of c: the default stream
// first, as c comes and goes with it.
func (c *Context) contextState(st StreamState) {
	if c.d.r.streamHook.Load() == nil {
		return
	}
	for _, s := range c.liveStreams() {
		c.d.r.streamState(s, st)
	}
}

// Stop is aclrtStreamStop: the stream starts no further task, and its
// running kernel no further block, until Abort drops what is queued.
// Default streams and streams bound to a model are refused, as CANN
// documents.
func (s *Stream) Stop() error {
	if err := s.check(); err != nil {
		return err
	}
	if s.isDefault {
		return rterr.Errorf(rterr.KindInvalidParam, "stream %d is a default stream, which cannot be stopped", s.id)
	}
	if d := s.divert.Load(); d != nil && d.capture == nil && d.update == nil {
		return rterr.Errorf(rterr.KindInvalidParam, "stream %d is bound to model %d; stopping bound streams is not supported", s.id, d.ms.m.id)
	}
	st, ok := s.q.(hal.Stopper)
	if !ok {
		return rterr.Errorf(rterr.KindNotSupported, "the device cannot stop a stream from the host")
	}
	return st.Stop()
}
