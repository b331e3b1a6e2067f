package sim

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"golang.org/x/sys/unix"

	"github.com/gocann/gocann/hal"
)

// faultReports orders a fault's report before the waits it ends: a
// synchronize that fails with a fault returns after the device's fault
// handler — the exception callbacks — has seen it, as a program that
// checks what its callback saw after the failed synchronize expects.
//
// Faults are recorded under the scheduler's lock and reported once it is
// released, so a waiter can see the fault before its report; it waits for
// the reports of every fault recorded so far. A report runs on a thread
// of its own for its duration, so a callback that synchronizes (CANN
// callbacks should not, but may) is told apart and does not wait for
// itself.
type faultReports struct {
	recorded atomic.Uint64 // faults recorded, counted under the scheduler's lock
	reported atomic.Uint64 // faults whose report returned

	// mu guards threads and is cond's lock.
	mu      sync.Mutex
	cond    sync.Cond
	threads []int // the threads reporting now
}

func (r *faultReports) init() { r.cond.L = &r.mu }

// record counts a fault recorded. The scheduler's lock must be held.
func (r *faultReports) record() { r.recorded.Add(1) }

// report hands faults to h, which may be nil, and wakes the waiters; they
// are woken however h returns.
func (r *faultReports) report(h func(hal.Fault), faults []hal.Fault) {
	defer func() {
		r.mu.Lock()
		r.reported.Add(uint64(len(faults)))
		r.cond.Broadcast()
		r.mu.Unlock()
	}()
	if h == nil {
		return
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	tid := unix.Gettid()
	r.mu.Lock()
	r.threads = append(r.threads, tid)
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		i := slices.Index(r.threads, tid)
		r.threads = slices.Delete(r.threads, i, i+1)
		r.mu.Unlock()
	}()
	for _, f := range faults {
		h(f)
	}
}

// awaitReports returns once every fault recorded before the call is
// reported, or at once on a thread that is reporting one. Faults a path
// recorded without reporting them are reported here. s.mu must not be
// held.
func (s *scheduler) awaitReports() {
	r := &s.reports
	want := r.recorded.Load()
	if r.reported.Load() >= want {
		return
	}
	s.mu.Lock()
	faults := s.takeFaults()
	s.mu.Unlock()
	s.report(faults)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	tid := unix.Gettid()
	r.mu.Lock()
	defer r.mu.Unlock()
	for r.reported.Load() < want && !slices.Contains(r.threads, tid) {
		r.cond.Wait()
	}
}
