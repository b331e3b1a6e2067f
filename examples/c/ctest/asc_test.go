package ctest_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// testASC builds examples/c/asc, a project in CANN's ASC CMake language
// (find_package(ASC), .asc sources, separate compilation, find_package(
// tikicpulib)), with the install tree after set_env.sh, in the npu and the
// cpu run modes, and runs its three programs; then examples/c/asc/alone,
// a project of the ASC language alone.
func testASC(t *testing.T, tl *tools, shell, source, prefix string) {
	needCMake(t)
	proj := filepath.Join(tl.src, "asc")
	t.Run("alone", func(t *testing.T) {
		build := filepath.Join(t.TempDir(), "build")
		script := source + ` "$1/set_env.sh" && cmake -S "$2/alone" -B "$3" && cmake --build "$3" -- VERBOSE=1 && "$3/asc_alone"`
		cmd := exec.Command(shell, "-c", script, "sh", prefix, proj, build)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "\nPASS asc_demo\n") || !strings.Contains(string(out), "--npu-arch=dav-3510") ||
			strings.Contains(string(out), "CXX compiler") {
			t.Fatalf("the project of the ASC language alone: %v\n%s", err, out)
		}
	})
	for _, mode := range []string{"npu", "cpu"} {
		t.Run(mode, func(t *testing.T) {
			build := filepath.Join(t.TempDir(), "build")
			script := source + ` "$1/set_env.sh" && cmake -S "$2" -B "$3" -DCMAKE_ASC_RUN_MODE="$4" && cmake --build "$3" && ` +
				`cd "$3" && ./asc_demo && ./asc_host && ./cpu_pick`
			cmd := exec.Command(shell, "-c", script, "sh", prefix, proj, build, mode)
			cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("the ASC project in run mode %s: %v\n%s", mode, err, out)
			}
			s := string(out)
			hello := "[AIV Block 0/4] hello 7 from block 0 of 4\n[AIV Block 1/4] hello 7 from block 1 of 4\n" +
				"[AIV Block 2/4] hello 7 from block 2 of 4\n[AIV Block 3/4] hello 7 from block 3 of 4\nok: hello<<<4>>>"
			if !strings.Contains(s, hello) {
				t.Errorf("the kernel's printf lines are not each block's in order, before the launch's check:\n%s", s)
			}
			for _, w := range []string{
				"ok: scale<float, 3><<<4>>>: code 0, 256 of 256 right",
				"ok: scale<int32_t, -2><<<4>>>: 256 of 256 right",
				"ok: add_one<<<4>>> (LocalMemAllocator, SetFlag/WaitFlag): 256 of 256 right",
				"ok: __cube__ and __mix__(1, 2) kernels: 3 3",
				"PASS asc_demo",
				"ok: stamp<<<6>>> from a static kernel library: code 0, 96 of 96 right",
				"ok: stamp<<<>>> on a stream that is not one: code 107017",
				"PASS asc_host",
				"ok: ICPU_RUN_KF(pick, 8) with tiling key 1: 8 of 8 right",
				"ok: ICPU_RUN_KF(pick, 8) with tiling key 2: 8 of 8 right",
				"PASS cpu_pick",
				"run mode " + mode,
			} {
				if !strings.Contains(s, w) {
					t.Errorf("the output lacks %q:\n%s", w, s)
				}
			}
		})
	}
}

func needCMake(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("cmake"); err != nil {
		if os.Getenv("GOCANN_REQUIRE_CMAKE") != "" {
			t.Fatal("cmake is not installed (apt-get install cmake)")
		}
		t.Skip("cmake is not installed; the CMake project is not built (apt-get install cmake)")
	}
}

// The sources of testBisheng: a kernel library, a host program for it,
// and sources the driver refuses.
var bishengSources = map[string]string{
	"twice.asc": `#include "kernel_operator.h"
__global__ __aicore__ void twice(GM_ADDR x, uint32_t n)
{
    __gm__ int32_t *v = reinterpret_cast<__gm__ int32_t *>(x);
    for (uint32_t i = GetBlockIdx(); i < n; i += GetBlockNum()) {
        v[i] *= 2;
    }
}
aclError twice_launch(uint32_t blocks, aclrtStream s, void *x, uint32_t n) { return twice<<<blocks, nullptr, s>>>(static_cast<GM_ADDR>(x), n); }
`,
	"main.cpp": `#include <cstdio>
#include "acl/acl.h"
aclError twice_launch(uint32_t blocks, aclrtStream s, void *x, uint32_t n);
int main()
{
    int32_t v[100];
    for (int i = 0; i < 100; i++) v[i] = i;
    void *x = nullptr;
    if (aclrtSetDevice(0) != 0 || aclrtMalloc(&x, sizeof v, ACL_MEM_MALLOC_HUGE_FIRST) != 0) return 1;
    aclrtMemcpy(x, sizeof v, v, sizeof v, ACL_MEMCPY_HOST_TO_DEVICE);
    aclError rc = twice_launch(3, nullptr, x, 100);
    aclrtSynchronizeStream(nullptr);
    aclrtMemcpy(v, sizeof v, x, sizeof v, ACL_MEMCPY_DEVICE_TO_HOST);
    int right = 0;
    for (int i = 0; i < 100; i++) right += v[i] == 2 * i;
    printf("twice: code %d, %d of 100 right\n", rc, right);
    return right == 100 ? 0 : 1;
}
`,
	"asm.asc": `#include "kernel_operator.h"
__global__ __aicore__ void k(GM_ADDR x)
{
    asm volatile("dsb sy");
}
`,
	"typo.asc": `#include "kernel_operator.h"
__global__ __aicore__ void k(GM_ADDR x)
{
    undeclared_thing(x);
}
`,
	"cube.asc": `#include "kernel_operator.h"
__global__ __aicore__ void k(GM_ADDR x)
{
    AscendC::LocalTensor<float> a;
    AscendC::Mmad(a, a, a, 0);
}
`,
	"vf.asc": `#include "kernel_operator.h"
__simd_vf__ inline void AddVF(__ubuf__ float *x) {}
`,
	"matmul.asc": `#include "kernel_operator.h"
#include "lib/matmul_intf.h"
`,
	"host.cpp": `void k();
void f() { k<<<1, nullptr, nullptr>>>(); }
`,
}

// testBisheng drives the installed bisheng as CANN's documentation does:
// separate compilation into a static library, a shared library, one
// command for a whole program, the launch headers of GEN_ACLRT, and the
// errors it gives, at the user's file and line.
func testBisheng(t *testing.T, shell, source, prefix string) {
	dir := t.TempDir()
	for name, text := range bishengSources {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sh := func(script string) (string, error) {
		cmd := exec.Command(shell, "-c", source+` "$1/set_env.sh" && cd "$2" && `+script, "sh", prefix, dir)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	for _, c := range []struct{ what, script string }{
		{"separate compilation, a static library", `bisheng -dc --npu-arch=dav-2201 twice.asc -o twice.o && bisheng -lib twice.o -o libtwice.a && ` +
			`bisheng main.cpp -L. -ltwice -o app_static && ./app_static`},
		{"a shared library", `bisheng -shared -fPIC twice.asc -o libtwice.so && bisheng main.cpp ./libtwice.so -Wl,-rpath,. -o app_shared && ./app_shared`},
		{"one command", `bisheng --npu-arch=dav-3510 twice.asc main.cpp -o app_one && ./app_one`},
		{"-x asc", `cp twice.asc twice_src.cpp && bisheng -x asc twice_src.cpp -x none main.cpp -o app_x && ./app_x`},
		{"the toolkit's compiler path", `"$ASCEND_HOME_PATH/tools/ccec_compiler/bin/bisheng" twice.asc main.cpp -o app_tk && ./app_tk`},
	} {
		out, err := sh(c.script)
		if err != nil || !strings.Contains(out, "twice: code 0, 100 of 100 right") {
			t.Errorf("%s: %v\n%s", c.what, err, out)
		}
	}

	out, err := sh(`bisheng -c twice.asc -DGEN_ACLRT=gen -o gen.o && cat gen/aclrtlaunch_twice.h`)
	if err != nil || !strings.Contains(out, "uint32_t aclrtlaunch_twice(uint32_t numBlocks, aclrtStream stream, void *x, uint32_t n);") ||
		!strings.Contains(out, "#define ACLRT_LAUNCH_KERNEL(kernel_func) aclrtlaunch_##kernel_func") {
		t.Errorf("-DGEN_ACLRT=gen: %v\n%s", err, out)
	}
	if out, err := sh(`nm gen.o | grep -w T | grep -w aclrtlaunch_twice`); err != nil {
		t.Errorf("-DGEN_ACLRT: the object does not define aclrtlaunch_twice: %v\n%s", err, out)
	}

	for _, c := range []struct{ what, script, want string }{
		{"inline assembly in a kernel", `bisheng -c asm.asc`, "asm.asc:4:5: error: "},
		{"a compile error in a kernel", `bisheng -c typo.asc`, "typo.asc:4:"},
		{"the cube unit", `bisheng -c cube.asc`, "Mmad: the cube unit (matrix compute, L1/L0A/L0B/L0C movement) is not available on the simulated NPU"},
		{"the cube unit, at the user's line", `bisheng -c cube.asc`, "cube.asc:5:"},
		{"a register-level function", `bisheng -c vf.asc`, "vf.asc:2:11: error: __simd_vf__: the register-level vector functions"},
		{"the Matmul API", `bisheng -c matmul.asc`, "matmul_intf.h: Matmul runs on the cube unit, which is not available on the simulated NPU"},
		{"a launch in a host source", `bisheng -c host.cpp`, "host.cpp:2:12: error: a <<<>>> launch needs an Ascend C source"},
		{"an unknown option", `bisheng --frobnicate -c twice.asc`, "bisheng: error: unknown option '--frobnicate'"},
		{"an option of the AI core's compiler", `bisheng -mllvm -cce-aicore-stack-size=0x8000 -c twice.asc`, "-mllvm"},
	} {
		out, err := sh(c.script)
		if err == nil || !strings.Contains(out, c.want) {
			t.Errorf("%s: %v, want a failure saying %q:\n%s", c.what, err, c.want, out)
		}
	}
}

// testSuperKernelBisheng builds kernels/skbind.cpp, Ascend C kernels with
// SK_BIND sub-functions calling SetNextTaskStart and WaitPreTaskEnd, with
// the installed bisheng, and runs 58_skbind and, on an Atlas A3,
// 59_sk_overlap with it.
func testSuperKernelBisheng(t *testing.T, tl *tools, shell, source, prefix string) {
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join(tl.src, "kernels", "skbind.cpp"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "skbind.asc"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(shell, "-c", source+` "$1/set_env.sh" && cd "$2" && bisheng -g -shared -fPIC skbind.asc -o libskbind.so`, "sh", prefix, dir)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("bisheng: %v\n%s", err, out)
	}
	so := filepath.Join(dir, "libskbind.so")
	for _, c := range []struct {
		name string
		env  []string
	}{{"58_skbind", nil}, {"59_sk_overlap", []string{"GOCANN_SOC_NAME=Ascend910_9391"}}} {
		res := runProgramEnv(t, time.Minute, append(append([]string{}, tl.env...), c.env...), tl.program(t, c.name), so)
		if res.err != nil || !strings.Contains(res.stdout, "\nPASS "+c.name+"\n") {
			t.Errorf("%s with bisheng's kernels: %v\nstdout:\n%s\nstderr:\n%s", c.name, res.err, res.stdout, res.stderr)
		}
	}
}
