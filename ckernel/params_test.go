package ckernel_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gocann/gocann/ckernel"
)

// declSrc declares its kernels' parameters with GOCANN_KERNEL_PARAMS.
const declSrc = `
#include <gocann/kernel.h>

void scale(GM_ADDR x, float a, double b, uint32_t n, int8_t c, int16_t d)
{ (void)x; (void)a; (void)b; (void)n; (void)c; (void)d; }
GOCANN_KERNEL_PARAMS(scale, GOCANN_PARAM_PTR, GOCANN_PARAM_FLOAT, GOCANN_PARAM_DOUBLE,
                     GOCANN_PARAM_INT32, GOCANN_PARAM_INT8, GOCANN_PARAM_INT16);

void none(void) {}
GOCANN_KERNEL_PARAMS(none);

/* A declaration the header's macros cannot write. */
__attribute__((visibility("default"))) const unsigned char gocann_params_bad[] = {'G', 0x18, 0x55};
void bad(void) {}
__attribute__((visibility("default"))) const unsigned char gocann_params_nomagic[] = {0x18};
void nomagic(void) {}
void nop(void) {}
`

// buildWith compiles src as C or C++ (lang "c" or "c++") with the header.
func buildWith(t *testing.T, lang, src string, flags ...string) string {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "k.c")
	compiler := "gcc"
	if lang == "c++" {
		file, compiler = filepath.Join(dir, "k.cpp"), "g++"
		src = strings.NewReplacer("\nvoid ", "\nextern \"C\" void ", "__attribute__((visibility(\"default\"))) const", "extern \"C\" __attribute__((visibility(\"default\"))) const").Replace(src)
	}
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath(compiler); err != nil {
		t.Skipf("%s is not installed", compiler)
	}
	so := filepath.Join(dir, "k.so")
	args := append([]string{"-O2", "-Wall", "-Wextra", "-Werror", "-pedantic", "-shared", "-fPIC", "-fvisibility=hidden",
		"-I" + filepath.Join("..", "include"), "-o", so, file}, flags...)
	if out, err := exec.Command(compiler, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", compiler, err, out)
	}
	return so
}

// TestParamsDeclared reads GOCANN_KERNEL_PARAMS declarations, from C and
// C++, with and without debug information (the declaration wins).
func TestParamsDeclared(t *testing.T) {
	want := []ckernel.Param{{ckernel.ParamPointer, 8}, {ckernel.ParamFloat, 4}, {ckernel.ParamDouble, 8},
		{ckernel.ParamInt, 4}, {ckernel.ParamInt, 1}, {ckernel.ParamInt, 2}}
	for _, c := range []struct{ lang, flag string }{{"c", "-g0"}, {"c", "-g"}, {"c++", "-g0"}} {
		bin, err := ckernel.LoadFile(buildWith(t, c.lang, declSrc, c.flag))
		if err != nil {
			t.Fatal(err)
		}
		ps, err := bin.Parameters("scale")
		if err != nil || !reflect.DeepEqual(ps, want) {
			t.Errorf("%s %s: Parameters(scale) = %v, %v; want %v", c.lang, c.flag, ps, err, want)
		}
		if sizes, err := bin.Params("scale"); err != nil || !reflect.DeepEqual(sizes, []int{8, 4, 8, 4, 1, 2}) {
			t.Errorf("%s %s: Params(scale) = %v, %v", c.lang, c.flag, sizes, err)
		}
		if ps, err := bin.Parameters("none"); err != nil || len(ps) != 0 {
			t.Errorf("%s %s: Parameters(none) = %v, %v; want none", c.lang, c.flag, ps, err)
		}
		if _, err := bin.Parameters("bad"); err == nil || !strings.Contains(err.Error(), "declares parameter 1 as 0x55, expected a GOCANN_PARAM_* kind") {
			t.Errorf("%s %s: Parameters(bad) = %v", c.lang, c.flag, err)
		}
		if _, err := bin.Parameters("nomagic"); err == nil || !strings.Contains(err.Error(), "not a GOCANN_KERNEL_PARAMS declaration") {
			t.Errorf("%s %s: Parameters(nomagic) = %v", c.lang, c.flag, err)
		}
		if c.flag == "-g" {
			continue
		}
		_, err = bin.Parameters("nop")
		if err == nil || !strings.Contains(err.Error(), "build it with -g, or declare them with GOCANN_KERNEL_PARAMS(nop, GOCANN_PARAM_...)") {
			t.Errorf("%s: Parameters of an undeclared kernel: %v", c.lang, err)
		}
	}
}

// TestParamsFromDWARF reads each parameter's kind from a -g build.
func TestParamsFromDWARF(t *testing.T) {
	src := `
#include <gocann/kernel.h>
typedef float real;
void kinds(GM_ADDR x, const real a, double b, unsigned short n, const char *s)
{ (void)x; (void)a; (void)b; (void)n; (void)s; }
`
	bin, err := ckernel.LoadFile(buildWith(t, "c", src, "-g"))
	if err != nil {
		t.Fatal(err)
	}
	want := []ckernel.Param{{ckernel.ParamPointer, 8}, {ckernel.ParamFloat, 4}, {ckernel.ParamDouble, 8},
		{ckernel.ParamInt, 2}, {ckernel.ParamPointer, 8}}
	if ps, err := bin.Parameters("kinds"); err != nil || !reflect.DeepEqual(ps, want) {
		t.Errorf("Parameters(kinds) = %v, %v; want %v", ps, err, want)
	}
}
