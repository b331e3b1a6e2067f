package sim

import "math"

// Conversions between float32 and the 16-bit float formats of the built-in
// tasks. To 16 bits rounds to nearest, ties to even, as the hardware does;
// a sum of two 16-bit values computed in float32 and rounded once is
// correctly rounded, float32 having more than twice their precision plus
// two bits.

// f16ToF32 widens an IEEE binary16 value; every one is exact in float32.
func f16ToF32(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	man := uint32(h) & 0x3ff
	switch {
	case exp == 0x1f: // inf, NaN
		return math.Float32frombits(sign | 0x7f800000 | man<<13)
	case exp != 0:
		return math.Float32frombits(sign | (exp+112)<<23 | man<<13)
	case man == 0:
		return math.Float32frombits(sign)
	}
	// Subnormal: man × 2^-24, exact.
	f := float32(man) * (1.0 / (1 << 24))
	if sign != 0 {
		f = -f
	}
	return f
}

// f32ToF16 narrows to binary16, rounding to nearest even; values past the
// largest finite (65504) round to infinity, NaN stays NaN.
func f32ToF16(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int32(b>>23) & 0xff
	man := b & 0x7fffff
	if exp == 0xff {
		if man != 0 {
			return sign | 0x7e00 // quiet NaN
		}
		return sign | 0x7c00
	}
	e := exp - 127 + 15
	if e >= 0x1f {
		return sign | 0x7c00
	}
	if e <= 0 {
		// Subnormal or zero: shift the full significand into place.
		if e < -10 {
			return sign
		}
		m := man | 0x800000
		shift := uint32(14 - e)
		half := uint32(1) << (shift - 1)
		rest := m & (1<<shift - 1)
		r := m >> shift
		if rest > half || rest == half && r&1 == 1 {
			r++
		}
		return sign | uint16(r)
	}
	r := uint32(e)<<10 | man>>13
	rest := man & 0x1fff
	if rest > 0x1000 || rest == 0x1000 && r&1 == 1 {
		r++ // may carry into the exponent, up to infinity: still right
	}
	return sign | uint16(r)
}

// bf16ToF32 widens a bfloat16 value: its bits are float32's upper half.
func bf16ToF32(h uint16) float32 { return math.Float32frombits(uint32(h) << 16) }

// f32ToBF16 narrows to bfloat16, rounding to nearest even.
func f32ToBF16(f float32) uint16 {
	b := math.Float32bits(f)
	if b&0x7fffffff > 0x7f800000 {
		return uint16(b>>16) | 0x40 // quiet NaN
	}
	b += 0x7fff + (b>>16)&1
	return uint16(b >> 16)
}

// Largest finite values and their bit patterns, for saturation.
const (
	f16Max  = 0x7bff
	bf16Max = 0x7f7f
)

// badFloat reports whether f is an infinity or a NaN.
func badFloat(f float32) bool { x := f - f; return x != x }
