// The direct launch path: kernel launches written from C into a stream's
// submission area (hal.SQ in Go), without a call into Go while the stream
// is busy. Go owns the records below and fills them; C only reads them.
#ifndef GOCANN_CAPI_DIRECT_H
#define GOCANN_CAPI_DIRECT_H

#include <stdint.h>
#include "thread.h"

// GOCANN_MAX_BLOCKS is the most blocks a launch may have (gocann.MaxBlocks).
enum { GOCANN_SQ_ENTRIES = 64, GOCANN_MAX_ARGS = 32, GOCANN_MAX_BLOCKS = 65535 };

// gocann_sqe mirrors hal.SQE.
typedef struct gocann_sqe {
	uint64_t seq;
	uint32_t kernel, blocks, nargs, thread;
	int64_t submit;
	uint64_t args[GOCANN_MAX_ARGS];
} gocann_sqe;

// gocann_sq mirrors hal.SQ; direct.go checks the layouts agree.
typedef struct gocann_sq {
	uint32_t lock, pad0;
	uint64_t submitted;
	uint8_t pad1[64 - 16];
	uint32_t open, stopped, ring_len, direct, clock_known, pad2;
	int64_t clock_base;
	uint64_t dev_lo, dev_hi;
	uint8_t pad3[64 - 48];
	uint32_t busy, pad4;
	uint64_t absorbed, completed;
	uint8_t pad5[64 - 24];
	gocann_sqe entries[GOCANN_SQ_ENTRIES];
} gocann_sq;

// gocann_rec is what the direct path knows of one live handle, at the
// handle's table index: for a stream, its context handle (a) and its
// submission area (sq); for a context, its default stream's handle (a);
// for a function, its kernel number (low word of a), 0 until Go has
// numbered it, and the bytes its parameters take (high word of a).
typedef struct gocann_rec {
	uint64_t handle; // the handle served, 0 if none; read atomically
	uint64_t a;
	gocann_sq *sq;
	uint64_t pad;
} gocann_rec;

enum { GOCANN_REC_CHUNK_BITS = 10, GOCANN_REC_CHUNKS = 1 << 12 };

// The kinds of handle the path looks up. A handle keeps its kind in the
// bits from GOCANN_HANDLE_KIND_SHIFT up and its table index + 1 in the low
// GOCANN_HANDLE_INDEX_BITS (capi/handles.go).
enum { GOCANN_KIND_CONTEXT = 1, GOCANN_KIND_STREAM = 2, GOCANN_KIND_FUNC = 6 };
enum { GOCANN_HANDLE_KIND_SHIFT = 56, GOCANN_HANDLE_INDEX_BITS = 24 };

// gocann_recs are the record chunks, allocated by Go as handles need them.
extern gocann_rec *gocann_recs[GOCANN_REC_CHUNKS];

enum { GOCANN_MAX_DEVICES = 64 };

// gocann_devmem holds the host address range of each device's memory seen
// so far, [lo, hi), by device id: launch arguments there are device
// memory, which the path leaves to Go. A stale range only sends launches
// to Go.
typedef struct gocann_range {
	uint64_t lo, hi;
} gocann_range;
extern gocann_range gocann_devmem[GOCANN_MAX_DEVICES];
extern uint32_t gocann_ndevmem; // entries of gocann_devmem in use

// gocann_devgone holds the address ranges of the devices that are closed,
// whose memory is gone: a launch with an argument there is left to Go,
// which refuses it. gocann_ndevgone is the number of entries in use, 0
// while no device has closed, which costs the path one load. Go rewrites
// the table when a device opens or closes; a launch racing with that may
// miss a range, and its kernel then faults when it starts.
extern gocann_range gocann_devgone[GOCANN_MAX_DEVICES];
extern uint32_t gocann_ndevgone;

// The epochs of the path (capi/epoch.go says why). A thread inside
// gocann_direct_launch holds in its slot the epoch it read on entering,
// 0 outside; Go moves gocann_epoch on each time a stream's record ends,
// and keeps that stream's queue until every slot is 0 or past it.
typedef struct gocann_slot {
	uint64_t at;   // the epoch announced; read and written atomically
	uint32_t used; // claimed by a live thread; under the slots' lock
	uint8_t pad[64 - 12];
} gocann_slot;

typedef struct gocann_epoch_line {
	uint64_t now;    // the global epoch, from 1; read and written atomically
	uint32_t asym;   // 1 once gocann_epoch_fence fences every thread; atomic
	uint32_t locked; // 1 while the process is locked for a snapshot; atomic
	uint8_t pad[64 - 16];
} gocann_epoch_line;

enum { GOCANN_SLOT_CHUNK_BITS = 6, GOCANN_SLOT_CHUNKS = 1 << 14 };

extern gocann_epoch_line gocann_epoch;
extern gocann_slot *gocann_slots[GOCANN_SLOT_CHUNKS]; // chunks, allocated as threads need them
extern uint32_t gocann_nslots;                         // slots ever claimed

// gocann_claim_slot gives the calling thread, whose record is t, a slot
// of its own until it exits (t->direct), or returns NULL if none is left.
gocann_slot *gocann_claim_slot(gocann_thread *t);

// gocann_epoch_fence makes every thread's announcement so far visible to
// the caller, as a full barrier in each thread would, while asym is 1
// (then a thread announces without a barrier of its own). Go calls it
// when a record ends, before it moves the epoch on. It returns 0, or -1
// if it could not.
int gocann_epoch_fence(void);

// gocann_direct_launch queues a launch through f's stream's submission
// area for the thread whose record is t. It returns 0 when it did, and -1
// when the launch must take the Go path: anything invalid or unusual, and
// a stream that is full, stopped or not running eagerly. On an idle
// stream it rings the doorbell.
int gocann_direct_launch(gocann_thread *t, uint64_t f, uint32_t blocks, uint64_t stream, const void *args,
			 size_t size);

#endif
