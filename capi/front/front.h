// The front library: libascendcl.so as programs link it. It holds no Go:
// the runtime itself (the core, libgocann_core.so, built from capi in Go)
// is loaded on the first call that needs it, so that a process may fork
// before that call and use the runtime in the child. Every API function
// the front does not answer itself forwards to the core's entry point,
// gocann_<name>, through the table in zz_core.h.
#ifndef GOCANN_FRONT_H
#define GOCANN_FRONT_H

#include "acl/acl.h"
#include "prof.h"
#include "thread.h"
#include "zz_core.h"

// The core's state, as the front sees it.
enum {
	GOCANN_CORE_UNLOADED = 0,
	GOCANN_CORE_READY = 1,  // loaded and its table filled
	GOCANN_CORE_FAILED = 2, // could not be loaded: every call fails
	GOCANN_CORE_FORKED = 3, // loaded, and this process is a child forked since
};

extern int gocann_core_state;

// gocann_core_sym names one symbol of the core and where its address goes.
typedef struct gocann_core_sym {
	const char *name;
	void *slot; // points to a function pointer
} gocann_core_sym;

// The API entry points (zz_front.c) and the kernel interface (kernel.c)
// the core provides; each list ends with a NULL name.
extern const gocann_core_sym gocann_core_syms[];
extern const gocann_core_sym gocann_kernel_syms[];
extern const gocann_core_sym gocann_superkernel_syms[];
extern const gocann_core_sym gocann_msprof_syms[];

// gocann_core_enter makes the core ready for a call of fn, loading it on
// first use. It returns 0 when the call may go ahead, and otherwise the
// error code to return, with the reason recorded as t's last error and
// error message.
int gocann_core_enter(gocann_thread *t, const char *fn);

// gocann_core_ready reports whether the core is loaded and usable; one
// acquire load, as on every API call.
static inline int gocann_core_ready(void) {
	return __atomic_load_n(&gocann_core_state, __ATOMIC_ACQUIRE) == GOCANN_CORE_READY;
}

// GOCANN_ENTER returns fail from the enclosing API function when the core
// cannot serve the call; fail may use the error code, e_.
#define GOCANN_ENTER(t, fn, fail)                                                                                      \
	do {                                                                                                           \
		if (__builtin_expect(!gocann_core_ready(), 0)) {                                                       \
			int e_ = gocann_core_enter(t, fn);                                                             \
			if (e_ != 0) {                                                                                 \
				(void)e_;                                                                              \
				return fail;                                                                           \
			}                                                                                              \
		}                                                                                                      \
	} while (0)

// gocann_bad_pointer records that fn's parameter param is p, below 4096:
// no object or memory lives there. It returns the code: 107017 for a
// handle, 100000 for any other pointer.
int gocann_bad_pointer(gocann_thread *t, const char *fn, const char *param, const void *p, int handle);

// GOCANN_CHECK_PTR returns fail from the enclosing API function when the
// pointer (or handle) argument p is not 0 and below 4096; fail may use the
// error code, e_.
#define GOCANN_CHECK_PTR(t, fn, param, p, handle, fail)                                                                \
	do {                                                                                                           \
		if (__builtin_expect((uintptr_t)(p) - 1 < 4095, 0)) {                                                  \
			int e_ = gocann_bad_pointer(t, fn, param, (const void *)(uintptr_t)(p), handle);               \
			(void)e_;                                                                                      \
			return fail;                                                                                   \
		}                                                                                                      \
	} while (0)

// gocann_prof_p is the core's API-call ring (prof.h), NULL until the core
// is loaded.
extern gocann_prof_area *gocann_prof_p;

// gocann_prof_on reports whether API calls are being recorded: one load
// on every call while they are not.
static inline int gocann_prof_on(void) {
	gocann_prof_area *a = gocann_prof_p;
	return a != NULL && __atomic_load_n(&a->on, __ATOMIC_RELAXED) != 0;
}

// GOCANN_PROF_RET returns call, of type T, recording its span as a call of
// fn that returned code (which may name the result, r_) while profiling is
// on; GOCANN_PROF_VOID does the same for a call returning nothing.
#define GOCANN_PROF_RET(t, fn, T, call, code)                                                                                \
	do {                                                                                                           \
		if (__builtin_expect(gocann_prof_on(), 0)) {                                                           \
			uint64_t p0_ = gocann_prof_now();                                                              \
			T r_ = (call);                                                                                 \
			gocann_prof_put(gocann_prof_p, fn, (t)->tid, p0_, (int32_t)(code));                      \
			return r_;                                                                                     \
		}                                                                                                      \
		return (call);                                                                                         \
	} while (0)
#define GOCANN_PROF_VOID(t, fn, call)                                                                                  \
	do {                                                                                                           \
		if (__builtin_expect(gocann_prof_on(), 0)) {                                                           \
			uint64_t p0_ = gocann_prof_now();                                                              \
			call;                                                                                          \
			gocann_prof_put(gocann_prof_p, fn, (t)->tid, p0_, 0);                                          \
			return;                                                                                        \
		}                                                                                                      \
		call;                                                                                                  \
	} while (0)

#endif
