package main

/*
#include "acl/acl.h"
#include "thread.h"
*/
import "C"

import (
	"strconv"
	"unsafe"

	"github.com/gocann/gocann"
)

func managedLoc(l C.aclrtMemManagedLocation) gocann.ManagedLocation {
	return gocann.ManagedLocation{Type: uint32(l._type), ID: int32(l.id)}
}

//export gocann_aclrtMemAllocManaged
func gocann_aclrtMemAllocManaged(t *C.gocann_thread, out *unsafe.Pointer, size C.uint64_t, flag C.uint32_t) C.aclError {
	const fn = "aclrtMemAllocManaged"
	if out == nil {
		return nullArg(t, fn, "ptr")
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	p, err := c.c.MallocManaged(uint64(size), uint32(flag))
	if err != nil {
		return fail(t, fn, err)
	}
	*out = addrPtr(p)
	return 0
}

//export gocann_aclrtMemManagedAdvise
func gocann_aclrtMemManagedAdvise(t *C.gocann_thread, p unsafe.Pointer, size C.uint64_t, advise C.aclrtMemManagedAdviseType, loc C.aclrtMemManagedLocation) C.aclError {
	const fn = "aclrtMemManagedAdvise"
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	return fail(t, fn, r.ManagedAdvise(devPtr(p), uint64(size), uint32(advise), managedLoc(loc)))
}

// attrWords reads one attribute of [p, p+size) into the dataSize bytes at
// data, a whole number of 4-byte words.
func attrWords(t *C.gocann_thread, fn string, r *gocann.Runtime, attr C.aclrtMemManagedRangeAttribute, p unsafe.Pointer, size C.size_t, data unsafe.Pointer, dataSize C.size_t, param string) C.aclError {
	if data == nil {
		return nullArg(t, fn, param)
	}
	if uintptr(data) < 4096 {
		return failf(t, fn, gocann.KindBadArgument, "%s %p is invalid, expected a valid pointer", param, data)
	}
	if dataSize == 0 || dataSize%4 != 0 {
		return failf(t, fn, gocann.KindInvalidParam, "dataSize %d is invalid, expected a positive multiple of 4", dataSize)
	}
	if code := checkArray(t, fn, "dataSize", data, dataSize/4, 4); code != 0 {
		return code
	}
	out := make([]int32, dataSize/4)
	if err := r.ManagedAttr(uint32(attr), devPtr(p), uint64(size), out); err != nil {
		return fail(t, fn, err)
	}
	copy(unsafe.Slice((*int32)(data), len(out)), out)
	return 0
}

//export gocann_aclrtMemManagedGetAttr
func gocann_aclrtMemManagedGetAttr(t *C.gocann_thread, attr C.aclrtMemManagedRangeAttribute, p unsafe.Pointer, size C.size_t, data unsafe.Pointer, dataSize C.size_t) C.aclError {
	const fn = "aclrtMemManagedGetAttr"
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	return attrWords(t, fn, r, attr, p, size, data, dataSize, "data")
}

//export gocann_aclrtMemManagedGetAttrs
func gocann_aclrtMemManagedGetAttrs(t *C.gocann_thread, attrs *C.aclrtMemManagedRangeAttribute, n C.size_t, p unsafe.Pointer, size C.size_t, data *unsafe.Pointer, sizes *C.size_t) C.aclError {
	const fn = "aclrtMemManagedGetAttrs"
	switch {
	case attrs == nil:
		return nullArg(t, fn, "attributes")
	case data == nil:
		return nullArg(t, fn, "data")
	case sizes == nil:
		return nullArg(t, fn, "dataSizes")
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	if n == 0 {
		return failf(t, fn, gocann.KindInvalidParam, "numAttributes 0 is invalid, expected > 0")
	}
	for _, a := range []struct {
		p    unsafe.Pointer
		size uintptr
	}{{unsafe.Pointer(attrs), unsafe.Sizeof(*attrs)}, {unsafe.Pointer(data), unsafe.Sizeof(*data)}, {unsafe.Pointer(sizes), unsafe.Sizeof(*sizes)}} {
		if code := checkArray(t, fn, "numAttributes", a.p, n, a.size); code != 0 {
			return code
		}
	}
	as, ds, ss := unsafe.Slice(attrs, n), unsafe.Slice(data, n), unsafe.Slice(sizes, n)
	for i := range as {
		if code := attrWords(t, fn, r, as[i], p, size, ds[i], ss[i], "data["+strconv.Itoa(i)+"]"); code != 0 {
			return code
		}
	}
	return 0
}

//export gocann_aclrtMemManagedPrefetchAsync
func gocann_aclrtMemManagedPrefetchAsync(t *C.gocann_thread, p unsafe.Pointer, size C.size_t, loc C.aclrtMemManagedLocation, flags C.uint32_t, sp C.aclrtStream) C.aclError {
	const fn = "aclrtMemManagedPrefetchAsync"
	s, code := queueStream(t, fn, sp)
	if code != 0 {
		return code
	}
	return fail(t, fn, s.s.PrefetchManaged(devPtr(p), uint64(size), managedLoc(loc), uint32(flags)))
}

//export gocann_aclrtMemManagedPrefetchBatchAsync
func gocann_aclrtMemManagedPrefetchBatchAsync(t *C.gocann_thread, ptrs *unsafe.Pointer, sizes *C.size_t, count C.size_t,
	locs *C.aclrtMemManagedLocation, idxs *C.size_t, nlocs C.size_t, flags C.uint64_t, sp C.aclrtStream) C.aclError {
	const fn = "aclrtMemManagedPrefetchBatchAsync"
	switch {
	case ptrs == nil:
		return nullArg(t, fn, "ptrs")
	case sizes == nil:
		return nullArg(t, fn, "sizes")
	case locs == nil:
		return nullArg(t, fn, "prefetchLocs")
	case idxs == nil:
		return nullArg(t, fn, "prefetchLocIdxs")
	}
	s, code := queueStream(t, fn, sp)
	if code != 0 {
		return code
	}
	// The ACL layer's checks.
	switch {
	case count == 0:
		return failf(t, fn, gocann.KindBadArgument, "count 0 is invalid, expected > 0")
	case nlocs == 0 || nlocs > count:
		return failf(t, fn, gocann.KindBadArgument, "numPrefetchLocs %d is invalid, expected 1..count (%d)", nlocs, count)
	case flags != 0:
		return failf(t, fn, gocann.KindBadArgument, "flags %d is invalid, expected 0", flags)
	}
	for _, a := range []struct {
		p     unsafe.Pointer
		n     C.size_t
		size  uintptr
		param string
	}{{unsafe.Pointer(ptrs), count, 8, "count"}, {unsafe.Pointer(sizes), count, 8, "count"},
		{unsafe.Pointer(locs), nlocs, unsafe.Sizeof(*locs), "numPrefetchLocs"}, {unsafe.Pointer(idxs), nlocs, 8, "numPrefetchLocs"}} {
		if code := checkArray(t, fn, a.param, a.p, a.n, a.size); code != 0 {
			return code
		}
	}
	ps, ss, ls, is := unsafe.Slice(ptrs, count), unsafe.Slice(sizes, count), unsafe.Slice(locs, nlocs), unsafe.Slice(idxs, nlocs)
	for k, at := range is {
		switch {
		case k == 0 && at != 0:
			return failf(t, fn, gocann.KindInvalidParam, "prefetchLocIdxs[0] %d is invalid, expected 0", at)
		case k > 0 && at <= is[k-1]:
			return failf(t, fn, gocann.KindInvalidParam, "prefetchLocIdxs[%d] %d is invalid, expected more than prefetchLocIdxs[%d] (%d)", k, at, k-1, is[k-1])
		case at >= count:
			return failf(t, fn, gocann.KindInvalidParam, "prefetchLocIdxs[%d] %d is invalid, expected less than count (%d)", k, at, count)
		}
	}
	batch := make([]gocann.ManagedPrefetch, count)
	k := 0
	for i := range batch {
		for k+1 < len(is) && C.size_t(i) >= is[k+1] {
			k++
		}
		batch[i] = gocann.ManagedPrefetch{Ptr: devPtr(ps[i]), Size: uint64(ss[i]), Loc: managedLoc(ls[k])}
	}
	return fail(t, fn, s.s.PrefetchManagedBatch(batch, uint64(flags)))
}
