package gocann_test

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gocann/gocann"
)

// f16 and bf16 reference conversions, written independently of the
// simulator's: through float64 and exact integer rounding.
func refF16ToF64(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	e, m := int(h>>10&0x1f), float64(h&0x3ff)
	switch {
	case e == 0x1f && m == 0:
		return math.Inf(int(sign))
	case e == 0x1f:
		return math.NaN()
	case e == 0:
		return sign * m * math.Pow(2, -24)
	}
	return sign * (1 + m/1024) * math.Pow(2, float64(e-15))
}

// refToF16 rounds x (exact in float64) to the nearest binary16, ties to
// even, by searching the ordered finite values.
func refToF16(x float64) uint16 {
	if math.IsNaN(x) {
		return 0x7e00
	}
	sign := uint16(0)
	if math.Signbit(x) {
		sign, x = 0x8000, -x
	}
	if x >= 65520 { // 65504 + half an ulp: rounds up to infinity
		return sign | 0x7c00
	}
	lo, hi := uint16(0), uint16(0x7bff)
	for lo < hi { // largest pattern <= x
		mid := (lo + hi + 1) / 2
		if refF16ToF64(mid) <= x {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	if lo < 0x7bff {
		a, b := refF16ToF64(lo), refF16ToF64(lo+1)
		if x-a > b-x || x-a == b-x && lo&1 == 1 {
			lo++
		}
	}
	return sign | lo
}

func refBF16ToF64(h uint16) float64 { return float64(math.Float32frombits(uint32(h) << 16)) }

func refToBF16(x float64) uint16 {
	f := float32(x) // the sums tested are exact in float32
	b := math.Float32bits(f)
	if f != f {
		return 0x7fc0
	}
	r := b >> 16
	rest := b & 0xffff
	if rest > 0x8000 || rest == 0x8000 && r&1 == 1 {
		r++
	}
	return uint16(r)
}

type reduceCase struct {
	typ  gocann.DataType
	size int
}

var reduceTypes = []reduceCase{
	{gocann.DTInt8, 1}, {gocann.DTInt16, 2}, {gocann.DTInt32, 4},
	{gocann.DTFloat16, 2}, {gocann.DTFloat, 4}, {gocann.DTBF16, 2},
}

// elem reads element i of b as a float64 (integers exactly).
func elem(b []byte, typ gocann.DataType, i int) float64 {
	switch typ {
	case gocann.DTInt8:
		return float64(int8(b[i]))
	case gocann.DTInt16:
		return float64(int16(binary.LittleEndian.Uint16(b[2*i:])))
	case gocann.DTInt32:
		return float64(int32(binary.LittleEndian.Uint32(b[4*i:])))
	case gocann.DTUint32:
		return float64(binary.LittleEndian.Uint32(b[4*i:]))
	case gocann.DTFloat16:
		return refF16ToF64(binary.LittleEndian.Uint16(b[2*i:]))
	case gocann.DTBF16:
		return refBF16ToF64(binary.LittleEndian.Uint16(b[2*i:]))
	}
	return float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])))
}

// refReduce is the plain loop the task is checked against: the exact
// result of one op, rounded once to the element type (integers wrap).
func refReduce(d, s []byte, typ gocann.DataType, kind gocann.ReduceKind, n int) []byte {
	out := append([]byte(nil), d...)
	for i := range n {
		a, b := elem(d, typ, i), elem(s, typ, i)
		var v float64
		switch kind {
		case gocann.ReduceSum:
			v = a + b
		case gocann.ReduceMax:
			v = math.Max(a, b)
		case gocann.ReduceMin:
			v = math.Min(a, b)
		case gocann.ReduceEqual:
			v = b
		}
		switch typ {
		case gocann.DTInt8:
			out[i] = byte(int64(v))
		case gocann.DTInt16:
			binary.LittleEndian.PutUint16(out[2*i:], uint16(int64(v)))
		case gocann.DTInt32:
			binary.LittleEndian.PutUint32(out[4*i:], uint32(int64(v)))
		case gocann.DTUint32:
			binary.LittleEndian.PutUint32(out[4*i:], uint32(uint64(v)))
		case gocann.DTFloat16:
			binary.LittleEndian.PutUint16(out[2*i:], refToF16(v))
		case gocann.DTBF16:
			binary.LittleEndian.PutUint16(out[2*i:], refToBF16(v))
		default:
			binary.LittleEndian.PutUint32(out[4*i:], math.Float32bits(float32(v)))
		}
	}
	return out
}

// randomElems fills n elements of typ with values that exercise rounding:
// for floats, values near each other and near the overflow edge.
func randomElems(rng *rand.Rand, typ gocann.DataType, n int) []byte {
	size := map[gocann.DataType]int{gocann.DTInt8: 1, gocann.DTInt16: 2, gocann.DTFloat16: 2, gocann.DTBF16: 2}[typ]
	if size == 0 {
		size = 4
	}
	b := make([]byte, n*size)
	for i := range n {
		switch typ {
		case gocann.DTFloat16:
			h := uint16(rng.IntN(0x7c00)) | uint16(rng.IntN(2))<<15 // finite
			binary.LittleEndian.PutUint16(b[2*i:], h)
		case gocann.DTBF16:
			h := uint16(rng.IntN(0x7f80)) | uint16(rng.IntN(2))<<15
			binary.LittleEndian.PutUint16(b[2*i:], h)
		case gocann.DTFloat:
			f := float32(rng.NormFloat64() * math.Pow(2, float64(rng.IntN(60)-30)))
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
		default:
			for j := range size {
				b[i*size+j] = byte(rng.Uint32())
			}
		}
	}
	return b
}

// TestReduceEveryKindAndType: each kind × type the Atlas A2 reduces,
// against the reference loop, bit for bit (float16 and bfloat16 rounding
// and integer wrap-around included).
func TestReduceEveryKindAndType(t *testing.T) {
	e := setup(t)
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 1 << 15 // past the split size: several DMA workers share it
	for _, tc := range reduceTypes {
		for _, kind := range []gocann.ReduceKind{gocann.ReduceSum, gocann.ReduceMax, gocann.ReduceMin, gocann.ReduceEqual} {
			bytes := n * tc.size
			dv, sv := randomElems(rng, tc.typ, n), randomElems(rng, tc.typ, n)
			dst, src := malloc(t, e.c, int64(bytes)), malloc(t, e.c, int64(bytes))
			check(t, e.c.CopyToDevice(dst, dv))
			check(t, e.c.CopyToDevice(src, sv))
			check(t, e.s.ReduceAsync(dst, src, int64(bytes), kind, tc.typ))
			syncOK(t, e.s)
			got := make([]byte, bytes)
			check(t, e.c.CopyFromDevice(got, dst))
			want := refReduce(dv, sv, tc.typ, kind, n)
			for i := range n {
				g, w := got[i*tc.size:(i+1)*tc.size], want[i*tc.size:(i+1)*tc.size]
				if string(g) != string(w) {
					gv, wv := elem(got, tc.typ, i), elem(want, tc.typ, i)
					if gv != gv && wv != wv {
						continue // both NaN
					}
					t.Fatalf("type %d kind %d element %d: %v op %v = %x (%v), want %x (%v)",
						tc.typ, kind, i, elem(dv, tc.typ, i), elem(sv, tc.typ, i), g, gv, w, wv)
				}
			}
			check(t, e.c.Free(dst))
			check(t, e.c.Free(src))
		}
	}
}

// TestReduceRefusals: each refusal with the code CANN's layers give it, in
// CANN's order.
func TestReduceRefusals(t *testing.T) {
	e := setup(t)
	a, b := malloc(t, e.c, 64), malloc(t, e.c, 64)
	cases := []struct {
		dst, src gocann.DevPtr
		n        int64
		kind     gocann.ReduceKind
		typ      gocann.DataType
		code     gocann.Code
		sub      string
	}{
		{0, b, 8, gocann.ReduceSum, gocann.DTFloat, gocann.CodeInvalidParam, "dst is NULL"},
		{a, 0, 8, gocann.ReduceSum, gocann.DTFloat, gocann.CodeInvalidParam, "src is NULL"},
		{a, b, 8, gocann.ReduceSum, gocann.DTInt64, gocann.CodeInvalidParam, "type 9"},
		{a, b, 0, gocann.ReduceSum, gocann.DTFloat, gocann.CodeRTParamInvalid, "count 0"},
		{a, b, 8, 9, gocann.DTFloat, gocann.CodeRTParamInvalid, "kind 9"},
		{a, b, 8, 14, gocann.DTFloat, gocann.CodeRTParamInvalid, "kind 14"},
		{a, b, 5 << 30, gocann.ReduceSum, gocann.DTFloat, gocann.CodeRTParamInvalid, "for a SUM"},
		{a, b, 8, gocann.ReduceSum, gocann.DTUint32, gocann.CodeRTFeatureNotSupport, "type 8"},
		{a, b, 8, gocann.ReduceSum, gocann.DTUint8, gocann.CodeRTFeatureNotSupport, "type 4"},
		{a, b.Add(2), 8, gocann.ReduceSum, gocann.DTFloat, gocann.CodeRTAddrUnaligned, "src"},
		{a.Add(1), b, 8, gocann.ReduceSum, gocann.DTFloat16, gocann.CodeRTAddrUnaligned, "dst"},
		{a, b, 6, gocann.ReduceSum, gocann.DTFloat, gocann.CodeRTParamInvalid, "multiple of the 4-byte element"},
		{a, b, 1 << 20, gocann.ReduceSum, gocann.DTFloat, gocann.CodeRTParamInvalid, "runs past its allocation"},
		{a, 0x1000, 8, gocann.ReduceSum, gocann.DTFloat, gocann.CodeRTParamInvalid, "not in a live device allocation"},
	}
	for _, c := range cases {
		wantErr(t, e.s.ReduceAsync(c.dst, c.src, c.n, c.kind, c.typ), c.code, c.sub)
	}

	// Ascend 950 reduces uint32 as well.
	e950 := setup(t, profileConfig("Ascend950PR_9599"))
	x, y := malloc(t, e950.c, 8), malloc(t, e950.c, 8)
	check(t, e950.c.CopyToDevice(x, []byte{0xff, 0xff, 0xff, 0xff, 1, 0, 0, 0}))
	check(t, e950.c.CopyToDevice(y, []byte{2, 0, 0, 0, 2, 0, 0, 0}))
	check(t, e950.s.ReduceAsync(x, y, 8, gocann.ReduceSum, gocann.DTUint32))
	syncOK(t, e950.s)
	got := make([]byte, 8)
	check(t, e950.c.CopyFromDevice(got, x))
	if string(got) != string([]byte{1, 0, 0, 0, 3, 0, 0, 0}) {
		t.Errorf("uint32 sums on Ascend 950 (wrapping) = % x", got)
	}

	// Another device's memory is refused.
	r := newRuntime(t, `{"simulator":{"devices":2}}`)
	d1, err := r.SetDevice(1)
	check(t, err)
	c1, err := d1.Context()
	check(t, err)
	far := malloc(t, c1, 64)
	d0, err := r.SetDevice(0)
	check(t, err)
	c0, err := d0.Context()
	check(t, err)
	near := malloc(t, c0, 64)
	s0, err := c0.NewStream()
	check(t, err)
	wantErr(t, s0.ReduceAsync(near, far, 8, gocann.ReduceSum, gocann.DTFloat), gocann.CodeRTParamInvalid, "memory of device 1, expected device 0")
}

// TestReduceOverlapAndCapture: overlapping operands run as one pass in
// element order; a reduce captured into a model runs with each execution.
func TestReduceOverlapAndCapture(t *testing.T) {
	e := setup(t)
	const n = 1 << 18 // int32 elements, past the split size
	p := malloc(t, e.c, 4*(n+1))
	buf := make([]byte, 4*(n+1))
	for i := range n + 1 {
		binary.LittleEndian.PutUint32(buf[4*i:], 1)
	}
	check(t, e.c.CopyToDevice(p, buf))
	// dst = p+4, src = p: element i becomes the running sum, i + 2.
	check(t, e.s.ReduceAsync(p.Add(4), p, 4*n, gocann.ReduceSum, gocann.DTInt32))
	syncOK(t, e.s)
	check(t, e.c.CopyFromDevice(buf, p))
	for i := range n + 1 {
		if got := binary.LittleEndian.Uint32(buf[4*i:]); got != uint32(i+1) {
			t.Fatalf("overlapping reduce: element %d = %d, want %d", i, got, i+1)
		}
	}

	acc, one := malloc(t, e.c, 4), malloc(t, e.c, 4)
	check(t, e.c.CopyToDevice(acc, []byte{0, 0, 0, 0}))
	check(t, e.c.CopyToDevice(one, []byte{0, 0, 0x80, 0x3f})) // 1.0f
	c, err := e.s.BeginCapture(gocann.CaptureRelaxed)
	check(t, err)
	check(t, e.s.ReduceAsync(acc, one, 4, gocann.ReduceSum, gocann.DTFloat))
	m, err := c.End()
	check(t, err)
	for range 3 {
		check(t, m.Run(e.s))
	}
	syncOK(t, e.s)
	var b [4]byte
	check(t, e.c.CopyFromDevice(b[:], acc))
	if f := math.Float32frombits(binary.LittleEndian.Uint32(b[:])); f != 3 {
		t.Errorf("captured reduce run 3 times: %v, want 3", f)
	}
	check(t, m.Close())
}
