package main

/*
#include <stdlib.h>
#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "thread.h"
*/
import "C"

import (
	"encoding/binary"
	"strconv"
	"unsafe"

	"github.com/gocann/gocann"
)

// The aclprofGetOp* calls that answer a number: 0 on failure (the flag's
// failure is ACL_SUBSCRIBE_NONE), the reason recorded.

// opField reads the uint64 at off of record index, or 0.
func opField(t *C.gocann_thread, fn string, info unsafe.Pointer, n C.size_t, index C.uint32_t, off int) C.uint64_t {
	b, err := opRecord(fn, info, n, index)
	if err != nil {
		fail(t, fn, err)
		return 0
	}
	return C.uint64_t(binary.LittleEndian.Uint64(b[off:]))
}

//export gocann_aclprofGetOpStart
func gocann_aclprofGetOpStart(t *C.gocann_thread, info unsafe.Pointer, n C.size_t, index C.uint32_t) C.uint64_t {
	if unsupported(t, "aclprofGetOpStart") != 0 {
		return 0
	}
	return opField(t, "aclprofGetOpStart", info, n, index, 32)
}

//export gocann_aclprofGetOpEnd
func gocann_aclprofGetOpEnd(t *C.gocann_thread, info unsafe.Pointer, n C.size_t, index C.uint32_t) C.uint64_t {
	if unsupported(t, "aclprofGetOpEnd") != 0 {
		return 0
	}
	return opField(t, "aclprofGetOpEnd", info, n, index, 40)
}

//export gocann_aclprofGetOpDuration
func gocann_aclprofGetOpDuration(t *C.gocann_thread, info unsafe.Pointer, n C.size_t, index C.uint32_t) C.uint64_t {
	if unsupported(t, "aclprofGetOpDuration") != 0 {
		return 0
	}
	return opField(t, "aclprofGetOpDuration", info, n, index, 24)
}

//export gocann_aclprofGetModelId
func gocann_aclprofGetModelId(t *C.gocann_thread, info unsafe.Pointer, n C.size_t, index C.uint32_t) C.size_t {
	const fn = "aclprofGetModelId"
	if unsupported(t, "aclprofGetModelId") != 0 {
		return 0
	}
	b, err := opRecord(fn, info, n, index)
	if err != nil {
		fail(t, fn, err)
		return 0
	}
	return C.size_t(binary.LittleEndian.Uint32(b[4:]))
}

//export gocann_aclprofGetOpFlag
func gocann_aclprofGetOpFlag(t *C.gocann_thread, info unsafe.Pointer, n C.size_t, index C.uint32_t) C.aclprofSubscribeOpFlag {
	const fn = "aclprofGetOpFlag"
	if unsupported(t, "aclprofGetOpFlag") != 0 {
		return C.ACL_SUBSCRIBE_NONE
	}
	b, err := opRecord(fn, info, n, index)
	if err != nil {
		fail(t, fn, err)
		return C.ACL_SUBSCRIBE_NONE
	}
	return C.aclprofSubscribeOpFlag(binary.LittleEndian.Uint32(b[8:]))
}

//export gocann_aclprofGetOpAttriValue
func gocann_aclprofGetOpAttriValue(t *C.gocann_thread, info unsafe.Pointer, n C.size_t, index C.uint32_t, attri C.aclprofSubscribeOpAttri) *C.char {
	const fn = "aclprofGetOpAttriValue"
	if unsupported(t, "aclprofGetOpAttriValue") != 0 {
		return nil
	}
	b, err := opRecord(fn, info, n, index)
	if err != nil {
		fail(t, fn, err)
		return nil
	}
	if attri != C.ACL_SUBSCRIBE_ATTRI_THREADID {
		failf(t, fn, gocann.KindBadArgument, "attri %d is invalid, expected ACL_SUBSCRIBE_ATTRI_THREADID (0)", attri)
		return nil
	}
	if flag := binary.LittleEndian.Uint32(b[8:]); flag != C.ACL_SUBSCRIBE_OP_THREAD {
		failf(t, fn, gocann.KindBadArgument, "record %d has flag %d, which carries no thread id (only ACL_SUBSCRIBE_OP_THREAD records do)", index, flag)
		return nil
	}
	// Kept until the next call, as CANN keeps its string.
	opNames.mu.Lock()
	defer opNames.mu.Unlock()
	if opNames.attr != nil {
		C.free(unsafe.Pointer(opNames.attr))
	}
	opNames.attr = C.CString(strconv.FormatUint(uint64(binary.LittleEndian.Uint32(b[12:])), 10))
	return opNames.attr
}
