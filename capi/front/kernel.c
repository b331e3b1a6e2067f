// The functions kernels call. A kernel binary resolves them from the
// global scope when it is loaded; the core, loaded RTLD_LOCAL, is not
// part of it, so the front exports them and calls the core's.

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "front.h"

#define EXPORT __attribute__((visibility("default")))

// The layout of gocann/kernel.h's gocann_dim3, which this file does not
// include (it declares the functions below).
typedef struct {
	uint32_t x, y, z;
} gocann_dim3_;

static int64_t (*core_block_idx)(void);
static int64_t (*core_block_num)(void);
static void (*core_trap)(void);
static void (*core_trap_message)(const char *);
static void (*core_report_overflow)(void);
static void (*core_copy_bytes)(uint64_t);
static void (*core_set_next_task_start)(void);
static void (*core_wait_pre_task_end)(void);
static void (*core_host_func_fail)(const char *);
static gocann_dim3_ (*core_thread_idx)(void);
static gocann_dim3_ (*core_block_dim)(void);
static gocann_dim3_ (*core_block_idx3)(void);
static gocann_dim3_ (*core_grid_dim)(void);
static void (*core_syncthreads)(void);
static int (*core_kernel_vprintf)(const char *, va_list);
static void (*core_gang_pause)(const char *, uint32_t *);
static void (*core_gang_sync)(const char *);
static int (*core_gang_launch)(void);
static void *(*core_linked_kernel)(gocann_thread *, const void *, const char *, const unsigned char *, size_t);
static aclError (*core_linked_launch)(gocann_thread *, void *, uint32_t, void *, void *, size_t);

const gocann_core_sym gocann_kernel_syms[] = {
	{"GetBlockIdx", &core_block_idx},
	{"GetBlockNum", &core_block_num},
	{"Trap", &core_trap},
	{"gocann_trap", &core_trap_message},
	{"gocann_linked_kernel", &core_linked_kernel},
	{"gocann_linked_launch", &core_linked_launch},
	{"gocann_report_overflow", &core_report_overflow},
	{"gocann_copy_bytes", &core_copy_bytes},
	{"SetNextTaskStart", &core_set_next_task_start},
	{"WaitPreTaskEnd", &core_wait_pre_task_end},
	{"gocann_host_func_fail", &core_host_func_fail},
	{"gocann_thread_idx", &core_thread_idx},
	{"gocann_block_dim", &core_block_dim},
	{"gocann_block_idx", &core_block_idx3},
	{"gocann_grid_dim", &core_grid_dim},
	{"asc_syncthreads", &core_syncthreads},
	{"gocann_kernel_vprintf", &core_kernel_vprintf},
	{"gocann_gang_pause", &core_gang_pause},
	{"gocann_gang_sync", &core_gang_sync},
	{"gocann_gang_launch", &core_gang_launch},
	{0, 0},
};

// Kernels run on the core's threads, after it loaded; a call from
// elsewhere before that reads block 0 of 0.
EXPORT int64_t GetBlockIdx(void) { return core_block_idx ? core_block_idx() : 0; }
EXPORT int64_t GetBlockNum(void) { return core_block_num ? core_block_num() : 0; }

EXPORT void Trap(void) {
	if (core_trap == NULL) {
		abort(); // called outside a kernel, before any runtime call
	}
	core_trap();
}

EXPORT void gocann_trap(const char *message) {
	if (core_trap_message == NULL) {
		abort(); // called outside a kernel, before any runtime call
	}
	core_trap_message(message);
	abort(); // not reached: the core's trap leaves the block
}

EXPORT void gocann_report_overflow(void) {
	if (core_report_overflow) {
		core_report_overflow();
	}
}

EXPORT void gocann_copy_bytes(uint64_t n) {
	if (core_copy_bytes) {
		core_copy_bytes(n);
	}
}

// Outside a kernel, before the core is loaded, there is no SuperKernel.
EXPORT void SetNextTaskStart(void) {
	if (core_set_next_task_start) {
		core_set_next_task_start();
	}
}

EXPORT void WaitPreTaskEnd(void) {
	if (core_wait_pre_task_end) {
		core_wait_pre_task_end();
	}
}

// A host function runs on the core's threads, after it loaded; before
// that there is no task to fail.
EXPORT void gocann_host_func_fail(const char *message) {
	if (core_host_func_fail) {
		core_host_func_fail(message);
	}
}

// Outside a kernel, before the core is loaded, a block is one thread of
// one block.
static gocann_dim3_ dim_or(gocann_dim3_ (*f)(void), uint32_t v) {
	if (f) {
		return f();
	}
	gocann_dim3_ d = {v, v, v};
	return d;
}

EXPORT gocann_dim3_ gocann_thread_idx(void) { return dim_or(core_thread_idx, 0); }
EXPORT gocann_dim3_ gocann_block_dim(void) { return dim_or(core_block_dim, 1); }
EXPORT gocann_dim3_ gocann_block_idx(void) { return dim_or(core_block_idx3, 0); }
EXPORT gocann_dim3_ gocann_grid_dim(void) { return dim_or(core_grid_dim, 1); }

EXPORT void asc_syncthreads(void) {
	if (core_syncthreads) {
		core_syncthreads();
	}
}

// Cross-block waits (the core's ckernel/gang.c), for the Ascend C
// headers; kernels run on the core's threads, after it loaded.
EXPORT void gocann_gang_pause(const char *who, uint32_t *n) {
	if (core_gang_pause) {
		core_gang_pause(who, n);
	}
}

EXPORT void gocann_gang_sync(const char *who) {
	if (core_gang_sync == NULL) {
		abort(); // called outside a kernel, before any runtime call
	}
	core_gang_sync(who);
}

EXPORT int gocann_gang_launch(void) { return core_gang_launch ? core_gang_launch() : 1; }

// A kernel's printf; before the core is loaded no kernel runs.
EXPORT int gocann_kernel_printf(const char *format, ...) {
	va_list ap;
	va_start(ap, format);
	int n = core_kernel_vprintf ? core_kernel_vprintf(format, ap) : vprintf(format, ap);
	va_end(ap);
	return n;
}

// gocann_linked_kernel is the function handle of a kernel linked into the
// program, for the <<<>>> launches gocann/ascendc/gocann_launch.h writes;
// NULL with the thread's error set if it cannot be made.
EXPORT void *gocann_linked_kernel(const void *fn, const char *name, const unsigned char *decl, size_t n) {
	gocann_thread *t = gocann_self();
	GOCANN_ENTER(t, "<<<>>> launch", NULL);
	return core_linked_kernel(t, fn, name, decl, n);
}

// gocann_linked_launch launches f, a handle of gocann_linked_kernel, with
// a host block of 8-byte slots: the launch of a <<<>>>, which is not one
// of CANN's calls and so offered on every chip, IPV350 included, which
// lacks aclrtLaunchKernelWithHostArgs.
EXPORT aclError gocann_linked_launch(void *f, uint32_t numBlocks, void *stream, void *args, size_t argsSize) {
	gocann_thread *t = gocann_self();
	GOCANN_ENTER(t, "<<<>>> launch", (aclError)e_);
	return core_linked_launch(t, f, numBlocks, stream, args, argsSize);
}
