package ctest_test

import (
	"bufio"
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// libc_sec.so, the bounds-checking library CANN installs (csec/, header
// securec.h), is checked by securec/checks.c: every function's success and
// each documented error, with the code returned and what is left in the
// destination.

// TestSecurec builds securec/checks.c against the library and headers of
// the build and runs it; checks that the headers compile alone (C11,
// pedantic C99, C++17) and beside acl/acl.h as CANN's samples include
// them; and that the library exports exactly the functions securec.h
// declares.
func TestSecurec(t *testing.T) {
	tl := setup(t)
	csec := filepath.Join(tl.root, "csec")
	t.Run("headers", func(t *testing.T) { testSecurecHeaders(t, tl, csec) })
	t.Run("exports", func(t *testing.T) { testSecurecExports(t, tl, csec) })
	runSecurecChecks(t, tl, csec, time.Minute)
}

// TestSecurecSanitized runs the checks against the library built with
// AddressSanitizer and UndefinedBehaviorSanitizer.
func TestSecurecSanitized(t *testing.T) {
	if os.Getenv("GOCANN_CTEST_SANITIZE") == "" {
		t.Skip("set GOCANN_CTEST_SANITIZE=1 to build the libraries' C with ASan and UBSan and run the programs")
	}
	san := []string{"-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer"}
	tl := setupVariant(t, "sanitize", []string{"SANITIZE=1"}, san,
		[]string{"ASAN_OPTIONS=detect_leaks=1:abort_on_error=0", "UBSAN_OPTIONS=print_stacktrace=1"})
	runSecurecChecks(t, tl, filepath.Join(tl.root, "csec"), time.Minute)
}

// runSecurecChecks builds checks.c with the variant's flags against the
// build's libc_sec.so and the headers in include, and runs it.
func runSecurecChecks(t *testing.T, tl *tools, include string, timeout time.Duration) {
	t.Helper()
	exe := filepath.Join(tl.out, "securec_checks")
	args := append(append(append([]string{}, cflags...), tl.flags...), "-I"+include, "-o", exe,
		filepath.Join(tl.src, "securec", "checks.c"), filepath.Join(tl.src, "securec", "checks_input.c"), "-L"+tl.lib, "-lc_sec", "-Wl,-rpath,"+tl.lib)
	if _, err := run(tl.src, "gcc", args...); err != nil {
		t.Fatal(err)
	}
	res := tl.runProgram(t, timeout, exe)
	checkSecurecOutput(t, res.stdout+res.stderr, res.err)
}

// checkSecurecOutput fails the test unless out is a passing run of checks.c.
func checkSecurecOutput(t *testing.T, out string, err error) {
	t.Helper()
	if err != nil || !strings.Contains(out, "\nPASS securec\n") || strings.Contains(out, "FAIL") {
		t.Fatalf("securec checks: %v\n%s", err, out)
	}
	for _, bad := range []string{"ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:"} {
		if strings.Contains(out, bad) {
			t.Fatalf("securec checks: the output reports %q\n%s", bad, out)
		}
	}
	t.Logf("securec: %d checks passed", strings.Count(out, "ok: "))
}

func testSecurecHeaders(t *testing.T, tl *tools, csec string) {
	if _, err := exec.LookPath("g++"); err != nil {
		t.Fatal("g++ not found: the headers must compile as C++17 too")
	}
	dir := t.TempDir()
	type unit struct{ name, text string }
	var units []unit
	for _, h := range []string{"securec.h", "securectype.h"} {
		units = append(units, unit{h, "#include \"" + h + "\"\nint main(void) { return 0; }\n"})
	}
	// As the samples include them, in both orders, with a use of each.
	units = append(units,
		unit{"with acl.h", "#include \"securec.h\"\n#include \"acl/acl.h\"\nint main(void) { char b[4]; return memset_s(b, sizeof b, 0, sizeof b) + ACL_SUCCESS; }\n"},
		unit{"after acl.h", "#include \"acl/acl.h\"\n#include \"securec.h\"\nint main(void) { char b[4]; return strcpy_s(b, sizeof b, \"ab\") + ACL_SUCCESS; }\n"})
	for i, u := range units {
		for _, c := range []struct {
			ext, compiler string
			flags         []string
		}{
			{".c", "gcc", cHeaderFlags},
			{".c", "gcc", c99HeaderFlags},
			{".cc", "g++", cxxHeaderFlags},
		} {
			src := filepath.Join(dir, fmt.Sprintf("u%d%s", i, c.ext))
			if err := os.WriteFile(src, []byte(u.text), 0o644); err != nil {
				t.Fatal(err)
			}
			args := append(append([]string{}, c.flags...), "-I"+csec, "-I"+tl.include, "-c", src, "-o", src+".o")
			if _, err := run(dir, c.compiler, args...); err != nil {
				t.Errorf("%s (%s %s): %v", u.name, c.compiler, strings.Join(c.flags, " "), err)
			}
		}
	}
}

// securecDeclRE finds a function name in a declaration of securec.h, a
// line starting with SECUREC_API with the name just before "(".
var securecDeclRE = regexp.MustCompile(`^SECUREC_API\b.*?([A-Za-z_][A-Za-z0-9_]*)\s*\(`)

func testSecurecExports(t *testing.T, tl *tools, csec string) {
	f, err := os.Open(filepath.Join(csec, "securec.h"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var declared []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m := securecDeclRE.FindStringSubmatch(strings.TrimSpace(sc.Text())); m != nil {
			declared = append(declared, m[1])
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	// The functions CANN's samples and sources call, and the family's others.
	for _, must := range []string{"memset_s", "memcpy_s", "memmove_s", "strcpy_s", "strncpy_s", "strcat_s", "strncat_s",
		"sprintf_s", "snprintf_s", "vsnprintf_s", "vsprintf_s", "snprintf_truncated_s", "vsnprintf_truncated_s",
		"sscanf_s", "strtok_s", "gets_s", "wcscpy_s", "swscanf_s", "GetHwSecureCVersion"} {
		if !slices.Contains(declared, must) {
			t.Errorf("securec.h does not declare %s", must)
		}
	}

	lib, err := elf.Open(filepath.Join(tl.lib, "libc_sec.so"))
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	syms, err := lib.DynamicSymbols()
	if err != nil {
		t.Fatal(err)
	}
	var exported []string
	for _, s := range syms {
		if s.Section != elf.SHN_UNDEF && elf.ST_TYPE(s.Info) == elf.STT_FUNC && elf.ST_BIND(s.Info) == elf.STB_GLOBAL {
			exported = append(exported, s.Name)
		}
	}
	slices.Sort(declared)
	slices.Sort(exported)
	if !slices.Equal(declared, exported) {
		t.Errorf("libc_sec.so exports\n%v\nsecurec.h declares\n%v", exported, declared)
	}
	t.Logf("libc_sec.so exports the %d functions securec.h declares", len(declared))
}

// testSecurecInstalled builds, after set_env.sh, examples/c/securec as
// CANN's samples are built (its CMakeLists.txt links
// ${ASCEND_CANN_PACKAGE_PATH}/lib64/libc_sec.so and includes securec.h
// from the package) and runs it; then checks.c with -lc_sec from the
// installed tree.
func testSecurecInstalled(t *testing.T, tl *tools, shell, source, prefix string) {
	for _, f := range []string{"include/securec.h", "include/securectype.h", "lib64/libc_sec.so"} {
		if !fileExists(filepath.Join(prefix, f)) {
			t.Errorf("make install did not create %s", f)
		}
	}
	dir := t.TempDir()
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}

	script := source + ` "$1/set_env.sh" && cd "$3" && gcc -std=c11 -Wall -Wextra -Werror "$2/checks.c" "$2/checks_input.c" ` +
		`-I"$ASCEND_HOME_PATH/include" -L"$ASCEND_HOME_PATH/lib64" -lc_sec -o checks && ./checks`
	cmd := exec.Command(shell, "-c", script, "sh", prefix, filepath.Join(tl.src, "securec"), dir)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	checkSecurecOutput(t, string(out), err)

	needCMake(t)
	build := filepath.Join(dir, "build")
	script = source + ` "$1/set_env.sh" && cmake -S "$2" -B "$3" && cmake --build "$3" && "$3/main"`
	cmd = exec.Command(shell, "-c", script, "sh", prefix, filepath.Join(tl.src, "securec"), build)
	cmd.Env = env
	out, err = cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "\nPASS securec_sample\n") {
		t.Fatalf("the sample-shaped CMake project: %v\n%s", err, out)
	}
	t.Logf("the sample-shaped CMake project: %d checks passed", strings.Count(string(out), "ok: "))
}
