package gocann_test

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/gocann/gocann"

// TestImportGraph keeps the layering of ARCHITECTURE.md: hal imports only
// the standard library; sim only hal and golang.org/x/sys; internal
// packages never sim or the root; only the root and above see everything.
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
	out, err := exec.Command("go", "list", "./internal/...").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		check(pkg, under(module+"/hal", module+"/internal"))
	}
}
