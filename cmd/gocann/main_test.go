package main

import (
	"bytes"
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
