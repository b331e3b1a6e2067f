package rt

import (
	"context"
	"sync"
	"time"

	"github.com/gocann/gocann/internal/rterr"
)

// Host-function threads (aclrtSubscribeHostFunc): a thread of the caller's,
// named by an id, that runs the host functions launched on the streams
// subscribed to it, one per aclrtProcessHostFunc. A host function on such a
// stream holds the stream until its thread has run it.

// hostThread is a subscribed host-function thread.
type hostThread struct {
	id      uint64
	jobs    chan hostJob
	dev     *Device // device of its streams
	streams int
}

// hostJob is one host function handed to a thread.
type hostJob struct {
	run  func()
	done chan struct{}
}

// hostThreads are a runtime's host-function threads.
type hostThreads struct {
	// mu guards the maps.
	mu      sync.Mutex
	threads map[uint64]*hostThread
	streams map[*Stream]*hostThread
}

// hostJobQueue bounds the host functions waiting for their thread.
const hostJobQueue = 4096

// SubscribeHostFunc makes thread id run s's host functions
// (aclrtSubscribeHostFunc). A thread serves streams of one device; a
// stream has one thread.
func (r *Runtime) SubscribeHostFunc(id uint64, s *Stream) error {
	if err := s.check(); err != nil {
		return err
	}
	h := &r.hostFns
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.threads == nil {
		h.threads = map[uint64]*hostThread{}
		h.streams = map[*Stream]*hostThread{}
	}
	if th := h.streams[s]; th != nil {
		return rterr.Errorf(rterr.KindRepeatSubscribe, "stream %d is already subscribed to host-function thread %#x; a stream has one", s.id, th.id)
	}
	th := h.threads[id]
	if th == nil {
		th = &hostThread{id: id, jobs: make(chan hostJob, hostJobQueue)}
		h.threads[id] = th
	}
	if th.streams > 0 && th.dev != s.c.d {
		return rterr.Errorf(rterr.KindInvalidParam, "host-function thread %#x serves streams of device %d; stream %d is on device %d", id, th.dev.id, s.id, s.c.d.id)
	}
	th.dev = s.c.d
	th.streams++
	h.streams[s] = th
	return nil
}

// UnsubscribeHostFunc ends thread id's service of s
// (aclrtUnSubscribeHostFunc); host functions already handed over still
// wait for it.
func (r *Runtime) UnsubscribeHostFunc(id uint64, s *Stream) error {
	h := &r.hostFns
	h.mu.Lock()
	defer h.mu.Unlock()
	th := h.streams[s]
	if th == nil || th.id != id {
		return rterr.Errorf(rterr.KindNotSubscribed, "stream %d is not subscribed to host-function thread %#x", s.id, id)
	}
	delete(h.streams, s)
	th.streams--
	return nil
}

// ProcessHostFunc runs one host function handed to thread id, waiting up to
// timeout for one (< 0: forever) (aclrtProcessHostFunc).
func (r *Runtime) ProcessHostFunc(ctx context.Context, id uint64, timeout time.Duration) error {
	if timeout == 0 {
		return rterr.Errorf(rterr.KindInvalidParam, "timeout 0 is invalid, expected -1 (forever) or milliseconds > 0")
	}
	h := &r.hostFns
	h.mu.Lock()
	th := h.threads[id]
	h.mu.Unlock()
	if th == nil {
		return rterr.Errorf(rterr.KindThreadNotSubscribed, "thread %#x is not a host-function thread; call aclrtSubscribeHostFunc with its id", id)
	}
	var expire <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		expire = t.C
	}
	select {
	case j := <-th.jobs:
		defer close(j.done)
		j.run()
		return nil
	case <-expire:
		return rterr.Errorf(rterr.KindReportTimeout, "no host function arrived within %v", timeout)
	case <-ctx.Done():
		return rterr.Wrap(rterr.KindReportTimeout, ctx.Err(), "waiting for a host function")
	}
}

// hostThreadOf is the thread serving s's host functions, or nil.
func (r *Runtime) hostThreadOf(s *Stream) *hostThread {
	h := &r.hostFns
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.streams[s]
}

// viaThread wraps fn to run in th: the stream task hands it over and holds
// the stream until it ran.
func (th *hostThread) viaThread(fn func()) func() {
	return func() {
		j := hostJob{run: fn, done: make(chan struct{})}
		th.jobs <- j
		<-j.done
	}
}
