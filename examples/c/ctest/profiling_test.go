package ctest_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestProfiling runs a C program with profiling turned on by the
// environment, the seed's way and CANN's, and checks its output: the
// AscendCL@ calls of its thread, the kernels on the device's stream
// tracks, and flows from the launching calls to their kernels.
func TestProfiling(t *testing.T) {
	tl := setup(t)
	exe, kern := tl.program(t, "61_copy_after_launch"), tl.kernel(t, "vadd")
	for _, c := range []struct {
		name, glob string
		env        []string
	}{
		{"seed", "profiling_*.json", []string{"ASCEND_PROFILING_ENABLED=1", "ASCEND_PROFILING_OUTPUT_PATH=DIR"}},
		{"PROFILING_MODE", "PROF_*/mindstudio_profiler_output/msprof_*.json",
			[]string{"PROFILING_MODE=true", `PROFILING_OPTIONS={"output":"DIR","task_time":"on","runtime_api":"on"}`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			env := append([]string{}, tl.env...)
			for _, kv := range c.env {
				env = append(env, strings.ReplaceAll(kv, "DIR", dir))
			}
			res := runProgramEnv(t, time.Minute, env, exe, kern)
			if res.err != nil || !strings.Contains(res.stdout, "PASS 61_copy_after_launch") {
				t.Fatalf("%v\n%s\n%s", res.err, res.stdout, res.stderr)
			}
			m, _ := filepath.Glob(filepath.Join(dir, c.glob))
			if len(m) != 1 {
				t.Fatalf("%s in %s: %v", c.glob, dir, m)
			}
			b, err := os.ReadFile(m[0])
			if err != nil {
				t.Fatal(err)
			}
			var evs []struct {
				Ph, Name string
				Tid      int64
				ID       int64
				Args     map[string]any
			}
			if err := json.Unmarshal(b, &evs); err != nil {
				t.Fatalf("the timeline is not JSON: %v", err)
			}
			count := map[string]int{}
			for _, e := range evs {
				count[e.Ph+" "+e.Name]++
			}
			if count["X AscendCL@aclrtLaunchKernel"] != 21 || count["X AscendCL@aclrtMemcpy"] < 40 {
				t.Errorf("API calls: %d launches, %d copies; want 21 and at least 40", count["X AscendCL@aclrtLaunchKernel"], count["X AscendCL@aclrtMemcpy"])
			}
			if count["X vadd"] != 42 {
				t.Errorf("vadd events %d, want 42 (21 tasks on their stream's and the engine's track)", count["X vadd"])
			}
			if count["s HostToDevice"] < 21 || count["s HostToDevice"] != count["f HostToDevice"] {
				t.Errorf("flows: %d starts, %d ends; want one per launch at least, paired", count["s HostToDevice"], count["f HostToDevice"])
			}
			if c.name != "seed" {
				csvs, _ := filepath.Glob(filepath.Join(filepath.Dir(m[0]), "*.csv"))
				if len(csvs) != 3 {
					t.Errorf("CSVs beside the timeline: %v, want op_summary, task_time and api_statistic", csvs)
				}
			}
		})
	}
}

// TestProfilingAscendCBytes profiles the Ascend C program: its kernels'
// DataCopy traffic is each kernel task's Bytes, what the report's memory
// bandwidth counts.
func TestProfilingAscendCBytes(t *testing.T) {
	tl := setup(t)
	exe, kern := tl.program(t, "43_ascendc"), tl.kernel(t, "ascendc")
	dir := t.TempDir()
	env := append(append([]string{}, tl.env...), "ASCEND_PROFILING_ENABLED=1", "ASCEND_PROFILING_OUTPUT_PATH="+dir)
	res := runProgramEnv(t, time.Minute, env, exe, kern)
	if res.err != nil || !strings.Contains(res.stdout, "PASS 43_ascendc") {
		t.Fatalf("%v\n%s\n%s", res.err, res.stdout, res.stderr)
	}
	m, _ := filepath.Glob(filepath.Join(dir, "profiling_*.json"))
	if len(m) != 1 {
		t.Fatalf("timelines in %s: %v", dir, m)
	}
	b, err := os.ReadFile(m[0])
	if err != nil {
		t.Fatal(err)
	}
	var evs []struct {
		Ph, Name string
		Tid      int64
		Args     map[string]any
	}
	if err := json.Unmarshal(b, &evs); err != nil {
		t.Fatal(err)
	}
	// add_half over 16384 halves: x and y read, z written, 3 x 32 KiB.
	found := false
	for _, e := range evs {
		if e.Ph == "X" && e.Name == "add_half" && e.Tid < 100000 {
			found = true
			if got, _ := e.Args["Bytes"].(float64); got != 3*16384*2 {
				t.Errorf("add_half moved %v bytes, want %d", e.Args["Bytes"], 3*16384*2)
			}
		}
	}
	if !found {
		t.Errorf("no add_half task in the timeline")
	}
}
