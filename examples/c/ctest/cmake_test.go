package ctest_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gocann/gocann"
)

// ascendcCMakeDir is where an install tree keeps ascendc.cmake: the first
// place CANN's sample scripts (example/set_sample_env.sh) look, the host's
// architecture directory.
func ascendcCMakeDir(prefix string) string {
	arch := map[string]string{"amd64": "x86_64", "arm64": "aarch64"}[runtime.GOARCH]
	if arch == "" {
		arch = runtime.GOARCH
	}
	return filepath.Join(prefix, arch+"-linux", "tikcpp", "ascendc_kernel_cmake")
}

// testSetEnv checks what set_env.sh and bin/setenv.bash export for CANN
// projects: the directory of ascendc.cmake and SOC_VERSION, the simulated
// chip's SoC name, which follows GOCANN_SOC_NAME. CANN's sample scripts
// source them under set -u, with nothing else set.
func testSetEnv(t *testing.T, shell, source, prefix string) {
	for i, soc := range []string{"", "Ascend950PR_9599"} {
		file := []string{"set_env.sh", "bin/setenv.bash"}[i]
		script := `set -eu; ` + source + ` "$1/` + file + `" && printf '%s\n%s\n' "$ASCENDC_CMAKE_DIR" "$SOC_VERSION"`
		cmd := exec.Command(shell, "-c", script, "sh", prefix)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
		if soc != "" {
			cmd.Env = append(cmd.Env, "GOCANN_SOC_NAME="+soc)
		}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s under set -u: %v\n%s", file, err, out)
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		want := gocann.DefaultSoCName(soc)
		if len(lines) != 2 || lines[0] != ascendcCMakeDir(prefix) || lines[1] != want {
			t.Errorf("with GOCANN_SOC_NAME=%q %s exports ASCENDC_CMAKE_DIR and SOC_VERSION %q, want %q and %q",
				soc, file, lines, ascendcCMakeDir(prefix), want)
		}
	}
}

// testCMake builds examples/c/cmake, a CANN-style CMake project with a
// fatbin, a shared and a static kernel library, through the installed
// ascendc.cmake after set_env.sh, and runs its host program.
func testCMake(t *testing.T, tl *tools, shell, source, prefix string) {
	needCMake(t)
	proj := filepath.Join(tl.src, "cmake")
	build := filepath.Join(t.TempDir(), "build")
	script := source + ` "$1/set_env.sh" && cmake -S "$2" -B "$3" && cmake --build "$3" && cmake --install "$3" && "$3/host"`
	cmd := exec.Command(shell, "-c", script, "sh", prefix, proj, build)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "\nPASS cmake_example\n") {
		t.Fatalf("the CMake project: %v\n%s", err, out)
	}
	for _, w := range []string{"ok: ascendc_fatbin_library: vscale from " + filepath.Join(build, "out", "fatbin", "vscale_kernels", "vscale_kernels.o") + ", 1000 of 1000 right",
		"ok: kernel_operator.h: vclamp (TPipe, TQue, DataCopy, Maxs), 1000 of 1000 right",
		"ok: ascendc_library STATIC: vinc<<<8>>> and vinc<<<4>>> from the library's host code (111 114 15 18)",
		"ok: ACLRT_LAUNCH_KERNEL(vinc) from aclrtlaunch_vinc.h: codes 0 and 107017, 1111 1018",
		"ok: vaxpy<<<1>>> with a float parameter: 10.5 42",
		"ok: vtrap<<<2>>>: asm(\"trap\") fails the launch with an AI core trap (507016)",
		"ok: the exception callback saw the linked kernel's trap (507016) and its function handle",
		"ok: a <<<>>> launch on a bad stream leaves its error for aclrtGetLastError (107017)",
		"ok: the value of a <<<>>> launch is its code: 107017, then 0",
		"ok: ascendc_library SHARED: vfill with FILL_BIAS=100, 1000 of 1000 right"} {
		if !strings.Contains(string(out), w) {
			t.Errorf("the CMake project's output lacks %q:\n%s", w, out)
		}
	}
}
