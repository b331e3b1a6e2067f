package asc

import (
	"strings"
	"testing"
)

func TestLaunchParams(t *testing.T) {
	for _, c := range []struct {
		decl    string
		typ     string
		name    string
		pointer bool
	}{
		{"GM_ADDR x", "void *", "x", true},
		{"__gm__ uint8_t* y", "void *", "y", true},
		{"__gm__ float *__restrict__ z", "void *", "z", true},
		{"uint32_t totalLength", "uint32_t", "totalLength", false},
		{"const float alpha", "const float", "alpha", false},
		{"unsigned int", "unsigned int", "", false},
		{"int64_t", "int64_t", "", false},
		{"int n = 4", "int", "n", false},
	} {
		ps, err := LaunchParams(Kernel{Name: "k", Params: []string{c.decl}})
		if err != nil {
			t.Fatalf("LaunchParams(%q): %v", c.decl, err)
		}
		if len(ps) != 1 || ps[0] != (Param{Type: c.typ, Name: c.name, Pointer: c.pointer}) {
			t.Errorf("LaunchParams(%q) = %+v, want {%s %s %v}", c.decl, ps, c.typ, c.name, c.pointer)
		}
	}
	if _, err := LaunchParams(Kernel{Name: "k", Params: []string{"int &n"}}); err == nil || !strings.Contains(err.Error(), `"int &n"`) {
		t.Errorf("a reference parameter: %v, want an error naming it", err)
	}
}

func TestLaunchHeader(t *testing.T) {
	_, ks := rewrite(t, `namespace ops { namespace inner {
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, uint32_t stream) { }
} }
template <int N> __global__ __aicore__ void tmpl(GM_ADDR x) { }
__global__ __aicore__ void declared(GM_ADDR x);
namespace { __global__ __aicore__ void hidden(int numBlocks) { } }
`)
	if len(ks) != 4 {
		t.Fatalf("kernels %+v, want 4", ks)
	}
	if ks[0].Scope != "ops::inner" || ks[3].Scope != "" || ks[2].Defined || !ks[0].Defined {
		t.Errorf("scopes and definitions %+v", ks)
	}
	launchable := Launchable(ks)
	if len(launchable) != 2 || launchable[0].Name != "add_custom" || launchable[1].Name != "hidden" {
		t.Fatalf("Launchable = %+v, want add_custom and hidden", launchable)
	}
	h, err := LaunchHeader(launchable[0], "k.asc")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"#ifndef HEADER_ACLRTLAUNCH_ADD_CUSTOM_H\n",
		"#include \"acl/acl_base.h\"\n",
		"#define ACLRT_LAUNCH_KERNEL(kernel_func) aclrtlaunch_##kernel_func\n",
		"uint32_t aclrtlaunch_add_custom(uint32_t numBlocks, aclrtStream _stream, void *x, void *y, uint32_t stream);\n",
	} {
		if !strings.Contains(h, want) {
			t.Errorf("header lacks %q:\n%s", want, h)
		}
	}
	if h, _ := LaunchHeader(launchable[1], "k.asc"); !strings.Contains(h, "(uint32_t _numBlocks, aclrtStream stream, int numBlocks)") {
		t.Errorf("a parameter named numBlocks:\n%s", h)
	}
	defs, err := LaunchFunctions(launchable, "k.asc")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"\n#line 2 \"k.asc\"\nextern \"C\" uint32_t aclrtlaunch_add_custom(uint32_t numBlocks, aclrtStream stream, void *p0, void *p1, uint32_t p2) " +
			"{ return static_cast<uint32_t>(::AscendC::gocann::LaunchFrom(::ops::inner::add_custom, [] {}, \"add_custom\", numBlocks, stream, p0, p1, p2)); }\n",
		"LaunchFrom(::hidden, [] {}, \"hidden\", numBlocks, stream, p0)",
	} {
		if !strings.Contains(defs, want) {
			t.Errorf("definitions lack %q:\n%s", want, defs)
		}
	}
}
