package ctest_test

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// example is one C program: the kernel binary it takes, if any, and lines
// its output must hold (each a substring of a line).
type example struct {
	name   string
	kernel string
	want   []string
}

// envs holds what a program adds to its environment.
var envs = map[string][]string{
	// A collection every 5% of heap growth: many collections run while
	// handles and the direct path's records are reused.
	"22_churn": {"GOGC=5"},
	// Devices 1 and 3 of four, as user devices 0 and 1.
	"30_identity": {"ASCEND_RT_VISIBLE_DEVICES=1,3"},
	// A chip other than the default one, an Atlas A3.
	"40_profiles": {"GOCANN_SOC_NAME=Ascend910_9391"},
	// SetNextTaskStart and WaitPreTaskEnd take effect on an Atlas A3.
	"59_sk_overlap": {"GOCANN_SOC_NAME=Ascend910_9391"},
}

// examples are the programs in the order they run.
var examples = slices.Concat(basicExamples, deviceExamples, runtimeExamples, ipcExamples)

func TestExamples(t *testing.T) {
	runExamples(t, setup(t), examples, time.Minute)
}

// runExamples runs each program against the build tl and checks what it
// printed.
func runExamples(t *testing.T, tl *tools, list []example, timeout time.Duration) {
	start := time.Now()
	for _, ex := range list {
		t.Run(ex.name, func(t *testing.T) {
			var args []string
			if ex.kernel != "" {
				args = append(args, tl.kernel(t, ex.kernel))
			}
			exe := tl.program(t, ex.name)
			res := runProgramEnv(t, timeout, append(append([]string{}, tl.env...), envs[ex.name]...), exe, args...)
			if res.err != nil || !strings.Contains(res.stdout, "\nPASS "+ex.name+"\n") {
				t.Fatalf("%s: %v\nstdout:\n%s\nstderr:\n%s", ex.name, res.err, res.stdout, res.stderr)
			}
			oks := 0
			for _, line := range strings.Split(res.stdout, "\n") {
				if strings.HasPrefix(line, "ok: ") {
					oks++
				}
				if strings.HasPrefix(line, "FAIL") {
					t.Errorf("%s printed %q", ex.name, line)
				}
			}
			for _, w := range ex.want {
				if !strings.Contains(res.stdout, w) {
					t.Errorf("%s: output lacks %q", ex.name, w)
				}
			}
			for _, bad := range []string{"WARNING: DATA RACE", "ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:"} {
				if strings.Contains(res.stderr, bad) {
					t.Errorf("%s: stderr reports %q", ex.name, bad)
				}
			}
			if t.Failed() {
				t.Logf("stdout:\n%s\nstderr:\n%s", res.stdout, res.stderr)
			}
			t.Logf("%s: %d checks passed in %v", ex.name, oks, res.took.Round(time.Millisecond))
		})
	}
	t.Logf("all programs: %v", time.Since(start).Round(time.Millisecond))
}
