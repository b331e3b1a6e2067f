package gocann_test

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocann/gocann"
)

// fastTimeoutConfig gives the chip a 1 ms timeout tick, under the 100 ms
// below which an execute timeout of 0 means never.
const fastTimeoutConfig = `{"simulator":{"hbm_size":1073741824,"op_timeout_interval_us":1000}}`

// tick is the reference's interval on the Atlas A2: 2^32 ns.
const tick = 1 << 32 * time.Nanosecond

func TestOpTimeoutSettings(t *testing.T) {
	// aclrtGetOpTimeOutInterval: "the effective timeout is interval * N, N
	// in [1, 254]", rounded up; the default on the Atlas A2 is 1091 s.
	r := gocann.New()
	defer r.Close()
	_, err := r.OpTimeoutInterval()
	wantErr(t, err, gocann.CodeUninitialize, "aclInit")
	_, err = r.SetOpExecuteTimeout(time.Second)
	wantErr(t, err, gocann.CodeUninitialize, "aclInit")
	_, err = r.OpExecuteTimeout()
	wantErr(t, err, gocann.CodeUninitialize, "aclInit")
	wantErr(t, r.SetOpWaitTimeout(time.Second), gocann.CodeUninitialize, "aclInit")
	check(t, r.Init(""))

	iv, err := r.OpTimeoutInterval()
	check(t, err)
	if iv != tick {
		t.Fatalf("interval %v, want %v", iv, tick)
	}
	def, err := r.OpExecuteTimeout()
	check(t, err)
	if def != 254*tick || def.Round(time.Second) != 1091*time.Second {
		t.Fatalf("default execute timeout %v, want 254 ticks (1091 s)", def)
	}
	for _, c := range []struct{ set, want time.Duration }{
		{20 * time.Second, 5 * tick}, // rounded up to whole ticks
		{tick, tick},
		{time.Microsecond, tick},
		{0, 254 * tick}, // the longest: the tick is not under 100 ms
		{time.Hour, 254 * tick},
	} {
		got, err := r.SetOpExecuteTimeout(c.set)
		check(t, err)
		now, err := r.OpExecuteTimeout()
		check(t, err)
		if got != c.want || now != c.want {
			t.Errorf("SetOpExecuteTimeout(%v) = %v, then OpExecuteTimeout %v; want %v", c.set, got, now, c.want)
		}
	}
	_, err = r.SetOpExecuteTimeout(-time.Second)
	wantErr(t, err, gocann.CodeRTParamInvalid, "timeout")
	wantErr(t, r.SetOpExecuteTimeoutMs(time.Second), gocann.CodeRTFeatureNotSupport, "aclrtSetOpExecuteTimeOutWithMs")
	wantErr(t, r.SetOpWaitTimeout(-time.Second), gocann.CodeRTParamInvalid, "timeout")
	wantErr(t, r.SetOpWaitTimeout(1<<32*time.Second), gocann.CodeRTParamInvalid, "timeout")
	check(t, r.SetOpWaitTimeout(0))

	// The settings are the process's: they outlive Finalize.
	check(t, r.Finalize())
	check(t, r.Init(""))
	if now, err := r.OpExecuteTimeout(); err != nil || now != 254*tick {
		t.Fatalf("after Finalize and Init: %v, %v; want the last set, %v", now, err, 254*tick)
	}
}

func TestOpTimeoutZeroNeverOnFastChip(t *testing.T) {
	// aclrtSetOpExecuteTimeOutV2: with an interval under 100000 us, 0
	// means the kernels never time out (actualTimeout UINT64_MAX, here 0).
	r := newRuntime(t, fastTimeoutConfig)
	if iv, err := r.OpTimeoutInterval(); err != nil || iv != time.Millisecond {
		t.Fatalf("interval %v, %v; want 1ms", iv, err)
	}
	if def, err := r.OpExecuteTimeout(); err != nil || def != 254*time.Millisecond {
		t.Fatalf("default %v, %v; want 254ms", def, err)
	}
	got, err := r.SetOpExecuteTimeout(2500 * time.Microsecond)
	check(t, err)
	if got != 3*time.Millisecond {
		t.Fatalf("2.5ms gives %v, want 3ms", got)
	}
	got, err = r.SetOpExecuteTimeout(0)
	check(t, err)
	if now, err := r.OpExecuteTimeout(); err != nil || got != 0 || now != 0 {
		t.Fatalf("0 gives %v, then %v (%v); want 0 (never)", got, now, err)
	}
}

// hangKernel registers a kernel whose blocks wait for release; started
// is closed when the first starts.
func hangKernel(t *testing.T, r *gocann.Runtime, name string) (k *gocann.Kernel, started, release chan struct{}) {
	t.Helper()
	started, release = make(chan struct{}), make(chan struct{})
	var once sync.Once
	k, err := r.RegisterKernel(name, func(*gocann.Block) {
		once.Do(func() { close(started) })
		<-release
	})
	check(t, err)
	return k, started, release
}

// timeoutCalls collects the codes the exception callback sees.
func timeoutCalls(r *gocann.Runtime) *atomic.Int32 {
	var n atomic.Int32
	r.SetExceptionCallback(func(info gocann.ExceptionInfo) {
		if info.Code == gocann.CodeRTAICoreTimeout {
			n.Add(1)
		}
	})
	return &n
}

func TestKernelTimeoutContinue(t *testing.T) {
	// A kernel past its execute timeout is reported at the deadline through
	// the exception callback; its block cannot be stopped, so the stream's
	// later tasks wait for it and then run (CONTINUE_ON_FAILURE), and the
	// next synchronize reports the timeout.
	e := setup(t, fastTimeoutConfig)
	_, err := e.r.SetOpExecuteTimeout(20 * time.Millisecond)
	check(t, err)
	calls := timeoutCalls(e.r)
	k, started, release := hangKernel(t, e.r, "hang")
	defer close(release)
	var after atomic.Bool
	begin := time.Now()
	check(t, e.s.Launch(k, 1))
	check(t, e.s.LaunchHostFunc(func() { after.Store(true) }))
	<-started
	eventually(t, "the timeout reported", func() bool { return calls.Load() == 1 })
	if d := time.Since(begin); d < 20*time.Millisecond {
		t.Fatalf("timeout reported after %v, before the 20ms deadline", d)
	}
	stays(t, 30*time.Millisecond, "later task waits for the overrunning block", func() bool { return !after.Load() })
	release <- struct{}{}
	wantErr(t, e.s.SynchronizeTimeout(long), gocann.CodeRTAICoreTimeout, `"hang"`, "execute timeout")
	if !after.Load() {
		t.Fatal("the task after the timed-out kernel did not run in CONTINUE_ON_FAILURE mode")
	}
	if calls.Load() != 1 {
		t.Fatalf("timeout reported %d times, want once", calls.Load())
	}
	syncOK(t, e.s)
}

func TestKernelTimeoutStopOnFailure(t *testing.T) {
	// STOP_ON_FAILURE: the synchronize fails at the deadline while the
	// block still runs; once it returns, the later tasks are dropped.
	e := setup(t, fastTimeoutConfig)
	_, err := e.r.SetOpExecuteTimeout(20 * time.Millisecond)
	check(t, err)
	check(t, e.s.SetFailureMode(gocann.StopOnFailure))
	calls := timeoutCalls(e.r)
	k, started, release := hangKernel(t, e.r, "hang")
	var after atomic.Bool
	check(t, e.s.Launch(k, 2))
	check(t, e.s.LaunchHostFunc(func() { after.Store(true) }))
	<-started
	wantErr(t, e.s.SynchronizeTimeout(long), gocann.CodeRTAICoreTimeout, `"hang"`)
	if calls.Load() != 1 {
		t.Fatalf("timeout reported %d times before the synchronize returned, want once", calls.Load())
	}
	close(release)
	stays(t, 30*time.Millisecond, "tasks after the timeout stay dropped", func() bool { return !after.Load() })
	check(t, e.s.Abort())
	syncOK(t, e.s)
	if after.Load() {
		t.Fatal("a task after the timed-out kernel ran in STOP_ON_FAILURE mode")
	}
}

func TestKernelLaunchTimeoutOverrides(t *testing.T) {
	// A launch's own timeout takes precedence over the process's, here
	// none at all.
	e := setup(t, fastTimeoutConfig)
	_, err := e.r.SetOpExecuteTimeout(0)
	check(t, err)
	k, started, release := hangKernel(t, e.r, "hang")
	check(t, e.s.Raw().WithLaunchConfig(gocann.LaunchConfig{Timeout: 10 * time.Millisecond}).LaunchArgs(k, 1, nil, 0, 0))
	<-started
	time.Sleep(30 * time.Millisecond)
	close(release)
	wantErr(t, e.s.SynchronizeTimeout(long), gocann.CodeRTAICoreTimeout, "10ms")

	// Without one, the kernel never times out.
	k2, started2, release2 := hangKernel(t, e.r, "slow")
	check(t, e.s.Launch(k2, 1))
	<-started2
	time.Sleep(300 * time.Millisecond) // past the longest timeout, 254 ms
	close(release2)
	syncOK(t, e.s)
}

func TestOpWaitTimeout(t *testing.T) {
	// aclrtSetOpWaitTimeout: a stream wait for an event queued afterwards
	// fails at the next synchronize once it waited that long; the stream
	// then goes on (CONTINUE_ON_FAILURE).
	e := setup(t)
	s2 := e.newStream(t)
	ev, err := e.c.NewEvent(gocann.EventSync)
	check(t, err)
	g := block(t, s2)
	check(t, s2.Record(ev))
	check(t, e.r.SetOpWaitTimeout(30*time.Millisecond))
	var after atomic.Bool
	check(t, e.s.WaitEvent(ev))
	check(t, e.s.LaunchHostFunc(func() { after.Store(true) }))
	wantErr(t, e.s.SynchronizeTimeout(long), gocann.CodeRTWaitTimeout, "event wait timed out after 30ms")
	if !after.Load() {
		t.Fatal("the stream did not go on after the wait timed out")
	}
	// Waits queued after the timeout is set back to 0 wait for ever.
	check(t, e.r.SetOpWaitTimeout(0))
	check(t, e.s.WaitEvent(ev))
	stays(t, 60*time.Millisecond, "the wait holds", func() bool { return !isDone(t, e.s) })
	g.Open()
	syncOK(t, e.s)
	syncOK(t, s2)
}
