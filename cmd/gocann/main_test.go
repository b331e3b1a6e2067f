package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDemo(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"demo"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"checked all 4194304 elements of z = x + y: correct", "host callback ran", "vadd kernel", "H2D copies", "D2H copy",
		"device clock (aclrtEventElapsedTime", "host wall clock:", "asynchronous calls returned in"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestInfo(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"info"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "Ascend910B1") || strings.Count(out.String(), "\n") != 3 {
		t.Errorf("info output:\n%s", out.String())
	}
}

func TestUsage(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run(nil, &out, &errb); code != 2 || !strings.Contains(errb.String(), "usage") {
		t.Errorf("no args: exit %d, stderr %q", code, errb.String())
	}
	if code := run([]string{"-config", "/nonexistent.json", "demo"}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "100003") {
		t.Errorf("bad config: exit %d, stderr %q", code, errb.String())
	}
}

// TestProf: gocann prof reports the timelines under a directory or the
// files named, and names what it cannot read.
func TestProf(t *testing.T) {
	var out, errb bytes.Buffer
	const fixtures = "../../internal/profreport/testdata"
	if code := run([]string{"prof", fixtures + "/session.json"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "vector-core utilization       23.9%") {
		t.Errorf("report:\n%s", out.String())
	}
	dir := t.TempDir()
	b, err := os.ReadFile(fixtures + "/copy.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "profiling_20250101120000_8.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if code := run([]string{"prof", dir}, &out, &errb); code != 0 || !strings.Contains(out.String(), "memory bandwidth utilization  50.0%") {
		t.Errorf("prof DIR: exit %d, %s%s", code, out.String(), errb.String())
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"prof"}, 2, "usage: gocann prof DIR|FILE..."},
		{[]string{"prof", filepath.Join(dir, "nope.json")}, 1, "nope.json: no such file or directory"},
		{[]string{"prof", t.TempDir()}, 1, "no timeline under"},
	} {
		errb.Reset()
		if code := run(tc.args, &out, &errb); code != tc.code || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("gocann %q: exit %d, stderr %q; want %d and %q", tc.args, code, errb.String(), tc.code, tc.want)
		}
	}
}
