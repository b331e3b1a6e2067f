package ckernel

/*
#include <stdint.h>
#include "shim.h"
*/
import "C"

import (
	"runtime/cgo"
	"unsafe"

	"github.com/gocann/gocann/kernel"
)

// SIMT threads of C kernels: each runs in its own call into C, with its
// layout in the calling thread's block state; asc_syncthreads comes back
// to Go to wait on the block's barrier.

// simtMarker is the prefix of the symbol GOCANN_SIMT_KERNEL defines for a
// SIMT kernel.
const simtMarker = "gocann_simt_"

// callThread runs one SIMT thread of blk. The barrier travels to C as a
// handle, deleted when the thread returns.
func callThread(fn unsafe.Pointer, blk *kernel.Block, args []uint64, fp uint32) error {
	s := blk.SIMT()
	t, bd, g := blk.ThreadIdx(), s.Block, s.Grid
	layout := [9]C.uint32_t{C.uint32_t(t.X), C.uint32_t(t.Y), C.uint32_t(t.Z), C.uint32_t(bd.X), C.uint32_t(bd.Y), C.uint32_t(bd.Z),
		C.uint32_t(g.X), C.uint32_t(g.Y), C.uint32_t(g.Z)}
	h := cgo.NewHandle(s.Barrier)
	defer h.Delete()
	var p *C.uint64_t
	if len(args) > 0 {
		p = (*C.uint64_t)(unsafe.Pointer(&args[0]))
	}
	// A SIMT thread calls back into Go at its barriers, which may move
	// this goroutine's stack: its failure record is on the heap.
	fail := new(C.gocann_failure)
	r := C.gocann_call_simt(fn, C.int64_t(blk.Idx()), C.int64_t(blk.Num()), p, C.int(len(args)), C.uint32_t(fp),
		&layout[0], C.uintptr_t(h), fail)
	return ended(r, fail, blk)
}

//export gocann_simt_barrier_wait
func gocann_simt_barrier_wait(h C.uintptr_t) {
	cgo.Handle(h).Value().(kernel.Barrier).Wait()
}
