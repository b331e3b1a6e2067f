package config

import (
	"strings"
	"testing"
)

// TestProfilerFromEnv checks the environment's ways to turn profiling on
// and their precedence.
func TestProfilerFromEnv(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	for _, c := range []struct {
		name string
		kv   map[string]string
		want *Profiler
		err  string
	}{
		{"off", nil, nil, ""},
		{"options", map[string]string{"PROFILING_MODE": "true", "PROFILING_OPTIONS": `{"output":"/o","msproftx":"on"}`},
			&Profiler{Output: "/o", TaskTime: true, RuntimeAPI: true, TX: true}, ""},
		{"sample config", map[string]string{"PROFILING_MODE": "true", "PROFILER_SAMPLECONFIG": `{"result_dir":"/r","runtime_api":"off"}`},
			&Profiler{Output: "/r", TaskTime: true}, ""},
		{"options win", map[string]string{"PROFILING_MODE": "true", "PROFILING_OPTIONS": `{"output":"/o"}`, "PROFILER_SAMPLECONFIG": `{"result_dir":"/r"}`},
			&Profiler{Output: "/o", TaskTime: true, RuntimeAPI: true}, ""},
		{"mode wins over seed", map[string]string{"PROFILING_MODE": "true", "ASCEND_PROFILING_ENABLED": "1", "ASCEND_PROFILING_OUTPUT_PATH": "/s"},
			&Profiler{Output: ".", TaskTime: true, RuntimeAPI: true}, ""},
		{"seed", map[string]string{"ASCEND_PROFILING_ENABLED": "1", "ASCEND_PROFILING_OUTPUT_PATH": "/s"},
			&Profiler{Output: "/s", Seed: true, TaskTime: true, RuntimeAPI: true, TX: true}, ""},
		{"seed without path", map[string]string{"ASCEND_PROFILING_ENABLED": "1"}, nil, "ASCEND_PROFILING_OUTPUT_PATH is empty"},
		{"bad mode", map[string]string{"PROFILING_MODE": "on"}, nil, `PROFILING_MODE "on" is invalid`},
		{"bad options", map[string]string{"PROFILING_MODE": "true", "PROFILING_OPTIONS": `{"task_time":true}`}, nil, "expected a string"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := ProfilerFromEnv(env(c.kv))
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err %v, want one saying %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if (p == nil) != (c.want == nil) {
				t.Fatalf("got %+v, want %+v", p, c.want)
			}
			if p != nil {
				p.From = ""
				if *p != *c.want {
					t.Errorf("got %+v, want %+v", *p, *c.want)
				}
			}
		})
	}
}
