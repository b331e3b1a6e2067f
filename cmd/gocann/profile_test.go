package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDemoProfiled runs the demo with profiling turned on each way a
// configuration can (the seed's environment variables, CANN's, and the
// aclInit file's profiler section) and validates the timeline: a track
// per stream, every task starting before it ends, the vadd kernel by
// name, tasks of both of the demo's streams, and flows whose two ends
// both exist.
func TestDemoProfiled(t *testing.T) {
	for _, c := range []struct {
		name, glob string
		env        map[string]string
		config     string
	}{
		{"seed", "profiling_*.json", map[string]string{"ASCEND_PROFILING_ENABLED": "1", "ASCEND_PROFILING_OUTPUT_PATH": "DIR"}, ""},
		{"PROFILING_MODE", "PROF_*/mindstudio_profiler_output/msprof_*.json",
			map[string]string{"PROFILING_MODE": "true", "PROFILING_OPTIONS": `{"output":"DIR"}`}, ""},
		{"aclInit profiler", "PROF_*/mindstudio_profiler_output/msprof_*.json", nil,
			`{"profiler":{"switch":"on","output":"DIR","task_time":"on","aic_metrics":"PipeUtilization"}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for k, v := range c.env {
				t.Setenv(k, strings.ReplaceAll(v, "DIR", dir))
			}
			args := []string{"demo"}
			if c.config != "" {
				path := filepath.Join(dir, "acl.json")
				if err := os.WriteFile(path, []byte(strings.ReplaceAll(c.config, "DIR", dir)), 0o600); err != nil {
					t.Fatal(err)
				}
				args = []string{"-config", path, "demo"}
			}
			var out, errb bytes.Buffer
			if code := run(args, &out, &errb); code != 0 {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			m, _ := filepath.Glob(filepath.Join(dir, c.glob))
			if len(m) != 1 {
				t.Fatalf("%s under %s: %v", c.glob, dir, m)
			}
			b, err := os.ReadFile(m[0])
			if err != nil {
				t.Fatal(err)
			}
			var evs []struct {
				Ph, Name string
				Pid, Tid int64
				Ts, Dur  float64
				ID       int64
				Args     map[string]any
			}
			if err := json.Unmarshal(b, &evs); err != nil {
				t.Fatalf("timeline: %v", err)
			}
			tracks := map[int64]string{}
			onTrack := map[int64]int{}
			flows := map[int64]int{}
			vadd := 0
			for _, e := range evs {
				switch e.Ph {
				case "M":
					if e.Name == "thread_name" {
						tracks[e.Tid] = e.Args["name"].(string)
					}
				case "X":
					if e.Dur < 0 {
						t.Errorf("%s ends before it starts", e.Name)
					}
					if strings.HasPrefix(tracks[e.Tid], "Stream ") {
						onTrack[e.Tid]++
						if e.Name == "vadd" {
							vadd++
						}
					}
				case "s":
					flows[e.ID]++
				case "f":
					flows[e.ID] += 2
				}
			}
			busy := 0
			for tid, n := range onTrack {
				if n > 0 && strings.HasPrefix(tracks[tid], "Stream ") {
					busy++
				}
			}
			if busy < 2 || vadd != 1 {
				t.Errorf("streams with tasks %d (tracks %v), vadd kernels on stream tracks %d: want both demo streams and one vadd", busy, tracks, vadd)
			}
			for id, n := range flows {
				if n != 3 {
					t.Errorf("flow %d lacks an end", id)
				}
			}
		})
	}
}
