package ckernel

/*
#include "shim.h"
*/
import "C"

import (
	"runtime/cgo"
	"unsafe"

	"github.com/gocann/gocann/kernel"
)

// SuperKernel sub-kernels whose SetNextTaskStart and WaitPreTaskEnd take
// effect (kernel.Block.SK): the block's state holds a handle to its
// kernel.Block, and the C calls come back here.

// callSK is callBlock for such a block. The calls come back into Go, which
// may move this goroutine's stack: the failure record is on the heap.
func callSK(fn unsafe.Pointer, blk *kernel.Block, args []uint64, fp uint32) error {
	h := cgo.NewHandle(blk)
	defer h.Delete()
	var p *C.uint64_t
	if len(args) > 0 {
		p = (*C.uint64_t)(unsafe.Pointer(&args[0]))
	}
	var gang C.uintptr_t
	if g := blk.Gang(); g != nil {
		gang = C.uintptr_t(uintptr(unsafe.Pointer(g)))
	}
	fail := new(C.gocann_failure)
	r := C.gocann_call_sk(fn, C.int64_t(blk.Idx()), C.int64_t(blk.Num()), p, C.int(len(args)), C.uint32_t(fp), gang,
		C.uintptr_t(h), fail)
	return ended(r, fail, blk)
}

//export gocann_sk_hook
func gocann_sk_hook(h C.uintptr_t, which C.int) {
	blk := cgo.Handle(h).Value().(*kernel.Block)
	if which == 0 {
		blk.SetNextTaskStart()
	} else {
		blk.WaitPreTaskEnd()
	}
}
