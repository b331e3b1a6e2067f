package gocann_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/gocann/gocann"

// TestImportGraph keeps the layering of ARCHITECTURE.md: hal imports only
// the standard library; sim only hal and golang.org/x/sys; internal/rterr,
// the error kinds, only hal; internal packages never sim or the root; only
// the root and above see everything.
func TestImportGraph(t *testing.T) {
	check := func(pkg string, allowed func(dep string) bool) {
		t.Helper()
		out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", pkg).Output()
		if err != nil {
			t.Fatalf("go list %s: %v", pkg, err)
		}
		for _, dep := range strings.Fields(string(out)) {
			if dep != pkg && !allowed(dep) {
				t.Errorf("%s depends on %s, which the layering forbids", pkg, dep)
			}
		}
	}
	under := func(prefixes ...string) func(string) bool {
		return func(dep string) bool {
			for _, p := range prefixes {
				if dep == p || strings.HasPrefix(dep, p+"/") {
					return true
				}
			}
			return false
		}
	}
	check("./hal", under(module+"/hal"))
	check("./sim", under(module+"/hal", module+"/sim", "golang.org/x/sys"))
	check("./internal/rterr", under(module+"/hal", module+"/internal/rterr"))
	out, err := exec.Command("go", "list", "./internal/...").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		check(pkg, under(module+"/hal", module+"/internal"))
	}
}

// directGlue lists the C ABI's files that may import hal: the C launch
// path's glue, which writes hal.SQ entries and mirrors device ranges for
// it. Everything else in capi goes through the root package.
var directGlue = map[string]bool{"capi/direct.go": true, "capi/devgone.go": true}

// TestCAPIImports keeps the C ABI above the Go API: its files import the
// root package and ckernel, and hal only in the direct path's glue; no
// internal package.
func TestCAPIImports(t *testing.T) {
	fset := token.NewFileSet()
	seen := 0
	err := filepath.WalkDir("capi", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		seen++
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			switch {
			case p == module+"/hal" || strings.HasPrefix(p, module+"/hal/"):
				if !directGlue[filepath.ToSlash(path)] {
					t.Errorf("%s imports %s; only the direct path's glue (%v) may", path, p, directGlue)
				}
			case p == module || p == module+"/ckernel" || !strings.HasPrefix(p, module+"/"):
			default:
				t.Errorf("%s imports %s; the C ABI builds on the root package", path, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen < 10 {
		t.Fatalf("read %d Go files under capi, expected the C ABI's", seen)
	}
}
