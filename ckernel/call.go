package ckernel

/*
#include <stdlib.h>
#include "shim.h"

// The calls take their pointers as integers: the arguments and the
// failure record are Go memory the caller keeps alive, and pointer
// arguments would cost a cgo pointer check on every block.
static int call_kernel(uintptr_t fn, int64_t idx, int64_t num, uintptr_t args, int n, uint32_t fpmask, uintptr_t fail) {
	return gocann_call_kernel((void *)fn, idx, num, (const uint64_t *)args, n, fpmask, (gocann_failure *)fail);
}

static int call_gang(uintptr_t fn, int64_t idx, int64_t num, uintptr_t args, int n, uint32_t fpmask, uintptr_t gang, uintptr_t fail) {
	return gocann_call_gang((void *)fn, idx, num, (const uint64_t *)args, n, fpmask, gang, (gocann_failure *)fail);
}

static int call_kernels(uintptr_t calls, int n, uintptr_t result, uintptr_t fail) {
	return gocann_call_kernels((const gocann_native_call *)calls, n, (int *)result, (gocann_failure *)fail);
}

void gocann_write_out(const char *p, size_t n);

// write_out takes its bytes as an integer, as the calls do.
static void write_out(uintptr_t p, size_t n) { gocann_write_out((const char *)p, n); }
*/
import "C"

import (
	"fmt"
	"runtime"
	"unsafe"

	"github.com/gocann/gocann/kernel"
)

// Running blocks of native kernels: one call into C a block (or a batch of
// one-block launches), which returns how the block ended.

// run runs one block; a trap or an unloaded binary is a kernel fault.
func (b *Binary) run(fn unsafe.Pointer, name string, blk *kernel.Block) { b.runFP(fn, name, blk, 0) }

// runSK runs one block of kernel name as a sub-kernel of a SuperKernel:
// its SK_BIND function fn, called with the launch's argument slots, their
// count and the block count, packs them into the sub-function's struct.
func (b *Binary) runSK(fn unsafe.Pointer, name string, blk *kernel.Block) {
	args := blk.Args()
	var slots [3]uint64
	if len(args) > 0 {
		slots[0] = uint64(uintptr(unsafe.Pointer(&args[0])))
	}
	slots[1], slots[2] = uint64(len(args)), uint64(blk.Num())
	b.mu.RLock()
	if b.handle == nil {
		b.mu.RUnlock()
		panic(fmt.Sprintf("kernel %q: its binary %s was unloaded", name, b.name))
	}
	failure := callBlock(fn, blk, slots[:], 0)
	b.mu.RUnlock()
	runtime.KeepAlive(args)
	if failure != nil {
		panic(failure)
	}
}

// runFP runs one block of a kernel whose parameters fp marks as floating
// point (fpMask).
func (b *Binary) runFP(fn unsafe.Pointer, name string, blk *kernel.Block, fp uint32) {
	b.mu.RLock()
	if b.handle == nil {
		b.mu.RUnlock()
		panic(fmt.Sprintf("kernel %q: its binary %s was unloaded", name, b.name))
	}
	failure := callBlock(fn, blk, blk.Args(), fp)
	b.mu.RUnlock()
	if failure != nil {
		panic(failure)
	}
}

// callBlock calls fn for block blk with args, its parameters fp marks as
// floating point routed to their registers; it returns how the block
// failed (a *kernel.TrapError or a *kernel.Fault), or nil, and passes a
// reported overflow on to blk. One thread of a SIMT launch calls it with
// its thread's view of the block.
func callBlock(fn unsafe.Pointer, blk *kernel.Block, args []uint64, fp uint32) error {
	if blk.SIMT() != nil {
		return callThread(fn, blk, args, fp)
	}
	if blk.SK() != nil {
		return callSK(fn, blk, args, fp)
	}
	var p uintptr
	if len(args) > 0 {
		p = uintptr(unsafe.Pointer(&args[0]))
	}
	if g := blk.Gang(); g != nil {
		return callGang(fn, blk, p, len(args), fp, g)
	}
	// The record stays on this goroutine's stack, which does not move
	// while it is in a call into C (and a plain kernel calls back into Go
	// for nothing).
	var fail C.gocann_failure
	r := C.call_kernel(C.uintptr_t(uintptr(fn)), C.int64_t(blk.Idx()), C.int64_t(blk.Num()), C.uintptr_t(p), C.int(len(args)),
		C.uint32_t(fp), C.uintptr_t(uintptr(unsafe.Pointer(&fail))))
	runtime.KeepAlive(args)
	return ended(r, &fail, blk)
}

// callGang is callBlock for a block of a gang launch, whose blocks share
// the words of g (Go memory the launch keeps alive until its last block
// ends). Its failure record is on the heap, as a SIMT thread's is.
func callGang(fn unsafe.Pointer, blk *kernel.Block, args uintptr, n int, fp uint32, g *kernel.Gang) error {
	fail := new(C.gocann_failure)
	r := C.call_gang(C.uintptr_t(uintptr(fn)), C.int64_t(blk.Idx()), C.int64_t(blk.Num()), C.uintptr_t(args), C.int(n),
		C.uint32_t(fp), C.uintptr_t(uintptr(unsafe.Pointer(g))), C.uintptr_t(uintptr(unsafe.Pointer(fail))))
	runtime.KeepAlive(g)
	return ended(r, fail, blk)
}

// ended is how a block whose call returned r ended, fail its record; what
// the block printed goes to blk.
func ended(r C.int, fail *C.gocann_failure, blk *kernel.Block) error {
	if r == 0 {
		return nil
	}
	if r&C.GOCANN_CALL_OVERFLOW != 0 {
		blk.ReportOverflow()
	}
	if r&C.GOCANN_CALL_COPIED != 0 {
		blk.AddMoved(uint64(fail.copied))
	}
	if r&C.GOCANN_CALL_PRINTED != 0 {
		blk.Print(unsafe.Slice((*byte)(unsafe.Pointer(fail.out)), int(fail.out_len)))
		C.free(unsafe.Pointer(fail.out))
	}
	if r&(C.GOCANN_CALL_TRAPPED|C.GOCANN_CALL_FAULTED) == 0 {
		return nil
	}
	return failureOf(r, *fail)
}

var _ kernel.Batcher = (*Binary)(nil)

// RunBatch runs one-block launches of kernels of b in one call into C.
func (b *Binary) RunBatch(calls []kernel.BatchCall) (int, any) {
	buf, _ := b.calls.Get().(*[kernel.MaxBatch]C.gocann_native_call)
	if buf == nil {
		buf = new([kernel.MaxBatch]C.gocann_native_call)
	}
	defer b.calls.Put(buf)
	done := 0
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.handle == nil {
		return 0, fmt.Sprintf("kernel %q: its binary %s was unloaded", calls[0].Kernel.Name, b.name)
	}
	for done < len(calls) {
		n := min(len(calls)-done, kernel.MaxBatch)
		for i, c := range calls[done : done+n] {
			buf[i] = C.gocann_native_call{fn: C.uintptr_t(c.Kernel.Entry),
				args: C.uintptr_t(uintptr(unsafe.Pointer(unsafe.SliceData(c.Args)))), nargs: C.int64_t(len(c.Args))}
		}
		// The buffer and the arguments are Go memory the calls keep
		// alive, passed as integers as call_kernel's are.
		var (
			result C.int
			fail   C.gocann_failure
		)
		ran := int(C.call_kernels(C.uintptr_t(uintptr(unsafe.Pointer(buf))), C.int(n),
			C.uintptr_t(uintptr(unsafe.Pointer(&result))), C.uintptr_t(uintptr(unsafe.Pointer(&fail)))))
		runtime.KeepAlive(calls)
		done += ran
		if ran < n {
			return done, failureOf(result, fail)
		}
	}
	return done, nil
}

// emit writes what a launch's blocks printed through the C library's
// stdout, in order with the program's own printf.
func emit(out []byte) {
	if len(out) > 0 {
		C.write_out(C.uintptr_t(uintptr(unsafe.Pointer(&out[0]))), C.size_t(len(out)))
		runtime.KeepAlive(out)
	}
}
