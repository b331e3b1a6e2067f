// The slots in which threads announce epochs on the direct launch path
// (direct.h, capi/epoch.go): one per thread that has launched directly,
// claimed on its first such launch and given back when it exits.

#define _GNU_SOURCE
#include <linux/membarrier.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "direct.h"

enum { CHUNK = 1 << GOCANN_SLOT_CHUNK_BITS, MAX_SLOTS = GOCANN_SLOT_CHUNKS * CHUNK };

gocann_epoch_line gocann_epoch = {.now = 1}; // a slot holding 0 is a thread outside
gocann_slot *gocann_slots[GOCANN_SLOT_CHUNKS];
uint32_t gocann_nslots;

// mu guards claiming and giving back slots (their used words).
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

// exiting holds a thread's record once it has a slot, so that the slot
// goes back when the thread exits.
static pthread_key_t exiting;
static int exiting_ok;
static pthread_once_t setup_once = PTHREAD_ONCE_INIT;

// give_back frees the slot of an exiting thread. The thread is outside the
// path (its slot holds 0); a call it still makes from a later destructor
// claims a slot again, and that slot goes back in the next round.
static void give_back(void *p) {
	gocann_thread *t = p;
	gocann_slot *s = t->direct;
	if (s == NULL) {
		return;
	}
	t->direct = NULL;
	__atomic_store_n(&s->at, 0, __ATOMIC_RELEASE);
	pthread_mutex_lock(&mu);
	s->used = 0;
	pthread_mutex_unlock(&mu);
}

// setup makes the key, and registers the process for private expedited
// membarriers (Linux 4.14): with them gocann_epoch_fence runs a full
// barrier on every thread of the process, and announcing an epoch costs a
// thread no barrier of its own on each launch. Where they are refused,
// each announcement is sequentially consistent instead.
static void setup(void) {
	exiting_ok = pthread_key_create(&exiting, give_back) == 0;
	if (syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0) {
		__atomic_store_n(&gocann_epoch.asym, 1, __ATOMIC_SEQ_CST);
	}
}

int gocann_epoch_fence(void) {
	if (!__atomic_load_n(&gocann_epoch.asym, __ATOMIC_SEQ_CST)) {
		return 0; // announcements are sequentially consistent
	}
	return syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0 ? 0 : -1;
}

gocann_slot *gocann_claim_slot(gocann_thread *t) {
	pthread_once(&setup_once, setup);
	if (!exiting_ok) {
		return NULL; // a slot that never went back would leak with each thread
	}
	pthread_mutex_lock(&mu);
	uint32_t n = gocann_nslots;
	gocann_slot *s = NULL;
	for (uint32_t i = 0; i < n; i++) {
		gocann_slot *c = &gocann_slots[i / CHUNK][i % CHUNK];
		if (!c->used) {
			s = c;
			break;
		}
	}
	if (s == NULL && n < MAX_SLOTS) {
		gocann_slot *chunk = gocann_slots[n / CHUNK];
		if (chunk == NULL && (chunk = calloc(CHUNK, sizeof *chunk)) != NULL) {
			__atomic_store_n(&gocann_slots[n / CHUNK], chunk, __ATOMIC_RELEASE);
		}
		if (chunk != NULL) {
			s = &chunk[n % CHUNK];
			// Published after the chunk: Go reads the count, then the chunks.
			__atomic_store_n(&gocann_nslots, n + 1, __ATOMIC_SEQ_CST);
		}
	}
	if (s != NULL && pthread_setspecific(exiting, t) == 0) {
		s->used = 1;
		t->direct = s;
	} else {
		s = NULL;
	}
	pthread_mutex_unlock(&mu);
	return s;
}
