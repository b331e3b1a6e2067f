package rt

import (
	"encoding/binary"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
	"github.com/gocann/gocann/internal/support"
	"github.com/gocann/gocann/kernel"
)

// The built-in system tasks: the SDMA engine's reduce and the DSA engine's
// random numbers. Both are ordinary stream tasks, captured like any other.

// maxReduceSum is the largest SUM reduce CANN accepts, in bytes.
const maxReduceSum = 4 << 30

// reduceTypes lists the element types the SDMA reduce of a product
// supports (the reference's per-product constraints).
func reduceTypes(soc string) []kernel.DType {
	p, _ := support.ProductOf(soc)
	switch p {
	case support.Ascend950PR, support.Ascend950DT:
		return []kernel.DType{kernel.I8, kernel.I16, kernel.I32, kernel.U32, kernel.F16, kernel.F32, kernel.BF16}
	case support.Atlas200I500A2:
		return []kernel.DType{kernel.I8, kernel.I16, kernel.I32, kernel.F16, kernel.F32}
	case support.AtlasInference:
		return []kernel.DType{kernel.F32, kernel.F16, kernel.I16}
	case support.AtlasTraining:
		return []kernel.DType{kernel.F32}
	}
	return []kernel.DType{kernel.I8, kernel.I16, kernel.I32, kernel.F16, kernel.F32, kernel.BF16}
}

// int4 is ACL_INT4, which aclrtReduceAsync takes but no chip reduces.
const int4 kernel.DType = 29

// reduceDTypes are the data types aclrtReduceAsync maps to the runtime's at
// all; others are refused before any chip check.
var reduceDTypes = [...]kernel.DType{kernel.F32, kernel.F16, kernel.I16, int4, kernel.I8, kernel.I32, kernel.BF16, kernel.U8, kernel.U16, kernel.U32}

// ReduceAsync queues dst = dst op src over count bytes of elements of type
// typ (aclrtReduceAsync), checked in CANN's order.
func (s *Stream) ReduceAsync(dst, src, count uint64, kind uint32, typ int32, site uintptr) error {
	switch {
	case dst == 0:
		return rterr.Errorf(rterr.KindBadArgument, "dst is NULL, expected device memory")
	case src == 0:
		return rterr.Errorf(rterr.KindBadArgument, "src is NULL, expected device memory")
	}
	t := kernel.DType(typ)
	if typ < 0 || !hasType(reduceDTypes[:], t) {
		return rterr.Errorf(rterr.KindBadArgument, "type %d is invalid: the data type is not supported by aclrtReduceAsync", typ)
	}
	switch k := uint64(kind); {
	case count == 0:
		return rterr.Errorf(rterr.KindInvalidParam, "count 0 is invalid, expected a positive number of bytes")
	case k < hal.ReduceSum || k > hal.ReduceEqual:
		return rterr.Errorf(rterr.KindInvalidParam, "kind %d is invalid, expected ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM (10) .. ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL (13)", kind)
	case k == hal.ReduceSum && count > maxReduceSum:
		return rterr.Errorf(rterr.KindInvalidParam, "count %d is invalid, expected (0, %d] bytes for a SUM", count, uint64(maxReduceSum))
	}
	if err := s.usable(); err != nil {
		return err
	}
	soc := s.c.d.props.SoCName
	p, _ := support.ProductOf(soc)
	if (p == support.AtlasInference || p == support.AtlasTraining) && uint64(kind) != hal.ReduceSum {
		return rterr.Errorf(rterr.KindNotSupported, "kind %d: %s reduces with SUM only", kind, soc)
	}
	if !hasType(reduceTypes(soc), t) {
		return rterr.Errorf(rterr.KindNotSupported, "type %d: %s does not reduce elements of this data type", typ, soc)
	}
	es := t.Size()
	switch {
	case src%es != 0:
		return rterr.Errorf(rterr.KindUnaligned, "src %#x is invalid, expected %d-byte aligned for data type %d", src, es, typ)
	case dst%es != 0:
		return rterr.Errorf(rterr.KindUnaligned, "dst %#x is invalid, expected %d-byte aligned for data type %d", dst, es, typ)
	case count%es != 0:
		return rterr.Errorf(rterr.KindInvalidParam, "count %d is invalid, expected a multiple of the %d-byte element", count, es)
	}
	d := s.c.d
	if err := d.checkDevice("dst", dst, count); err != nil {
		return err
	}
	if err := d.checkDevice("src", src, count); err != nil {
		return err
	}
	task := hal.Task{Kind: hal.TaskReduce, Dst: hal.Loc{Dev: dst}, Src: hal.Loc{Dev: src}, Size: count,
		Value: uint64(kind), Flag: uint32(t), Site: site}
	if s.sat {
		task.Width = hal.SatSaturate
	}
	_, err := s.submit(&task)
	return err
}

func hasType(ts []kernel.DType, t kernel.DType) bool {
	for _, x := range ts {
		if x == t {
			return true
		}
	}
	return false
}

// RandomTask is aclrtRandomNumTaskInfo: hal.Random and where its
// parameters go.
type RandomTask struct {
	hal.Random
	// ParaAddr, if not 0, is device memory of 16 bytes that receives the
	// two distribution parameters (8 bytes each) when the task is queued,
	// as CANN writes them; 0 lets the runtime keep them.
	ParaAddr uint64
}

// randomTypes are the data types each function draws (CANN's table).
var randomTypes = [...][]kernel.DType{
	hal.RandomDropout:         {kernel.BF16, kernel.F16, kernel.F32},
	hal.RandomUniform:         {kernel.BF16, kernel.F16, kernel.F32, kernel.I32, kernel.I64, kernel.U32, kernel.U64},
	hal.RandomNormal:          {kernel.BF16, kernel.F16, kernel.F32},
	hal.RandomTruncatedNormal: {kernel.BF16, kernel.F16, kernel.F32},
}

// RandomNumAsync queues a random number task (aclrtRandomNumAsync),
// checked as CANN checks it.
func (s *Stream) RandomNumAsync(rt *RandomTask, site uintptr) error {
	r := rt.Random
	t := r.Type
	if !hasType(randomTypes[hal.RandomUniform], t) {
		return rterr.Errorf(rterr.KindBadArgument, "taskInfo->dataType %d is invalid, expected ACL_INT32, ACL_INT64, ACL_UINT32, ACL_UINT64, ACL_BF16, ACL_FLOAT16 or ACL_FLOAT", t)
	}
	if r.Func > hal.RandomTruncatedNormal {
		return rterr.Errorf(rterr.KindInvalidParam, "funcType %d is invalid, expected 0..3", r.Func)
	}
	if !hasType(randomTypes[r.Func], t) {
		return rterr.Errorf(rterr.KindInvalidParam, "dataType %d is invalid for funcType %d, expected bf16, fp16 or fp32", t, r.Func)
	}
	switch {
	case r.Counter == 0:
		return rterr.Errorf(rterr.KindInvalidParam, "randomCounterAddr is NULL, expected 16 bytes of device memory")
	case r.Result == 0:
		return rterr.Errorf(rterr.KindInvalidParam, "randomResultAddr is NULL, expected device memory")
	}
	if err := checkRandomParam("randomSeed", r.Seed, 8); err != nil {
		return err
	}
	if err := checkRandomParam("randomNum", r.Num, 8); err != nil {
		return err
	}
	names := [...][2]string{{"dropoutRation", ""}, {"min", "max"}, {"mean", "stddev"}, {"mean", "stddev"}}[r.Func]
	for i, name := range names {
		if name == "" {
			continue
		}
		size := t.Size()
		if r.Params[i].Addr {
			size = 8
		}
		if err := checkRandomParam(name, r.Params[i], size); err != nil {
			return err
		}
	}
	if err := s.usable(); err != nil {
		return err
	}
	// A parameter given by address is read with its value's size.
	for i := range r.Params {
		if r.Params[i].Addr {
			r.Params[i].Size = uint8(t.Size())
		}
	}
	if r.Seed.Addr {
		r.Seed.Size = 8
	}
	if r.Num.Addr {
		r.Num.Size = 8
	}
	if err := s.checkRandomMemory(&r, rt.ParaAddr); err != nil {
		return err
	}
	if rt.ParaAddr != 0 {
		var block [16]byte
		binary.LittleEndian.PutUint64(block[:8], r.Params[0].Value)
		binary.LittleEndian.PutUint64(block[8:], r.Params[1].Value)
		if err := s.c.writeDevice(rt.ParaAddr, block[:]); err != nil {
			return rterr.Wrap(rterr.KindInternal, err, "writing the random parameters at randomParaAddr %#x", rt.ParaAddr)
		}
	}
	task := &r
	_, err := s.submit(&hal.Task{Kind: hal.TaskRandom, Random: task, Site: site})
	return err
}

// checkRandomParam checks an aclrtRandomParaInfo: 1 to max bytes filled
// (the C ABI checks isAddr, 0 or 1, as it reads it).
func checkRandomParam(name string, p hal.RandomParam, max uint64) error {
	if p.Size == 0 || uint64(p.Size) > max {
		return rterr.Errorf(rterr.KindInvalidParam, "%s.size %d is invalid, expected 1..%d", name, p.Size, max)
	}
	return nil
}

// checkRandomMemory checks the device memory a random task names: the
// counter, the parameters given by address, the parameter block, and the
// results when their count is known now.
func (s *Stream) checkRandomMemory(r *hal.Random, paraAddr uint64) error {
	d := s.c.d
	if err := d.checkDevice("randomCounterAddr", r.Counter, hal.RandomCounterSize); err != nil {
		return err
	}
	for i, p := range [...]hal.RandomParam{r.Params[0], r.Params[1], r.Seed, r.Num} {
		if p.Addr {
			if err := d.checkDevice([...]string{"first parameter", "second parameter", "randomSeed", "randomNum"}[i], p.Value, uint64(p.Size)); err != nil {
				return err
			}
		}
	}
	if paraAddr != 0 {
		if err := d.checkDevice("randomParaAddr", paraAddr, 16); err != nil {
			return err
		}
	}
	if !r.Num.Addr && r.Num.Value > 0 {
		n := r.Num.Value
		if r.Num.Size < 8 {
			n &= 1<<(8*r.Num.Size) - 1
		}
		if n > 1<<40 {
			return rterr.Errorf(rterr.KindInvalidParam, "randomNum %d is invalid, expected at most 2^40 numbers", n)
		}
		return d.checkDevice("randomResultAddr", r.Result, r.ResultSize(n))
	}
	return nil
}
