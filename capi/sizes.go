package main

/*
#include "acl/acl.h"
#include "thread.h"
*/
import "C"

import (
	"math"
	"unsafe"

	"github.com/gocann/gocann"
)

// The bounds of the sizes and counts the C ABI takes as size_t. Each is
// checked before the value is converted or used, so no value is cut to a
// narrower type on the way in (docs/choices.md says where each comes
// from).
const (
	// maxArgsBlock is the largest host argument block and argument list:
	// CANN's own argument buffer (MAX_ARGS_BUFF_SIZE, 64 KiB).
	maxArgsBlock = 64 << 10

	// maxBinaryData is the largest kernel binary aclrtBinaryLoadFromData
	// copies in: what a C int counts.
	maxBinaryData = math.MaxInt32

	// maxUserArgsSize is the largest userArgsSize whose size rounded up
	// to 8 bytes a size_t still holds.
	maxUserArgsSize = math.MaxUint64 &^ 7

	// maxHostEnd bounds caller arrays: no 64-bit Linux process maps
	// memory at or past 2^48 (as internal/rt bounds host ranges).
	maxHostEnd = 1 << 48
)

// checkArray refuses a caller array of count elements of size bytes at p
// that would run past the host address space: such a count cannot be
// right, and is refused before a slice of it is made.
func checkArray(t *C.gocann_thread, fn, param string, p unsafe.Pointer, count C.size_t, size uintptr) C.aclError {
	n, addr := uint64(count), uint64(uintptr(p))
	if n > maxHostEnd/uint64(size) || addr > maxHostEnd-n*uint64(size) {
		return failf(t, fn, gocann.KindInvalidParam, "%s %d is invalid: %d entries of %d bytes at %p run past the host address space",
			param, n, n, size, p)
	}
	return 0
}

// pad8 rounds n up to a multiple of 8, saturating at the largest one.
func pad8(n uint64) uint64 {
	if n > maxUserArgsSize {
		return maxUserArgsSize
	}
	return (n + 7) &^ 7
}

// addSat adds without wrapping past the largest uint64.
func addSat(a, b uint64) uint64 {
	if a > math.MaxUint64-b {
		return math.MaxUint64
	}
	return a + b
}

// checkArgsSize checks the size of an argument block given for f: at most
// max bytes, a multiple of 8, and enough for f's parameters where the
// binary tells them.
func checkArgsSize(t *C.gocann_thread, fn string, f *cFunc, size C.size_t, max uint64) C.aclError {
	switch {
	case uint64(size) > max:
		return failf(t, fn, gocann.KindInvalidParam, "argsSize %d is invalid, expected a multiple of 8 up to %d", uint64(size), max)
	case size%8 != 0:
		return failf(t, fn, gocann.KindInvalidParam, "argsSize %d is invalid, expected a multiple of 8", uint64(size))
	}
	return checkCovers(t, fn, f, "argsSize", uint64(size))
}

// checkCovers refuses an argument block whose parameter slots (n bytes,
// named param) are fewer than f's parameters take: the kernel would read
// parameters that were never given.
func checkCovers(t *C.gocann_thread, fn string, f *cFunc, param string, n uint64) C.aclError {
	need, count := f.paramBytes()
	if n >= uint64(need) {
		return 0
	}
	return failf(t, fn, gocann.KindInvalidParam, "%s %d is invalid, expected at least %d: the %d parameters of kernel %q take %d bytes, each padded to 8",
		param, n, need, count, f.name, need)
}

// paramBytes is what f's parameters take in an argument block, each padded
// to 8 bytes, and their count; 0, 0 when the binary does not tell them
// (built without debug information and without GOCANN_KERNEL_PARAMS).
func (f *cFunc) paramBytes() (bytes, count int) {
	sizes, err := f.paramSizes()
	if err != nil {
		return 0, 0
	}
	for _, n := range sizes {
		bytes += (n + 7) &^ 7
	}
	return bytes, len(sizes)
}

// checkPlaceholders checks a host block's placeholder count before the
// array is read: each placeholder names its own 8-byte slot of the block.
func checkPlaceholders(t *C.gocann_thread, fn string, size, num C.size_t) C.aclError {
	if uint64(num) > uint64(size)/8 {
		return failf(t, fn, gocann.KindInvalidParam, "placeHolderNum %d is invalid, expected at most %d (one per 8-byte slot of the %d-byte block)",
			uint64(num), uint64(size)/8, uint64(size))
	}
	return 0
}
