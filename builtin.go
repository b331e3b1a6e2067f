package gocann

import (
	"math"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/callsite"
	"github.com/gocann/gocann/internal/rt"
	"github.com/gocann/gocann/kernel"
)

// The built-in system tasks (the guide's "系统任务"): reduce and random
// numbers, queued on a stream like any task and captured like any task.

// DataType is aclDataType, with the CANN values; the built-in tasks use
// the ones named here.
type DataType int32

const (
	DTFloat   DataType = 0  // ACL_FLOAT
	DTFloat16 DataType = 1  // ACL_FLOAT16
	DTInt8    DataType = 2  // ACL_INT8
	DTInt32   DataType = 3  // ACL_INT32
	DTUint8   DataType = 4  // ACL_UINT8
	DTInt16   DataType = 6  // ACL_INT16
	DTUint16  DataType = 7  // ACL_UINT16
	DTUint32  DataType = 8  // ACL_UINT32
	DTInt64   DataType = 9  // ACL_INT64
	DTUint64  DataType = 10 // ACL_UINT64
	DTBF16    DataType = 27 // ACL_BF16
)

// ReduceKind is aclrtReduceKind, with the CANN values.
type ReduceKind uint32

const (
	ReduceSum   ReduceKind = 10 // ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM
	ReduceMax   ReduceKind = 11 // ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX
	ReduceMin   ReduceKind = 12 // ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN
	ReduceEqual ReduceKind = 13 // ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL: dst takes src
)

// ReduceAsync queues dst[i] = dst[i] op src[i] over n bytes of elements of
// type t, both on the stream's device, as the SDMA engine reduces: float16
// and bfloat16 round to nearest even, integer sums wrap, a stream created
// in saturation mode saturates float results. Which types a chip reduces
// follows the reference's per-product list.
//
// CANN: aclrtReduceAsync.
//
//go:noinline
func (s *Stream) ReduceAsync(dst, src DevPtr, n int64, kind ReduceKind, t DataType) error {
	const op = "Stream.ReduceAsync (aclrtReduceAsync)"
	if err := s.r.require("aclrtReduceAsync"); err != nil {
		return err
	}
	return wrap(op, s.s.ReduceAsync(uint64(dst), uint64(src), uint64(n), uint32(kind), int32(t), callsite.Caller()))
}

// RandomFunc is aclrtRandomNumFuncType, with the CANN values.
type RandomFunc uint32

const (
	RandomDropoutBitmask  RandomFunc = 0 // ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK: bit i kept with probability 1 - ratio
	RandomUniform         RandomFunc = 1 // ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS: in [min, max)
	RandomNormal          RandomFunc = 2 // ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS
	RandomTruncatedNormal RandomFunc = 3 // ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS: within mean ± 2 stddev
)

// RandomParam is aclrtRandomParaInfo: Size little-endian bytes of Value,
// or, with Addr, the device address Value holding the parameter.
type RandomParam struct {
	Value uint64
	Size  uint8
	Addr  bool
}

// RandomValue is an immediate parameter of size bytes.
//
// CANN: none.
func RandomValue(bits uint64, size uint8) RandomParam { return RandomParam{Value: bits, Size: size} }

// RandomFloat32 is an immediate float32 parameter.
//
// CANN: none.
func RandomFloat32(f float32) RandomParam {
	return RandomParam{Value: uint64(math.Float32bits(f)), Size: 4}
}

// RandomAt is a parameter read from device memory when the task starts.
//
// CANN: none.
func RandomAt(p DevPtr) RandomParam { return RandomParam{Value: uint64(p), Size: 8, Addr: true} }

// RandomTask is aclrtRandomNumTaskInfo. Params are the function's: the
// dropout ratio; uniform min and max; normal mean and stddev, all of Type
// (dropout: the ratio's type). Counter is 16 bytes of device memory
// holding the 128-bit Philox counter, which the task advances by the
// 128-bit blocks it draws (four numbers, or two of 64 bits, or four
// dropout bits each). ParaAddr, if not 0, is 16 bytes of device memory the
// two parameters are written to when the task is queued.
type RandomTask struct {
	Type      DataType
	Func      RandomFunc
	Params    [2]RandomParam
	Seed, Num RandomParam
	ParaAddr  DevPtr
	Result    DevPtr
	Counter   DevPtr
}

// RandomNumAsync queues a random number task: Num numbers from the
// Philox4x32-10 stream keyed by Seed, starting at the counter, reproducible
// from both.
//
// CANN: aclrtRandomNumAsync.
//
//go:noinline
func (s *Stream) RandomNumAsync(t *RandomTask) error {
	const op = "Stream.RandomNumAsync (aclrtRandomNumAsync)"
	if err := s.r.require("aclrtRandomNumAsync"); err != nil {
		return err
	}
	p := func(x RandomParam) hal.RandomParam {
		return hal.RandomParam{Value: x.Value, Size: x.Size, Addr: x.Addr}
	}
	task := rt.RandomTask{
		Random: hal.Random{
			Func: hal.RandomFunc(t.Func), Type: kernel.DType(t.Type),
			Params: [2]hal.RandomParam{p(t.Params[0]), p(t.Params[1])},
			Seed:   p(t.Seed), Num: p(t.Num),
			Counter: uint64(t.Counter), Result: uint64(t.Result),
		},
		ParaAddr: uint64(t.ParaAddr),
	}
	return wrap(op, s.s.RandomNumAsync(&task, callsite.Caller()))
}
