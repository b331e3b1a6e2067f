package sim

import (
	"runtime"
	"time"
)

// Spin budgets. Waiting hosts and idle workers poll this long before they
// park: long enough to cover a submit-run-complete round trip, short enough
// not to steal a core from real work for long. Spinners yield between polls
// so that, with more spinners than CPUs, the goroutine with work still runs.
const (
	hostSpin   = 20 * time.Microsecond
	workerSpin = 50 * time.Microsecond
)

// spinUntil polls done until it returns true or budget passes, yielding the
// processor between polls. It reports whether done returned true.
func spinUntil(budget time.Duration, done func() bool) bool {
	if done() {
		return true
	}
	start := time.Now()
	for i := 0; ; i++ {
		runtime.Gosched()
		if done() {
			return true
		}
		if i&15 == 15 && time.Since(start) > budget {
			return false
		}
	}
}
