package ctest_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fuzzAvoid is what the fuzzer avoids unless GOCANN_FUZZ_AVOID says
// otherwise: the defect classes it has found that are not fixed yet (none
// now). Name a class here only while its fix is pending
// (examples/c/fuzz/README.md lists them).
const fuzzAvoid = ""

// TestFuzz builds the C-ABI fuzzer (examples/c/fuzz) against a tree
// installed with make install, the way a CANN program is built, and runs
// it for a few fixed seeds, so that a run is the same run everywhere;
// GOCANN_FUZZ_RANDOM=1 adds a random one, to explore. GOCANN_FUZZ_CALLS
// sets the calls per seed, GOCANN_FUZZ_SEED the seeds (comma-separated),
// GOCANN_FUZZ_AVOID the defect classes to avoid ("none" for none). Any finding fails the test with the fuzzer's report: the seed and
// the calls that led to it.
func TestFuzz(t *testing.T) {
	tl := setup(t)
	calls := envInt(t, "GOCANN_FUZZ_CALLS", 8000)
	seeds := os.Getenv("GOCANN_FUZZ_SEED")
	if seeds == "" {
		seeds = "1,2,3,4"
	}
	if os.Getenv("GOCANN_FUZZ_RANDOM") != "" {
		seeds += "," + strconv.FormatInt(time.Now().UnixNano()%1000000007, 10)
		t.Logf("seeds %s (the last one random)", seeds)
	}
	avoid, ok := os.LookupEnv("GOCANN_FUZZ_AVOID")
	if !ok {
		avoid = fuzzAvoid
	}

	dir := t.TempDir()
	prefix := filepath.Join(dir, "cann")
	if _, err := run(tl.root, "make", "install", "PREFIX="+prefix, "BUILD="+filepath.Join(dir, "build")); err != nil {
		t.Fatal(err)
	}
	sources, err := filepath.Glob(filepath.Join(tl.src, "fuzz", "*.c"))
	if err != nil || len(sources) == 0 {
		t.Fatalf("no fuzzer sources in %s: %v", filepath.Join(tl.src, "fuzz"), err)
	}
	bin := filepath.Join(dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	fz, kern := filepath.Join(bin, "fuzz"), filepath.Join(bin, "libfuzzk.so")
	script := `source "$1/set_env.sh" && ` +
		`gcc -g -O2 -shared -fPIC -I"$ASCEND_HOME_PATH/include" "$2" -o "$3" && ` +
		`gcc ` + strings.Join(cflags, " ") + ` -I"$ASCEND_HOME_PATH/include" -o "$4" "${@:5}" ` +
		`-L"$ASCEND_HOME_PATH/lib64" -lascendcl -pthread -lm`
	args := append([]string{"-c", script, "sh", prefix, filepath.Join(tl.src, "kernels", "fuzz.c"), kern, fz}, sources...)
	build := exec.Command("bash", args...)
	build.Env = []string{"PATH=" + os.Getenv("PATH")}
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the fuzzer after set_env.sh: %v\n%s", err, out)
	}

	fargs := []string{"-s", seeds, "-n", strconv.Itoa(calls)}
	if avoid != "" && avoid != "none" {
		fargs = append(fargs, "-x", avoid)
	}
	fargs = append(fargs, kern)
	// The fuzzer bounds each seed and each call itself; this is the last resort.
	nseeds := strings.Count(seeds, ",") + 1
	limit := time.Duration(nseeds)*(3*time.Minute+time.Duration(calls)*time.Millisecond) + time.Minute
	cmd := exec.Command(fz, fargs...)
	cmd.Dir = t.TempDir()
	// The fuzzer and its IPC peer share a machine of their own, which must
	// be gone once they end.
	machine := fmt.Sprintf("ctest-fuzz-%d", os.Getpid())
	cmd.Env = append(os.Environ(), "LD_LIBRARY_PATH="+filepath.Join(prefix, "lib64"), "GOCANN_MACHINE="+machine)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(limit):
		cmd.Process.Kill()
		err = fmt.Errorf("killed after %v", limit)
		<-done
	}
	summary := lastLine(out.String(), "fuzz: seeds ")
	if err != nil || summary == "" {
		t.Fatalf("fuzz %s: %v\n%s", strings.Join(fargs, " "), err, out.String())
	}
	t.Logf("%s (%v)", summary, time.Since(start).Round(time.Millisecond))
	if left, _ := filepath.Glob(fmt.Sprintf("/dev/shm/gocann-%d-%s-v*", os.Getuid(), machine)); len(left) > 0 {
		t.Errorf("the fuzzer left its machine's state behind: %v", left)
	}
}

func envInt(t *testing.T, name string, def int) int {
	t.Helper()
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		t.Fatalf("%s=%q: expected a positive number", name, s)
	}
	return n
}

// lastLine returns the last line of out that starts with prefix.
func lastLine(out, prefix string) string {
	lines := strings.Split(out, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.HasPrefix(lines[i], prefix) {
			return lines[i]
		}
	}
	return ""
}
