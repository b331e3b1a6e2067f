package gocann_test

import (
	"testing"
	"time"

	"github.com/gocann/gocann"
)

// hangModel captures, on e.s, a model running a kernel of blocks blocks
// that waits for release, then an add of 1 to the word it returns.
func hangModel(t *testing.T, e env, blocks uint32) (m *gocann.ModelRI, p gocann.DevPtr, started, release chan struct{}) {
	t.Helper()
	k := registerKernels(t, e)
	hang, started, release := hangKernel(t, e.r, "model_hang")
	p = word(t, e, 0)
	m, err := e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		check(t, s.Launch(hang, blocks))
		return s.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(1))
	})
	check(t, err)
	return closeModel(t, m), p, started, release
}

func TestModelKernelTimeoutContinue(t *testing.T) {
	// A kernel a model runs is bounded by the execute timeout as one on a
	// stream is: reported at the deadline while its blocks run on; once
	// they return, the model's stream goes on, and so does the stream that
	// ran the model (CONTINUE_ON_FAILURE).
	for _, blocks := range []uint32{1, 3} {
		t.Run(itoa(int32(blocks))+" blocks", func(t *testing.T) {
			e := setup(t, fastTimeoutConfig)
			_, err := e.r.SetOpExecuteTimeout(20 * time.Millisecond)
			check(t, err)
			calls := timeoutCalls(e.r)
			m, p, started, release := hangModel(t, e, blocks)
			begin := time.Now()
			check(t, m.Run(e.s))
			after := word(t, e, 0)
			check(t, e.s.WriteValue(after, 1))
			<-started
			eventually(t, "the timeout reported", func() bool { return calls.Load() == 1 })
			if d := time.Since(begin); d < 20*time.Millisecond {
				t.Fatalf("timeout reported after %v, before the 20ms deadline", d)
			}
			stays(t, 30*time.Millisecond, "the model waits for the overrunning kernel", func() bool { return readU64(t, e.c, p) == 0 })
			close(release)
			wantErr(t, e.s.SynchronizeTimeout(long), gocann.CodeRTAICoreTimeout, `"model_hang"`, "execute timeout of 20ms", "graph")
			wantU64(t, e, p, 1, "the model's task after the timed-out kernel")
			wantU64(t, e, after, 1, "the stream's task after the model")
			if calls.Load() != 1 {
				t.Fatalf("timeout reported %d times, want once", calls.Load())
			}
			// A run whose kernel returns in time is no fault.
			_, err = e.r.SetOpExecuteTimeout(time.Second)
			check(t, err)
			runOK(t, m, e.s)
			wantU64(t, e, p, 2, "the second run's add")
		})
	}
}

func TestModelKernelTimeoutStopOnFailure(t *testing.T) {
	// STOP_ON_FAILURE: the synchronize fails at the deadline while the
	// model's kernel still runs; the stream's tasks after the run are
	// dropped.
	e := setup(t, fastTimeoutConfig)
	_, err := e.r.SetOpExecuteTimeout(20 * time.Millisecond)
	check(t, err)
	check(t, e.s.SetFailureMode(gocann.StopOnFailure))
	calls := timeoutCalls(e.r)
	m, _, started, release := hangModel(t, e, 1)
	check(t, m.Run(e.s))
	after := word(t, e, 0)
	check(t, e.s.WriteValue(after, 1))
	<-started
	wantErr(t, e.s.SynchronizeTimeout(long), gocann.CodeRTAICoreTimeout, `"model_hang"`)
	if calls.Load() != 1 {
		t.Fatalf("timeout reported %d times before the synchronize returned, want once", calls.Load())
	}
	close(release)
	stays(t, 30*time.Millisecond, "tasks after the run stay dropped", func() bool { return readU64(t, e.c, after) == 0 })
	check(t, e.s.Abort())
	syncOK(t, e.s)
	wantU64(t, e, after, 0, "the task after the failed run")
}
