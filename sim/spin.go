package sim

import (
	"runtime"
	"sync"
	"time"
)

// Spin budgets. Waiting hosts and idle workers poll this long before they
// park: long enough to cover a submit-run-complete round trip, short enough
// not to steal a core from real work for long. Workers yield between polls
// so that, with more spinners than CPUs, the goroutine with work still runs.
// Hosts spin longer: a host may be a C thread, which parking puts to sleep
// in the kernel, and a model replay or a short batch of tasks outlasts a
// few tens of microseconds.
const (
	hostSpin   = 100 * time.Microsecond
	workerSpin = 50 * time.Microsecond
	lockSpin   = 5 * time.Microsecond
)

// spinUntil polls done until it returns true or budget passes. It checks
// in short bursts and yields the processor between bursts, so a spinner
// reacts within tens of nanoseconds yet never keeps a runnable goroutine
// off its CPU for long. It reports whether done returned true.
func spinUntil(budget time.Duration, done func() bool) bool {
	if done() {
		return true
	}
	start := time.Now()
	for i := 1; ; i++ {
		for range spinBurst {
			if done() {
				return true
			}
		}
		if i%yieldBursts == 0 {
			runtime.Gosched()
		}
		if time.Since(start) > budget {
			return done()
		}
	}
}

// spinBurst is how many polls a spinner makes between clock checks, and
// yieldBursts how many bursts between yields: a yield costs a trip through
// the Go scheduler, so it comes every microsecond or two, not every burst.
const (
	spinBurst   = 64
	yieldBursts = 8
)

// spinHot polls done until it returns true or budget passes, without ever
// yielding. For hosts waiting on the device: the goroutine may be locked to
// a C thread, which a yield would put to sleep. The budget bounds how long
// it keeps its processor from other goroutines.
func spinHot(budget time.Duration, done func() bool) bool {
	if done() {
		return true
	}
	start := time.Now()
	for {
		for range spinBurst {
			if done() {
				return true
			}
		}
		if time.Since(start) > budget {
			return done()
		}
	}
}

// lockHot takes mu for a host, spinning on it before blocking: a host
// goroutine serving a C thread that blocks on a mutex puts the thread to
// sleep, and waking it costs microseconds, while the scheduler holds mu for
// a fraction of one.
func lockHot(mu *sync.Mutex) {
	if !spinHot(lockSpin, mu.TryLock) {
		mu.Lock()
	}
}
