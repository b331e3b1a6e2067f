package sim

import (
	"encoding/binary"
	"math"
	"math/bits"
	"unsafe"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

// The random number task of the DSA engine: Philox4x32-10, counter-based,
// so a result depends only on the seed (the key), the 128-bit counter and
// the element's index. Block j of a task is Philox of counter+j; its four
// 32-bit words make four numbers of 32 bits or less (uniform, normal,
// truncated normal), two of 64 bits, or four dropout bits. The task then
// stores counter + blocks used, so the next task with the same counter
// address continues the stream.

const (
	philoxM0 = 0xD2511F53
	philoxM1 = 0xCD9E8D57
	philoxW0 = 0x9E3779B9
	philoxW1 = 0xBB67AE85
)

// philox is Philox4x32 with 10 rounds.
func philox(c [4]uint32, k0, k1 uint32) [4]uint32 {
	for range 10 {
		hi0, lo0 := bits.Mul32(philoxM0, c[0])
		hi1, lo1 := bits.Mul32(philoxM1, c[2])
		c = [4]uint32{hi1 ^ c[1] ^ k0, lo1, hi0 ^ c[3] ^ k1, lo0}
		k0 += philoxW0
		k1 += philoxW1
	}
	return c
}

// counterAdd returns the 128-bit little-endian counter c plus n.
func counterAdd(c [4]uint32, n uint64) [4]uint32 {
	lo := uint64(c[0]) | uint64(c[1])<<32
	hi := uint64(c[2]) | uint64(c[3])<<32
	lo, carry := bits.Add64(lo, n, 0)
	hi += carry
	return [4]uint32{uint32(lo), uint32(lo >> 32), uint32(hi), uint32(hi >> 32)}
}

// randomParam reads a parameter's value: its bytes, from device memory if
// it is an address.
func (b *Backend) randomParam(p hal.RandomParam) (uint64, error) {
	if !p.Addr {
		if p.Size >= 8 {
			return p.Value, nil
		}
		return p.Value & (1<<(8*p.Size) - 1), nil
	}
	src, err := b.resolve(hal.Loc{Dev: p.Value}, uint64(p.Size))
	if err != nil {
		return 0, err
	}
	var buf [8]byte
	copy(buf[:p.Size], unsafe.Slice((*byte)(src), p.Size))
	return binary.LittleEndian.Uint64(buf[:]), nil
}

// asFloat interprets the low bits of v as a value of float type t.
func asFloat(v uint64, t kernel.DType) float64 {
	switch t {
	case kernel.F16:
		return float64(f16ToF32(uint16(v)))
	case kernel.BF16:
		return float64(bf16ToF32(uint16(v)))
	}
	return float64(math.Float32frombits(uint32(v)))
}

// asInt sign-extends the low bits of v for a signed type t.
func asInt(v uint64, t kernel.DType) uint64 {
	if t == kernel.I32 {
		return uint64(int64(int32(v)))
	}
	if t == kernel.U32 {
		return uint64(uint32(v))
	}
	return v
}

// random runs a TaskRandom.
func (b *Backend) random(t *hal.Task) error {
	r := t.Random
	var vals [4]uint64
	for i, p := range [...]hal.RandomParam{r.Params[0], r.Params[1], r.Seed, r.Num} {
		v, err := b.randomParam(p)
		if err != nil {
			return err
		}
		vals[i] = v
	}
	seed, num := vals[2], vals[3]
	cp, err := b.resolve(hal.Loc{Dev: r.Counter}, hal.RandomCounterSize)
	if err != nil {
		return err
	}
	out, err := b.resolve(hal.Loc{Dev: r.Result}, r.ResultSize(num))
	if err != nil {
		return err
	}
	cb := unsafe.Slice((*byte)(cp), hal.RandomCounterSize)
	var ctr [4]uint32
	for i := range ctr {
		ctr[i] = binary.LittleEndian.Uint32(cb[4*i:])
	}
	g := gen{ctr: ctr, k0: uint32(seed), k1: uint32(seed >> 32)}
	blocks := g.fill(r, vals[0], vals[1], num, out)
	ctr = counterAdd(ctr, blocks)
	for i := range ctr {
		binary.LittleEndian.PutUint32(cb[4*i:], ctr[i])
	}
	return nil
}

// gen walks the Philox blocks of one task.
type gen struct {
	ctr    [4]uint32
	k0, k1 uint32
}

func (g *gen) block(j uint64) [4]uint32 { return philox(counterAdd(g.ctr, j), g.k0, g.k1) }

// unit maps a word to [0, 1) with 24 bits, exact in float32.
func unit(w uint32) float64 { return float64(w>>8) * (1.0 / (1 << 24)) }

// fill writes num numbers of r at out and returns the blocks it used.
func (g *gen) fill(r *hal.Random, p0, p1, num uint64, out unsafe.Pointer) uint64 {
	per := uint64(4)
	if r.Type.Size() == 8 && r.Func == hal.RandomUniform {
		per = 2
	}
	blocks := (num + per - 1) / per
	switch r.Func {
	case hal.RandomDropout:
		g.dropout(asFloat(p0, r.Type), num, unsafe.Slice((*byte)(out), (num+7)/8))
		return blocks
	case hal.RandomUniform:
		if !r.Type.Float() {
			g.uniformInt(r.Type, asInt(p0, r.Type), asInt(p1, r.Type), num, out)
			return blocks
		}
	}
	lo, hi := asFloat(p0, r.Type), asFloat(p1, r.Type)
	for j := range blocks {
		w := g.block(j)
		var v [4]float64
		switch r.Func {
		case hal.RandomUniform:
			for i := range v {
				v[i] = lo + unit(w[i])*(hi-lo)
			}
		case hal.RandomNormal:
			v[0], v[1] = boxMuller(w[0], w[1])
			v[2], v[3] = boxMuller(w[2], w[3])
			for i := range v {
				v[i] = lo + hi*v[i]
			}
		default:
			for i := range v {
				v[i] = lo + hi*truncNormal(w[i])
			}
		}
		for i := range min(4, num-4*j) {
			storeFloat(out, 4*j+i, v[i], r.Type)
			if r.Func == hal.RandomUniform {
				keepBelow(out, 4*j+i, lo, hi, r.Type)
			}
		}
	}
	return blocks
}

// boxMuller turns two words into two independent standard normals.
func boxMuller(a, b uint32) (float64, float64) {
	u1 := (float64(a) + 1) * (1.0 / (1 << 32)) // (0, 1]: log stays finite
	u2 := float64(b) * (1.0 / (1 << 32))
	rad := math.Sqrt(-2 * math.Log(u1))
	s, c := math.Sincos(2 * math.Pi * u2)
	return rad * c, rad * s
}

// erfSqrt2 is erf(√2): a standard normal lies within ±2 with probability
// erfSqrt2.
var erfSqrt2 = math.Erf(math.Sqrt2)

// truncNormal maps a word to a standard normal truncated to [-2, 2], by
// the inverse of its distribution function.
func truncNormal(w uint32) float64 {
	u := (float64(w) + 0.5) * (1.0 / (1 << 32))
	return math.Sqrt2 * math.Erfinv(erfSqrt2*(2*u-1))
}

// keepBelow keeps element i of a uniform draw from [lo, hi) below hi:
// rounding a value just under hi to t's precision can give hi itself.
func keepBelow(out unsafe.Pointer, i uint64, lo, hi float64, t kernel.DType) {
	if hi <= lo || loadFloat(out, i, t) < hi {
		return
	}
	switch t {
	case kernel.F16:
		*(*uint16)(unsafe.Add(out, 2*i)) = prev16(f32ToF16(float32(hi)))
	case kernel.BF16:
		*(*uint16)(unsafe.Add(out, 2*i)) = prev16(f32ToBF16(float32(hi)))
	default:
		*(*float32)(unsafe.Add(out, 4*i)) = math.Nextafter32(float32(hi), float32(math.Inf(-1)))
	}
}

// prev16 is the 16-bit float (binary16 or bfloat16, both sign and
// magnitude) just below the finite h.
func prev16(h uint16) uint16 {
	switch {
	case h == 0: // +0: the smallest negative subnormal
		return 0x8001
	case h&0x8000 != 0: // negative: a larger magnitude
		return h + 1
	}
	return h - 1
}

func loadFloat(out unsafe.Pointer, i uint64, t kernel.DType) float64 {
	switch t {
	case kernel.F16:
		return float64(f16ToF32(*(*uint16)(unsafe.Add(out, 2*i))))
	case kernel.BF16:
		return float64(bf16ToF32(*(*uint16)(unsafe.Add(out, 2*i))))
	}
	return float64(*(*float32)(unsafe.Add(out, 4*i)))
}

func storeFloat(out unsafe.Pointer, i uint64, v float64, t kernel.DType) {
	switch t {
	case kernel.F16:
		*(*uint16)(unsafe.Add(out, 2*i)) = f32ToF16(float32(v))
	case kernel.BF16:
		*(*uint16)(unsafe.Add(out, 2*i)) = f32ToBF16(float32(v))
	default:
		*(*float32)(unsafe.Add(out, 4*i)) = float32(v)
	}
}

// uniformInt draws integers in [lo, hi); an empty range gives lo.
func (g *gen) uniformInt(t kernel.DType, lo, hi, num uint64, out unsafe.Pointer) {
	span := hi - lo
	if t == kernel.U32 || t == kernel.U64 {
		if hi <= lo {
			span = 0
		}
	} else if int64(hi) <= int64(lo) {
		span = 0
	}
	if t.Size() == 8 {
		for j := range (num + 1) / 2 {
			w := g.block(j)
			for i := range min(2, num-2*j) {
				x := uint64(w[2*i]) | uint64(w[2*i+1])<<32
				h, _ := bits.Mul64(x, span)
				*(*uint64)(unsafe.Add(out, 8*(2*j+i))) = lo + h
			}
		}
		return
	}
	for j := range (num + 3) / 4 {
		w := g.block(j)
		for i := range min(4, num-4*j) {
			v := lo + (uint64(w[i])*span)>>32
			*(*uint32)(unsafe.Add(out, 4*(4*j+i))) = uint32(v)
		}
	}
}

// dropout sets bit i of out (least significant first) when element i is
// kept, with probability 1 - ratio.
func (g *gen) dropout(ratio float64, num uint64, out []byte) {
	clear(out)
	for j := range (num + 3) / 4 {
		w := g.block(j)
		for i := range min(4, num-4*j) {
			if float64(w[i])*(1.0/(1<<32)) >= ratio {
				k := 4*j + i
				out[k/8] |= 1 << (k % 8)
			}
		}
	}
}
