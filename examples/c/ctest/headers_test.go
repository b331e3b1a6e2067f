package ctest_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
)

// The flags a CANN application builds with: C11, and C++17 with the old
// libstdc++ ABI as CANN's own libraries use it; and strict C99, which
// older C code bases keep to.
var (
	cHeaderFlags   = []string{"-std=c11", "-Wall", "-Wextra", "-Werror"}
	cxxHeaderFlags = []string{"-std=c++17", "-O2", "-Wall", "-Werror", "-D_GLIBCXX_USE_CXX11_ABI=0"}
	c99HeaderFlags = []string{"-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror"}
)

// headers lists the public C headers, relative to include/: all but the
// Ascend C subset (gocann/ascendc/), which is C++ only and which check.sh
// compiles as C++.
func headers(t *testing.T, include string) []string {
	t.Helper()
	var hs []string
	err := filepath.WalkDir(include, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() == "ascendc" {
			return filepath.SkipDir
		}
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".h") {
			rel, _ := filepath.Rel(include, p)
			hs = append(hs, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(hs)
	if len(hs) < 5 {
		t.Fatalf("found only %v under %s", hs, include)
	}
	return hs
}

// TestHeaders runs include/check.sh (each header alone as C11 and C++17,
// declared functions, values and layouts) and compiles all the headers
// together in one translation unit, as C11, as C++17 and as pedantic C99,
// and each alone as pedantic C99.
func TestHeaders(t *testing.T) {
	tl := setup(t)
	if _, err := exec.LookPath("g++"); err != nil {
		t.Fatal("g++ not found: the headers must compile as C++17 too")
	}
	if out, err := run(tl.root, "sh", filepath.Join(tl.include, "check.sh")); err != nil {
		t.Fatal(err)
	} else {
		t.Logf("check.sh: %s", strings.TrimSpace(out))
	}

	dir := t.TempDir()
	var all strings.Builder
	for _, h := range headers(t, tl.include) {
		fmt.Fprintf(&all, "#include <%s>\n", h)
	}
	all.WriteString("int main(void) { return ACL_SUCCESS; }\n")
	for _, c := range []struct {
		file, compiler string
		flags          []string
	}{
		{"all.c", "gcc", cHeaderFlags},
		{"all.cc", "g++", cxxHeaderFlags},
		{"all99.c", "gcc", c99HeaderFlags},
	} {
		src := filepath.Join(dir, c.file)
		if err := os.WriteFile(src, []byte(all.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		args := append(append([]string{}, c.flags...), "-I"+tl.include, "-c", src, "-o", src+".o")
		if _, err := run(dir, c.compiler, args...); err != nil {
			t.Errorf("all headers together: %v", err)
		}
	}
	for i, h := range headers(t, tl.include) {
		src := filepath.Join(dir, fmt.Sprintf("alone%d.c", i))
		if err := os.WriteFile(src, []byte("#include <"+h+">\nint main(void) { return 0; }\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		args := append(append([]string{}, c99HeaderFlags...), "-I"+tl.include, "-fsyntax-only", src)
		if _, err := run(dir, "gcc", args...); err != nil {
			t.Errorf("%s alone as C99: %v", h, err)
		}
	}
}

// declRE finds a function name in a declaration line of acl/*.h, which
// starts with ACL_FUNC_VISIBILITY (MSVP_PROF_API in the profiling
// headers) and has the name just before "(".
var declRE = regexp.MustCompile(`^(?:ACL_FUNC_VISIBILITY|MSVP_PROF_API)\b.*?([A-Za-z_][A-Za-z0-9_]*)\s*\(`)

// kernelDeclRE finds the functions gocann/kernel.h declares for kernels.
var kernelDeclRE = regexp.MustCompile(`^(?:int64_t|void)\s+([A-Za-z_][A-Za-z0-9_]*)\s*\((?:void|const char \*message)\);`)

// declared returns every function the public headers declare.
func declared(t *testing.T, include string) []string {
	t.Helper()
	seen := map[string]bool{}
	for _, h := range headers(t, include) {
		f, err := os.Open(filepath.Join(include, h))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if m := declRE.FindStringSubmatch(line); m != nil {
				seen[m[1]] = true
			} else if m := kernelDeclRE.FindStringSubmatch(line); m != nil && strings.HasPrefix(h, "gocann/") {
				seen[m[1]] = true
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	var names []string
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// TestExports checks that every function the headers declare is a dynamic
// symbol of the library, found at run time by dlsym both in the process
// (linked with -lascendcl) and in libacl_rt.so opened by name.
func TestExports(t *testing.T) {
	tl := setup(t)
	names := declared(t, tl.include)
	if len(names) < 100 {
		t.Fatalf("found only %d declared functions: %v", len(names), names)
	}
	for _, must := range []string{"aclInit", "aclrtLaunchKernelWithArgsArray", "aclGetRecentErrMsg", "GetBlockIdx", "Trap", "gocann_trap"} {
		if sort.SearchStrings(names, must) == len(names) || names[sort.SearchStrings(names, must)] != must {
			t.Fatalf("the header scan missed %s", must)
		}
	}

	var src strings.Builder
	src.WriteString(`#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>

#include "acl/acl.h"

static const char *names[] = {
`)
	for _, n := range names {
		fmt.Fprintf(&src, "\t%q,\n", n)
	}
	src.WriteString(`};

int main(int argc, char **argv)
{
	int missing = 0;
	void *rt = argc > 1 ? dlopen(argv[1], RTLD_NOW | RTLD_LOCAL) : NULL;
	if (rt == NULL) {
		printf("cannot open %s: %s\n", argc > 1 ? argv[1] : "(none)", dlerror());
		return 1;
	}
	if (aclrtGetSocName() == NULL) { /* the library is linked: its symbols are global */
		return 1;
	}
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		if (dlsym(RTLD_DEFAULT, names[i]) == NULL) {
			printf("missing in the process: %s\n", names[i]);
			missing++;
		}
		if (dlsym(rt, names[i]) == NULL) {
			printf("missing in %s: %s\n", argv[1], names[i]);
			missing++;
		}
	}
	printf("%zu functions checked, %d missing\n", sizeof names / sizeof names[0], missing);
	return missing != 0;
}
`)
	dir := t.TempDir()
	c := filepath.Join(dir, "exports.c")
	if err := os.WriteFile(c, []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "exports")
	args := append(append([]string{}, cHeaderFlags...), "-I"+tl.include, "-o", exe, c, "-L"+tl.lib, "-Wl,--no-as-needed", "-lascendcl",
		"-ldl", "-Wl,-rpath,"+tl.lib)
	if _, err := run(dir, "gcc", args...); err != nil {
		t.Fatal(err)
	}
	res := tl.runProgram(t, time.Minute, exe, filepath.Join(tl.lib, "libacl_rt.so"))
	if res.err != nil {
		t.Fatalf("%v\n%s%s", res.err, res.stdout, res.stderr)
	}
	t.Log(strings.TrimSpace(res.stdout))
}
