package main

/*
#include "acl/acl.h"
#include "thread.h"
*/
import "C"

import (
	"unsafe"

	"github.com/gocann/gocann"
)

// Shareable handles of physical memory: a uint64 (the default type) or an
// aclrtMemFabricHandle (the fabric type, Atlas A3 only).

// shareType refuses a type that is neither kind of shareable handle.
func shareType(t *C.gocann_thread, fn string, st C.aclrtMemSharedHandleType) C.aclError {
	if st != C.ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT && st != C.ACL_MEM_SHARE_HANDLE_TYPE_FABRIC {
		return failf(t, fn, gocann.KindInvalidParam,
			"shareType %d is invalid, expected ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT (1) or ACL_MEM_SHARE_HANDLE_TYPE_FABRIC (2)", int64(st))
	}
	return 0
}

func fabricAt(p unsafe.Pointer) gocann.FabricHandle { return *(*gocann.FabricHandle)(p) }

//export gocann_aclrtMemExportToShareableHandle
func gocann_aclrtMemExportToShareableHandle(t *C.gocann_thread, hp C.aclrtDrvMemHandle, handleType C.aclrtMemHandleType, flags C.uint64_t, out *C.uint64_t) C.aclError {
	const fn = "aclrtMemExportToShareableHandle"
	switch {
	case hp == nil:
		return nullArg(t, fn, "handle")
	case handleType != C.ACL_MEM_HANDLE_TYPE_NONE:
		return failf(t, fn, gocann.KindBadArgument, "handleType %d is invalid, expected ACL_MEM_HANDLE_TYPE_NONE (0)", int64(handleType))
	case out == nil:
		return nullArg(t, fn, "shareableHandle")
	}
	r, h, code := rtPhys(t, fn, hp)
	if code != 0 {
		return code
	}
	v, err := r.MemExportToShareableHandle(h, 0, uint64(flags))
	if err != nil {
		return fail(t, fn, err)
	}
	*out = C.uint64_t(v)
	return 0
}

//export gocann_aclrtMemExportToShareableHandleV2
func gocann_aclrtMemExportToShareableHandleV2(t *C.gocann_thread, hp C.aclrtDrvMemHandle, flags C.uint64_t, st C.aclrtMemSharedHandleType, out unsafe.Pointer) C.aclError {
	const fn = "aclrtMemExportToShareableHandleV2"
	switch {
	case hp == nil:
		return nullArg(t, fn, "handle")
	case out == nil:
		return nullArg(t, fn, "shareableHandle")
	}
	if code := shareType(t, fn, st); code != 0 {
		return code
	}
	r, h, code := rtPhys(t, fn, hp)
	if code != 0 {
		return code
	}
	if st == C.ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT {
		v, err := r.MemExportToShareableHandle(h, 0, uint64(flags))
		if err != nil {
			return fail(t, fn, err)
		}
		*(*C.uint64_t)(out) = C.uint64_t(v)
		return 0
	}
	if _, code := currentContext(t, fn); code != 0 {
		return code
	}
	f, err := r.MemExportToFabricHandle(h, uint64(flags))
	if err != nil {
		return fail(t, fn, err)
	}
	*(*gocann.FabricHandle)(out) = f
	return 0
}

//export gocann_aclrtMemImportFromShareableHandle
func gocann_aclrtMemImportFromShareableHandle(t *C.gocann_thread, v C.uint64_t, dev C.int32_t, out *C.aclrtDrvMemHandle) C.aclError {
	const fn = "aclrtMemImportFromShareableHandle"
	if out == nil {
		return nullArg(t, fn, "handle")
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	h, err := r.MemImportFromShareableHandle(uint64(v), int(dev))
	if err != nil {
		return fail(t, fn, err)
	}
	*out = C.aclrtDrvMemHandle(physHandle(h))
	return 0
}

//export gocann_aclrtMemImportFromShareableHandleV2
func gocann_aclrtMemImportFromShareableHandleV2(t *C.gocann_thread, in unsafe.Pointer, st C.aclrtMemSharedHandleType, flags C.uint64_t, out *C.aclrtDrvMemHandle) C.aclError {
	const fn = "aclrtMemImportFromShareableHandleV2"
	switch {
	case in == nil:
		return nullArg(t, fn, "shareableHandle")
	case out == nil:
		return nullArg(t, fn, "handle")
	case flags != 0:
		return failf(t, fn, gocann.KindBadArgument, "flags %d is invalid, expected 0", uint64(flags))
	}
	d, code := currentDevice(t, fn)
	if code != 0 {
		return code
	}
	if code := shareType(t, fn, st); code != 0 {
		return code
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	var h gocann.PhysicalMem
	var err error
	if st == C.ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT {
		h, err = r.MemImportFromShareableHandle(uint64(*(*C.uint64_t)(in)), d.ID())
	} else {
		h, err = r.MemImportFromFabricHandle(fabricAt(in), d.ID())
	}
	if err != nil {
		return fail(t, fn, err)
	}
	*out = C.aclrtDrvMemHandle(physHandle(h))
	return 0
}

//export gocann_aclrtMemSetPidToShareableHandle
func gocann_aclrtMemSetPidToShareableHandle(t *C.gocann_thread, v C.uint64_t, pid *C.int32_t, n C.size_t) C.aclError {
	const fn = "aclrtMemSetPidToShareableHandle"
	switch {
	case pid == nil:
		return nullArg(t, fn, "pid")
	case n == 0:
		return failf(t, fn, gocann.KindBadArgument, "pidNum 0 is invalid, expected at least one process")
	}
	if code := pidCount(t, fn, "pidNum", n); code != 0 {
		return code
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	return fail(t, fn, r.MemSetPidToShareableHandle(uint64(v), cPids(pid, n)...))
}

//export gocann_aclrtMemSetPidToShareableHandleV2
func gocann_aclrtMemSetPidToShareableHandleV2(t *C.gocann_thread, in unsafe.Pointer, st C.aclrtMemSharedHandleType, pid *C.int32_t, n C.size_t) C.aclError {
	const fn = "aclrtMemSetPidToShareableHandleV2"
	switch {
	case in == nil:
		return nullArg(t, fn, "shareableHandle")
	case pid == nil:
		return nullArg(t, fn, "pid")
	case n == 0:
		return failf(t, fn, gocann.KindBadArgument, "pidNum 0 is invalid, expected at least one process")
	}
	if code := shareType(t, fn, st); code != 0 {
		return code
	}
	if code := pidCount(t, fn, "pidNum", n); code != 0 {
		return code
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	if st == C.ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT {
		return fail(t, fn, r.MemSetPidToShareableHandle(uint64(*(*C.uint64_t)(in)), cPids(pid, n)...))
	}
	return fail(t, fn, r.MemSetPidToFabricHandle(fabricAt(in), cPids(pid, n)...))
}
