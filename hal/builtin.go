package hal

// DType is an element type of the built-in tasks, with the values of CANN's
// aclDataType.
type DType uint32

const (
	F32  DType = 0
	F16  DType = 1
	I8   DType = 2
	I32  DType = 3
	U8   DType = 4
	I16  DType = 6
	U16  DType = 7
	U32  DType = 8
	I64  DType = 9
	U64  DType = 10
	BF16 DType = 27
)

// Size is the element size in bytes, 0 for a type no built-in task knows.
func (t DType) Size() uint64 {
	switch t {
	case I8, U8:
		return 1
	case F16, BF16, I16, U16:
		return 2
	case F32, I32, U32:
		return 4
	case I64, U64:
		return 8
	}
	return 0
}

// Float reports whether t is a floating-point type.
func (t DType) Float() bool { return t == F32 || t == F16 || t == BF16 }

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
	Type      DType
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
