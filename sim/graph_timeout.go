package sim

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/gocann/gocann/hal"
)

// Execute timeouts of the kernels a graph runs. A model stream runs its
// kernels in place, not as queue heads, so each stream of a run publishes
// the kernel it runs (graphKernel) and the watcher looks at the runs in
// progress (scheduler.graphRuns) besides the queues. A kernel past its
// timeout fails the task running the model at the deadline, as a queue's
// kernel fails its own task: the fault is reported then, and a
// STOP_ON_FAILURE queue's group stops then. The kernel's blocks run on
// until they return and the model's stream then goes on, as it does after
// any failed operation; nothing else the run does is reported, the task
// having failed already. A batch of one-block C kernels (runBatch) is one
// call the watcher cannot see into, so its kernels are not timed.

// graphKernel is the kernel a stream of a run is running: start is its
// start on the device clock, 0 while none runs; pc is its operation,
// stored before start. expired is the start of the kernel that timed out,
// which only the watcher touches (under s.mu).
type graphKernel struct {
	start   atomic.Int64
	pc      atomic.Int64
	expired int64
}

// resetKernels returns n cleared kernel slots, reusing ks if big enough.
func resetKernels(ks []graphKernel, n int) []graphKernel {
	if cap(ks) < n {
		return make([]graphKernel, n)
	}
	ks = ks[:n]
	for i := range ks {
		ks[i].start.Store(0)
		ks[i].pc.Store(0)
		ks[i].expired = 0
	}
	return ks
}

// kernelStart publishes that stream si runs the kernel at operation pc,
// waking a parked watcher.
func (r *graphRun) kernelStart(si, pc int) {
	k := &r.kern[si]
	k.pc.Store(int64(pc))
	k.start.Store(max(r.s.clock(), 1))
	if r.s.watchParked.CompareAndSwap(true, false) {
		r.s.wakeWatcher()
	}
}

// kernelEnd publishes that stream si's kernel returned.
func (r *graphRun) kernelEnd(si int) { r.kern[si].start.Store(0) }

// watch makes r's kernels visible to the watcher until unwatch.
func (r *graphRun) watch() {
	s := r.s
	s.mu.Lock()
	s.graphRuns = append(s.graphRuns, r)
	s.mu.Unlock()
}

func (r *graphRun) unwatch() {
	s := r.s
	s.mu.Lock()
	for i, o := range s.graphRuns {
		if o == r {
			last := len(s.graphRuns) - 1
			s.graphRuns[i], s.graphRuns[last] = s.graphRuns[last], nil
			s.graphRuns = s.graphRuns[:last]
			break
		}
	}
	s.mu.Unlock()
}

// checkGraphKernels is checkKernels for the kernels of the graph runs in
// progress. s.mu must be held.
func (s *scheduler) checkGraphKernels(now int64) (next time.Duration, running bool) {
	next = s.dev.props.OpTimeoutInterval
	for _, r := range s.graphRuns {
		top := r.top
		if top == nil || top.q == nil {
			continue
		}
		sl := top.q.slot(top.seq)
		for si := range r.kern {
			k := &r.kern[si]
			start := k.start.Load()
			if start == 0 {
				continue
			}
			running = true
			pc := int(k.pc.Load())
			ops := r.g.Streams[si].Ops()
			if k.start.Load() != start || k.expired == start || sl.timedOut || pc >= len(ops) {
				continue // changed while read (look again next time), or failed already
			}
			t := &ops[pc].Task
			timeout := s.timeoutOf(t)
			if timeout == 0 {
				continue
			}
			left := time.Duration(start + int64(timeout) - now)
			if left > 0 {
				next = min(next, left)
				continue
			}
			k.expired = start
			sl.timedOut = true // finish reports nothing more of the task
			name := ""
			if t.Kernel != nil {
				name = t.Kernel.Name
			}
			f := r.opFault(si, pc, t, hal.KindAICoreTimeout,
				fmt.Sprintf("kernel %q ran past its execute timeout of %v; its blocks run on until they return", name, timeout), nil)
			if !top.fault.CompareAndSwap(nil, f) {
				f = top.fault.Load() // the run's first fault is the task's
			}
			s.recordFault(top.q, f)
		}
	}
	return next, running
}
