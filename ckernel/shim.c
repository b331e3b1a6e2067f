// The block state a running kernel sees, kept per OS thread: a block runs
// from start to end inside one call on one thread.

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include "shim.h"

struct block_state {
	int64_t idx, num;
	jmp_buf *trap;
	const uint32_t *simt; // a SIMT thread's layout: thread x y z, block x y z, grid x y z
	uintptr_t barrier;    // its block's barrier, for gocann_simt_barrier_wait
};

// Initial-exec: the state is read on every kernel call, and the library is
// linked into the process (or loaded like the Go runtime it comes with,
// which uses the same model).
static __thread struct block_state state __attribute__((tls_model("initial-exec")));
static __thread const char *trap_message __attribute__((tls_model("initial-exec")));

int64_t GetBlockIdx(void) { return state.idx; }
int64_t GetBlockNum(void) { return state.num; }

// A block reporting a float overflow sets the flag its call returns
// (call_block clears it first).
static __thread int overflowed __attribute__((tls_model("initial-exec")));

void gocann_report_overflow(void) { overflowed = 1; }

static gocann_dim3 dim(int at, gocann_dim3 other) {
	if (state.simt == NULL) {
		return other;
	}
	gocann_dim3 d = {state.simt[at], state.simt[at + 1], state.simt[at + 2]};
	return d;
}

gocann_dim3 gocann_thread_idx(void) { return dim(0, (gocann_dim3){0, 0, 0}); }
gocann_dim3 gocann_block_dim(void) { return dim(3, (gocann_dim3){1, 1, 1}); }
gocann_dim3 gocann_grid_dim(void) { return dim(6, (gocann_dim3){(uint32_t)state.num, 1, 1}); }

gocann_dim3 gocann_block_idx(void) {
	gocann_dim3 g = gocann_grid_dim(), b;
	uint32_t i = (uint32_t)state.idx;
	b.x = i % g.x;
	b.y = i / g.x % g.y;
	b.z = i / (g.x * g.y);
	return b;
}

extern void gocann_simt_barrier_wait(uintptr_t barrier);

void asc_syncthreads(void) {
	if (state.simt != NULL) {
		gocann_simt_barrier_wait(state.barrier);
	}
}

void Trap(void) {
	if (state.trap == NULL) {
		abort(); // called outside a kernel
	}
	trap_message = "Trap() called";
	longjmp(*state.trap, 1);
}

// A message of the kernel's own is copied: the kernel's buffer may be on
// the stack the trap leaves.
static __thread char trap_text[256] __attribute__((tls_model("initial-exec")));

void gocann_trap(const char *message) {
	if (state.trap == NULL) {
		abort(); // called outside a kernel
	}
	if (message == NULL || message[0] == 0) {
		message = "gocann_trap() called";
	}
	size_t n = strlen(message);
	if (n >= sizeof trap_text) {
		n = sizeof trap_text - 1;
	}
	memcpy(trap_text, message, n);
	trap_text[n] = 0;
	trap_message = trap_text;
	longjmp(*state.trap, 1);
}

const char *gocann_trap_message(void) { return trap_message ? trap_message : ""; }

typedef uint64_t u;
typedef void (*kernel32)(u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u,
			 u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u);

// Every kernel is called with 32 slots: the calling conventions of the
// supported hosts pass integer and pointer parameters alike and let the
// caller clean up, so a kernel declaring fewer parameters ignores the rest.
// Slots past n are zero. They are read one by one, not copied into a
// cleared array first: a block's call is on the launch path of every task.
static inline void invoke(void *fn, const uint64_t *args, int n) {
#define A(i) ((i) < n ? args[i] : 0)
	((kernel32)fn)(A(0), A(1), A(2), A(3), A(4), A(5), A(6), A(7), A(8), A(9), A(10), A(11),
		       A(12), A(13), A(14), A(15), A(16), A(17), A(18), A(19), A(20), A(21), A(22),
		       A(23), A(24), A(25), A(26), A(27), A(28), A(29), A(30), A(31));
#undef A
}

// Kernels with float or double parameters take those in the vector
// registers and the rest in the integer registers, each kind in order,
// and what does not fit goes on the stack in parameter order, one 8-byte
// slot each: the System V x86-64 and AAPCS64 conventions agree on that
// much. One prototype with the integer registers, then eight doubles, then
// stack slots, reaches every such layout. A float travels in the low half
// of its register or slot, as its 8-byte argument slot holds it.
#if defined(__x86_64__)
#define FP_SUPPORTED 1
#define INT_REGS 6
typedef void (*kernel_fp)(u, u, u, u, u, u, double, double, double, double, double, double, double, double,
			  u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u);
#elif defined(__aarch64__)
#define FP_SUPPORTED 1
#define INT_REGS 8
typedef void (*kernel_fp)(u, u, u, u, u, u, u, u, double, double, double, double, double, double, double, double,
			  u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u);
#else
#define FP_SUPPORTED 0
#endif

int gocann_fp_supported(void) { return FP_SUPPORTED; }

#if FP_SUPPORTED
static inline double bits(uint64_t v) {
	double d;
	memcpy(&d, &v, sizeof d);
	return d;
}

static void invoke_fp(void *fn, const uint64_t *args, int n, uint32_t fpmask) {
	u ir[INT_REGS] = {0}, st[GOCANN_MAX_ARGS] = {0};
	double fr[8] = {0};
	int ni = 0, nf = 0, ns = 0;
	for (int i = 0; i < n; i++) {
		if (fpmask >> i & 1) {
			if (nf < 8) {
				fr[nf++] = bits(args[i]);
				continue;
			}
		} else if (ni < INT_REGS) {
			ir[ni++] = args[i];
			continue;
		}
		st[ns++] = args[i];
	}
#define S(i) st[i]
#if INT_REGS == 6
	((kernel_fp)fn)(ir[0], ir[1], ir[2], ir[3], ir[4], ir[5],
#else
	((kernel_fp)fn)(ir[0], ir[1], ir[2], ir[3], ir[4], ir[5], ir[6], ir[7],
#endif
			fr[0], fr[1], fr[2], fr[3], fr[4], fr[5], fr[6], fr[7],
			S(0), S(1), S(2), S(3), S(4), S(5), S(6), S(7), S(8), S(9), S(10), S(11), S(12), S(13), S(14),
			S(15), S(16), S(17), S(18), S(19), S(20), S(21), S(22), S(23), S(24), S(25), S(26), S(27), S(28),
			S(29), S(30), S(31));
#undef S
}
#endif

// call_block runs one block with its trap point; fpmask 0 takes every
// parameter in an integer slot.
static int call_block(void *fn, int64_t idx, int64_t num, const uint64_t *args, int n, uint32_t fpmask) {
	jmp_buf jb;
	struct block_state saved = state;
	state.idx = idx;
	state.num = num;
	state.trap = &jb;
	overflowed = 0;
	if (setjmp(jb) != 0) {
		state = saved;
		return GOCANN_CALL_TRAPPED;
	}
	if (fpmask == 0) {
		invoke(fn, args, n);
	} else {
#if FP_SUPPORTED
		invoke_fp(fn, args, n, fpmask);
#else
		abort(); // refused when the kernel is looked up
#endif
	}
	state = saved;
	return overflowed ? GOCANN_CALL_OVERFLOW : 0;
}

int gocann_call_kernel_fp(void *fn, int64_t idx, int64_t num, const uint64_t *args, int n, uint32_t fpmask) {
	return call_block(fn, idx, num, args, n, fpmask);
}

int gocann_call_kernel(void *fn, int64_t idx, int64_t num, const uint64_t *args, int n) {
	return call_block(fn, idx, num, args, n, 0);
}

int gocann_call_simt(void *fn, int64_t idx, int64_t num, const uint64_t *args, int n, uint32_t fpmask,
		     const uint32_t *layout, uintptr_t barrier) {
	struct block_state saved = state;
	state.simt = layout;
	state.barrier = barrier;
	int trapped = call_block(fn, idx, num, args, n, fpmask);
	state = saved;
	return trapped;
}

// One trap point serves the whole batch: a trap returns the index of the
// launch that raised it.
int gocann_call_kernels(const gocann_native_call *calls, int n) {
	jmp_buf jb;
	struct block_state saved = state;
	volatile int i = 0;
	state.idx = 0;
	state.num = 1;
	state.trap = &jb;
	if (setjmp(jb) != 0) {
		state = saved;
		return i;
	}
	for (; i < n; i++) {
		invoke((void *)calls[i].fn, (const uint64_t *)calls[i].args, (int)calls[i].nargs);
	}
	state = saved;
	return n;
}
