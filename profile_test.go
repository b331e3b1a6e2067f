package gocann_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gocann/gocann"
)

type traceEvent struct {
	Ph   string         `json:"ph"`
	Name string         `json:"name"`
	Pid  int64          `json:"pid"`
	Tid  int64          `json:"tid"`
	Ts   float64        `json:"ts"`
	Dur  float64        `json:"dur"`
	Args map[string]any `json:"args"`
}

func readTimeline(t *testing.T, path string) []traceEvent {
	t.Helper()
	b, err := os.ReadFile(path)
	check(t, err)
	var evs []traceEvent
	if err := json.Unmarshal(b, &evs); err != nil {
		t.Fatalf("%s is not a JSON array of trace events: %v", path, err)
	}
	return evs
}

// TestProfilingTimeline profiles kernels on two streams at once and a
// copy: the timeline has a track per stream, the kernels by name on their
// streams' tracks overlapping in time, and every task ends after it starts.
func TestProfilingTimeline(t *testing.T) {
	e := setup(t)
	dir := t.TempDir()
	p, err := e.r.StartProfiling(gocann.ProfileConfig{Dir: dir})
	check(t, err)
	_, err = e.r.StartProfiling(gocann.ProfileConfig{Dir: dir})
	wantErr(t, err, gocann.CodeProfAlreadyRun, "already running")

	k, err := e.r.RegisterKernel("nap20", func(b *gocann.Block) { time.Sleep(20 * time.Millisecond) })
	check(t, err)
	s2 := e.newStream(t)
	check(t, e.s.Launch(k, 1))
	check(t, s2.Launch(k, 1))
	buf := malloc(t, e.c, 1<<20)
	check(t, e.s.Memset(buf, 1, 1<<20))
	syncOK(t, e.s)
	syncOK(t, s2)
	check(t, p.Stop())
	wantErr(t, p.Stop(), gocann.CodeProfNotRun, "already stopped")

	if filepath.Dir(p.Timeline()) != dir || !strings.HasPrefix(filepath.Base(p.Timeline()), "profiling_") {
		t.Errorf("timeline %s, want profiling_*.json in %s", p.Timeline(), dir)
	}
	evs := readTimeline(t, p.Timeline())
	streams := map[int64]bool{}
	var naps []traceEvent
	memsets := 0
	for _, ev := range evs {
		if ev.Ph == "M" && ev.Name == "thread_name" && strings.HasPrefix(ev.Args["name"].(string), "Stream ") {
			streams[ev.Tid] = true
		}
		if ev.Ph != "X" {
			continue
		}
		if ev.Dur < 0 {
			t.Errorf("%s ends before it starts", ev.Name)
		}
		if ev.Name == "nap20" && streams[ev.Tid] {
			naps = append(naps, ev)
		}
		if ev.Name == "MEMSET_ASYNC" && ev.Args["Bytes"] == float64(1<<20) {
			memsets++
		}
	}
	if len(streams) != 2 || len(naps) != 2 || naps[0].Tid == naps[1].Tid {
		t.Fatalf("stream tracks %v, kernels on them %+v: want two streams, one kernel on each", streams, naps)
	}
	a, b := naps[0], naps[1]
	if a.Ts >= b.Ts+b.Dur || b.Ts >= a.Ts+a.Dur || a.Dur < 20e3 {
		t.Errorf("the two streams' 20 ms kernels [%v +%v] and [%v +%v] do not overlap", a.Ts, a.Dur, b.Ts, b.Dur)
	}
	if memsets != 1 {
		t.Errorf("memset events with their bytes %d, want 1 (on the stream track) of 1 MiB", memsets)
	}
}

// TestProfilingFromEnvironment turns profiling on the seed's way, and
// CANN's, and checks where the files go and that Finalize completes them.
func TestProfilingFromEnvironment(t *testing.T) {
	for _, c := range []struct {
		name string
		env  map[string]string
		glob string
	}{
		{"seed", map[string]string{"ASCEND_PROFILING_ENABLED": "1", "ASCEND_PROFILING_OUTPUT_PATH": "DIR"}, "profiling_*.json"},
		{"PROFILING_MODE", map[string]string{"PROFILING_MODE": "true", "PROFILING_OPTIONS": `{"output":"DIR","task_time":"on"}`},
			"PROF_*/mindstudio_profiler_output/msprof_*.json"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for k, v := range c.env {
				t.Setenv(k, strings.ReplaceAll(v, "DIR", dir))
			}
			r := newRuntime(t, smallConfig)
			if r.Profiling() == nil {
				t.Fatal("no profiling session after Init")
			}
			d, err := r.SetDevice(0)
			check(t, err)
			_ = d
			check(t, r.Finalize())
			m, _ := filepath.Glob(filepath.Join(dir, c.glob))
			if len(m) != 1 {
				t.Fatalf("%s under %s: %v", c.glob, dir, m)
			}
			evs := readTimeline(t, m[0])
			if len(evs) == 0 || evs[len(evs)-1].Name != "trace_end" {
				t.Errorf("the timeline was not completed at Finalize")
			}
		})
	}
	t.Run("refusals", func(t *testing.T) {
		t.Setenv("PROFILING_MODE", "yes")
		_, err := gocann.Open(gocann.WithConfigJSON([]byte(smallConfig)))
		wantErr(t, err, gocann.CodeInvalidProfilingConfig, `PROFILING_MODE "yes" is invalid`)
		t.Setenv("PROFILING_MODE", "")
		_, err = gocann.Open(gocann.WithConfigJSON([]byte(`{"profiler":{"switch":"on","task_time":"sometimes"}}`)))
		wantErr(t, err, gocann.CodeInvalidProfilingConfig, `"sometimes" of profiler.task_time is invalid`)
		_, err = gocann.Open(gocann.WithConfigJSON([]byte(`{"profiler":{"switch":1}}`)))
		wantErr(t, err, gocann.CodeInvalidProfilingConfig, "expected a string")
	})
}
