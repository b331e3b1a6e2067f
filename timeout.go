package gocann

import "time"

// Operator timeouts are the process's: they hold for every device, open
// now or later, and outlive Finalize, as in CANN.
//
// A kernel running past its execute timeout fails at the deadline with
// ACL_ERROR_RT_AICORE_TIMEOUT, reported to the exception callbacks and by
// its stream's next synchronizing call. A CPU cannot stop the goroutine
// running a block, so the kernel's blocks run on until they return: its
// cores stay busy, the stream's later tasks wait for it (nothing runs
// beside it on that stream), and in STOP_ON_FAILURE mode the stream's
// group stops at the deadline, so those tasks never run.

// OpTimeoutInterval is the tick of the chip's operator timeouts: an
// execute timeout is 1 to 254 whole ticks (2^32 ns on the Atlas A2, A3
// and Ascend 950, which makes the longest, the default, 1091 s).
//
// CANN: aclrtGetOpTimeOutInterval.
func (r *Runtime) OpTimeoutInterval() (time.Duration, error) {
	if err := r.require("aclrtGetOpTimeOutInterval"); err != nil {
		return 0, err
	}
	v, err := r.rt.OpTimeoutInterval()
	return v, wrap("Runtime.OpTimeoutInterval (aclrtGetOpTimeOutInterval)", err)
}

// SetOpExecuteTimeout sets the execute timeout of the kernels launched
// without one of their own (LaunchConfig.Timeout takes precedence), on
// every device, and returns the timeout in force: timeout rounded up to
// whole ticks of OpTimeoutInterval, at most 254 of them. 0 asks for the
// longest, or, on a chip whose tick is under 100 ms, for none: then the
// timeout in force is 0 and kernels never time out.
//
// CANN: aclrtSetOpExecuteTimeOutV2.
func (r *Runtime) SetOpExecuteTimeout(timeout time.Duration) (time.Duration, error) {
	if err := r.require("aclrtSetOpExecuteTimeOutV2"); err != nil {
		return 0, err
	}
	v, err := r.rt.SetOpExecuteTimeout(timeout)
	return v, wrap("Runtime.SetOpExecuteTimeout (aclrtSetOpExecuteTimeOutV2)", err)
}

// SetOpExecuteTimeout is Runtime.SetOpExecuteTimeout as the older call
// makes it, in whole seconds; every product offers it, IPV350 among them,
// which lacks the V2 form.
//
// CANN: aclrtSetOpExecuteTimeOut (seconds).
func (x RawRuntime) SetOpExecuteTimeout(seconds uint32) (time.Duration, error) {
	v, err := x.r.rt.SetOpExecuteTimeout(time.Duration(seconds) * time.Second)
	return v, wrap("RawRuntime.SetOpExecuteTimeout (aclrtSetOpExecuteTimeOut)", err)
}

// SetOpExecuteTimeoutMs is the millisecond form of SetOpExecuteTimeout,
// which no product the reference lists offers: it fails with
// ACL_ERROR_RT_FEATURE_NOT_SUPPORT.
//
// CANN: aclrtSetOpExecuteTimeOutWithMs.
func (r *Runtime) SetOpExecuteTimeoutMs(timeout time.Duration) error {
	if err := r.require("aclrtSetOpExecuteTimeOutWithMs"); err != nil {
		return err
	}
	_, err := r.rt.SetOpExecuteTimeout(timeout)
	return wrap("Runtime.SetOpExecuteTimeoutMs (aclrtSetOpExecuteTimeOutWithMs)", err)
}

// OpExecuteTimeout is the execute timeout in force for kernels without one
// of their own: the one set, else the chip's default, the longest; 0 when
// kernels never time out.
//
// CANN: aclrtGetOpExecuteTimeout.
func (r *Runtime) OpExecuteTimeout() (time.Duration, error) {
	if err := r.require("aclrtGetOpExecuteTimeout"); err != nil {
		return 0, err
	}
	v, err := r.rt.OpExecuteTimeout()
	return v, wrap("Runtime.OpExecuteTimeout (aclrtGetOpExecuteTimeout)", err)
}

// SetOpWaitTimeout sets the timeout of the device-side waits queued from
// now on without a timeout of their own (Stream.WaitEvent, a notify wait
// with timeout 0): a wait still unsatisfied that long after it reached the
// head of its stream fails with ACL_ERROR_RT_WAIT_TIMEOUT, reported by the
// stream's next synchronizing call, and the stream goes on as its failure
// mode says. 0, the default, waits for ever. The timeout is at most
// 2^32-1 seconds.
//
// CANN: aclrtSetOpWaitTimeout.
func (r *Runtime) SetOpWaitTimeout(timeout time.Duration) error {
	if err := r.require("aclrtSetOpWaitTimeout"); err != nil {
		return err
	}
	return wrap("Runtime.SetOpWaitTimeout (aclrtSetOpWaitTimeout)", r.rt.SetOpWaitTimeout(timeout))
}
