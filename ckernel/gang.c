// Cross-block waits of native kernels (Ascend C's SyncAll, IBWait,
// WaitPreBlock, GroupBarrier): the Ascend C headers spin on words of
// global memory or on the launch's own barrier, and call in here between
// looks. A gang launch's blocks all run at once (the scheduler sees to it)
// and share the words of a kernel.Gang, so a wait gives up, trapping its
// block, once the launch failed or the blocks it could wait for have
// ended: a block never waits for one that can no longer come.

#include <sched.h>
#include <stdio.h>
#include <time.h>
#include "block.h"

// The words of kernel.Gang, in its order.
typedef struct gang_words {
	uint32_t arrived, gen, ended, failed;
} gang_words;

void gocann_trap(const char *message) __attribute__((noreturn));

#define LOAD(p) __atomic_load_n((p), __ATOMIC_SEQ_CST)

static gang_words *gang(void) { return (gang_words *)gocann_block.gang; }

// pause backs off after n looks: spin a little, then yield, then sleep, so
// that blocks waiting long leave the CPUs to the blocks they wait for.
static void pause_after(uint32_t n) {
	if (n < 16) {
#if defined(__x86_64__)
		__builtin_ia32_pause();
#elif defined(__aarch64__)
		__asm__ __volatile__("yield");
#endif
		return;
	}
	if (n < 256) {
		sched_yield();
		return;
	}
	struct timespec ts = {0, n < 1024 ? 20000 : 200000};
	nanosleep(&ts, NULL);
}

static void give_up(const char *who, const char *why) {
	char msg[200];
	snprintf(msg, sizeof msg, "%s: block %lld of %lld %s", who, (long long)gocann_block.idx, (long long)gocann_block.num,
		 why);
	gocann_trap(msg);
}

// gocann_gang_pause is one look of a block's wait for words of global
// memory that other blocks of its launch write (*n counts the looks, from
// 0): it traps the block if the launch failed, or if every other block
// has ended, so nothing can set what it waits for; else it backs off.
void gocann_gang_pause(const char *who, uint32_t *n) {
	gang_words *g = gang();
	if (g != NULL && (*n & 15) == 15) {
		if (LOAD(&g->failed)) {
			give_up(who, "gives up its wait: another block of the launch failed, or the launch timed out");
		}
		if (LOAD(&g->ended) + 1 >= (uint64_t)gocann_block.num) {
			give_up(who, "waits for a block that has ended without what it waits for");
		}
	}
	pause_after((*n)++);
}

// gocann_gang_sync waits until every block of the launch has called it as
// often as this one (SyncAll without a workspace). A launch that is not a
// gang launch has no barrier: a block of one that has more than one block
// traps, as its blocks may not all run at once.
void gocann_gang_sync(const char *who) {
	gang_words *g = gang();
	if (gocann_block.num <= 1) {
		return;
	}
	if (g == NULL) {
		give_up(who, "waits for every block, but its kernel was not launched as a gang (its blocks all at "
			     "once): build it with bisheng, or mark it __schedmode__(1)");
	}
	uint32_t gen = LOAD(&g->gen);
	if (__atomic_add_fetch(&g->arrived, 1, __ATOMIC_SEQ_CST) == (uint32_t)gocann_block.num) {
		__atomic_store_n(&g->arrived, 0, __ATOMIC_SEQ_CST);
		__atomic_add_fetch(&g->gen, 1, __ATOMIC_SEQ_CST);
		return;
	}
	for (uint32_t n = 0; LOAD(&g->gen) == gen; n++) {
		if (LOAD(&g->failed)) {
			give_up(who, "gives up its wait: another block of the launch failed, or the launch timed out");
		}
		if (LOAD(&g->ended) != 0 && LOAD(&g->gen) == gen) {
			give_up(who, "waits for every block, but a block has ended without coming");
		}
		pause_after(n);
	}
}

// gocann_gang_launch reports whether the running block's launch is a gang
// launch (or has one block), whose blocks all run at once.
int gocann_gang_launch(void) { return gocann_block.gang != 0 || gocann_block.num <= 1; }
