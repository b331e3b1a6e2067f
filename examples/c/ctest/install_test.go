package ctest_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gocann/gocann"
)

// TestInstall installs a CANN-shaped tree with make install, then builds
// and runs an example the way a CANN application is built, in a clean
// environment (PATH only) where set_env.sh provides the rest: once linked
// as libascendcl and once as libacl_rt.
func TestInstall(t *testing.T) {
	tl := setup(t)
	shell, source := "bash", "source"
	if _, err := exec.LookPath("bash"); err != nil {
		shell, source = "sh", "." // the POSIX spelling of source
	}
	dir := t.TempDir()
	prefix := filepath.Join(dir, "cann")
	if _, err := run(tl.root, "make", "install", "PREFIX="+prefix, "BUILD="+filepath.Join(dir, "build")); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"set_env.sh", "bin/setenv.bash", "include/acl/acl.h", "include/gocann/kernel.h", "lib64/libascendcl.so", "lib64/libacl_rt.so", "lib64/libacl_rt_impl.so", "lib64/libascend_dump.so", "lib64/libgocann_core.so",
		// The Ascend C toolchain where CANN's toolkit keeps it.
		"bin/bisheng", "lib64/cmake/asc-config.cmake", "compiler/tikcpp/ascendc_kernel_cmake/ascendc.cmake",
		"tools/tikcpp/ascendc_kernel_cmake/asc_modules/CMakeASCInformation.cmake", "tools/ccec_compiler/bin/bisheng",
		"tools/tikicpulib/lib/cmake/tikicpulib-config.cmake", "toolkit/tools/tikicpulib/lib/cmake/tikicpulib-config.cmake",
		// The profiler, in bin/ and where CANN's toolkit keeps it.
		"bin/msprof", "tools/profiler/bin/msprof", "toolkit/tools/profiler/bin/msprof"} {
		if !fileExists(filepath.Join(prefix, f)) {
			t.Errorf("make install did not create %s", f)
		}
	}
	if !fileExists(filepath.Join(ascendcCMakeDir(prefix), "ascendc.cmake")) {
		t.Errorf("make install did not create %s", filepath.Join(ascendcCMakeDir(prefix), "ascendc.cmake"))
	}
	t.Run("version.info", func(t *testing.T) { testVersionInfo(t, prefix) })
	t.Run("set_env", func(t *testing.T) { testSetEnv(t, shell, source, prefix) })
	t.Run("cmake", func(t *testing.T) { testCMake(t, tl, shell, source, prefix) })
	t.Run("asc", func(t *testing.T) { testASC(t, tl, shell, source, prefix) })
	t.Run("bisheng", func(t *testing.T) { testBisheng(t, shell, source, prefix) })
	t.Run("superkernel", func(t *testing.T) { testSuperKernelBisheng(t, tl, shell, source, prefix) })
	t.Run("ascapi", func(t *testing.T) { testASCAPI(t, tl, shell, source, prefix) })
	t.Run("securec", func(t *testing.T) { testSecurecInstalled(t, tl, shell, source, prefix) })

	app := filepath.Join(dir, "app")
	if err := os.MkdirAll(app, 0o755); err != nil {
		t.Fatal(err)
	}
	// The program and the header it includes with quotes, side by side.
	for src, dst := range map[string]string{"02_context.c": "app.c", "common.h": "common.h"} {
		b, err := os.ReadFile(filepath.Join(tl.src, src))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(app, dst), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, lib := range []string{"ascendcl", "acl_rt", "acl_rt_impl"} {
		t.Run(lib, func(t *testing.T) {
			script := source + ` "$1/set_env.sh" && cd "$2" && ` +
				`gcc app.c -I"$ASCEND_HOME_PATH/include" -L"$ASCEND_HOME_PATH/lib64" -l` + lib + ` -o app && ./app`
			cmd := exec.Command(shell, "-c", script, "sh", prefix, app)
			cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
			out, err := cmd.CombinedOutput()
			if err != nil || !strings.Contains(string(out), "PASS 02_context") {
				t.Fatalf("build and run with -l%s after set_env.sh: %v\n%s", lib, err, out)
			}
			t.Logf("-l%s: %d checks passed", lib, strings.Count(string(out), "ok: "))
		})
	}
}

// testVersionInfo: make install records the package gocann is as CANN's
// packages record theirs, share/info/<package>/version.info with the
// Version, version_dir and timestamp lines, and the runtime reads its
// version there.
func testVersionInfo(t *testing.T, prefix string) {
	b, err := os.ReadFile(filepath.Join(prefix, "share", "info", "runtime", "version.info"))
	if err != nil {
		t.Fatal(err)
	}
	pattern := `^Version=` + regexp.QuoteMeta(gocann.RuntimeVersion) + `\nversion_dir=CANN-\d+\.\d+\ntimestamp=\d{8}_\d{9}\n$`
	if !regexp.MustCompile(pattern).Match(b) {
		t.Errorf("share/info/runtime/version.info is\n%s\nwant it to match %s", b, pattern)
	}
	v, err := gocann.PackageVersionAt(prefix, gocann.RuntimePackage)
	if err != nil || v != gocann.RuntimeVersion {
		t.Errorf("the runtime's version in the installed tree: %q, %v; want %s", v, err, gocann.RuntimeVersion)
	}
}
