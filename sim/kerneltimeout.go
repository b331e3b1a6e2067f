package sim

import (
	"fmt"
	"math"
	"time"

	"github.com/gocann/gocann/hal"
)

// Kernel execute timeouts. Hardware stops a kernel that runs past its
// timeout; a CPU cannot stop the goroutine running a block. So the fault is
// raised at the deadline — reported to the fault handler, kept for the
// queue's next wait, and a STOP_ON_FAILURE queue's group stops then — while
// the blocks run on: their workers stay busy, the queue's later tasks wait
// for them (nothing runs beside them on that queue), and a fault they raise
// afterwards is not reported again, the task having failed already.
//
// One watcher goroutine per device looks at the running kernels. It parks
// while none runs and the first kernel to start wakes it (engine.takeFrom,
// or graphRun.kernelStart for a model's kernel: graph_timeout.go), so a
// launch pays one test of a flag. Awake, it sleeps until the earliest
// deadline, at most one tick of the chip's interval: a kernel starting
// meanwhile has a timeout of a tick at least, so none is found late.

var _ hal.KernelTimeouter = (*device)(nil)

// watchMin bounds how often the watcher looks while kernels run.
const watchMin = 50 * time.Microsecond

// chainShift packs a chain's running kernel into item.chain: its start
// time above, its offset from the item's own task below.
const chainShift = 5

func (d *device) SetKernelTimeout(timeout time.Duration) {
	s := d.s
	s.mu.Lock()
	s.kernelTimeout = max(timeout, 0)
	s.mu.Unlock()
	s.wakeWatcher() // a shorter timeout may be due sooner
}

// wakeWatcher makes the watcher look now.
func (s *scheduler) wakeWatcher() {
	select {
	case s.watch <- struct{}{}:
	default:
	}
}

// kernelStarted wakes a parked watcher as a kernel starts. s.mu must be held.
func (s *scheduler) kernelStarted() {
	if s.watchParked.CompareAndSwap(true, false) {
		s.wakeWatcher()
	}
}

func (s *scheduler) watcher() {
	defer s.wg.Done()
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	ran := false // a kernel ran at the last look
	for {
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			return
		}
		next, running := s.checkKernels(s.clock())
		// Park only after a look finding none, a tick after the last
		// kernel: back-to-back kernels then do not wake the watcher each.
		park := !running && !ran
		ran = running
		s.watchParked.Store(park)
		faults := s.takeFaults()
		s.mu.Unlock()
		s.report(faults)
		if park {
			<-s.watch
			continue
		}
		timer.Reset(next)
		select {
		case <-s.watch:
			timer.Stop()
		case <-timer.C:
		}
	}
}

// checkKernels times out the running kernels past their deadline, and
// reports whether any kernel runs and how long until the next deadline
// (at most a tick). s.mu must be held.
func (s *scheduler) checkKernels(now int64) (next time.Duration, running bool) {
	next = s.dev.props.OpTimeoutInterval
	for _, q := range s.queues {
		it := &q.cur
		if q.state != qRunning || it.t == nil || it.t.Kind != hal.TaskKernel {
			continue
		}
		running = true
		seq, start := it.seq, it.start
		if c := it.chain.Load(); c != 0 {
			seq, start = it.seq+uint64(c&(1<<chainShift-1)), c>>chainShift
		}
		sl := q.slot(seq)
		timeout := s.timeoutOf(&sl.t)
		if sl.timedOut || timeout == 0 {
			continue
		}
		left := time.Duration(start + int64(timeout) - now)
		if left <= 0 {
			s.timeOut(q, seq, sl, timeout)
			if it.gang != nil {
				it.gang.shared.Fail() // its blocks waiting for others give up
			}
			continue
		}
		next = min(next, left)
	}
	if gnext, grunning := s.checkGraphKernels(now); grunning {
		next, running = min(next, gnext), true
	}
	return max(next, watchMin), running
}

// timeoutOf is the execute timeout of kernel t, 0 if it has none. s.mu
// must be held.
func (s *scheduler) timeoutOf(t *hal.Task) time.Duration {
	switch us := t.Launch.TimeoutUS; us {
	case 0:
		return s.kernelTimeout
	case math.MaxUint64:
		return 0
	default:
		return hal.OpTimeout(s.dev.props.OpTimeoutInterval, hal.DurationUS(us))
	}
}

// timeOut fails task seq of q, a kernel still running, for running past
// timeout. s.mu must be held.
func (s *scheduler) timeOut(q *queue, seq uint64, sl *slot, timeout time.Duration) {
	sl.timedOut = true
	name := ""
	if sl.t.Kernel != nil {
		name = sl.t.Kernel.Name
	}
	s.recordFault(q, s.newFault(q, seq, &sl.t, hal.KindAICoreTimeout,
		fmt.Sprintf("kernel %q ran past its execute timeout of %v; its blocks run on until they return", name, timeout), nil))
}
