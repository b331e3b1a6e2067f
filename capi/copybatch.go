package main

/*
#include <stdint.h>
#include "acl/acl.h"
#include "thread.h"
*/
import "C"

import (
	"unsafe"

	"github.com/gocann/gocann"
)

// Batch copies (aclrtMemcpyBatch and its forms) and the copies whose ends
// the device reads from memory.

// batchArgs turns the C arrays of a batch into Go values; code is
// non-zero (and recorded) on a NULL array or an impossible count.
func batchArgs(t *C.gocann_thread, fn string, dsts *unsafe.Pointer, destMaxs *C.size_t, srcs *unsafe.Pointer, sizes *C.size_t, n C.size_t,
	attrs *C.aclrtMemcpyBatchAttr, idx *C.size_t, numAttrs C.size_t) (cs []gocann.BatchCopy, as []gocann.BatchAttr, ix []uint64, zero bool, code C.aclError) {
	if sizes == nil {
		return nil, nil, nil, false, nullArg(t, fn, "sizes")
	}
	if n == 0 {
		return nil, nil, nil, false, failf(t, fn, gocann.KindBadArgument, "numBatches 0 is invalid, expected > 0")
	}
	if code := checkArray(t, fn, "numBatches", unsafe.Pointer(sizes), n, unsafe.Sizeof(*sizes)); code != 0 {
		return nil, nil, nil, false, code
	}
	zero = true
	for _, s := range unsafe.Slice(sizes, n) {
		zero = zero && s == 0
	}
	if zero {
		return nil, nil, nil, true, 0 // CANN checks nothing else then
	}
	for _, a := range []struct {
		name string
		p    unsafe.Pointer
	}{{"dsts", unsafe.Pointer(dsts)}, {"destMaxs", unsafe.Pointer(destMaxs)}, {"srcs", unsafe.Pointer(srcs)},
		{"attrs", unsafe.Pointer(attrs)}, {"attrsIndexes", unsafe.Pointer(idx)}} {
		if a.p == nil {
			return nil, nil, nil, false, nullArg(t, fn, a.name)
		}
	}
	if code := checkArray(t, fn, "numAttrs", unsafe.Pointer(attrs), numAttrs, unsafe.Sizeof(*attrs)); code != 0 {
		return nil, nil, nil, false, code
	}
	ds, ms, ss, zs := unsafe.Slice(dsts, n), unsafe.Slice(destMaxs, n), unsafe.Slice(srcs, n), unsafe.Slice(sizes, n)
	cs = make([]gocann.BatchCopy, n)
	for i := range cs {
		cs[i] = gocann.BatchCopy{Dst: ds[i], Src: ss[i], DestMax: uintptr(ms[i]), Size: uintptr(zs[i])}
	}
	as = make([]gocann.BatchAttr, numAttrs)
	ix = make([]uint64, numAttrs)
	for i, a := range unsafe.Slice(attrs, numAttrs) {
		as[i] = gocann.BatchAttr{Dst: gocann.MemLoc{ID: uint32(a.dstLoc.id), Type: uint32(a.dstLoc._type)},
			Src: gocann.MemLoc{ID: uint32(a.srcLoc.id), Type: uint32(a.srcLoc._type)}}
		for j, b := range a.rsv {
			as[i].Rsv[j] = byte(b)
		}
	}
	for i, v := range unsafe.Slice(idx, numAttrs) {
		ix[i] = uint64(v)
	}
	return cs, as, ix, false, 0
}

func setFail(out *C.size_t, fail int) {
	if out == nil {
		return
	}
	if fail < 0 {
		*out = C.SIZE_MAX
		return
	}
	*out = C.size_t(fail)
}

func memcpyBatch(t *C.gocann_thread, fn string, dsts *unsafe.Pointer, destMaxs *C.size_t, srcs *unsafe.Pointer, sizes *C.size_t, n C.size_t,
	attrs *C.aclrtMemcpyBatchAttr, idx *C.size_t, numAttrs C.size_t, failIndex *C.size_t, async bool, p C.aclrtStream) C.aclError {
	setFail(failIndex, gocann.NoFailIndex)
	cs, as, ix, zero, code := batchArgs(t, fn, dsts, destMaxs, srcs, sizes, n, attrs, idx, numAttrs)
	if code != 0 || zero {
		return code
	}
	var bad int
	var err error
	if async {
		s, code := queueStream(t, fn, p)
		if code != 0 {
			return code
		}
		bad, err = s.s.Raw().MemcpyBatchAsync(captureThread(t), cs, as, ix)
	} else {
		c, code := currentContext(t, fn)
		if code != 0 {
			return code
		}
		bad, err = c.c.Raw().MemcpyBatch(captureThread(t), cs, as, ix)
	}
	setFail(failIndex, bad)
	return fail(t, fn, err)
}

//export gocann_aclrtMemcpyBatch
func gocann_aclrtMemcpyBatch(t *C.gocann_thread, dsts *unsafe.Pointer, destMaxs *C.size_t, srcs *unsafe.Pointer, sizes *C.size_t, n C.size_t,
	attrs *C.aclrtMemcpyBatchAttr, idx *C.size_t, numAttrs C.size_t, failIndex *C.size_t) C.aclError {
	const fn = "aclrtMemcpyBatch"
	if failIndex == nil {
		return nullArg(t, fn, "failIndex")
	}
	return memcpyBatch(t, fn, dsts, destMaxs, srcs, sizes, n, attrs, idx, numAttrs, failIndex, false, nil)
}

//export gocann_aclrtMemcpyBatchV2
func gocann_aclrtMemcpyBatchV2(t *C.gocann_thread, dsts *unsafe.Pointer, destMaxs *C.size_t, srcs *unsafe.Pointer, sizes *C.size_t, n C.size_t,
	attrs *C.aclrtMemcpyBatchAttr, idx *C.size_t, numAttrs C.size_t) C.aclError {
	if code := unsupported(t, "aclrtMemcpyBatchV2"); code != 0 {
		return code
	}
	return memcpyBatch(t, "aclrtMemcpyBatchV2", dsts, destMaxs, srcs, sizes, n, attrs, idx, numAttrs, nil, false, nil)
}

//export gocann_aclrtMemcpyBatchAsync
func gocann_aclrtMemcpyBatchAsync(t *C.gocann_thread, dsts *unsafe.Pointer, destMaxs *C.size_t, srcs *unsafe.Pointer, sizes *C.size_t, n C.size_t,
	attrs *C.aclrtMemcpyBatchAttr, idx *C.size_t, numAttrs C.size_t, failIndex *C.size_t, p C.aclrtStream) C.aclError {
	const fn = "aclrtMemcpyBatchAsync"
	if failIndex == nil {
		return nullArg(t, fn, "failIndex")
	}
	return memcpyBatch(t, fn, dsts, destMaxs, srcs, sizes, n, attrs, idx, numAttrs, failIndex, true, p)
}

//export gocann_aclrtMemcpyBatchAsyncV2
func gocann_aclrtMemcpyBatchAsyncV2(t *C.gocann_thread, dsts *unsafe.Pointer, destMaxs *C.size_t, srcs *unsafe.Pointer, sizes *C.size_t, n C.size_t,
	attrs *C.aclrtMemcpyBatchAttr, idx *C.size_t, numAttrs C.size_t, p C.aclrtStream) C.aclError {
	if code := unsupported(t, "aclrtMemcpyBatchAsyncV2"); code != 0 {
		return code
	}
	return memcpyBatch(t, "aclrtMemcpyBatchAsyncV2", dsts, destMaxs, srcs, sizes, n, attrs, idx, numAttrs, nil, true, p)
}

//export gocann_aclrtMemcpyAsyncWithCondition
func gocann_aclrtMemcpyAsyncWithCondition(t *C.gocann_thread, dst unsafe.Pointer, destMax C.size_t, src unsafe.Pointer, count C.size_t, kind C.aclrtMemcpyKind, p C.aclrtStream) C.aclError {
	const fn = "aclrtMemcpyAsyncWithCondition"
	if count == 0 {
		return 0
	}
	if code := nullPtrs(t, fn, dst, src); code != 0 {
		return code
	}
	s, code := queueStream(t, fn, p)
	if code != 0 {
		return code
	}
	return fail(t, fn, s.s.Raw().MemcpyAsyncWithCondition(captureThread(t), dst, uintptr(destMax), src, uintptr(count), gocann.MemcpyKind(kind)))
}

//export gocann_aclrtMemcpyAsyncWithOffset
func gocann_aclrtMemcpyAsyncWithOffset(t *C.gocann_thread, dst *unsafe.Pointer, destMax, dstOff C.size_t, src *unsafe.Pointer, count, srcOff C.size_t, kind C.aclrtMemcpyKind, p C.aclrtStream) C.aclError {
	const fn = "aclrtMemcpyAsyncWithOffset"
	if count == 0 {
		return 0
	}
	switch {
	case dst == nil:
		return failf(t, fn, gocann.KindInvalidParam, "dst is NULL, expected the device address of the destination's base address")
	case src == nil:
		return failf(t, fn, gocann.KindInvalidParam, "src is NULL, expected the device address of the source's base address")
	}
	s, code := queueStream(t, fn, p)
	if code != 0 {
		return code
	}
	return fail(t, fn, s.s.Raw().MemcpyAsyncWithOffset(unsafe.Pointer(dst), uintptr(destMax), uintptr(dstOff), unsafe.Pointer(src), uintptr(count), uintptr(srcOff), gocann.MemcpyKind(kind)))
}

// descKind refuses a kind outside aclrtMemcpyKind, as CANN's API layer
// does before anything else.
func descKind(t *C.gocann_thread, fn string, kind C.aclrtMemcpyKind) C.aclError {
	if uint32(kind) > uint32(gocann.MemcpyInterDeviceToDevice) {
		return failf(t, fn, gocann.KindBadArgument, "kind %d is invalid, expected [ACL_MEMCPY_HOST_TO_HOST, ACL_MEMCPY_INTER_DEVICE_TO_DEVICE]", kind)
	}
	return 0
}

//export gocann_aclrtGetMemcpyDescSize
func gocann_aclrtGetMemcpyDescSize(t *C.gocann_thread, kind C.aclrtMemcpyKind, out *C.size_t) C.aclError {
	const fn = "aclrtGetMemcpyDescSize"
	if out == nil {
		return nullArg(t, fn, "descSize")
	}
	if code := descKind(t, fn, kind); code != 0 {
		return code
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	n, err := r.MemcpyDescSizeOf(gocann.MemcpyKind(kind))
	if err != nil {
		return fail(t, fn, err)
	}
	*out = C.size_t(n)
	return 0
}

//export gocann_aclrtSetMemcpyDesc
func gocann_aclrtSetMemcpyDesc(t *C.gocann_thread, desc unsafe.Pointer, kind C.aclrtMemcpyKind, src, dst unsafe.Pointer, count C.size_t, config unsafe.Pointer) C.aclError {
	const fn = "aclrtSetMemcpyDesc"
	switch {
	case desc == nil:
		return nullArg(t, fn, "desc")
	case src == nil:
		return nullArg(t, fn, "srcAddr")
	case dst == nil:
		return nullArg(t, fn, "dstAddr")
	case count == 0:
		return failf(t, fn, gocann.KindBadArgument, "count 0 is invalid, expected > 0")
	case config != nil:
		return failf(t, fn, gocann.KindBadArgument, "config %p is invalid, expected NULL (reserved)", config)
	}
	if code := descKind(t, fn, kind); code != 0 {
		return code
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	return fail(t, fn, c.c.Raw().SetMemcpyDesc(desc, gocann.MemcpyKind(kind), src, dst, uintptr(count)))
}

//export gocann_aclrtMemcpyAsyncWithDesc
func gocann_aclrtMemcpyAsyncWithDesc(t *C.gocann_thread, desc unsafe.Pointer, kind C.aclrtMemcpyKind, p C.aclrtStream) C.aclError {
	const fn = "aclrtMemcpyAsyncWithDesc"
	switch {
	case desc == nil:
		return nullArg(t, fn, "desc")
	case p == nil:
		return nullArg(t, fn, "stream")
	}
	if code := descKind(t, fn, kind); code != 0 {
		return code
	}
	s, code := queueStream(t, fn, p)
	if code != 0 {
		return code
	}
	return fail(t, fn, s.s.Raw().MemcpyAsyncWithDesc(desc, gocann.MemcpyKind(kind)))
}

//export gocann_aclrtMemsetD32
func gocann_aclrtMemsetD32(t *C.gocann_thread, p unsafe.Pointer, memSize C.size_t, value C.uint32_t, n C.size_t) C.aclError {
	return memsetSync(t, "aclrtMemsetD32", p, "ptr", n, func(c *cContext) error {
		return c.c.Raw().MemsetD32(captureThread(t), p, uintptr(memSize), uint32(value), uintptr(n))
	})
}

//export gocann_aclrtMemsetD32Async
func gocann_aclrtMemsetD32Async(t *C.gocann_thread, p unsafe.Pointer, memSize C.size_t, value C.uint32_t, n C.size_t, sp C.aclrtStream) C.aclError {
	return memsetAsync(t, "aclrtMemsetD32Async", p, "ptr", n, sp, func(s *cStream) error {
		return s.s.Raw().MemsetD32Async(captureThread(t), p, uintptr(memSize), uint32(value), uintptr(n))
	})
}
