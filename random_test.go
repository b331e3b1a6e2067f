package gocann_test

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/gocann/gocann"
)

// randomEnv is a stream with a zeroed counter and a result buffer.
type randomEnv struct {
	env
	counter, out gocann.DevPtr
}

func newRandomEnv(t *testing.T, outBytes int64) randomEnv {
	e := setup(t)
	r := randomEnv{env: e, counter: malloc(t, e.c, 16), out: malloc(t, e.c, outBytes)}
	check(t, e.c.CopyToDevice(r.counter, make([]byte, 16)))
	return r
}

func (r randomEnv) task(typ gocann.DataType, fn gocann.RandomFunc, p0, p1 gocann.RandomParam, seed, num uint64) *gocann.RandomTask {
	return &gocann.RandomTask{
		Type: typ, Func: fn, Params: [2]gocann.RandomParam{p0, p1},
		Seed: gocann.RandomValue(seed, 8), Num: gocann.RandomValue(num, 8),
		Result: r.out, Counter: r.counter,
	}
}

func (r randomEnv) run(t *testing.T, task *gocann.RandomTask, n int) []byte {
	t.Helper()
	check(t, r.s.RandomNumAsync(task))
	syncOK(t, r.s)
	b := make([]byte, n)
	check(t, r.c.CopyFromDevice(b, r.out))
	return b
}

func floats(b []byte) []float64 {
	out := make([]float64, len(b)/4)
	for i := range out {
		out[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])))
	}
	return out
}

func meanStd(v []float64) (mean, std float64) {
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	for _, x := range v {
		std += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(std / float64(len(v)))
}

// TestRandomNormalStatistics: 10^5 normal samples with mean 3 and stddev 2
// have a sample mean and stddev within 0.05 of them.
func TestRandomNormalStatistics(t *testing.T) {
	const n = 100000
	r := newRandomEnv(t, 4*n)
	v := floats(r.run(t, r.task(gocann.DTFloat, gocann.RandomNormal, gocann.RandomFloat32(3), gocann.RandomFloat32(2), 7, n), 4*n))
	m, s := meanStd(v)
	if math.Abs(m-3) > 0.05 || math.Abs(s-2) > 0.05 {
		t.Errorf("normal(3, 2): sample mean %.4f stddev %.4f, want within 0.05", m, s)
	}
}

// TestRandomTruncatedNormal: every sample lies within mean ± 2 stddev, and
// the truncated distribution's stddev is 0.8796 of the untruncated one.
func TestRandomTruncatedNormal(t *testing.T) {
	const n = 100000
	r := newRandomEnv(t, 4*n)
	v := floats(r.run(t, r.task(gocann.DTFloat, gocann.RandomTruncatedNormal, gocann.RandomFloat32(1), gocann.RandomFloat32(0.5), 3, n), 4*n))
	for i, x := range v {
		if x < 0 || x > 2 {
			t.Fatalf("sample %d = %v, outside mean 1 ± 2 × 0.5", i, x)
		}
	}
	m, s := meanStd(v)
	if math.Abs(m-1) > 0.01 || math.Abs(s-0.5*0.8796) > 0.01 {
		t.Errorf("truncated normal(1, 0.5): mean %.4f stddev %.4f, want 1 and %.4f", m, s, 0.5*0.8796)
	}
}

// TestRandomUniform: floats in [min, max) with the uniform mean and
// variance; integers in [min, max) hitting every value.
func TestRandomUniform(t *testing.T) {
	const n = 100000
	r := newRandomEnv(t, 8*n)
	v := floats(r.run(t, r.task(gocann.DTFloat, gocann.RandomUniform, gocann.RandomFloat32(-1), gocann.RandomFloat32(3), 11, n), 4*n))
	for i, x := range v {
		if x < -1 || x >= 3 {
			t.Fatalf("sample %d = %v, outside [-1, 3)", i, x)
		}
	}
	// A range one float wide: every draw is its minimum, never the maximum
	// that half the draws round to.
	top := math.Nextafter32(-92, 0)
	v = floats(r.run(t, r.task(gocann.DTFloat, gocann.RandomUniform, gocann.RandomFloat32(-92), gocann.RandomFloat32(top), 3, n), 4*n))
	for i, x := range v {
		if x != -92 {
			t.Fatalf("sample %d of [-92, %v) = %v, want -92", i, top, x)
		}
	}
	v = floats(r.run(t, r.task(gocann.DTFloat, gocann.RandomUniform, gocann.RandomFloat32(-1), gocann.RandomFloat32(3), 11, n), 4*n))
	m, s := meanStd(v)
	if math.Abs(m-1) > 0.02 || math.Abs(s-4/math.Sqrt(12)) > 0.02 {
		t.Errorf("uniform(-1, 3): mean %.4f stddev %.4f, want 1 and %.4f", m, s, 4/math.Sqrt(12))
	}

	b := r.run(t, r.task(gocann.DTInt32, gocann.RandomUniform, gocann.RandomValue(uint64(0xffffff9c), 4), gocann.RandomValue(100, 4), 5, n), 4*n) // [-100, 100)
	seen := map[int32]int{}
	for i := range n {
		x := int32(binary.LittleEndian.Uint32(b[4*i:]))
		if x < -100 || x >= 100 {
			t.Fatalf("int32 sample %d = %d, outside [-100, 100)", i, x)
		}
		seen[x]++
	}
	if len(seen) != 200 {
		t.Errorf("int32 uniform hit %d of the 200 values", len(seen))
	}

	b = r.run(t, r.task(gocann.DTUint64, gocann.RandomUniform, gocann.RandomValue(1<<40, 8), gocann.RandomValue(1<<40+10, 8), 5, 1000), 8000)
	for i := range 1000 {
		if x := binary.LittleEndian.Uint64(b[8*i:]); x < 1<<40 || x >= 1<<40+10 {
			t.Fatalf("uint64 sample %d = %d, outside [2^40, 2^40+10)", i, x)
		}
	}
}

// TestRandomHalfTypes: float16 and bfloat16 results are the float32
// distribution rounded, a uniform draw kept below its maximum: in [1, 2)
// by their bit patterns, and the one value of [1, 1 + 2^-10).
func TestRandomHalfTypes(t *testing.T) {
	const n = 4096
	r := newRandomEnv(t, 2*n)
	b := r.run(t, r.task(gocann.DTFloat16, gocann.RandomUniform, gocann.RandomValue(0x3c00, 2), gocann.RandomValue(0x4000, 2), 1, n), 2*n)
	for i := range n {
		if h := binary.LittleEndian.Uint16(b[2*i:]); h < 0x3c00 || h >= 0x4000 {
			t.Fatalf("fp16 sample %d = %#04x, outside [1.0, 2.0)", i, h)
		}
	}
	b = r.run(t, r.task(gocann.DTFloat16, gocann.RandomUniform, gocann.RandomValue(0x3c00, 2), gocann.RandomValue(0x3c01, 2), 2, n), 2*n)
	for i := range n {
		if h := binary.LittleEndian.Uint16(b[2*i:]); h != 0x3c00 {
			t.Fatalf("fp16 sample %d of [1, 1+2^-10) = %#04x, want 0x3c00", i, h)
		}
	}
	b = r.run(t, r.task(gocann.DTBF16, gocann.RandomNormal, gocann.RandomValue(0x3f80, 2), gocann.RandomValue(0x3c23, 2), 1, n), 2*n) // mean 1, stddev 0.01
	for i := range n {
		if x := refBF16ToF64(binary.LittleEndian.Uint16(b[2*i:])); x < 0.9 || x > 1.1 {
			t.Fatalf("bf16 normal(1, 0.01) sample %d = %v", i, x)
		}
	}
}

// TestRandomDropoutBitmask: bit i is set with probability 1 - ratio, the
// bits past num in the last byte stay clear.
func TestRandomDropoutBitmask(t *testing.T) {
	const n = 80003
	r := newRandomEnv(t, (n+7)/8)
	b := r.run(t, r.task(gocann.DTFloat, gocann.RandomDropoutBitmask, gocann.RandomFloat32(0.25), gocann.RandomParam{}, 9, n), (n+7)/8)
	ones := 0
	for i := range n {
		if b[i/8]>>(i%8)&1 == 1 {
			ones++
		}
	}
	if f := float64(ones) / n; math.Abs(f-0.75) > 0.01 {
		t.Errorf("dropout 0.25 kept %.4f of the bits, want 0.75", f)
	}
	if last := b[len(b)-1] >> (n % 8); last != 0 {
		t.Errorf("bits past num in the last byte: %#x, want 0", last)
	}
}

// TestRandomReproducible: the same seed and counter give the same numbers;
// the counter advances by the blocks used, so a second task continues the
// stream, and numbers drawn in two halves equal those drawn at once.
func TestRandomReproducible(t *testing.T) {
	const n = 1000
	r := newRandomEnv(t, 4*n)
	task := func(num uint64) *gocann.RandomTask {
		return r.task(gocann.DTFloat, gocann.RandomUniform, gocann.RandomFloat32(0), gocann.RandomFloat32(1), 42, num)
	}
	all := r.run(t, task(n), 4*n)
	var ctr [16]byte
	check(t, r.c.CopyFromDevice(ctr[:], r.counter))
	if got := binary.LittleEndian.Uint64(ctr[:]); got != n/4 {
		t.Fatalf("counter after %d uniform floats = %d, want %d blocks", n, got, n/4)
	}
	check(t, r.c.CopyToDevice(r.counter, make([]byte, 16)))
	first := r.run(t, task(n/2), 2*n)
	check(t, r.s.RandomNumAsync(&gocann.RandomTask{Type: gocann.DTFloat, Func: gocann.RandomUniform,
		Params: [2]gocann.RandomParam{gocann.RandomFloat32(0), gocann.RandomFloat32(1)},
		Seed:   gocann.RandomValue(42, 8), Num: gocann.RandomValue(n/2, 8), Result: r.out.Add(2 * n), Counter: r.counter}))
	syncOK(t, r.s)
	second := make([]byte, 2*n)
	check(t, r.c.CopyFromDevice(second, r.out.Add(2*n)))
	if string(append(first[:2*n], second...)) != string(all) {
		t.Error("two tasks of n/2 continuing the counter differ from one task of n")
	}
	check(t, r.c.CopyToDevice(r.counter, make([]byte, 16)))
	other := r.run(t, r.task(gocann.DTFloat, gocann.RandomUniform, gocann.RandomFloat32(0), gocann.RandomFloat32(1), 43, n), 4*n)
	if string(other) == string(all) {
		t.Error("seeds 42 and 43 gave the same numbers")
	}
}

// TestRandomParamsByAddress: parameters, seed and count read from device
// memory when the task runs, and the parameter block written to
// randomParaAddr.
func TestRandomParamsByAddress(t *testing.T) {
	const n = 256
	r := newRandomEnv(t, 4*n)
	params := malloc(t, r.c, 64)
	block := malloc(t, r.c, 16)
	var b [64]byte
	binary.LittleEndian.PutUint32(b[0:], math.Float32bits(10))
	binary.LittleEndian.PutUint32(b[8:], math.Float32bits(11))
	binary.LittleEndian.PutUint64(b[16:], 42)
	binary.LittleEndian.PutUint64(b[24:], n)
	check(t, r.c.CopyToDevice(params, b[:]))
	task := &gocann.RandomTask{Type: gocann.DTFloat, Func: gocann.RandomUniform,
		Params: [2]gocann.RandomParam{gocann.RandomAt(params), gocann.RandomAt(params.Add(8))},
		Seed:   gocann.RandomAt(params.Add(16)), Num: gocann.RandomAt(params.Add(24)),
		ParaAddr: block, Result: r.out, Counter: r.counter}
	v := floats(r.run(t, task, 4*n))
	for i, x := range v {
		if x < 10 || x >= 11 {
			t.Fatalf("sample %d = %v, outside [10, 11) read from device memory", i, x)
		}
	}
	var got [16]byte
	check(t, r.c.CopyFromDevice(got[:], block))
	if a, b := binary.LittleEndian.Uint64(got[:]), binary.LittleEndian.Uint64(got[8:]); a != uint64(params) || b != uint64(params)+8 {
		t.Errorf("randomParaAddr holds %#x %#x, want the parameter addresses %#x %#x", a, b, params, params+8)
	}
}

// TestRandomRefusals: each refusal with CANN's code.
func TestRandomRefusals(t *testing.T) {
	r := newRandomEnv(t, 64)
	ok := func() *gocann.RandomTask {
		return r.task(gocann.DTFloat, gocann.RandomUniform, gocann.RandomFloat32(0), gocann.RandomFloat32(1), 1, 16)
	}
	cases := []struct {
		mod  func(*gocann.RandomTask)
		code gocann.Code
		sub  string
	}{
		{func(x *gocann.RandomTask) { x.Type = gocann.DTInt8 }, gocann.CodeInvalidParam, "dataType 2"},
		{func(x *gocann.RandomTask) { x.Func = 4 }, gocann.CodeRTParamInvalid, "funcType 4"},
		{func(x *gocann.RandomTask) { x.Func = gocann.RandomNormal; x.Type = gocann.DTInt32 }, gocann.CodeRTParamInvalid, "for funcType 2"},
		{func(x *gocann.RandomTask) { x.Counter = 0 }, gocann.CodeRTParamInvalid, "randomCounterAddr is NULL"},
		{func(x *gocann.RandomTask) { x.Result = 0 }, gocann.CodeRTParamInvalid, "randomResultAddr is NULL"},
		{func(x *gocann.RandomTask) { x.Seed.Size = 0 }, gocann.CodeRTParamInvalid, "randomSeed.size 0"},
		{func(x *gocann.RandomTask) { x.Num.Size = 9 }, gocann.CodeRTParamInvalid, "randomNum.size 9"},
		{func(x *gocann.RandomTask) { x.Params[1].Size = 8 }, gocann.CodeRTParamInvalid, "max.size 8"},
		{func(x *gocann.RandomTask) { x.Num = gocann.RandomValue(17, 8) }, gocann.CodeRTParamInvalid, "runs past its allocation"},
		{func(x *gocann.RandomTask) { x.Counter = x.Result.Add(56) }, gocann.CodeRTParamInvalid, "runs past its allocation"},
	}
	for _, c := range cases {
		task := ok()
		c.mod(task)
		wantErr(t, r.s.RandomNumAsync(task), c.code, c.sub)
	}
	syncOK(t, r.s)

	// Ascend 950 has no random number task.
	e := setup(t, profileConfig("Ascend950PR_9599"))
	wantErr(t, e.s.RandomNumAsync(ok()), gocann.CodeRTFeatureNotSupport, "aclrtRandomNumAsync")
}
