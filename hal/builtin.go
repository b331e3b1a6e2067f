package hal

import "github.com/gocann/gocann/kernel"

// Reduce operations of TaskReduce, with the values of CANN's aclrtReduceKind.
const (
	ReduceSum   uint64 = 10
	ReduceMax   uint64 = 11
	ReduceMin   uint64 = 12
	ReduceEqual uint64 = 13 // the source element replaces the destination's
)

// SatSaturate in a TaskReduce's Width makes float results saturate: an
// infinity becomes the type's largest finite value of its sign, a NaN 0.
const SatSaturate = 1

// OverflowSize is the size of a device's overflow status area. A task that
// overflows sets its first 32-bit word to 1.
const OverflowSize = 64

// Random number functions of TaskRandom, with the values of CANN's
// aclrtRandomNumFuncType.
type RandomFunc uint32

const (
	RandomDropout         RandomFunc = 0 // a bitmask: bit i set with probability 1 - ratio
	RandomUniform         RandomFunc = 1 // uniform in [min, max)
	RandomNormal          RandomFunc = 2 // normal with mean and stddev
	RandomTruncatedNormal RandomFunc = 3 // normal, redrawn outside mean ± 2 stddev
)

// RandomParam is one parameter of a TaskRandom: Size little-endian bytes of
// Value, or, if Addr, Size bytes read from device address Value when the
// task starts.
type RandomParam struct {
	Value uint64
	Size  uint8
	Addr  bool
}

// RandomCounterSize is the size of a TaskRandom's Philox counter.
const RandomCounterSize = 16

// Random describes a TaskRandom: Num numbers of type Type drawn from Func
// with parameters Params (dropout: the ratio; uniform: min, max; normal:
// mean, stddev), written at Result, from the Philox4x32-10 stream keyed by
// Seed at the 128-bit counter stored at Counter, which the task advances
// past the blocks it used.
type Random struct {
	Func      RandomFunc
	Type      kernel.DType
	Params    [2]RandomParam
	Seed, Num RandomParam
	Counter   uint64
	Result    uint64
}

// ResultSize is the number of bytes num numbers of r take.
func (r *Random) ResultSize(num uint64) uint64 {
	if r.Func == RandomDropout {
		return (num + 7) / 8
	}
	return num * r.Type.Size()
}

func (r *Random) accesses(yield func(Range)) {
	for _, p := range [...]RandomParam{r.Params[0], r.Params[1], r.Seed, r.Num} {
		if p.Addr {
			yield(Range{Addr: p.Value, Size: uint64(p.Size)})
		}
	}
	yield(Range{Addr: r.Counter, Size: RandomCounterSize})
	yield(Range{Addr: r.Counter, Size: RandomCounterSize, Write: true})
	if !r.Num.Addr {
		yield(Range{Addr: r.Result, Size: r.ResultSize(r.Num.Value), Write: true})
	}
}
