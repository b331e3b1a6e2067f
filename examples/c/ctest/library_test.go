package ctest_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The front library finds its core wherever the front is, and the core
// binds its own symbols. 25_library defines stand-ins for the core's symbol
// names that abort if called; linked -rdynamic they are in the global
// scope, ahead of the core.

// copyFile copies src to dst with mode 0755.
func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o755); err != nil {
		t.Fatal(err)
	}
}

// libraryProgram builds 25_library linked against the libascendcl.so in
// dir, found through its run path.
func libraryProgram(t *testing.T, tl *tools, dir string) string {
	t.Helper()
	exe := filepath.Join(t.TempDir(), "25_library")
	args := append(append([]string{}, cflags...), "-I"+tl.include, "-rdynamic", "-o", exe,
		filepath.Join(tl.src, "25_library.c"), "-L"+dir, "-lascendcl", "-Wl,-rpath,"+dir)
	if _, err := run(tl.src, "gcc", args...); err != nil {
		t.Fatal(err)
	}
	return exe
}

// runLibrary runs exe with env added and checks it passed.
func runLibrary(t *testing.T, exe string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(exe, args...)
	cmd.Dir = t.TempDir()
	cmd.Env = isolated(append(os.Environ(), env...))
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "\nPASS 25_library\n") {
		t.Fatalf("%s %v: %v\n%s", exe, args, err, out)
	}
	return string(out)
}

func TestLibraryLayouts(t *testing.T) {
	tl := setup(t)
	kernels := tl.kernel(t, "direct")
	noPath := []string{"LD_LIBRARY_PATH="}

	t.Run("build tree", func(t *testing.T) {
		out := runLibrary(t, libraryProgram(t, tl, tl.lib), noPath, kernels)
		for _, w := range []string{"ok: 50 launches through both launch paths counted 50",
			"ok: the error message names the call", "ok: a kernel that calls Trap"} {
			if !strings.Contains(out, w) {
				t.Errorf("output lacks %q:\n%s", w, out)
			}
		}
	})
	t.Run("copies", func(t *testing.T) {
		dir := t.TempDir()
		for _, f := range []string{"libascendcl.so", "libgocann_core.so"} {
			copyFile(t, filepath.Join(tl.lib, f), filepath.Join(dir, f))
		}
		runLibrary(t, libraryProgram(t, tl, dir), noPath, kernels)
	})
	t.Run("symlink", func(t *testing.T) {
		// A link elsewhere to the build tree's front: the core is found
		// beside the file the link leads to.
		dir := t.TempDir()
		if err := os.Symlink(filepath.Join(tl.lib, "libascendcl.so"), filepath.Join(dir, "libascendcl.so")); err != nil {
			t.Fatal(err)
		}
		runLibrary(t, libraryProgram(t, tl, dir), noPath, kernels)
	})
	t.Run("no core", func(t *testing.T) {
		dir := t.TempDir()
		copyFile(t, filepath.Join(tl.lib, "libascendcl.so"), filepath.Join(dir, "libascendcl.so"))
		exe := libraryProgram(t, tl, dir)
		out := runLibrary(t, exe, noPath, kernels, "no-core")
		if !strings.Contains(out, "cannot be loaded") {
			t.Errorf("the front did not say on stderr that its core cannot be loaded:\n%s", out)
		}
		// Named explicitly, the core loads from anywhere.
		runLibrary(t, exe, append(noPath, "GOCANN_CORE_LIBRARY="+filepath.Join(tl.lib, "libgocann_core.so")), kernels)
	})
}

// TestLoadedByCtypes loads the library as Python's ctypes does, with
// RTLD_LOCAL, and launches a kernel: the kernel binary still resolves
// GetBlockIdx through the global scope.
func TestLoadedByCtypes(t *testing.T) {
	tl := setup(t)
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	kernels := tl.kernel(t, "direct")
	script := `
import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
c = ctypes.c_void_p
def check(rc, what):
    if rc != 0:
        sys.exit("%s returned %d" % (what, rc))
check(lib.aclInit(None), "aclInit")
check(lib.aclrtSetDevice(0), "aclrtSetDevice")
s, counter, binh, f = c(), c(), c(), c()
check(lib.aclrtCreateStream(ctypes.byref(s)), "aclrtCreateStream")
check(lib.aclrtMalloc(ctypes.byref(counter), ctypes.c_size_t(8), 0), "aclrtMalloc")
check(lib.aclrtMemset(counter, ctypes.c_size_t(8), 0, ctypes.c_size_t(8)), "aclrtMemset")
check(lib.aclrtBinaryLoadFromFile(sys.argv[2].encode(), None, ctypes.byref(binh)), "aclrtBinaryLoadFromFile")
check(lib.aclrtBinaryGetFunction(binh, b"count_up", ctypes.byref(f)), "aclrtBinaryGetFunction")
for _ in range(20):
    check(lib.aclrtLaunchKernel(f, 1, ctypes.byref(counter), ctypes.c_size_t(8), s), "aclrtLaunchKernel")
check(lib.aclrtSynchronizeStream(s), "aclrtSynchronizeStream")
n = ctypes.c_uint64()
check(lib.aclrtMemcpy(ctypes.byref(n), ctypes.c_size_t(8), counter, ctypes.c_size_t(8), 2), "aclrtMemcpy")
if n.value != 20:
    sys.exit("counter %d, expected 20" % n.value)
check(lib.aclFinalize(), "aclFinalize")
print("PASS ctypes")
`
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, "-c", script, filepath.Join(tl.lib, "libascendcl.so"), kernels)
	cmd.Env = append(os.Environ(), "LD_LIBRARY_PATH=")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "PASS ctypes") {
		t.Fatalf("python3 with ctypes: %v\n%s", err, out)
	}
}

// TestAppLog runs ACL_APP_LOG at each level under the log environment
// variables and reads where the lines went.
func TestAppLog(t *testing.T) {
	tl := setup(t)
	exe := tl.program(t, "26_applog")
	logs := func(t *testing.T, env ...string) string {
		t.Helper()
		cmd := exec.Command(exe)
		cmd.Dir = t.TempDir()
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.Output()
		if err != nil || !strings.Contains(string(out), "PASS 26_applog") {
			t.Fatalf("26_applog: %v\n%s", err, out)
		}
		return string(out)
	}
	t.Run("stdout", func(t *testing.T) {
		out := logs(t, "ASCEND_SLOG_PRINT_TO_STDOUT=1", "ASCEND_GLOBAL_LOG_LEVEL=1", "ASCEND_MODULE_LOG_LEVEL=")
		for _, w := range []string{`[INFO] APP(`, ` main:`, `26_applog.c:16: "info line 2 before aclInit"`,
			`[WARNING] APP(`, `"warning line three"`, `[ERROR] APP(`, `"error line 4"`, `xxxxx...[truncated]`} {
			if !strings.Contains(out, w) {
				t.Errorf("stdout lacks %q:\n%s", w, out)
			}
		}
		if strings.Contains(out, "debug line") {
			t.Errorf("a debug line was written at level 1:\n%s", out)
		}
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, "[truncated]") && len(l) > 1200 {
				t.Errorf("a truncated line is %d bytes long", len(l))
			}
		}
	})
	t.Run("module level", func(t *testing.T) {
		out := logs(t, "ASCEND_SLOG_PRINT_TO_STDOUT=1", "ASCEND_GLOBAL_LOG_LEVEL=0", "ASCEND_MODULE_LOG_LEVEL=GE=0:APP=3")
		if strings.Contains(out, "info line") || !strings.Contains(out, "error line 4") {
			t.Errorf("APP=3 should keep only errors:\n%s", out)
		}
	})
	t.Run("plog file", func(t *testing.T) {
		dir := t.TempDir()
		out := logs(t, "ASCEND_SLOG_PRINT_TO_STDOUT=0", "ASCEND_GLOBAL_LOG_LEVEL=", "ASCEND_MODULE_LOG_LEVEL=", "ASCEND_PROCESS_LOG_PATH="+dir)
		if strings.Contains(out, "APP(") {
			t.Errorf("log lines reached stdout:\n%s", out)
		}
		files, _ := filepath.Glob(filepath.Join(dir, "debug", "plog", "plog-*.log"))
		if len(files) != 1 {
			t.Fatalf("plog files: %v, expected one", files)
		}
		b, err := os.ReadFile(files[0])
		if err != nil {
			t.Fatal(err)
		}
		// The default level is ERROR.
		if s := string(b); strings.Contains(s, "warning line") || !strings.Contains(s, `"error line 4"`) {
			t.Errorf("%s at the default level:\n%s", files[0], s)
		}
	})
}
