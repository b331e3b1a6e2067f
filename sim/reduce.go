package sim

import (
	"math"
	"sync/atomic"
	"unsafe"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

// reduce runs part p of parts of a TaskReduce: dst = dst op src over its
// share of the elements, as the SDMA engine's reduce does. Integer sums
// wrap; MAX and MIN of a NaN are NaN; float results saturate under
// SatSaturate. A float result that is inf or NaN flags the task's overflow
// area, if it has one.
func (b *Backend) reduce(t *hal.Task, p, parts int32) error {
	typ := kernel.DType(t.Flag)
	es := typ.Size()
	dst, err := b.resolve(t.Dst, t.Size)
	if err != nil {
		return err
	}
	src, err := b.resolve(t.Src, t.Size)
	if err != nil {
		return err
	}
	n := t.Size / es
	lo, hi := share(n, p, parts, 4096/es)
	if hi <= lo {
		return nil
	}
	d, s, m := unsafe.Add(dst, lo*es), unsafe.Add(src, lo*es), int(hi-lo)
	sat := t.Width == hal.SatSaturate
	check := sat || t.Overflow != 0
	bad := false
	switch typ {
	case kernel.F32:
		bad = reduceF32(unsafe.Slice((*float32)(d), m), unsafe.Slice((*float32)(s), m), t.Value, check, sat)
	case kernel.F16, kernel.BF16:
		bad = reduceHalf(unsafe.Slice((*uint16)(d), m), unsafe.Slice((*uint16)(s), m), t.Value, typ == kernel.BF16, sat)
	case kernel.I8:
		reduceInt(unsafe.Slice((*int8)(d), m), unsafe.Slice((*int8)(s), m), t.Value)
	case kernel.U8:
		reduceInt(unsafe.Slice((*uint8)(d), m), unsafe.Slice((*uint8)(s), m), t.Value)
	case kernel.I16:
		reduceInt(unsafe.Slice((*int16)(d), m), unsafe.Slice((*int16)(s), m), t.Value)
	case kernel.U16:
		reduceInt(unsafe.Slice((*uint16)(d), m), unsafe.Slice((*uint16)(s), m), t.Value)
	case kernel.I32:
		reduceInt(unsafe.Slice((*int32)(d), m), unsafe.Slice((*int32)(s), m), t.Value)
	case kernel.U32:
		reduceInt(unsafe.Slice((*uint32)(d), m), unsafe.Slice((*uint32)(s), m), t.Value)
	default:
		return hal.Errorf(hal.KindInvalidParam, "reduce of element type %d is not supported", typ)
	}
	if bad && t.Overflow != 0 {
		return b.flagOverflow(t.Overflow)
	}
	return nil
}

// flagOverflow sets the overflow status word at addr.
func (b *Backend) flagOverflow(addr uint64) error {
	w, err := b.resolve(hal.Loc{Dev: addr}, 4)
	if err != nil {
		return err
	}
	atomic.StoreUint32((*uint32)(w), 1)
	return nil
}

// reduceF32 reduces float32 elements; with check it reports whether a
// result was inf or NaN (saturated under sat).
func reduceF32(d, s []float32, op uint64, check, sat bool) bool {
	s = s[:len(d)]
	switch {
	case op == hal.ReduceSum && !check:
		for i := range d {
			d[i] += s[i]
		}
		return false
	case op == hal.ReduceEqual:
		copy(d, s)
	}
	bad := false
	for i := range d {
		var v float32
		switch op {
		case hal.ReduceSum:
			v = d[i] + s[i]
		case hal.ReduceMax:
			v = maxF(d[i], s[i])
		case hal.ReduceMin:
			v = minF(d[i], s[i])
		default:
			v = d[i]
		}
		if badFloat(v) {
			bad = true
			if sat {
				v = saturate32(v)
			}
		}
		d[i] = v
	}
	return bad
}

func maxF(a, b float32) float32 {
	if a != a || b != b {
		return float32(math.NaN())
	}
	return max(a, b)
}

func minF(a, b float32) float32 {
	if a != a || b != b {
		return float32(math.NaN())
	}
	return min(a, b)
}

// saturate32 maps an inf to the largest finite float32 of its sign, a NaN
// to 0.
func saturate32(v float32) float32 {
	switch {
	case v != v:
		return 0
	case v > 0:
		return math.MaxFloat32
	}
	return -math.MaxFloat32
}

// reduceHalf reduces float16 or bfloat16 elements in float32, rounding each
// result once; it reports whether a result was inf or NaN.
func reduceHalf(d, s []uint16, op uint64, bf, sat bool) bool {
	s = s[:len(d)]
	if op == hal.ReduceEqual {
		copy(d, s)
	}
	widen, narrow, maxBits := f16ToF32, f32ToF16, uint16(f16Max)
	if bf {
		widen, narrow, maxBits = bf16ToF32, f32ToBF16, bf16Max
	}
	bad := false
	for i := range d {
		a, b := widen(d[i]), widen(s[i])
		var v float32
		switch op {
		case hal.ReduceSum:
			v = a + b
		case hal.ReduceMax:
			v = maxF(a, b)
		case hal.ReduceMin:
			v = minF(a, b)
		default:
			v = a
		}
		h := narrow(v)
		if badFloat(widen(h)) {
			bad = true
			if sat {
				h = saturateHalf(h, maxBits)
			}
		}
		d[i] = h
	}
	return bad
}

// saturateHalf is saturate32 for a 16-bit float's bits.
func saturateHalf(h, maxBits uint16) uint16 {
	if h&0x7fff != maxBits+1 && h&0x7fff > maxBits { // NaN
		return 0
	}
	return h&0x8000 | maxBits
}

type integer interface {
	~int8 | ~uint8 | ~int16 | ~uint16 | ~int32 | ~uint32
}

// reduceInt reduces integer elements; sums wrap.
func reduceInt[T integer](d, s []T, op uint64) {
	s = s[:len(d)]
	switch op {
	case hal.ReduceSum:
		for i := range d {
			d[i] += s[i]
		}
	case hal.ReduceMax:
		for i := range d {
			d[i] = max(d[i], s[i])
		}
	case hal.ReduceMin:
		for i := range d {
			d[i] = min(d[i], s[i])
		}
	case hal.ReduceEqual:
		copy(d, s)
	}
}
