package hal

import (
	"math"
	"time"
)

// Operator execute timeouts are counted in ticks of the chip's interval
// (Props.OpTimeoutInterval), as CANN's kernel credit is: a timeout is 1 to
// MaxOpTimeoutTicks whole ticks, a request rounded up to the next tick and
// capped at the last.
const MaxOpTimeoutTicks = 254

// DefaultOpTimeoutInterval is the tick of the Atlas A2, A3 and Ascend 950
// (CANN's RT_STARS_TASK_KERNEL_CREDIT_SCALE_US, 2^32 ns): 254 ticks are
// the 1091 s default timeout the reference gives.
const DefaultOpTimeoutInterval = 1 << 32 * time.Nanosecond

// fastOpTimeout is the interval below which a chip reports timeouts
// quickly (CANN's isOpTimeoutMs): there a timeout of 0 means never.
const fastOpTimeout = 100 * time.Millisecond

// OpTimeout is the execute timeout a chip with ticks of interval applies
// for req: req rounded up to whole ticks, at most MaxOpTimeoutTicks of
// them; 0 asks for the most.
func OpTimeout(interval, req time.Duration) time.Duration {
	ticks := int64(MaxOpTimeoutTicks)
	if req > 0 && interval > 0 {
		ticks = min(ticks, (int64(req)-1)/int64(interval)+1)
	}
	return time.Duration(ticks) * interval
}

// ZeroNeverTimesOut reports whether a requested execute timeout of 0 means
// that kernels never time out on a chip with ticks of interval, rather
// than the longest timeout: so on chips with ticks under 100 ms.
func ZeroNeverTimesOut(interval time.Duration) bool {
	return interval > time.Nanosecond && interval < fastOpTimeout
}

// DurationUS converts a count of microseconds to a duration, saturating
// instead of wrapping.
func DurationUS(us uint64) time.Duration {
	if us > math.MaxInt64/uint64(time.Microsecond) {
		return math.MaxInt64
	}
	return time.Duration(us) * time.Microsecond
}

// KernelTimeouter is a Device that reports a kernel running past its
// execute timeout: a KindAICoreTimeout fault at the deadline, as for a
// failed task. The kernel's blocks cannot be stopped and run on; the
// queue's later tasks wait for them, and a STOP_ON_FAILURE queue stops at
// the deadline. A kernel's LaunchAttrs.TimeoutUS, rounded by OpTimeout
// (math.MaxUint64: never), takes precedence over the device's timeout.
type KernelTimeouter interface {
	// SetKernelTimeout sets the execute timeout of kernels without one of
	// their own; 0: they never time out. Until it is called it is the
	// longest, OpTimeout(interval, 0).
	SetKernelTimeout(timeout time.Duration)
}
