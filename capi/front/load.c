// Loading the core, and what a forked child may still do.
//
// The core starts the Go runtime when it is loaded, and the Go runtime's
// threads do not survive fork: a child forked after the core loaded would
// hang on its first call into Go. So the front loads the core only on the
// first call that needs it, and a fork handler marks a child forked after
// that point, whose calls then fail at once instead.

#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "front.h"

// GOCANN_CORE_NAME is the core's file name; it sits beside the front in
// the build and install trees.
#define GOCANN_CORE_NAME "libgocann_core.so"

int gocann_core_state;
gocann_prof_area *gocann_prof_p;

// mu serialises loading, and fork with it: the prepare handler takes it, so
// a child never starts in the middle of a load.
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static char why[4096]; // why the core could not be loaded; under mu

static void fork_prepare(void) { pthread_mutex_lock(&mu); }
static void fork_parent(void) { pthread_mutex_unlock(&mu); }

static void fork_child(void) {
	if (gocann_core_state == GOCANN_CORE_READY) {
		__atomic_store_n(&gocann_core_state, GOCANN_CORE_FORKED, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&mu);
}

// Registering the handlers starts nothing: the library stays inert until
// the first call that needs the core.
__attribute__((constructor)) static void front_init(void) { pthread_atfork(fork_prepare, fork_parent, fork_child); }

// note appends a line to why.
static void note(const char *fmt, const char *a, const char *b) {
	size_t n = strlen(why);
	if (n < sizeof why - 1) {
		snprintf(why + n, sizeof why - n, fmt, a, b);
	}
}

// try opens the core at path; NULL with the reason noted if it fails.
static void *try(const char *path) {
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (h == NULL) {
		const char *e = dlerror();
		note("%s: %s; ", path, e ? e : "cannot be loaded");
	}
	return h;
}

// beside opens the core in the directory of file, if file has one.
static void *beside(const char *file) {
	char path[PATH_MAX];
	const char *slash = strrchr(file, '/');
	if (slash == NULL) {
		return NULL;
	}
	int n = snprintf(path, sizeof path, "%.*s/%s", (int)(slash - file), file, GOCANN_CORE_NAME);
	if (n <= 0 || (size_t)n >= sizeof path) {
		return NULL;
	}
	return try(path);
}

// open_core finds the core: GOCANN_CORE_LIBRARY if set, else beside the
// front's real file (the build or install tree, which a symlink such as
// libacl_rt.so leads to), beside the name the front was loaded by (a copy
// of the front next to a copy of the core), and last through the dynamic
// loader's search path.
static void *open_core(const char *self) {
	const char *env = getenv("GOCANN_CORE_LIBRARY");
	if (env != NULL && env[0] != '\0') {
		return try(env);
	}
	void *h = NULL;
	char real[PATH_MAX];
	if (self != NULL && realpath(self, real) != NULL) {
		h = beside(real);
	}
	if (h == NULL && self != NULL) {
		h = beside(self);
	}
	if (h == NULL) {
		h = try(GOCANN_CORE_NAME);
	}
	return h;
}

// resolve fills a symbol list from the core.
static int resolve(void *h, const gocann_core_sym *syms) {
	for (const gocann_core_sym *s = syms; s->name != NULL; s++) {
		void *p = dlsym(h, s->name);
		if (p == NULL) {
			note("%s lacks %s; ", GOCANN_CORE_NAME, s->name);
			return -1;
		}
		memcpy(s->slot, &p, sizeof p);
	}
	return 0;
}

// load loads the core and fills the tables; mu held.
static void load(void) {
	Dl_info info;
	const char *self = NULL;
	if (dladdr((void *)&gocann_core_state, &info) != 0) {
		self = info.dli_fname;
	}
	// Kernels loaded later find GetBlockIdx, GetBlockNum and Trap in the
	// global scope: make the front part of it even when it was loaded
	// RTLD_LOCAL (Python's ctypes does).
	if (self != NULL) {
		dlopen(self, RTLD_NOW | RTLD_NOLOAD | RTLD_GLOBAL);
	}
	why[0] = '\0';
	void *h = open_core(self);
	if (h == NULL || resolve(h, gocann_core_syms) != 0 || resolve(h, gocann_kernel_syms) != 0 ||
	    resolve(h, gocann_superkernel_syms) != 0 || resolve(h, gocann_msprof_syms) != 0) {
		__atomic_store_n(&gocann_core_state, GOCANN_CORE_FAILED, __ATOMIC_RELEASE);
		fprintf(stderr, "libascendcl.so: the gocann runtime (%s) cannot be loaded: %s\n", GOCANN_CORE_NAME, why);
		return;
	}
	__atomic_store_n(&gocann_prof_p, (gocann_prof_area *)dlsym(h, "gocann_prof"), __ATOMIC_RELEASE);
	__atomic_store_n(&gocann_core_state, GOCANN_CORE_READY, __ATOMIC_RELEASE);
}

// refuse records why fn cannot run and returns its code.
static int refuse(gocann_thread *t, const char *fn, int code, const char *name, const char *reason) {
	char msg[sizeof why + 256];
	int n = snprintf(msg, sizeof msg, "%s failed: %d %s: %s", fn, code, name, reason);
	if (n > 0) {
		gocann_push_msg(t, msg, (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1);
	}
	t->last_error = code;
	return code;
}

int gocann_core_enter(gocann_thread *t, const char *fn) {
	pthread_mutex_lock(&mu);
	if (gocann_core_state == GOCANN_CORE_UNLOADED) {
		load();
	}
	int state = gocann_core_state;
	pthread_mutex_unlock(&mu);
	switch (state) {
	case GOCANN_CORE_READY:
		return 0;
	case GOCANN_CORE_FORKED:
		return refuse(t, fn, ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "ACL_ERROR_RT_FEATURE_NOT_SUPPORT",
			      "this process was forked after the runtime started in its parent, and the runtime's "
			      "threads do not survive fork; fork before the first runtime call, or exec a new program");
	default:
		return refuse(t, fn, ACL_ERROR_INTERNAL_ERROR, "ACL_ERROR_INTERNAL_ERROR", why);
	}
}

int gocann_bad_pointer(gocann_thread *t, const char *fn, const char *param, const void *p, int handle) {
	char reason[256];
	if (handle) {
		snprintf(reason, sizeof reason, "%s %p is not a live handle (no handle is below 4096)", param, p);
		return refuse(t, fn, ACL_ERROR_RT_INVALID_HANDLE, "ACL_ERROR_RT_INVALID_HANDLE", reason);
	}
	snprintf(reason, sizeof reason, "%s is %p, expected NULL or an address (nothing lies below 4096)", param, p);
	return refuse(t, fn, ACL_ERROR_INVALID_PARAM, "ACL_ERROR_INVALID_PARAM", reason);
}
