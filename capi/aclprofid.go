package main

/*
#include <stdint.h>
#include <string.h>
#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "thread.h"
*/
import "C"

import (
	"fmt"
	"sync"

	"github.com/gocann/gocann"
)

// String ids (aclprofStr2Id, MsprofGetHashId, MsprofStr2Id) and the model
// loader's table of model ids (profiling/aprof_pub.h). An id is CANN's
// double hash of the string's bytes: two 32-bit polynomial hashes (29 and
// 131) side by side, so the ids a program computed with CANN's library
// are the same here. The strings hashed are kept, so that a tensor range
// names its operator.

// maxIDs bounds the strings kept by id.
const maxIDs = 1 << 16

var strIDs struct {
	mu   sync.Mutex
	strs map[uint64]string
}

// strID is the id of s, which it remembers.
func strID(s string) uint64 {
	var h0, h1 uint32
	for i := 0; i < len(s); i++ {
		c := uint32(int32(int8(s[i]))) // a char is signed, as in CANN's
		h0 = h0*29 + c
		h1 = h1*131 + c
	}
	id := uint64(h0)<<32 | uint64(h1)
	strIDs.mu.Lock()
	defer strIDs.mu.Unlock()
	if strIDs.strs == nil {
		strIDs.strs = map[uint64]string{}
	}
	if len(strIDs.strs) < maxIDs {
		strIDs.strs[id] = s
	}
	return id
}

// idString is the string whose id is id, if one was hashed, else the id
// in decimal.
func idString(id uint64) string {
	strIDs.mu.Lock()
	defer strIDs.mu.Unlock()
	if s, ok := strIDs.strs[id]; ok {
		return s
	}
	return fmt.Sprint(id)
}

// hashID is MsprofGetHashId: UINT64_MAX, with the reason recorded, for
// NULL or no bytes.
func hashID(t *C.gocann_thread, fn string, p *C.char, n C.size_t) C.uint64_t {
	switch {
	case p == nil:
		nullArg(t, fn, "hashInfo")
		return C.UINT64_MAX
	case n == 0:
		failf(t, fn, gocann.KindBadArgument, "the string is empty, expected at least one byte")
		return C.UINT64_MAX
	}
	return C.uint64_t(strID(C.GoStringN(p, C.int(n))))
}

//export gocann_aclprofStr2Id
func gocann_aclprofStr2Id(t *C.gocann_thread, msg *C.char) C.uint64_t {
	const fn = "aclprofStr2Id"
	if unsupported(t, "aclprofStr2Id") != 0 {
		return C.UINT64_MAX
	}
	if msg == nil {
		nullArg(t, fn, "message")
		return C.UINT64_MAX
	}
	return hashID(t, fn, msg, C.strlen(msg))
}

//export gocann_MsprofGetHashId
func gocann_MsprofGetHashId(t *C.gocann_thread, p *C.char, n C.size_t) C.uint64_t {
	return hashID(t, "MsprofGetHashId", p, n)
}

//export gocann_MsprofSetDeviceIdByGeModelIdx
func gocann_MsprofSetDeviceIdByGeModelIdx(t *C.gocann_thread, model, dev C.uint32_t) C.int32_t {
	procRuntime().RegisterModelDevice(uint32(model), int(dev))
	return 0
}

//export gocann_MsprofUnsetDeviceIdByGeModelIdx
func gocann_MsprofUnsetDeviceIdByGeModelIdx(t *C.gocann_thread, model, dev C.uint32_t) C.int32_t {
	procRuntime().UnregisterModelDevice(uint32(model))
	return 0
}
