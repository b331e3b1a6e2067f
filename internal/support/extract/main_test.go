package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRun reads a page with two functions: only the lines of their
// "产品支持情况" sections count, per product, 950PR and 950DT apart.
func TestRun(t *testing.T) {
	var b strings.Builder
	if err := run("testdata", &b); err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, l := range strings.Split(b.String(), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			rows = append(rows, l)
		}
	}
	want := []string{
		"aclrtBar - - . . . . . +",
		"aclrtFoo + - - + . . . .",
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Errorf("matrix rows:\n%s\nwant:\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
}

func TestRunRefuses(t *testing.T) {
	dir := t.TempDir()
	page := "## aclrtFoo\n\n### 产品支持情况\n\n- Atlas 999 系列产品：支持\n"
	if err := os.WriteFile(filepath.Join(dir, "p.md"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := run(dir, &b); err == nil || !strings.Contains(err.Error(), `unknown product "Atlas 999 系列产品"`) {
		t.Errorf("an unknown product: %v", err)
	}
	if err := run(t.TempDir(), &b); err == nil || !strings.Contains(err.Error(), "no .md pages") {
		t.Errorf("an empty directory: %v", err)
	}
}
