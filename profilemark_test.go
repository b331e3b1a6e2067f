package gocann_test

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gocann/gocann"
)

// timelineEvents reads a finished timeline.
func timelineEvents(t *testing.T, path string) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	check(t, err)
	var evs []map[string]any
	if err := json.Unmarshal(b, &evs); err != nil {
		t.Fatalf("timeline %s: %v", path, err)
	}
	return evs
}

// eventsNamed are the events of phase ph named name.
func eventsNamed(evs []map[string]any, ph, name string) []map[string]any {
	var out []map[string]any
	for _, e := range evs {
		if e["ph"] == ph && e["name"] == name {
			out = append(out, e)
		}
	}
	return out
}

// TestProfilerStreamMarks: a mark queued on a stream (aclprofMarkEx,
// aclrtProfTrace, aclprofGetStepTimestamp) shows on the stream's track,
// after the task queued before it, with its arguments; MarkStream's host
// instant is tied to it by a flow.
func TestProfilerStreamMarks(t *testing.T) {
	e := setup(t)
	p, err := e.r.StartProfiling(gocann.ProfileConfig{Dir: t.TempDir(), CANNLayout: true})
	check(t, err)
	check(t, e.s.LaunchHostFunc(func() { time.Sleep(20 * time.Millisecond) }))
	check(t, p.MarkStream("after_sleep", 7, e.s))
	check(t, e.s.ProfTrace([]byte{5, 0, 0, 0, 0, 0, 0, 0, 9}))
	check(t, e.s.MarkStep(3, false))
	check(t, e.s.MarkStep(3, true))
	syncOK(t, e.s)
	check(t, p.Stop())
	evs := timelineEvents(t, p.Timeline())

	host := eventsNamed(evs, "X", "HOST_FUNC")
	marks := eventsNamed(evs, "X", "after_sleep")
	if len(host) == 0 || len(marks) != 1 {
		t.Fatalf("%d host function events, %d marks after_sleep, want some and 1", len(host), len(marks))
	}
	m := marks[0]
	if m["tid"] != float64(e.s.ID()) || m["cat"] != "msproftx" {
		t.Errorf("mark on track %v, cat %v; want stream %d, msproftx", m["tid"], m["cat"], e.s.ID())
	}
	hostEnd := host[0]["ts"].(float64) + host[0]["dur"].(float64)
	if m["ts"].(float64) < hostEnd {
		t.Errorf("the mark ran at %v, before the host function before it ended (%v)", m["ts"], hostEnd)
	}
	if inst := eventsNamed(evs, "i", "after_sleep"); len(inst) != 1 || inst[0]["tid"] != float64(7) {
		t.Errorf("host instants of the mark: %v, want one on thread 7", inst)
	}
	if len(eventsNamed(evs, "s", "MsTx")) != 1 || len(eventsNamed(evs, "f", "MsTx")) != 1 {
		t.Error("no flow from the host mark to the stream's")
	}
	tr := eventsNamed(evs, "X", "ProfTrace 5")
	if len(tr) != 1 {
		t.Fatalf("ProfTrace marks: %v", tr)
	}
	if a := tr[0]["args"].(map[string]any); a["Model Id"] != float64(9) || a["Task Type"] != "PROFILER_TRACE_EX" {
		t.Errorf("ProfTrace args %v, want Model Id 9", a)
	}
	if len(eventsNamed(evs, "X", "Step 3 Start")) != 1 || len(eventsNamed(evs, "X", "Step 3 End")) != 1 {
		t.Error("the step marks are missing")
	}
}

// TestProfTraceLength: the user data is 1 to 18 bytes
// (ACL_ERROR_RT_PARAM_INVALID otherwise); without a session the mark is
// queued all the same.
func TestProfTraceLength(t *testing.T) {
	e := setup(t)
	for _, n := range []int{0, 19} {
		err := e.s.ProfTrace(make([]byte, n))
		if gocann.CodeOf(err) != gocann.CodeRTParamInvalid || !strings.Contains(err.Error(), "expected 1 to 18") {
			t.Errorf("ProfTrace(%d bytes) = %v, want ACL_ERROR_RT_PARAM_INVALID naming the range", n, err)
		}
	}
	check(t, e.s.ProfTrace([]byte{1}))
	syncOK(t, e.s)
}

// TestProfilerDevices: a session records only the devices it lists, and
// SetDevices changes them.
func TestProfilerDevices(t *testing.T) {
	e := setup(t)
	p, err := e.r.StartProfiling(gocann.ProfileConfig{Dir: t.TempDir(), Devices: []int{}})
	check(t, err)
	check(t, e.s.ProfTrace([]byte{1}))
	syncOK(t, e.s)
	p.SetDevices([]int{0})
	check(t, e.s.ProfTrace([]byte{2}))
	syncOK(t, e.s)
	check(t, p.Stop())
	evs := timelineEvents(t, p.Timeline())
	if len(eventsNamed(evs, "X", "ProfTrace 1")) != 0 || len(eventsNamed(evs, "X", "ProfTrace 2")) != 1 {
		t.Error("the session recorded device 0 before it was listed, or not after")
	}
}

// TestSubscribeModel: every run of a subscribed model hands over one
// record per operation, with times when asked; unsubscribing delivers
// what completed and calls Done once; the errors are CANN's.
func TestSubscribeModel(t *testing.T) {
	e := setup(t)
	k := registerKernels(t, e)
	p := word(t, e, 0)
	c, err := e.s.BeginCapture(gocann.CaptureGlobal)
	check(t, err)
	check(t, e.s.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(1)))
	check(t, e.s.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(2)))
	m, err := c.End()
	check(t, err)
	closeModel(t, m)

	var mu sync.Mutex
	var got []gocann.OpRecord
	done := 0
	sub := gocann.ModelSubscription{TimeInfo: true,
		Ops:  func(ops []gocann.OpRecord) { mu.Lock(); got = append(got, ops...); mu.Unlock() },
		Done: func() { mu.Lock(); done++; mu.Unlock() }}
	if err := e.r.SubscribeModel(m.ID()+1000, sub); gocann.CodeOf(err) != gocann.CodeInvalidModelID {
		t.Errorf("subscribing an unknown model: %v, want ACL_ERROR_INVALID_MODEL_ID", err)
	}
	check(t, e.r.SubscribeModel(m.ID(), sub))
	if err := e.r.SubscribeModel(m.ID(), sub); gocann.CodeOf(err) != gocann.CodeProfRepeatSubscribe {
		t.Errorf("subscribing twice: %v, want ACL_ERROR_PROF_REPEAT_SUBSCRIBE", err)
	}
	e.r.RegisterModelDevice(4242, 0)
	other := sub
	other.TimeInfo = false
	if err := e.r.SubscribeModel(4242, other); gocann.CodeOf(err) != gocann.CodeInvalidProfilingConfig {
		t.Errorf("another configuration on the same device: %v, want ACL_ERROR_INVALID_PROFILING_CONFIG", err)
	}
	runOK(t, m, e.s)
	runOK(t, m, e.s)
	check(t, e.r.UnsubscribeModel(m.ID()))
	if err := e.r.UnsubscribeModel(m.ID()); gocann.CodeOf(err) != gocann.CodeInvalidModelID {
		t.Errorf("unsubscribing twice: %v, want ACL_ERROR_INVALID_MODEL_ID", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 4 || done != 1 {
		t.Fatalf("%d records and %d Done calls, want 4 (2 operations x 2 runs) and 1: %+v", len(got), done, got)
	}
	for _, o := range got {
		if o.Model != m.ID() || o.Name != "model_add" || o.End < o.Start || o.Start == 0 || o.Stream != e.s.ID() {
			t.Errorf("record %+v, want model %d, kernel model_add on stream %d with times", o, m.ID(), e.s.ID())
		}
	}
}

// TestSubscriptionEndsAtFinalize: Finalize ends the subscriptions, calling
// Done.
func TestSubscriptionEndsAtFinalize(t *testing.T) {
	r, err := gocann.Open(gocann.WithConfigJSON([]byte(smallConfig)))
	check(t, err)
	defer r.Close()
	_, err = r.SetDevice(0)
	check(t, err)
	r.RegisterModelDevice(7, 0)
	done := make(chan struct{})
	check(t, r.SubscribeModel(7, gocann.ModelSubscription{Ops: func([]gocann.OpRecord) {}, Done: func() { close(done) }}))
	check(t, r.Finalize())
	select {
	case <-done:
	case <-time.After(long):
		t.Fatal("Finalize did not end the subscription")
	}
	if err := r.UnsubscribeModel(7); !errors.Is(err, gocann.ErrInvalid) && gocann.CodeOf(err) != gocann.CodeInvalidModelID {
		t.Errorf("unsubscribing after Finalize: %v", err)
	}
}
