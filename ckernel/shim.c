// The block state a running kernel sees, kept per OS thread: a block runs
// from start to end inside one call on one thread.

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include "shim.h"

struct block_state {
	int64_t idx, num;
	jmp_buf *trap;
};

static __thread struct block_state state;
static __thread const char *trap_message;

int64_t GetBlockIdx(void) { return state.idx; }
int64_t GetBlockNum(void) { return state.num; }

void Trap(void) {
	if (state.trap == NULL) {
		abort(); // called outside a kernel
	}
	trap_message = "Trap() called";
	longjmp(*state.trap, 1);
}

const char *gocann_trap_message(void) { return trap_message ? trap_message : ""; }

typedef uint64_t u;
typedef void (*kernel32)(u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u,
			 u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u);

// Every kernel is called with 32 slots: the calling conventions of the
// supported hosts pass integer and pointer parameters alike and let the
// caller clean up, so a kernel declaring fewer parameters ignores the rest.
int gocann_call_kernel(void *fn, int64_t idx, int64_t num, const uint64_t *args, int n) {
	uint64_t a[GOCANN_MAX_ARGS];
	memset(a, 0, sizeof a);
	if (n > GOCANN_MAX_ARGS) {
		n = GOCANN_MAX_ARGS;
	}
	if (n > 0) {
		memcpy(a, args, (size_t)n * sizeof a[0]);
	}
	jmp_buf jb;
	struct block_state saved = state;
	state.idx = idx;
	state.num = num;
	state.trap = &jb;
	if (setjmp(jb) != 0) {
		state = saved;
		return 1;
	}
	((kernel32)fn)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11],
		       a[12], a[13], a[14], a[15], a[16], a[17], a[18], a[19], a[20], a[21], a[22],
		       a[23], a[24], a[25], a[26], a[27], a[28], a[29], a[30], a[31]);
	state = saved;
	return 0;
}
