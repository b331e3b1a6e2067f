// The per-thread state of a running block, shared by the call shim
// (shim.c), the fault handler (fault.c) and the exception guard
// (guard.cc). Internal to ckernel.
#ifndef GOCANN_CKERNEL_BLOCK_H
#define GOCANN_CKERNEL_BLOCK_H

#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include "shim.h"

#ifdef __cplusplus
extern "C" {
#endif

struct gocann_block_state {
	int64_t idx, num;
	jmp_buf *trap;        // the block's trap point; NULL outside a block
	const uint32_t *simt; // a SIMT thread's layout: thread x y z, block x y z, grid x y z
	uintptr_t barrier;    // its block's barrier, for gocann_simt_barrier_wait
	uintptr_t gang;       // a gang launch's shared words (kernel.Gang, gang.c); 0 otherwise
	uintptr_t sk;         // a SuperKernel sub-kernel's block (a cgo.Handle, sk.go); 0 otherwise
	// running is 1 while the thread runs the kernel's own code (and what
	// it calls), not the shim's or Go's: only a fault raised then is the
	// kernel's. Two plain stores a block; the handler reads it.
	volatile sig_atomic_t running;
	// resume_sp is where a contained fault resumes, to leave through the
	// trap point: the guard's frame, below the shim's and above the
	// kernel's, whatever state the kernel left its own stack in.
	uintptr_t resume_sp;
};

// Initial-exec: the state is read on every kernel call and in the signal
// handler, and the library is linked into the process (or loaded like
// the Go runtime it comes with, which uses the same model).
extern __thread struct gocann_block_state gocann_block
	__attribute__((tls_model("initial-exec"), visibility("hidden")));

// gocann_fault is the thread's last fault, as the handler or the guard
// recorded it; apart from the block state, which every block saves and
// restores.
extern __thread gocann_failure gocann_fault __attribute__((tls_model("initial-exec"), visibility("hidden")));

// gocann_invoke calls fn with the argument slots, in the registers fpmask
// says; it returns 0, or GOCANN_CALL_FAULTED with gocann_fault
// describing the C++ exception that left the kernel (guard.cc).
int gocann_invoke(void *fn, const uint64_t *args, int n, uint32_t fpmask) __attribute__((visibility("hidden")));

// gocann_invoke_batch is gocann_invoke for n one-block launches in order,
// with integer slots only; *at is the launch running.
int gocann_invoke_batch(const gocann_native_call *calls, int n, volatile int *at) __attribute__((visibility("hidden")));

// gocann_printed is 1 once the thread's block printed lines not yet
// written out; every block's call ends by writing them
// (gocann_flush_prints, print.c).
extern __thread int gocann_printed __attribute__((tls_model("initial-exec"), visibility("hidden")));
void gocann_flush_prints(void) __attribute__((visibility("hidden")));

// gocann_end_batch_prints ends a batch of one-block launches: their lines
// are written out, in order already.
static inline void gocann_end_batch_prints(void) {
	if (__builtin_expect(gocann_printed, 0)) {
		gocann_flush_prints();
	}
}

// gocann_take_prints hands the lines over to the block's caller.
int gocann_take_prints(gocann_failure *fail) __attribute__((visibility("hidden")));

// gocann_end_prints ends a block's call: its lines go to the caller, who
// shows a launch's blocks in order (GOCANN_CALL_PRINTED).
static inline int gocann_end_prints(gocann_failure *fail) {
	if (__builtin_expect(gocann_printed, 0)) {
		return gocann_take_prints(fail);
	}
	return 0;
}

// gocann_fault_resume leaves a block whose fault the handler contained,
// through its trap point (fault.c).
void gocann_fault_resume(void) __attribute__((visibility("hidden"), noreturn));

#ifdef __cplusplus
}
#endif

#endif
