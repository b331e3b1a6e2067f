// The API-call record ring profiling reads: the front stamps each API
// call's start and end into it while profiling is on, and the core's
// collector drains it (prof.go). The core owns the ring; the front finds
// it by name when it loads the core.
#ifndef GOCANN_CAPI_PROF_H
#define GOCANN_CAPI_PROF_H

#include <stdint.h>
#include <time.h>

#define GOCANN_API_RING (1u << 16)

// gocann_api_rec is one API call: seq is its position + 1, stored last
// (release) once the rest is written, so a reader knows it whole.
typedef struct gocann_api_rec {
	uint64_t seq;
	uint64_t start, end; // gocann_prof_now's ticks
	const char *fn;      // the function's name, a literal of the front
	uint32_t tid;        // the calling OS thread
	int32_t ret;         // what it returned (aclError functions), else 0
} gocann_api_rec;

typedef struct gocann_prof_area {
	uint32_t on;   // 1 while API calls are recorded
	uint32_t pad_;
	uint64_t head; // records claimed
	gocann_api_rec recs[GOCANN_API_RING];
} gocann_prof_area;

// gocann_prof_now reads the cheapest steady clock: the CPU's time-stamp
// counter where there is one (the reader converts ticks to CLOCK_MONOTONIC
// with gocann_prof_calibrate's pairs), else CLOCK_MONOTONIC in ns.
static inline uint64_t gocann_prof_now(void) {
#if defined(__x86_64__)
	return __builtin_ia32_rdtsc();
#elif defined(__aarch64__)
	uint64_t v;
	__asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(v));
	return v;
#else
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

// gocann_prof_calibrate reads the ticks and CLOCK_MONOTONIC (ns) together.
static inline void gocann_prof_calibrate(uint64_t *ticks, uint64_t *ns) {
	struct timespec ts;
	uint64_t a = gocann_prof_now();
	clock_gettime(CLOCK_MONOTONIC, &ts);
	uint64_t b = gocann_prof_now();
	*ticks = a + (b - a) / 2;
	*ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

// gocann_prof_put records a call of fn by thread tid from start to now.
static inline void gocann_prof_put(gocann_prof_area *a, const char *fn, uint32_t tid, uint64_t start, int32_t ret) {
	uint64_t i = __atomic_fetch_add(&a->head, 1, __ATOMIC_RELAXED);
	gocann_api_rec *r = &a->recs[i & (GOCANN_API_RING - 1)];
	__atomic_store_n(&r->seq, 0, __ATOMIC_RELAXED); // torn while rewritten
	r->start = start;
	r->end = gocann_prof_now();
	r->fn = fn;
	r->tid = tid;
	r->ret = ret;
	__atomic_store_n(&r->seq, i + 1, __ATOMIC_RELEASE);
}

#endif
