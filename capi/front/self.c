// The per-thread record (thread.h), one per OS thread in the process: the
// front finds it and hands it to the core with every call.

#define _GNU_SOURCE
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "front.h"

// Initial-exec: every API call reads it, and the general model costs a
// call per access.
static __thread gocann_thread self __attribute__((tls_model("initial-exec")));

// exiting is a thread's record as it exits: its messages are freed, for
// a thread that never asked for them.
static pthread_key_t exiting;
static pthread_once_t exiting_once = PTHREAD_ONCE_INIT;

static void release(void *p) { gocann_free_msgs(p); }
static void make_key(void) { pthread_key_create(&exiting, release); }

gocann_thread *gocann_self(void) {
	gocann_thread *t = &self;
	if (!t->ready) {
		t->ready = 1;
		t->device = -1;
		t->pthread = (uint64_t)pthread_self();
		t->tid = (uint32_t)syscall(SYS_gettid);
		pthread_once(&exiting_once, make_key);
		pthread_setspecific(exiting, t);
	}
	return t;
}
