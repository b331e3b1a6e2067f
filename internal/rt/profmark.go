package rt

import (
	"sync/atomic"
	"syscall"

	"github.com/gocann/gocann/hal"
)

// What profilers follow besides the devices: marks, which are tasks of
// their own on a stream that a profiler names by stream and sequence
// number, and model runs, whose operations a model subscription reads from
// the device's trace by the run's stream and sequence number.

// Mark queues a mark on s: an ordering task that changes nothing, as a
// cache operation over no memory is, so it runs when s reaches it. It
// returns the task's sequence number, or 0 when s is capturing or bound
// to a model, where the mark becomes a task of the model.
func (s *Stream) Mark(site uintptr) (uint64, error) {
	if err := s.usable(); err != nil {
		return 0, err
	}
	return s.submit(&hal.Task{Kind: hal.TaskCmo, Value: hal.CmoPrefetch, Site: site})
}

// ModelRun is one run of a model queued on a stream: the model task is
// task Seq of queue Queue of device Device, queued by OS thread Thread.
type ModelRun struct {
	Model  uint32
	Device int
	Queue  int32
	Seq    uint64
	Thread uint32
}

// runWatch is the function told of model runs, if any.
type runWatch struct {
	fn atomic.Pointer[func(ModelRun)]
}

// WatchModelRuns has fn told of every model run queued from now on; nil
// stops. fn runs with the model's lock held: it must not call into the
// model.
func (r *Runtime) WatchModelRuns(fn func(ModelRun)) {
	if fn == nil {
		r.runs.fn.Store(nil)
		return
	}
	r.runs.fn.Store(&fn)
}

// tellRun tells the watcher of run seq of m on s. m.mu held.
func (m *Model) tellRun(s *Stream, seq uint64) {
	if fn := m.c.d.r.runs.fn.Load(); fn != nil {
		(*fn)(ModelRun{Model: m.id, Device: m.c.d.id, Queue: s.id, Seq: seq, Thread: uint32(syscall.Gettid())})
	}
}

// LookupModel returns the live model (captured or built; not a branch)
// whose id is id.
func (r *Runtime) LookupModel(id uint32) (*Model, bool) {
	v, ok := r.models.Load(id)
	if !ok {
		return nil, false
	}
	return v.(*Model), true
}
