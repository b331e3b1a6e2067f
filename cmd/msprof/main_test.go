package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const fixtures = "../../internal/profreport/testdata"

// TestMain lets the test binary stand in for a profiled program: with
// MSPROF_FAKE_APP set it does what the runtime does under msprof, reading
// PROFILING_MODE and PROFILING_OPTIONS and writing a timeline in CANN's
// layout (a copy of the named fixture), then exits with its first argument.
func TestMain(m *testing.M) {
	if fixture := os.Getenv("MSPROF_FAKE_APP"); fixture != "" {
		os.Exit(fakeApp(fixture))
	}
	os.Exit(m.Run())
}

func fakeApp(fixture string) int {
	var opts map[string]string
	if os.Getenv("PROFILING_MODE") != "true" {
		fmt.Fprintln(os.Stderr, "fake app: PROFILING_MODE is", os.Getenv("PROFILING_MODE"))
		return 101
	}
	if err := json.Unmarshal([]byte(os.Getenv("PROFILING_OPTIONS")), &opts); err != nil {
		fmt.Fprintln(os.Stderr, "fake app: PROFILING_OPTIONS:", err)
		return 102
	}
	for _, k := range []string{"task_time", "runtime_api", "msproftx"} {
		if opts[k] != "on" {
			fmt.Fprintf(os.Stderr, "fake app: %s is %q\n", k, opts[k])
			return 103
		}
	}
	if !filepath.IsAbs(opts["output"]) {
		fmt.Fprintln(os.Stderr, "fake app: output is not absolute:", opts["output"])
		return 104
	}
	dir := filepath.Join(opts["output"], fmt.Sprintf("PROF_%d_20250101120000000_ABCDEFGH", os.Getpid()), "mindstudio_profiler_output")
	b, err := os.ReadFile(fixture)
	if err == nil {
		err = os.MkdirAll(dir, 0o755)
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, "msprof_20250101120000.json"), b, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake app:", err)
		return 105
	}
	fmt.Printf("fake app ran with %q\n", os.Args[1:])
	status, _ := strconv.Atoi(os.Args[1])
	return status
}

func runMsprof(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// TestFlagErrors: every mistake on the command line is exit status 2 and a
// message naming it, then the usage.
func TestFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "nothing to do"},
		{[]string{"--bogus"}, "unknown option --bogus"},
		{[]string{"--bogus=1", "--view", "x.json"}, "unknown option --bogus=1"},
		{[]string{"--export=maybe", "--output=d"}, "--export=maybe: want on or off"},
		{[]string{"--export=on"}, "give --output"},
		{[]string{"--export=off"}, "nothing to do"},
		{[]string{"--output"}, "--output needs a value"},
		{[]string{"--output="}, "--output is empty"},
		{[]string{"--application="}, "--application is empty"},
		{[]string{"--application=  "}, "--application is empty"},
		{[]string{"--view"}, "--view needs the timeline files"},
		{[]string{"--view=a.json"}, "--view takes files after it"},
		{[]string{"--view", "--output=d", "a.json"}, "--output does not apply"},
		{[]string{"--export=on", "--output=d", "--view", "a.json"}, "give one"},
		{[]string{"--application=./a", "./b"}, "both --application and a program"},
		{[]string{"--output=a", "--output=b", "--export=on"}, "--output is given twice"},
		{[]string{"--application=./app 'x"}, "a ' is not closed"},
		{[]string{"--application=./app \"x"}, "a \" is not closed"},
	} {
		code, _, stderr := runMsprof(t, tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("msprof %q: exit %d, stderr %q; want 2 and %q", tc.args, code, stderr, tc.want)
		}
		if tc.want != "a ' is not closed" && tc.want != "a \" is not closed" && !strings.Contains(stderr, "usage:") {
			t.Errorf("msprof %q: no usage after the error", tc.args)
		}
	}
	if code, stdout, _ := runMsprof(t, "--help"); code != 0 || !strings.Contains(stdout, "--application=CMD") {
		t.Errorf("--help: exit %d, %q", code, stdout)
	}
}

func copyFixture(t *testing.T, name, dst string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtures, name))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestView: --view prints the report of the files named and writes
// report.html beside the first.
func TestView(t *testing.T) {
	dir := t.TempDir()
	a := copyFixture(t, "session.json", filepath.Join(dir, "a", "msprof_1.json"))
	b := copyFixture(t, "copy.json", filepath.Join(dir, "b", "msprof_2.json"))
	code, stdout, stderr := runMsprof(t, "--view", a, b)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"2 timelines", "Device 0: Ascend910B1", "Device 1: Ascend910B1", "vector-core utilization       23.9%",
		"memory bandwidth utilization  50.0%", "aclrtSynchronizeStream", "Wrote " + filepath.Join(dir, "a", "report.html")} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the report lacks %q:\n%s", want, stdout)
		}
	}
	page, err := os.ReadFile(filepath.Join(dir, "a", "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	// session.json's 27 slices and copy.json's 3.
	if n := len(regexp.MustCompile(`<rect class="task[ "]`).FindAll(page, -1)); n != 30 {
		t.Errorf("report.html draws %d task rectangles; want 30", n)
	}
}

// TestViewBadFiles: a missing or malformed file is an error naming it.
func TestViewBadFiles(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte("[\n{\"name\":\"x\",\"ph\":\"X\"}\n]"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ file, want string }{
		{filepath.Join(dir, "missing.json"), "missing.json: no such file or directory"},
		{bad, bad + `:2: event "x" (ph "X") has no "pid"`},
		{dir, dir + ": is a directory"},
	} {
		code, _, stderr := runMsprof(t, "--view", tc.file)
		if code != 1 || !strings.Contains(stderr, tc.want) {
			t.Errorf("--view %s: exit %d, stderr %q; want 1 and %q", tc.file, code, stderr, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "report.html")); err == nil {
		t.Error("report.html written for a report that failed")
	}
}

// TestExport: --export=on reports every timeline under --output, in CANN's
// layout or not, and says so when there is none.
func TestExport(t *testing.T) {
	dir := t.TempDir()
	copyFixture(t, "vector_half.json", filepath.Join(dir, "PROF_7_20250101120000000_ABCDEFGH", "mindstudio_profiler_output", "msprof_20250101120000.json"))
	copyFixture(t, "copy.json", filepath.Join(dir, "profiling_20250101120000_8.json"))
	os.WriteFile(filepath.Join(dir, "other.json"), []byte("{not a timeline"), 0o644)
	code, stdout, stderr := runMsprof(t, "--export=on", "--output="+dir)
	if code != 0 || !strings.Contains(stdout, "2 timelines") || !strings.Contains(stdout, "vector-core utilization       50.0%") {
		t.Errorf("exit %d, stderr %q, report:\n%s", code, stderr, stdout)
	}
	empty := t.TempDir()
	if code, _, stderr := runMsprof(t, "--export=on", "--output", empty); code != 1 || !strings.Contains(stderr, "no timeline under "+empty) {
		t.Errorf("an empty directory: exit %d, %q", code, stderr)
	}
	if code, _, stderr := runMsprof(t, "--export=on", "--output", filepath.Join(empty, "nope")); code != 1 || !strings.Contains(stderr, "nope: no such file") {
		t.Errorf("a missing directory: exit %d, %q", code, stderr)
	}
}

// TestApplication: msprof runs the program with PROFILING_MODE and
// PROFILING_OPTIONS set, then reports only the timelines it wrote, and
// exits with the program's status.
func TestApplication(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	// An earlier run's timeline stays out of this run's report.
	copyFixture(t, "copy.json", filepath.Join(out, "PROF_1_20240101120000000_ZZZZZZZZ", "mindstudio_profiler_output", "msprof_20240101120000.json"))

	t.Setenv("MSPROF_FAKE_APP", filepath.Join(fixtures, "vector_half.json"))
	// The parent's own runs are not fake: only its children see the
	// variable, through os.Environ.
	code, stdout, stderr := runMsprof(t, "--output="+out, `--application=`+self+` 0 "two words"`)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{`fake app ran with ["0" "two words"]`, "1 timeline,", "vector-core utilization       50.0%"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "Device 1") {
		t.Errorf("the earlier run's timeline is in the report:\n%s", stdout)
	}

	// The program after the options, failing: its status, and the report.
	code, stdout, stderr = runMsprof(t, "--output", out, self, "3")
	if code != 3 || !strings.Contains(stderr, "exited with status 3") || !strings.Contains(stdout, "vector-core utilization") {
		t.Errorf("a failing program: exit %d, stderr %q, stdout:\n%s", code, stderr, stdout)
	}

	// A program that writes nothing, and one that is not there.
	t.Setenv("MSPROF_FAKE_APP", "")
	if code, _, stderr := runMsprof(t, "--output="+t.TempDir(), "--application=true"); code != 1 || !strings.Contains(stderr, "true wrote no timeline under") {
		t.Errorf("a program writing nothing: exit %d, %q", code, stderr)
	}
	if code, _, stderr := runMsprof(t, "--application=./no-such-app x"); code != 1 || !strings.Contains(stderr, "the application ./no-such-app") {
		t.Errorf("a missing program: exit %d, %q", code, stderr)
	}
}

func TestSplitCommand(t *testing.T) {
	for in, want := range map[string][]string{
		"./app":                       {"./app"},
		"  ./app  a   b ":             {"./app", "a", "b"},
		`./app "a b" 'c d' e\ f`:      {"./app", "a b", "c d", "e f"},
		`./app "say \"hi\"" 'x"y'`:    {"./app", `say "hi"`, `x"y`},
		`./app a"b c"d ''`:            {"./app", "ab cd", ""},
		"python3 -c 'import acl'\tx ": {"python3", "-c", "import acl", "x"},
	} {
		got, err := splitCommand(in)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("splitCommand(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}
