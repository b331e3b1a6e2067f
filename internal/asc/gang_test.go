package asc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGangMarks: the kernels of a source calling a cross-block
// synchronization, or in a header it includes with quotes, are gang
// kernels: their launches carry their flags and core kind, and an
// extern "C" one gets its binary's mark; __schedmode__(1) marks one alone.
func TestGangMarks(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "op.h"), []byte("inline void f() { AscendC::IBWait(a, b, 0, 0); }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, src string
		want      []string
		not       []string
	}{
		{"call", `extern "C" __global__ __vector__ void k(int x) { AscendC::SyncAll(); }
void h() { k<<<8>>>(1); }`, []string{"Launch(k, [] { return 17; }, \"k\"", "GOCANN_GANG_KERNEL(k, 17);"}, nil},
		{"header", `#include "op.h"
__global__ __cube__ void k(int x) { f(); }
void h() { k<<<8>>>(1); other<<<2>>>(); }`, []string{"Launch(k, [] { return 33; }", "Launch(other, [] { return 1; }"}, []string{"GOCANN_GANG_KERNEL"}},
		{"batch mode", `__schedmode__(1) __global__ __mix__(0, 1) void a() {}
__global__ __vector__ void b() {}
void h() { a<<<2>>>(); b<<<2>>>(); }`, []string{"Launch(a, [] { return 17; }", "Launch(b, [] {}"}, nil},
		{"none", `__global__ __vector__ void k() {}
void h() { k<<<2>>>(); }`, []string{"Launch(k, [] {}"}, []string{"GOCANN_GANG_KERNEL", "return"}},
	} {
		out, _, err := Rewrite(filepath.Join(dir, "k.asc"), []byte(c.src))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, w := range c.want {
			if !strings.Contains(string(out), w) {
				t.Errorf("%s: the rewrite lacks %q:\n%s", c.name, w, out)
			}
		}
		for _, w := range c.not {
			if strings.Contains(string(out), w) {
				t.Errorf("%s: the rewrite has %q:\n%s", c.name, w, out)
			}
		}
	}
}
