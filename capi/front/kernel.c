// The functions kernels call. A kernel binary resolves them from the
// global scope when it is loaded; the core, loaded RTLD_LOCAL, is not
// part of it, so the front exports them and calls the core's.

#include <stdint.h>
#include <stdlib.h>
#include "front.h"

#define EXPORT __attribute__((visibility("default")))

static int64_t (*core_block_idx)(void);
static int64_t (*core_block_num)(void);
static void (*core_trap)(void);
static void (*core_trap_message)(const char *);

const gocann_core_sym gocann_kernel_syms[] = {
	{"GetBlockIdx", &core_block_idx},
	{"GetBlockNum", &core_block_num},
	{"Trap", &core_trap},
	{"gocann_trap", &core_trap_message},
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
