package sim

import (
	"math"
	"math/big"
	"testing"
)

// TestHalfRoundTrip: every binary16 and bfloat16 value widens and narrows
// back to itself (NaNs to a NaN).
func TestHalfRoundTrip(t *testing.T) {
	for h := range 1 << 16 {
		h := uint16(h)
		f := f16ToF32(h)
		if got := f32ToF16(f); got != h && !(f != f && got&0x7c00 == 0x7c00 && got&0x3ff != 0) {
			t.Fatalf("f16 %#04x -> %v -> %#04x", h, f, got)
		}
		g := bf16ToF32(h)
		if got := f32ToBF16(g); got != h && !(g != g && got&0x7f80 == 0x7f80 && got&0x7f != 0) {
			t.Fatalf("bf16 %#04x -> %v -> %#04x", h, g, got)
		}
	}
}

// exactF16 is binary16 value h as an exact rational.
func exactF16(h uint16) *big.Rat {
	f := f16ToF32(h)
	r := new(big.Rat)
	r.SetFloat64(float64(f))
	return r
}

// TestF16RoundsToNearestEven checks f32ToF16 against the exact nearest
// binary16 (ties to the even pattern) for the midpoints between
// neighbours and points just off them, across the whole finite range.
func TestF16RoundsToNearestEven(t *testing.T) {
	for h := uint16(0); h < 0x7bff; h++ {
		lo, hi := exactF16(h), exactF16(h+1)
		mid := new(big.Rat).Add(lo, hi)
		mid.Quo(mid, big.NewRat(2, 1))
		m, _ := mid.Float64()
		f := float32(m) // midpoints are exact in float32
		want := h
		if (h & 1) == 1 {
			want = h + 1
		}
		if got := f32ToF16(f); got != want {
			t.Fatalf("midpoint of %#04x and %#04x (%v): got %#04x, want %#04x", h, h+1, f, got, want)
		}
		if got := f32ToF16(math.Nextafter32(f, 0)); got != h {
			t.Fatalf("just below the midpoint of %#04x: got %#04x", h, got)
		}
		if got := f32ToF16(math.Nextafter32(f, 1e9)); got != h+1 {
			t.Fatalf("just above the midpoint of %#04x: got %#04x", h, got)
		}
	}
	// Past the largest finite value's upper midpoint: infinity.
	if got := f32ToF16(65520); got != 0x7c00 {
		t.Errorf("65520 -> %#04x, want inf", got)
	}
	if got := f32ToF16(65519.99); got != 0x7bff {
		t.Errorf("65519.99 -> %#04x, want 65504", got)
	}
	if got := f32ToBF16(1 + 1.0/256); got != 0x3f80 {
		t.Errorf("bf16 tie 1+2^-8 -> %#04x, want 1.0 (even)", got)
	}
	if got := f32ToBF16(1 + 3.0/256); got != 0x3f82 {
		t.Errorf("bf16 tie 1+3*2^-8 -> %#04x, want 0x3f82 (even)", got)
	}
}

// TestPhiloxKnownAnswer checks Philox4x32-10 against the Random123 known
// answer for a zero counter and key.
func TestPhiloxKnownAnswer(t *testing.T) {
	got := philox([4]uint32{}, 0, 0)
	want := [4]uint32{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}
	if got != want {
		t.Errorf("philox(0, 0) = %#x, want %#x", got, want)
	}
	got = philox([4]uint32{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, 0xffffffff, 0xffffffff)
	want = [4]uint32{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}
	if got != want {
		t.Errorf("philox(ones, ones) = %#x, want %#x", got, want)
	}
}
