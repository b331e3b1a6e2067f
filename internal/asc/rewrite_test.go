package asc

import (
	"errors"
	"strings"
	"testing"
)

func rewrite(t *testing.T, src string) (string, []Kernel) {
	t.Helper()
	out, ks, err := Rewrite("k.asc", []byte(src))
	if err != nil {
		t.Fatalf("Rewrite: %v", err)
	}
	s := string(out)
	head := "#line 1 \"k.asc\"\n"
	if !strings.HasPrefix(s, head) {
		t.Fatalf("output does not start with %q: %q", head, s)
	}
	s = strings.TrimPrefix(s, head)
	if strings.Count(s, "\n") != strings.Count(src, "\n") {
		t.Errorf("lines moved: %d in, %d out\n%s", strings.Count(src, "\n"), strings.Count(s, "\n"), s)
	}
	return s, ks
}

func TestLaunches(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`hello<<<8, 0, stream>>>();`, `::AscendC::gocann::Launch(hello, [] {}, "hello", 8, 0, stream)();`},
		{`add_custom<blockLength><<<numBlocks, 0, stream>>>(x, y, z);`,
			`::AscendC::gocann::Launch(add_custom<blockLength>, [] {}, "add_custom<blockLength>", numBlocks, 0, stream)(x, y, z);`},
		{`add_custom<T, blockLength><<<n, nullptr, s>>>(x);`,
			`::AscendC::gocann::Launch(add_custom<T, blockLength>, [] {}, "add_custom<T, blockLength>", n, nullptr, s)(x);`},
		{`ns::k<std::vector<int>><<<f(a, b), 0, s>>>(x)`,
			`::AscendC::gocann::Launch(ns::k<std::vector<int>>, [] {}, "ns::k<std::vector<int>>", f(a, b), 0, s)(x)`},
		{`rc = ::k <<< 4 >>> (x);`, `rc = ::AscendC::gocann::Launch(::k , [] {}, "::k",  4 , 0, nullptr) (x);`},
		{`k<<<4, 1024>>>(x);`, `::AscendC::gocann::Launch(k, [] {}, "k", 4, 1024, nullptr)(x);`},
		{"k<<<4,\n 0,\n s>>>(x);", "::AscendC::gocann::Launch(k, [] {}, \"k\", 4,\n 0,\n s)(x);"},
		{`auto s = "k<<<1>>>()"; // k<<<1>>>()`, `auto s = "k<<<1>>>()"; // k<<<1>>>()`},
		{`x = a << b;`, `x = a << b;`},
	} {
		got, _ := rewrite(t, c.in)
		if got != c.want {
			t.Errorf("Rewrite(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

func TestKernelBodies(t *testing.T) {
	src := `#include "kernel_operator.h"
__global__ __vector__ void hello_world() { printf("Hello World!!!\n"); }
extern "C" __global__ __aicore__ void trap_it(GM_ADDR x) {
    if (x == nullptr) { asm volatile("trap"); }
    AscendC::printf("%d\n", 1); std::printf("host style\n");
}
class Op {
public:
    __aicore__ inline Op() : a_(1), b_{2} { printf("ctor\n"); }
    __aicore__ inline void Process(int n) noexcept(true) { printf("%d\n", n); }
private:
    int a_, b_;
};
template <typename T, uint32_t N>
__vector__ __global__ void add_custom(__gm__ T* x, __gm__ T* y, __gm__ T* z);
__global__ __mix__(1, 2) void mixed(GM_ADDR a, uint32_t n) { printf("m\n"); }
void host() { printf("host\n"); }
`
	got, ks := rewrite(t, src)
	for _, w := range []string{
		`void hello_world() { ::gocann_kernel_printf("Hello World!!!\n"); }`,
		`if (x == nullptr) { ::Trap(); }`,
		`AscendC::printf("%d\n", 1); std::printf("host style\n");`,
		`: a_(1), b_{2} { ::gocann_kernel_printf("ctor\n"); }`,
		`noexcept(true) { ::gocann_kernel_printf("%d\n", n); }`,
		`void mixed(GM_ADDR a, uint32_t n) { ::gocann_kernel_printf("m\n"); }`,
		`void host() { printf("host\n"); }`,
	} {
		if !strings.Contains(got, w) {
			t.Errorf("rewritten source lacks %q:\n%s", w, got)
		}
	}
	want := []Kernel{
		{Name: "hello_world", Line: 2},
		{Name: "trap_it", Params: []string{"GM_ADDR x"}, ExternC: true, Line: 3},
		{Name: "add_custom", Params: []string{"__gm__ T* x", "__gm__ T* y", "__gm__ T* z"}, Template: "template <typename T, uint32_t N>", Line: 15},
		{Name: "mixed", Params: []string{"GM_ADDR a", "uint32_t n"}, Line: 16},
	}
	if len(ks) != len(want) {
		t.Fatalf("kernels %+v, want %+v", ks, want)
	}
	for i := range want {
		if ks[i].Name != want[i].Name || strings.Join(ks[i].Params, "|") != strings.Join(want[i].Params, "|") ||
			ks[i].Template != want[i].Template || ks[i].ExternC != want[i].ExternC || ks[i].Line != want[i].Line {
			t.Errorf("kernel %d: %+v, want %+v", i, ks[i], want[i])
		}
	}
}

func TestRewriteErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"void f() {\n  k<<<1, 2, 3, 4>>>(x);\n}", "k.asc:2:4: error: a <<<>>> launch takes numBlocks, dynUBufSize and stream"},
		{"void f() {\n  k<<<1, 0, s;\n}", "k.asc:2:4: error: the <<< of a launch has no >>>"},
		{"void f() {\n  k<<<1, 0, s>>>;\n}", "k.asc:2:17: error: a <<<>>> launch is followed by the kernel's arguments"},
		{"void f() { (1)<<<1>>>(x); }", "k.asc:1:15: error: <<< must follow the name of a kernel"},
		{"__global__ void k() {\n\n    asm volatile(\"mov x0, x1\");\n}", "k.asc:3:5: error: inline assembly in a kernel is the AI core's and cannot run on the simulated NPU: asm volatile(\"mov x0, x1\")"},
		{"const char *s = \"abc;\n", "k.asc:1:17: error: missing terminating \" character"},
		{"/* never ends", "k.asc:1:1: error: unterminated comment"},
	} {
		_, _, err := Rewrite("k.asc", []byte(c.src))
		var e *Error
		if !errors.As(err, &e) || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("Rewrite(%q): %v, want %q", c.src, err, c.want)
		}
	}
}

func TestScanLiterals(t *testing.T) {
	src := "auto a = R\"x(<<<)\" k<<<1>>>()\n)x\"; char c = '\\''; auto u = u8\"<<<\"; int n = 1'000 + 0x1p-3; // <<<\n#define L k<<<1>>>()\nk<<<2>>>();"
	got, _ := rewrite(t, src)
	if !strings.Contains(got, `R"x(<<<)" k<<<1>>>()`) || !strings.Contains(got, `u8"<<<"`) || !strings.Contains(got, "#define L k<<<1>>>()") ||
		!strings.HasSuffix(got, `::AscendC::gocann::Launch(k, [] {}, "k", 2, 0, nullptr)();`) {
		t.Errorf("literals, comments or directives rewritten, or the launch missed:\n%s", got)
	}
}

func TestFindLaunch(t *testing.T) {
	if line, col, ok := FindLaunch("m.cpp", []byte("int main() {\n  // k<<<1>>>()\n  ns::k<2><<<1, 0, s>>>(x);\n}")); !ok || line != 3 || col != 3 {
		t.Errorf("FindLaunch = %d:%d %v, want 3:3", line, col, ok)
	}
	if _, _, ok := FindLaunch("m.cpp", []byte("int x = 1 << 2; // <<<\n")); ok {
		t.Error("FindLaunch found a launch in a comment")
	}
}
