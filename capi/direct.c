// The direct launch path (direct.h) and the launch calls that try it
// first. A launch the path declines goes to Go, which checks it fully and
// reports any error; so the path only ever takes launches that are valid.

#define _GNU_SOURCE
#include <sched.h>
#include <string.h>
#include <time.h>
#include "acl/acl.h"
#include "direct.h"
#include "thread.h"
#include "_cgo_export.h"

gocann_rec *gocann_recs[GOCANN_REC_CHUNKS];
gocann_range gocann_devmem[GOCANN_MAX_DEVICES];
uint32_t gocann_ndevmem;
gocann_range gocann_devgone[GOCANN_MAX_DEVICES];
uint32_t gocann_ndevgone;

#define LOAD(p) __atomic_load_n(p, __ATOMIC_SEQ_CST)
#define STORE(p, v) __atomic_store_n(p, v, __ATOMIC_SEQ_CST)

// rec returns the record serving live handle h of the kind given, or NULL.
static gocann_rec *rec(uint64_t h, uint64_t kind) {
	uint32_t idx = (uint32_t)(h & ((1u << GOCANN_HANDLE_INDEX_BITS) - 1)) - 1; // handles keep index+1 in the low bits
	if (h >> GOCANN_HANDLE_KIND_SHIFT != kind || idx >= GOCANN_REC_CHUNKS << GOCANN_REC_CHUNK_BITS) {
		return NULL;
	}
	gocann_rec *chunk = __atomic_load_n(&gocann_recs[idx >> GOCANN_REC_CHUNK_BITS], __ATOMIC_ACQUIRE);
	if (chunk == NULL) {
		return NULL;
	}
	gocann_rec *r = &chunk[idx & ((1u << GOCANN_REC_CHUNK_BITS) - 1)];
	return LOAD(&r->handle) == h ? r : NULL;
}

// device_memory reports whether p lies in the memory of a device seen so far.
static int device_memory(const void *p) {
	uint64_t a = (uint64_t)(uintptr_t)p;
	uint32_t n = LOAD(&gocann_ndevmem);
	for (uint32_t i = 0; i < n; i++) {
		uint64_t lo = LOAD(&gocann_devmem[i].lo), hi = LOAD(&gocann_devmem[i].hi);
		if (a - lo < hi - lo) {
			return 1;
		}
	}
	return 0;
}

// gone_argument reports whether a slot of the argument block holds an
// address in the memory of a closed device.
static int gone_argument(const void *args, size_t size) {
	uint32_t n = LOAD(&gocann_ndevgone);
	if (n == 0) {
		return 0;
	}
	for (size_t off = 0; off < size; off += 8) {
		uint64_t v;
		memcpy(&v, (const char *)args + off, 8); // the block need not be aligned
		for (uint32_t i = 0; i < n && i < GOCANN_MAX_DEVICES; i++) {
			uint64_t lo = LOAD(&gocann_devgone[i].lo), hi = LOAD(&gocann_devgone[i].hi);
			if (v - lo < hi - lo) {
				return 1;
			}
		}
	}
	return 0;
}

// The submitters' lock, shared with Go (sim.queue.lockSubmit): held for a
// few hundred nanoseconds at most, so waiters spin and then yield.
static void lock(gocann_sq *q) {
	for (int i = 0; __atomic_exchange_n(&q->lock, 1, __ATOMIC_ACQUIRE) != 0; i++) {
		if (i >= 64) {
			sched_yield();
		}
	}
}

static void unlock(gocann_sq *q) { __atomic_store_n(&q->lock, 0, __ATOMIC_RELEASE); }

// launch is what the path writes into an entry.
typedef struct launch {
	uint32_t kernel, blocks, tid;
	const void *args;
	size_t size;
	uint64_t stream; // rung if the queue went idle
	uint64_t seq;    // the task's number, once queued
} launch;

// put_entry is a direct producer's write of entry seq: hal.SQ.PutEntry
// (hal/produce.go), mirrored, with the submission stamped here.
static void put_entry(gocann_sq *q, uint64_t seq, const launch *l) {
	gocann_sqe *e = &q->entries[seq % GOCANN_SQ_ENTRIES];
	int64_t submit = 0;
	if (LOAD(&q->clock_known)) {
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		submit = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec - LOAD(&q->clock_base);
	}
	e->kernel = l->kernel;
	e->blocks = l->blocks;
	e->nargs = (uint32_t)(l->size / 8);
	e->thread = l->tid;
	e->submit = submit;
	if (l->size > 0) {
		memcpy(e->args, l->args, l->size);
	}
	__atomic_store_n(&e->seq, seq, __ATOMIC_RELAXED);
	if (!__atomic_load_n(&q->direct, __ATOMIC_RELAXED)) {
		STORE(&q->direct, 1);
	}
}

// produce is the producer protocol, hal.Produce (hal/produce.go), mirrored
// line for line: write is put_entry, doorbell gocann_direct_doorbell.
// q's lock is held. It returns the entry's sequence number, 0 if refused.
static uint64_t produce(gocann_sq *q, uint64_t ahead, const launch *l) {
	if (!LOAD(&q->open) || LOAD(&q->stopped)) {
		return 0;
	}
	uint64_t seq = LOAD(&q->submitted) + 1;
	if (seq - LOAD(&q->completed) > LOAD(&q->ring_len) || seq - LOAD(&q->absorbed) > ahead) {
		return 0;
	}
	put_entry(q, seq, l);
	STORE(&q->submitted, seq);
	if (!LOAD(&q->busy)) {
		gocann_direct_doorbell(l->stream);
	}
	return seq;
}

// enter announces the epoch in t's slot before any record is read, and
// returns the slot; NULL if t has none and none is left, or while the
// process is locked for a snapshot. leave ends it.
// Go must see the announcement before a record the thread reads ends:
// either Go fences every thread when a record ends (asym) and a store the
// compiler keeps ahead of the reads is enough, or the store is
// sequentially consistent.
static void leave(gocann_slot *s) { __atomic_store_n(&s->at, 0, __ATOMIC_RELEASE); }

static gocann_slot *enter(gocann_thread *t) {
	gocann_slot *s = t->direct;
	if (s == NULL && (s = gocann_claim_slot(t)) == NULL) {
		return NULL;
	}
	uint64_t now = LOAD(&gocann_epoch.now);
	if (LOAD(&gocann_epoch.asym)) {
		__atomic_store_n(&s->at, now, __ATOMIC_RELAXED);
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
	} else {
		STORE(&s->at, now);
	}
	// Read after the announcement: a snapshot lock either is seen here or
	// sees this thread inside and waits for it to leave (capi/snapshot.go).
	if (LOAD(&gocann_epoch.locked)) {
		leave(s);
		return NULL;
	}
	return s;
}

// queue_launch is the path between enter and leave: it finds f's record
// and the stream's, and produces the launch under the stream's lock once
// both records still serve their handles.
static int queue_launch(uint64_t ctx, uint64_t f, uint64_t stream, launch *l) {
	gocann_rec *fr = rec(f, GOCANN_KIND_FUNC);
	uint64_t fa = fr ? LOAD(&fr->a) : 0;
	l->kernel = (uint32_t)fa;
	if (l->kernel == 0 || l->size < fa >> 32) {
		return -1; // unnumbered, or fewer argument bytes than the parameters take
	}
	if (stream == 0) {
		gocann_rec *cr = rec(ctx, GOCANN_KIND_CONTEXT);
		if (cr == NULL) {
			return -1;
		}
		stream = LOAD(&cr->a);
	}
	gocann_rec *sr = rec(stream, GOCANN_KIND_STREAM);
	if (sr == NULL || LOAD(&sr->a) != ctx) {
		return -1; // another context's stream: Go reports it
	}
	l->stream = stream;
	gocann_sq *q = LOAD(&sr->sq);
	lock(q);
	// Either record may have changed hands since it was read: a record's
	// fields are written with its handle 0, so a handle still in place
	// means what was read is its own. The function's then names the
	// kernel f does, and the stream's the area of the stream's queue,
	// which Go holds while this thread is inside (epoch.go). A stream
	// being destroyed closes its area (open 0, under this lock) before its
	// queue closes, and loses its record after.
	uint64_t seq = 0;
	if (LOAD(&sr->handle) == stream && LOAD(&fr->handle) == f) {
		seq = produce(q, GOCANN_SQ_ENTRIES, l);
	}
	unlock(q);
	l->seq = seq;
	return seq != 0 ? 0 : -1;
}

int gocann_direct_launch(gocann_thread *t, uint64_t f, uint32_t blocks, uint64_t stream, const void *args,
			 size_t size) {
	uint64_t ctx = t->context;
	if (ctx == 0 || blocks == 0 || blocks > GOCANN_MAX_BLOCKS || size % 8 != 0 || size > 8 * GOCANN_MAX_ARGS ||
	    (size > 0 && args == NULL)) {
		return -1;
	}
	if (size > 0 && device_memory(args)) {
		return -1; // read when the kernel starts, and checked now: Go does both
	}
	if (size > 0 && gone_argument(args, size)) {
		return -1; // Go refuses it
	}
	gocann_slot *s = enter(t);
	if (s == NULL) {
		return -1;
	}
	launch l = {.blocks = blocks, .tid = t->tid, .args = args, .size = size};
	int rc = queue_launch(ctx, f, stream, &l);
	leave(s);
	if (rc == 0 && stream != 0) {
		t->last_task = (uint32_t)l.seq;
		t->last_task_go = 0;
	}
	return rc;
}

// The core's entry points for the launch calls (the front forwards to
// them): the direct path first, the Go path when it declines.

aclError gocann_aclrtLaunchKernel(gocann_thread *t, aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *argsData,
				  size_t argsSize, aclrtStream stream) {
	if (gocann_direct_launch(t, (uint64_t)(uintptr_t)funcHandle, numBlocks, (uint64_t)(uintptr_t)stream, argsData,
				 argsSize) == 0) {
		return ACL_SUCCESS;
	}
	return (aclError)gocann_go_aclrtLaunchKernel(t, funcHandle, numBlocks, (void *)argsData, argsSize, stream);
}

aclError gocann_aclrtLaunchKernelV2(gocann_thread *t, aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *argsData,
				    size_t argsSize, aclrtLaunchKernelCfg *cfg, aclrtStream stream) {
	if ((cfg == NULL || cfg->numAttrs == 0) &&
	    gocann_direct_launch(t, (uint64_t)(uintptr_t)funcHandle, numBlocks, (uint64_t)(uintptr_t)stream, argsData,
				 argsSize) == 0) {
		return ACL_SUCCESS;
	}
	return (aclError)gocann_go_aclrtLaunchKernelV2(t, funcHandle, numBlocks, (void *)argsData, argsSize, cfg, stream);
}

// gocann_linked_launch is a <<<>>> launch (capi/linked.go), which takes the
// direct path as aclrtLaunchKernelWithHostArgs does.
aclError gocann_linked_launch(gocann_thread *t, aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream,
			      void *args, size_t argsSize) {
	if (gocann_direct_launch(t, (uint64_t)(uintptr_t)funcHandle, numBlocks, (uint64_t)(uintptr_t)stream, args,
				 argsSize) == 0) {
		return ACL_SUCCESS;
	}
	return (aclError)gocann_go_linked_launch(t, funcHandle, numBlocks, stream, args, argsSize);
}

aclError gocann_aclrtLaunchKernelWithHostArgs(gocann_thread *t, aclrtFuncHandle funcHandle, uint32_t numBlocks,
					      aclrtStream stream, aclrtLaunchKernelCfg *cfg, void *hostArgs, size_t argsSize,
					      aclrtPlaceHolderInfo *placeHolderArray, size_t placeHolderNum) {
	if ((cfg == NULL || cfg->numAttrs == 0) && placeHolderNum == 0 &&
	    gocann_direct_launch(t, (uint64_t)(uintptr_t)funcHandle, numBlocks, (uint64_t)(uintptr_t)stream, hostArgs,
				 argsSize) == 0) {
		return ACL_SUCCESS;
	}
	return (aclError)gocann_go_aclrtLaunchKernelWithHostArgs(t, funcHandle, numBlocks, stream, cfg, hostArgs, argsSize,
								 placeHolderArray, placeHolderNum);
}
