package gocann_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gocann/gocann/internal/cannmap"
)

// TestCoverageTable keeps docs/coverage.md current: every exported C
// function, its Go functions and the tests that exercise them (go
// generate rewrites it).
func TestCoverageTable(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks every test package of the module")
	}
	entries, _, err := cannmap.Read(".")
	check(t, err)
	want, err := cannmap.Coverage(".", entries)
	check(t, err)
	got, err := os.ReadFile(filepath.Join("docs", "coverage.md"))
	check(t, err)
	if string(got) != string(want) {
		t.Error("docs/coverage.md is stale; run go generate")
	}
}
