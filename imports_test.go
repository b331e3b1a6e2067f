package gocann_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/gocann/gocann"

// cgoPackages are the packages that need cgo: the C ABI and the loader of
// C kernels. Everything else builds with CGO_ENABLED=0.
var cgoPackages = map[string]bool{module + "/capi": true, module + "/ckernel": true}

// goList runs go list with args and returns the fields of its output.
func goList(t *testing.T, args ...string) []string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list"}, args...)...).Output()
	if err != nil {
		t.Fatalf("go list %s: %v", strings.Join(args, " "), err)
	}
	return strings.Fields(string(out))
}

// under reports whether a package path is one of prefixes or below one.
func under(prefixes ...string) func(string) bool {
	return func(dep string) bool {
		for _, p := range prefixes {
			if dep == p || strings.HasPrefix(dep, p+"/") {
				return true
			}
		}
		return false
	}
}

// TestImportGraph keeps the layering of ARCHITECTURE.md: kernel, the
// kernel contract, imports only the standard library; hal only kernel; sim
// only hal, kernel and golang.org/x/sys, and its cross-process state
// (sim/shared) only golang.org/x/sys; internal/rterr, the error kinds, only
// hal; internal packages never sim or the root; the compiler driver
// (cmd/bisheng) only internal/asc, which only the standard library; the root none of the cgo
// packages, so the Go API needs no C compiler; ckernel names only kernel,
// internal/rterr and golang.org/x/sys, never the device contract; and capi,
// the C ABI, reaches the runtime through the root package's API (the typed
// and the raw dialect), hal's types and ckernel, never internal/ or sim
// directly.
func TestImportGraph(t *testing.T) {
	deps := func(pkg string, allowed func(dep string) bool) {
		t.Helper()
		for _, dep := range goList(t, "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", pkg) {
			if dep != pkg && !allowed(dep) {
				t.Errorf("%s depends on %s, which the layering forbids", pkg, dep)
			}
		}
	}
	deps(module+"/kernel", under(module+"/kernel"))
	deps(module+"/hal", under(module+"/hal", module+"/kernel"))
	deps(module+"/sim", under(module+"/hal", module+"/kernel", module+"/sim", "golang.org/x/sys"))
	deps(module+"/sim/shared", under(module+"/sim/shared", "golang.org/x/sys"))
	deps(module+"/internal/rterr", under(module+"/hal", module+"/kernel", module+"/internal/rterr"))
	deps(module+"/internal/cheader", under(module+"/internal/cheader"))
	deps(module+"/internal/asc", under(module+"/internal/asc"))
	deps(module+"/cmd/bisheng", under(module+"/internal/asc"))
	deps(module+"/internal/profreport", under(module+"/internal/profreport"))
	deps(module+"/cmd/msprof", under(module+"/internal/profreport"))
	for _, pkg := range goList(t, "./internal/...") {
		deps(pkg, under(module+"/hal", module+"/kernel", module+"/internal"))
	}
	deps(module, under(module+"/hal", module+"/kernel", module+"/internal", module+"/sim", "golang.org/x/sys"))
	deps(module+"/ckernel", under(module+"/hal", module+"/kernel", module+"/internal/rterr", "golang.org/x/sys"))
	for _, dep := range goList(t, "-f", "{{join .Imports \"\\n\"}}", module+"/ckernel") {
		if std := !strings.Contains(strings.Split(dep, "/")[0], "."); !std && !under(module+"/kernel", module+"/internal/rterr", "golang.org/x/sys")(dep) {
			t.Errorf("ckernel imports %s; it may import kernel, internal/rterr and golang.org/x/sys only", dep)
		}
	}

	// capi depends on everything through the root; what it may name itself
	// is its direct imports, tests included.
	allowed := func(dep string) bool {
		return dep == module || under(module+"/hal", module+"/kernel", module+"/ckernel")(dep)
	}
	for _, dep := range goList(t, "-f", "{{join .Imports \"\\n\"}}\n{{join .TestImports \"\\n\"}}", module+"/capi") {
		if std := !strings.Contains(strings.Split(dep, "/")[0], "."); !std && !allowed(dep) {
			t.Errorf("capi imports %s; it may import the root package, hal, kernel and ckernel only", dep)
		}
	}
}

// TestBuildWithoutCgo builds every package but the cgo ones with
// CGO_ENABLED=0, and checks that no other package has cgo files: the Go
// API, the runtime and the simulator need no C compiler.
func TestBuildWithoutCgo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the module again without cgo")
	}
	var pkgs []string
	for _, line := range goList(t, "-f", "{{.ImportPath}},{{len .GoFiles}},{{len .CgoFiles}}", "./...") {
		f := strings.Split(line, ",")
		path, goFiles, cgoFiles := f[0], f[1], f[2]
		switch {
		case cgoPackages[path]:
			if cgoFiles == "0" {
				t.Errorf("%s is listed as a cgo package but has no cgo files; build it without cgo", path)
			}
		case cgoFiles != "0":
			t.Errorf("%s has cgo files; only %v may", path, cgoPackages)
		case goFiles != "0": // packages of tests alone have nothing to build
			pkgs = append(pkgs, path)
		}
	}
	cmd := exec.Command("go", append([]string{"build"}, pkgs...)...)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("CGO_ENABLED=0 go build %s: %v\n%s", strings.Join(pkgs, " "), err, out)
	}
	if len(pkgs) < 10 {
		t.Errorf("built only %v without cgo", pkgs)
	}
}

// directGlue lists the C ABI's files that may import hal: the C launch
// path's glue, which writes hal.SQ entries and mirrors device ranges for
// it. Everything else in capi goes through the root package.
var directGlue = map[string]bool{
	"capi/direct.go": true, "capi/devgone.go": true, "capi/epoch.go": true,
	"capi/direct_test.go": true, "capi/epoch_test.go": true, // and their tests
}

// TestCAPIImports keeps the C ABI above the Go API: its files import the
// root package, ckernel and kernel, and hal only in the direct path's glue; no
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
			case p == module || p == module+"/ckernel" || p == module+"/kernel" || !strings.HasPrefix(p, module+"/"):
			case p == module+"/internal/cheader" && strings.HasPrefix(filepath.ToSlash(path), "capi/gen/"):
				// The generator of the front's forwarders reads the headers;
				// it is a build tool, not linked into the library.
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
