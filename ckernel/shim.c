// The block state a running kernel sees, kept per OS thread: a block runs
// from start to end inside one call on one thread.

#include <setjmp.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "block.h"

__thread struct gocann_block_state gocann_block;
__thread gocann_failure gocann_fault;

int64_t GetBlockIdx(void) { return gocann_block.idx; }
int64_t GetBlockNum(void) { return gocann_block.num; }

// A block reporting a float overflow sets the flag its call returns
// (call_block clears it first).
static __thread int overflowed __attribute__((tls_model("initial-exec")));

void gocann_report_overflow(void) { overflowed = 1; }

// The global memory a block's copies reach (Ascend C's DataCopy reports
// it), for profiling's bandwidth; call_block clears it first.
static __thread uint64_t copied __attribute__((tls_model("initial-exec")));

void gocann_copy_bytes(uint64_t n) { copied += n; }

static gocann_dim3 dim(int at, gocann_dim3 other) {
	if (gocann_block.simt == NULL) {
		return other;
	}
	gocann_dim3 d = {gocann_block.simt[at], gocann_block.simt[at + 1], gocann_block.simt[at + 2]};
	return d;
}

gocann_dim3 gocann_thread_idx(void) { return dim(0, (gocann_dim3){0, 0, 0}); }
gocann_dim3 gocann_block_dim(void) { return dim(3, (gocann_dim3){1, 1, 1}); }
gocann_dim3 gocann_grid_dim(void) { return dim(6, (gocann_dim3){(uint32_t)gocann_block.num, 1, 1}); }

gocann_dim3 gocann_block_idx(void) {
	gocann_dim3 g = gocann_grid_dim(), b;
	uint32_t i = (uint32_t)gocann_block.idx;
	b.x = i % g.x;
	b.y = i / g.x % g.y;
	b.z = i / (g.x * g.y);
	return b;
}

extern void gocann_simt_barrier_wait(uintptr_t barrier);

// The barrier is Go code: a fault there is not the kernel's.
void asc_syncthreads(void) {
	if (gocann_block.simt != NULL) {
		gocann_block.running = 0;
		gocann_simt_barrier_wait(gocann_block.barrier);
		gocann_block.running = 1;
	}
}

// The last trap's message, for the call it ends.
static __thread const char *trap_message __attribute__((tls_model("initial-exec")));

void Trap(void) {
	if (gocann_block.trap == NULL) {
		abort(); // called outside a kernel
	}
	gocann_block.running = 0;
	trap_message = "Trap() called";
	longjmp(*gocann_block.trap, 1);
}

// A message of the kernel's own is copied: the kernel's buffer may be on
// the stack the trap leaves.
static __thread char trap_text[sizeof ((gocann_failure *)0)->text] __attribute__((tls_model("initial-exec")));

static void copy_text(char *dst, size_t cap, const char *src) {
	size_t n = strlen(src);
	if (n >= cap) {
		n = cap - 1;
	}
	memcpy(dst, src, n);
	dst[n] = 0;
}

void gocann_trap(const char *message) {
	if (gocann_block.trap == NULL) {
		abort(); // called outside a kernel
	}
	gocann_block.running = 0;
	if (message == NULL || message[0] == 0) {
		message = "gocann_trap() called";
	}
	copy_text(trap_text, sizeof trap_text, message);
	trap_message = trap_text;
	longjmp(*gocann_block.trap, 1);
}

#if defined(__x86_64__) || defined(__aarch64__)
#define FP_SUPPORTED 1
#else
#define FP_SUPPORTED 0
#endif

int gocann_fp_supported(void) { return FP_SUPPORTED; }

// failed fills *fail for a block that left through its trap point: how
// (1, a trap; 2, a fault the handler or the guard recorded).
static int failed(int how, gocann_failure *fail) {
	if (how == 1) {
		memset(fail, 0, offsetof(gocann_failure, text));
		copy_text(fail->text, sizeof fail->text, trap_message);
		return GOCANN_CALL_TRAPPED;
	}
	*fail = gocann_fault;
	return GOCANN_CALL_FAULTED;
}

// call_block runs one block with its trap point; fpmask 0 takes every
// parameter in an integer slot.
static int call_block(void *fn, int64_t idx, int64_t num, const uint64_t *args, int n, uint32_t fpmask,
		      gocann_failure *fail) {
	jmp_buf jb;
	struct gocann_block_state saved = gocann_block;
	gocann_block.idx = idx;
	gocann_block.num = num;
	gocann_block.trap = &jb;
	overflowed = 0;
	copied = 0;
	int how = setjmp(jb);
	if (how != 0) {
		gocann_block = saved;
		int bits = failed(how, fail); // before the lines: it writes the record
		return bits | gocann_end_prints(fail);
	}
	if (fpmask != 0 && !FP_SUPPORTED) {
		abort(); // refused when the kernel is looked up
	}
	int r = gocann_invoke(fn, args, n, fpmask);
	gocann_block = saved;
	if (r != 0) {
		int bits = failed(2, fail);
		return bits | gocann_end_prints(fail);
	}
	int bits = overflowed ? GOCANN_CALL_OVERFLOW : 0;
	if (copied != 0) {
		fail->copied = copied;
		bits |= GOCANN_CALL_COPIED;
	}
	return bits | gocann_end_prints(fail);
}

int gocann_call_kernel(void *fn, int64_t idx, int64_t num, const uint64_t *args, int n, uint32_t fpmask,
		       gocann_failure *fail) {
	return call_block(fn, idx, num, args, n, fpmask, fail);
}

int gocann_call_simt(void *fn, int64_t idx, int64_t num, const uint64_t *args, int n, uint32_t fpmask,
		     const uint32_t *layout, uintptr_t barrier, gocann_failure *fail) {
	struct gocann_block_state saved = gocann_block;
	gocann_block.simt = layout;
	gocann_block.barrier = barrier;
	int r = call_block(fn, idx, num, args, n, fpmask, fail);
	gocann_block = saved;
	return r;
}

int gocann_call_sk(void *fn, int64_t idx, int64_t num, const uint64_t *args, int n, uint32_t fpmask, uintptr_t gang,
		   uintptr_t sk, gocann_failure *fail) {
	uintptr_t saved_gang = gocann_block.gang, saved_sk = gocann_block.sk;
	gocann_block.gang = gang;
	gocann_block.sk = sk;
	int r = call_block(fn, idx, num, args, n, fpmask, fail);
	gocann_block.gang = saved_gang;
	gocann_block.sk = saved_sk;
	return r;
}

extern void gocann_sk_hook(uintptr_t sk, int which);

// SetNextTaskStart and WaitPreTaskEnd (gocann/kernel.h) go to the
// SuperKernel in Go; outside a sub-kernel whose calls take effect they do
// nothing. The hook is Go code: a fault there is not the kernel's.
void SetNextTaskStart(void) {
	if (gocann_block.sk != 0) {
		gocann_block.running = 0;
		gocann_sk_hook(gocann_block.sk, 0);
		gocann_block.running = 1;
	}
}

void WaitPreTaskEnd(void) {
	if (gocann_block.sk != 0) {
		gocann_block.running = 0;
		gocann_sk_hook(gocann_block.sk, 1);
		gocann_block.running = 1;
	}
}

int gocann_call_gang(void *fn, int64_t idx, int64_t num, const uint64_t *args, int n, uint32_t fpmask, uintptr_t gang,
		     gocann_failure *fail) {
	uintptr_t saved = gocann_block.gang;
	gocann_block.gang = gang;
	int r = call_block(fn, idx, num, args, n, fpmask, fail);
	gocann_block.gang = saved;
	return r;
}

// One trap point serves the whole batch: a trap or a fault returns the
// index of the launch that raised it.
int gocann_call_kernels(const gocann_native_call *calls, int n, int *result, gocann_failure *fail) {
	jmp_buf jb;
	struct gocann_block_state saved = gocann_block;
	volatile int i = 0;
	gocann_block.idx = 0;
	gocann_block.num = 1;
	gocann_block.trap = &jb;
	int how = setjmp(jb);
	if (how != 0) {
		gocann_end_batch_prints();
		gocann_block = saved;
		*result = failed(how, fail);
		return i;
	}
	int r = gocann_invoke_batch(calls, n, &i);
	gocann_end_batch_prints();
	if (r != 0) {
		gocann_block = saved;
		*result = failed(2, fail);
		return i;
	}
	gocann_block = saved;
	return n;
}
