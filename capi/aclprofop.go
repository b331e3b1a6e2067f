package main

/*
#include <string.h>
#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "thread.h"
*/
import "C"

import (
	"encoding/binary"
	"hash/crc32"
	"sync"
	"unsafe"

	"github.com/gocann/gocann"
)

// The records a subscription writes, and the aclprofGetOp* calls that read
// them. A record has CANN's layout (80 bytes, little-endian): signature,
// model id, flag, thread id (uint32 each), operation index, duration,
// start, end, execution time, cube and vector operation counts (uint64
// each, times in microseconds on CLOCK_MONOTONIC), device id (uint32),
// and 4 bytes of padding. The signature is CANN's: the CRC-32C table run
// over the other 76 bytes from all ones, not inverted at the end. The
// operation's name and type are kept in the process by operation index
// until read, each once, as CANN keeps them.

const opDescSize = 80

// maxOpNames bounds the names and types kept unread.
const maxOpNames = 1 << 20

var opNames struct {
	// mu guards the fields below.
	mu    sync.Mutex
	next  uint64
	names map[uint64]string
	types map[uint64]string
	attr  *C.char // the string aclprofGetOpAttriValue last returned
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// encodeOps encodes ops as records, keeping their names and types.
func encodeOps(ops []gocann.OpRecord) []byte {
	out := make([]byte, len(ops)*opDescSize)
	opNames.mu.Lock()
	defer opNames.mu.Unlock()
	if opNames.names == nil {
		opNames.names, opNames.types = map[uint64]string{}, map[uint64]string{}
	}
	for i, o := range ops {
		opNames.next++
		idx := opNames.next
		if len(opNames.names) < maxOpNames {
			opNames.names[idx], opNames.types[idx] = o.Name, o.Type
		}
		b := out[i*opDescSize : (i+1)*opDescSize]
		le := binary.LittleEndian
		start, end := uint64(o.Start/1000), uint64(o.End/1000)
		le.PutUint32(b[4:], o.Model)
		le.PutUint32(b[8:], C.ACL_SUBSCRIBE_OP)
		le.PutUint32(b[12:], o.Thread)
		le.PutUint64(b[16:], idx)
		le.PutUint64(b[24:], end-start)
		le.PutUint64(b[32:], start)
		le.PutUint64(b[40:], end)
		le.PutUint64(b[48:], end-start)
		le.PutUint32(b[72:], uint32(o.Device))
		le.PutUint32(b[0:], signature(b))
	}
	return out
}

// signature is the signature of record b.
func signature(b []byte) uint32 { return ^crc32.Update(0, castagnoli, b[4:opDescSize]) }

// opRecord returns record index of the len bytes at info, all of which
// must be records, or the error.
func opRecord(fn string, info unsafe.Pointer, n C.size_t, index C.uint32_t) ([]byte, error) {
	if info == nil {
		return nil, nullArgError(fn, "opInfo")
	}
	if n%opDescSize != 0 {
		return nil, gocann.Errorf(fn, gocann.KindBadArgument, "opInfoLen %d is invalid, expected a multiple of %d (aclprofGetOpDescSize)", n, opDescSize)
	}
	all := unsafe.Slice((*byte)(info), n)
	for i := 0; i < len(all); i += opDescSize {
		if b := all[i : i+opDescSize]; binary.LittleEndian.Uint32(b) != signature(b) {
			return nil, gocann.Errorf(fn, gocann.KindBadArgument, "record %d of opInfo has a wrong signature, expected records read from a subscription's pipe", i/opDescSize)
		}
	}
	if uint64(index) >= uint64(n/opDescSize) {
		return nil, gocann.Errorf(fn, gocann.KindBadArgument, "index %d is invalid, expected 0 to %d", index, int(n/opDescSize)-1)
	}
	return all[int(index)*opDescSize : (int(index)+1)*opDescSize], nil
}

//export gocann_aclprofGetOpDescSize
func gocann_aclprofGetOpDescSize(t *C.gocann_thread, size *C.size_t) C.aclError {
	const fn = "aclprofGetOpDescSize"
	if code := unsupported(t, "aclprofGetOpDescSize"); code != 0 {
		return code
	}
	if size == nil {
		return nullArg(t, fn, "opDescSize")
	}
	*size = opDescSize
	return 0
}

//export gocann_aclprofGetOpNum
func gocann_aclprofGetOpNum(t *C.gocann_thread, info unsafe.Pointer, n C.size_t, num *C.uint32_t) C.aclError {
	const fn = "aclprofGetOpNum"
	if code := unsupported(t, "aclprofGetOpNum"); code != 0 {
		return code
	}
	if num == nil {
		return nullArg(t, fn, "opNumber")
	}
	if n == 0 {
		*num = 0
		return 0
	}
	if _, err := opRecord(fn, info, n, 0); err != nil {
		return fail(t, fn, err)
	}
	*num = C.uint32_t(n / opDescSize)
	return 0
}

// opString reads record index's name (names) or type; take removes it.
func opString(fn string, info unsafe.Pointer, n C.size_t, index C.uint32_t, names, take bool) (string, error) {
	b, err := opRecord(fn, info, n, index)
	if err != nil {
		return "", err
	}
	idx := binary.LittleEndian.Uint64(b[16:])
	opNames.mu.Lock()
	defer opNames.mu.Unlock()
	m, what := opNames.types, "type"
	if names {
		m, what = opNames.names, "name"
	}
	s, ok := m[idx]
	if !ok {
		return "", gocann.Errorf(fn, gocann.KindBadArgument, "the %s of record %d was read already (each is read once), or dropped", what, index)
	}
	if take {
		delete(m, idx)
	}
	return s, nil
}

// lenOf stores the size of record index's name or type, its NUL included.
func lenOf(t *C.gocann_thread, fn string, info unsafe.Pointer, n C.size_t, index C.uint32_t, out *C.size_t, names bool) C.aclError {
	if out == nil {
		return nullArg(t, fn, map[bool]string{false: "opTypeLen", true: "opNameLen"}[names])
	}
	s, err := opString(fn, info, n, index, names, false)
	if err != nil {
		return fail(t, fn, err)
	}
	*out = C.size_t(len(s) + 1)
	return 0
}

// copyOf copies record index's name or type into buf, truncated to
// size-1 bytes and NUL-terminated.
func copyOf(t *C.gocann_thread, fn string, info unsafe.Pointer, n C.size_t, index C.uint32_t, buf *C.char, size C.size_t, names bool) C.aclError {
	param := map[bool]string{false: "opType", true: "opName"}[names]
	switch {
	case buf == nil:
		return nullArg(t, fn, param)
	case size == 0:
		return failf(t, fn, gocann.KindBadArgument, "%sLen is 0, expected room for the string and its NUL", param)
	}
	s, err := opString(fn, info, n, index, names, true)
	if err != nil {
		return fail(t, fn, err)
	}
	dst := unsafe.Slice((*byte)(unsafe.Pointer(buf)), size)
	dst[copy(dst[:size-1], s)] = 0
	return 0
}

//export gocann_aclprofGetOpTypeLen
func gocann_aclprofGetOpTypeLen(t *C.gocann_thread, info unsafe.Pointer, n C.size_t, index C.uint32_t, out *C.size_t) C.aclError {
	if code := unsupported(t, "aclprofGetOpTypeLen"); code != 0 {
		return code
	}
	return lenOf(t, "aclprofGetOpTypeLen", info, n, index, out, false)
}

//export gocann_aclprofGetOpType
func gocann_aclprofGetOpType(t *C.gocann_thread, info unsafe.Pointer, n C.size_t, index C.uint32_t, buf *C.char, size C.size_t) C.aclError {
	if code := unsupported(t, "aclprofGetOpType"); code != 0 {
		return code
	}
	return copyOf(t, "aclprofGetOpType", info, n, index, buf, size, false)
}

//export gocann_aclprofGetOpNameLen
func gocann_aclprofGetOpNameLen(t *C.gocann_thread, info unsafe.Pointer, n C.size_t, index C.uint32_t, out *C.size_t) C.aclError {
	if code := unsupported(t, "aclprofGetOpNameLen"); code != 0 {
		return code
	}
	return lenOf(t, "aclprofGetOpNameLen", info, n, index, out, true)
}

//export gocann_aclprofGetOpName
func gocann_aclprofGetOpName(t *C.gocann_thread, info unsafe.Pointer, n C.size_t, index C.uint32_t, buf *C.char, size C.size_t) C.aclError {
	if code := unsupported(t, "aclprofGetOpName"); code != 0 {
		return code
	}
	return copyOf(t, "aclprofGetOpName", info, n, index, buf, size, true)
}
