package ckernel_test

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/gocann/gocann"
	"github.com/gocann/gocann/ckernel"
	"github.com/gocann/gocann/internal/rterr"
	"github.com/gocann/gocann/kernel"
)

const kernelSrc = `
#include <stdint.h>
#include <stdio.h>
int64_t GetBlockIdx(void);
int64_t GetBlockNum(void);
void Trap(void);
void gocann_trap(const char *message);

void add(float *x, float *y, float *z, uint64_t n) {
	uint64_t per = (n + GetBlockNum() - 1) / GetBlockNum();
	uint64_t lo = per * GetBlockIdx(), hi = lo + per > n ? n : lo + per;
	for (uint64_t i = lo; i < hi; i++) z[i] = x[i] + y[i];
}

void trap_odd(void) { if (GetBlockIdx() % 2) Trap(); }
void nop(void) {}

/* A message built on the stack the trap leaves; which 2 is a long one,
 * 3 none. */
void trap_says(uint64_t which) {
	char text[400];
	if (which == 2) {
		for (int i = 0; i < 399; i++) text[i] = 'a' + i % 26;
		text[399] = 0;
	} else {
		snprintf(text, sizeof text, "block %lld says %llu", (long long)GetBlockIdx(), (unsigned long long)which);
	}
	gocann_trap(which == 3 ? NULL : text);
}

void put(uint64_t *out, uint64_t i, uint64_t v) { out[i] = v; }

/* Seven integer and eleven floating-point parameters, interleaved: more of
 * each than either convention has registers for. */
void mix(double *out, int32_t a, float b, double c, uint64_t d, float e, double f, int8_t g, double h,
         double i, double j, double k, double l, float m, int64_t n, int16_t o, double p, uint64_t q) {
	double v[] = {a, b, c, (double)d, e, f, g, h, i, j, k, l, m, (double)n, o, p, (double)q};
	for (int x = 0; x < 17; x++) out[x] = v[x];
}
void trap_if(uint64_t x) { if (x) Trap(); }

void many(uint64_t *out, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6,
          uint64_t a7, uint64_t a8, uint64_t a9, uint64_t a10, uint64_t a11, uint64_t a12, uint64_t a13,
          uint64_t a14, uint64_t a15, uint64_t a16, uint64_t a17, uint64_t a18, uint64_t a19, uint64_t a20,
          uint64_t a21, uint64_t a22, uint64_t a23, uint64_t a24, uint64_t a25, uint64_t a26, uint64_t a27,
          uint64_t a28, uint64_t a29, uint64_t a30, uint64_t a31) {
	uint64_t v[] = {a1,a2,a3,a4,a5,a6,a7,a8,a9,a10,a11,a12,a13,a14,a15,a16,a17,a18,a19,a20,a21,a22,a23,a24,a25,a26,a27,a28,a29,a30,a31};
	for (int i = 0; i < 31; i++) out[i] = v[i];
}
`

func build(t *testing.T, flags ...string) string {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join(dir, "k.c")
	if err := os.WriteFile(src, []byte(kernelSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	so := filepath.Join(dir, "k.so")
	args := append([]string{"-O2", "-shared", "-fPIC", "-o", so, src}, flags...)
	if out, err := exec.Command("gcc", args...).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	return so
}

func setup(t *testing.T) (*gocann.Runtime, *gocann.Context, *gocann.Stream) {
	t.Helper()
	r, err := gocann.Open(gocann.WithConfigJSON([]byte(`{"simulator":{"hbm_size":1073741824}}`)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	d, err := r.SetDevice(0)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := d.Context()
	s, err := c.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	return r, c, s
}

func TestVectorAddFromC(t *testing.T) {
	so := build(t)
	r, c, s := setup(t)
	bin, err := ckernel.LoadFile(so)
	if err != nil {
		t.Fatal(err)
	}
	hk, err := bin.Kernel("add")
	if err != nil {
		t.Fatal(err)
	}
	k := gocann.NewKernel(hk)
	const n = 100003
	x, _ := c.Malloc(4*n, gocann.HugeFirst)
	y, _ := c.Malloc(4*n, gocann.HugeFirst)
	z, _ := c.Malloc(4*n, gocann.HugeFirst)
	h, _ := r.MallocHost(4 * n)
	v := gocann.Float32s(h)
	for i := range v {
		v[i] = float32(i)
	}
	s.CopyHostToDevice(x, h, 0, 4*n)
	s.CopyHostToDevice(y, h, 0, 4*n)
	if err := s.Launch(k, 7, gocann.Ptr(x), gocann.Ptr(y), gocann.Ptr(z), gocann.U64(n)); err != nil {
		t.Fatal(err)
	}
	s.CopyDeviceToHost(h, 0, z, 4*n)
	if err := s.Synchronize(context.Background()); err != nil {
		t.Fatal(err)
	}
	for i, got := range v {
		if got != float32(2*i) {
			t.Fatalf("z[%d] = %v, want %v", i, got, 2*i)
		}
	}
}

func TestManyArgsAndTrap(t *testing.T) {
	so := build(t)
	_, c, s := setup(t)
	bin, err := ckernel.LoadFile(so)
	if err != nil {
		t.Fatal(err)
	}
	hk, _ := bin.Kernel("many")
	out, _ := c.Malloc(8*31, gocann.NormalOnly)
	args := []gocann.Arg{gocann.Ptr(out)}
	for i := 1; i <= 31; i++ {
		args = append(args, gocann.U64(uint64(i*1000+i)))
	}
	if err := s.Launch(gocann.NewKernel(hk), 1, args...); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 8*31)
	if err := s.Synchronize(context.Background()); err != nil {
		t.Fatal(err)
	}
	c.CopyFromDevice(buf, out)
	for i := range 31 {
		got := uint64(buf[8*i]) | uint64(buf[8*i+1])<<8 | uint64(buf[8*i+2])<<16
		if got != uint64((i+1)*1000+i+1) {
			t.Fatalf("slot %d = %d", i+1, got)
		}
	}
	tk, _ := bin.Kernel("trap_odd")
	if err := s.Launch(gocann.NewKernel(tk), 4); err != nil {
		t.Fatal(err)
	}
	err = s.Synchronize(context.Background())
	if gocann.CodeOf(err) != gocann.CodeRTAICoreTrapException || !strings.Contains(err.Error(), "trap_odd") {
		t.Fatalf("trap: %v", err)
	}
	if err := bin.Unload(); err != nil {
		t.Fatal(err)
	}
	if err := s.Launch(gocann.NewKernel(tk), 1); err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(context.Background()); !errors.Is(err, gocann.ErrDevice) || !strings.Contains(err.Error(), "unloaded") {
		t.Fatalf("launch after unload: %v", err)
	}
	if err := bin.Unload(); rterr.KindOf(err) != rterr.KindInvalidHandle {
		t.Fatalf("second unload: %v", err)
	}
}

// TestFloatParams: float and double parameters arrive in the registers
// and stack slots the C convention gives them, their kinds read from the
// debug information of a -g build.
func TestFloatParams(t *testing.T) {
	so := build(t, "-g")
	_, c, s := setup(t)
	bin, err := ckernel.LoadFile(so)
	if err != nil {
		t.Fatal(err)
	}
	defer bin.Unload()
	hk, err := bin.Kernel("mix")
	if err != nil {
		t.Fatal(err)
	}
	if hk.Batch != nil || hk.Entry != 0 {
		t.Errorf("a kernel with float parameters offers the integer-only batch path (Batch %v, Entry %#x)", hk.Batch, hk.Entry)
	}
	out, _ := c.Malloc(8*17, gocann.NormalOnly)
	want := []float64{-7, 1.5, 2.25, 1 << 40, -3.5, 4.125, -8, 5.5, 6.5, 7.5, 8.5, 9.5, 10.25, -(1 << 33), -300, 11.75, 12}
	args := []gocann.Arg{gocann.Ptr(out), gocann.I64(-7), gocann.F32(1.5), gocann.F64(2.25), gocann.U64(1 << 40), gocann.F32(-3.5),
		gocann.F64(4.125), gocann.I64(-8), gocann.F64(5.5), gocann.F64(6.5), gocann.F64(7.5), gocann.F64(8.5), gocann.F64(9.5),
		gocann.F32(10.25), gocann.I64(-(1 << 33)), gocann.I64(-300), gocann.F64(11.75), gocann.U64(12)}
	if err := s.Launch(gocann.NewKernel(hk), 2, args...); err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(context.Background()); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 8*17)
	c.CopyFromDevice(buf, out)
	for i, w := range want {
		if got := math.Float64frombits(binary.LittleEndian.Uint64(buf[8*i:])); got != w {
			t.Errorf("parameter %d arrived as %v, want %v", i+1, got, w)
		}
	}
}

func TestTrapMessage(t *testing.T) {
	so := build(t)
	_, _, s := setup(t)
	bin, err := ckernel.LoadFile(so)
	if err != nil {
		t.Fatal(err)
	}
	defer bin.Unload()
	hk, _ := bin.Kernel("trap_says")
	long := make([]byte, 255)
	for i := range long {
		long[i] = byte('a' + i%26)
	}
	for which, want := range map[uint64]string{7: "trap: block 0 says 7", 2: "trap: " + string(long), 3: "trap: gocann_trap() called"} {
		if err := s.Launch(gocann.NewKernel(hk), 1, gocann.U64(which)); err != nil {
			t.Fatal(err)
		}
		err := s.Synchronize(context.Background())
		// The message ends the error, so the long one is cut at 255 bytes.
		if gocann.CodeOf(err) != gocann.CodeRTAICoreTrapException || !strings.HasSuffix(err.Error(), want) {
			t.Errorf("gocann_trap case %d: %v, want code %d and %q", which, err, gocann.CodeRTAICoreTrapException, want)
		}
	}
}

func TestRefusals(t *testing.T) {
	so := build(t)
	dir := t.TempDir()
	if _, err := ckernel.LoadFile(filepath.Join(dir, "missing.so")); rterr.KindOf(err) != rterr.KindInvalidFile {
		t.Errorf("missing file: %v", err)
	}
	txt := filepath.Join(dir, "k.txt")
	os.WriteFile(txt, []byte("not a binary"), 0o644)
	if _, err := ckernel.LoadFile(txt); err == nil || !strings.Contains(err.Error(), "not an ELF") {
		t.Errorf("text file: %v", err)
	}
	data, err := os.ReadFile(so)
	if err != nil {
		t.Fatal(err)
	}
	bin, err := ckernel.LoadData(data)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bin.Kernel("nope"); rterr.KindOf(err) != rterr.KindSymbolNotFound {
		t.Errorf("missing symbol: %v", err)
	}
	// A device binary for another machine (e_machine at offset 18).
	dev := append([]byte(nil), data...)
	dev[18], dev[19] = 0x34, 0x12
	if _, err := ckernel.LoadData(dev); err == nil || !strings.Contains(err.Error(), "real Ascend NPU") {
		t.Errorf("foreign machine: %v", err)
	}
}

func TestParams(t *testing.T) {
	bin, err := ckernel.LoadFile(build(t, "-g"))
	if err != nil {
		t.Fatal(err)
	}
	sizes, err := bin.Params("add")
	if err != nil || len(sizes) != 4 || sizes[0] != 8 || sizes[3] != 8 {
		t.Fatalf("Params(add) = %v, %v", sizes, err)
	}
	if sizes, err := bin.Params("trap_odd"); err != nil || len(sizes) != 0 {
		t.Fatalf("Params(trap_odd) = %v, %v", sizes, err)
	}
	// Nothing at all inside its debug entry, not even a call.
	if sizes, err := bin.Params("nop"); err != nil || len(sizes) != 0 {
		t.Fatalf("Params(nop) = %v, %v", sizes, err)
	}
	plain, err := ckernel.LoadFile(build(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := plain.Params("add"); err == nil || !strings.Contains(err.Error(), "GOCANN_KERNEL_PARAMS(add") {
		t.Fatalf("without debug info: %v", err)
	}
}

// TestRunBatch runs launches of two kernels of a binary in one call: all of
// them, more than a call's worth; up to a trap, which the batch reports with
// the launches before it done and none after run; nothing once unloaded.
func TestRunBatch(t *testing.T) {
	bin, err := ckernel.LoadFile(build(t))
	if err != nil {
		t.Fatal(err)
	}
	put, _ := bin.Kernel("put")
	trap, _ := bin.Kernel("trap_if")
	if put.Batch != kernel.Batcher(bin) || put.Entry == 0 {
		t.Fatalf("a kernel of a binary has Batch %v and Entry %#x, want the binary and its address", put.Batch, put.Entry)
	}
	out := make([]uint64, 40)
	base := uint64(uintptr(unsafe.Pointer(&out[0])))
	args := make([][]uint64, 40)
	var calls []kernel.BatchCall
	for i := range 40 {
		args[i] = []uint64{base, uint64(i), uint64(100 + i)}
		calls = append(calls, kernel.BatchCall{Kernel: put, Args: args[i]})
	}
	if done, failure := bin.RunBatch(calls); done != 40 || failure != nil {
		t.Fatalf("RunBatch of 40 puts = %d, %v", done, failure)
	}
	for i, v := range out {
		if v != uint64(100+i) {
			t.Fatalf("out[%d] = %d after the batch, want %d", i, v, 100+i)
		}
	}
	clear(out)
	batch := []kernel.BatchCall{calls[0], calls[1], {Kernel: trap, Args: []uint64{0}}, calls[3],
		{Kernel: trap, Args: []uint64{1}}, calls[5]}
	done, failure := bin.RunBatch(batch)
	if _, ok := failure.(*kernel.TrapError); done != 4 || !ok {
		t.Fatalf("RunBatch with a trap at 4 = %d, %v; want 4 and a trap", done, failure)
	}
	if out[0] != 100 || out[1] != 101 || out[3] != 103 || out[5] != 0 {
		t.Fatalf("out = %v: want launches 0, 1 and 3 done and 5, after the trap, not run", out[:6])
	}
	runtime.KeepAlive(out)
	if err := bin.Unload(); err != nil {
		t.Fatal(err)
	}
	if done, failure := bin.RunBatch(calls[:2]); done != 0 || !strings.Contains(fmt.Sprint(failure), "unloaded") {
		t.Fatalf("RunBatch after unload = %d, %v", done, failure)
	}
}
