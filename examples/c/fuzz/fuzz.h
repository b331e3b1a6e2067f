/*
 * fuzz: random call sequences over the C ABI (include/acl), with a model
 * of what the program created and freed, so that a call which must fail
 * but returns 0 (a WRONG SUCCESS), a call with valid arguments that fails
 * (an UNEXPECTED FAILURE), bytes that do not round-trip (a DATA MISMATCH)
 * and crashes or hangs are reported. See README.md next to this file.
 *
 * The state is one process-wide struct (fz); the program is single-threaded
 * apart from the report thread that runs callbacks.
 */
#ifndef FUZZ_H_
#define FUZZ_H_

/* memfd_create, strnlen, realpath, mkdtemp: include this header first. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <acl/acl.h>

/* The deprecated calls are part of the API under test. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

/* ---- random numbers (gen.c) ------------------------------------------ */

void rng_seed(uint64_t seed);
uint64_t rnd(void);
uint64_t below(uint64_t n);           /* uniform in [0, n), n > 0 */
int one_in(uint64_t n);               /* true with probability 1/n */
uint64_t size_any(void);              /* small, boundary or huge */
uint64_t size_huge(void);             /* a size no allocation can have */
int32_t int_any(void);                /* small, negative, boundary */
uint32_t flags_any(uint32_t known);   /* known bits, all bits, random */
const char *size_name(uint64_t v);    /* "2^62", "SIZE_MAX", or decimal */

/* ---- object model (model.c) ------------------------------------------ */

enum kind {
    K_CTX, K_STREAM, K_EVENT, K_NOTIFY, K_BIN, K_FUNC, K_ARGS,
    K_MODEL, K_MSTREAM, K_TASK, K_TASKGRP, K_COND, K_LABEL, K_LABELLIST,
    NKINDS
};

#define MAXOBJ 1024
#define MAXDEV 4

/* A live object the program created. Fields beyond the common ones apply to
 * the kinds named. */
typedef struct obj {
    int kind, live;
    void *h;
    uint64_t serial;
    int dev;
    int ctx;              /* owning context (object index), -1 if none */
    int parent;           /* function of args/param, binary of function, model of task... */
    /* context */
    int is_default, stop_mode, tainted;
    void *def_stream;     /* its default stream handle, once seen */
    /* stream */
    uint32_t flags, prio;
    int persistent, bound;        /* bound: model object index or -1 */
    int capture;                  /* capture slot capturing it, -1 */
    int weird;                    /* state not modelled: expect nothing */
    int subscribed;
    int waiting;                  /* stream (a context: its default stream): a notify wait queued
                                   * for a record on another stream, until the device syncs */
    /* event */
    int captured_in;              /* capture slot whose stream recorded it, -1 */
    int recorded, in_model;       /* in_model: ever recorded by a captured or bound stream */
    int last_rec;                 /* event: the stream of its latest record */
    int api;                      /* event: made by aclrtCreateEvent (0), ...WithFlag (1), ...ExWithFlag (2) */
    /* function */
    int fk;                       /* which fuzz kernel (enum fk) */
    int has_trap;                 /* model: a trapping kernel among its tasks */
    /* args: a list for fz_fill, writing n bytes at the allocation dst */
    int nparams, finalized;
    void *params[8];
    uint64_t dst_serial, n;
    char *dst;
    /* model */
    int building, built, from_capture, dangling, is_branch, name_set, wide, noexec;
    int group_tasks;              /* task group: its kernels */
    int owns_mem;                 /* model: holds device memory (conditions, argument copies) */
    char name[40];
    uint64_t touched[16];         /* serials of allocations its tasks touch */
    int ntouched;
} obj;

/* Allocations: device memory, page-locked host memory, pageable host. */
enum mkind { M_DEV, M_PINNED, M_PAGEABLE };

typedef struct alloc {
    int live;
    enum mkind kind;
    char *p;
    uint64_t size;        /* requested */
    uint64_t extent;      /* usable bytes (aclrtMemGetAddressRange) */
    int dev;              /* device memory: its device; host: -1 */
    int ctx;              /* the context current when it was made */
    unsigned dirty;       /* devices whose queued tasks may still write it */
    int model_refs;       /* captured or bound tasks that touch it */
    uint64_t rounded;     /* device bytes it takes, page-rounded */
    uint64_t serial;
    int reserved;         /* the program's own (argument area, value word): never picked */
} alloc;

#define MAXALLOC 256
#define NFREED 256

typedef struct freed_ptr {
    char *p;
    uint64_t size;
    enum mkind kind;
    int dev;
    int closed;           /* its device was closed (or the runtime finalized) */
} freed_ptr;

/* A capture in progress. */
typedef struct capture {
    int active;
    int stream;           /* origin stream (object index) */
    int mode;
    int model;            /* the model object, once known from GetInfo, or -1 */
    int invalid;          /* maybe invalidated: End may fail */
    int in_group;         /* a task group is open */
    int group_tasks;      /* kernels captured since the group opened */
    uint64_t touched[16]; /* allocations its tasks touch, as for a model */
    int ntouched, wide, has_trap;
    int has_cond;         /* a condition handle was made in it */
} capture;

#define MAXCAP 2

/* Switches that avoid known defect classes, so fuzzing goes on past them. */
enum avoid {
    AV_HOSTARGS_HUGE = 1 << 0,   /* huge argsSize in aclrtLaunchKernelWithHostArgs */
    AV_FREEHOST_TWICE = 1 << 1,  /* aclrtFreeHost of freed page-locked memory */
    AV_CLOSED_DEV = 1 << 2,      /* memory of a closed device (or from before aclFinalize) */
    AV_CTX_LIVE = 1 << 3,        /* aclrtDestroyContext with live streams or memory */
    AV_ALIAS = 1 << 4,           /* stale handles equal to a new object's handle */
    AV_TEARDOWN_FREE = 1 << 5,   /* a teardown that frees memory under the device lock: placeholder
                                  * launches, models owning device memory */
    AV_ZERO_PARAMS = 1 << 6,     /* aclrtLaunchKernelWithArgsArray of a kernel without parameters */
    AV_PITCH_OVERFLOW = 1 << 7,  /* 2-D copies whose rows overflow the address space */
    AV_DROPPED_RECORD = 1 << 8,  /* waits for an event whose record an abort or forced destroy dropped */
};

struct fz {
    uint64_t seed, ncalls, call;
    unsigned avoid;
    int verbose;
    uint64_t dump_at;             /* -d: print the model before this call */
    int ndev;
    int inited;
    int cur_ctx;                  /* object index of the current context, -1 */
    int dev_set[MAXDEV];          /* aclrtSetDevice references */
    int dev_default[MAXDEV];      /* default context object, -1 */
    int dev_unsafe[MAXDEV];       /* a freed block may still be written */
    uint64_t dev_bytes[MAXDEV];   /* device memory in use (page-rounded estimate) */
    obj objs[MAXOBJ];
    alloc allocs[MAXALLOC];
    freed_ptr freed[NFREED];
    unsigned nfreed;
    capture caps[MAXCAP];
    int capture_mode;             /* this thread's capture mode */
    int learning;                 /* obj_new of a handle a query returned */
    int untracked_capture;        /* a capture began that the model does not follow */
    uint64_t serial;
    char kernel_path[512];
    char scratch_dir[512];
    char *arena[MAXDEV];          /* device memory for argument blocks */
    uint64_t arena_next[MAXDEV];
    void *vword[MAXDEV];          /* device words for aclrtValueWait, value vval */
    uint64_t vval[MAXDEV];
    void *bin_data;               /* the kernel binary's bytes, for LoadFromData */
    size_t bin_len;
    uint64_t report_tid;
    /* counters */
    uint64_t wrong_successes, unexpected_failures, mismatches, others, checks;
    int inits;                    /* aclInit references */
    int implicit;                 /* the one reference is aclrtSetDevice's start */
    /* epochs for objects kept outside objs (ops_pool.c): a device's moves on
     * when it closes, the runtime's when it is finalized */
    uint64_t dev_epoch[MAXDEV], rt_epoch;
};

extern struct fz fz;

int obj_new(int kind, void *h, int ctx, int dev);   /* index, or -1 when full */
int obj_learn(int kind, void *h, int ctx, int dev); /* the same, for a handle a query returned */
void obj_kill(int i);                               /* destroyed: its handle goes stale */
int obj_pick(int kind);                             /* a live one, or -1 */
int obj_count(int kind);
int obj_find(int kind, void *h);
void *stale_handle(int kind);                       /* a destroyed handle, or NULL */
int is_stale(void *h);
int ctx_dev(int ctx);
int cur_dev(void);
void ctx_killed(int ctx);                 /* its streams, events, notifies, models die */
void device_closed(int dev);              /* its memory goes; its objects died before */
int device_open(int dev);
void model_killed(int m);
void runtime_finalized(void);
void model_dump(FILE *f);

int alloc_new(enum mkind kind, void *p, uint64_t size, int dev);
void alloc_free(int i);                   /* into the freed list */
int alloc_pick(int kindmask);             /* live, of one of the kinds (1 << kind) */
int alloc_of(const void *p);              /* live allocation holding p, -1 */
int freed_pick(int kindmask, int closed_ok);
int overlaps_live(const void *p, uint64_t n);
void allocs_synced(int dev);              /* after a successful device sync */
void alloc_touch(int a, int dev);         /* a task of device dev may write it */

/* ---- calls and findings (log.c) -------------------------------------- */

/* Ring of the last calls, in memory the parent process can read. */
#define RING 64
#define SLOT 320
struct ring {
    uint64_t seed, call, head;
    int64_t stamp;        /* CLOCK_MONOTONIC seconds when the current call began */
    uint64_t wrong_successes, unexpected_failures, mismatches, others, checks;
    int done;
    int hung;             /* the watchdog found a call that does not return */
    char slot[RING][SLOT];
};

extern struct ring *ring;
void ring_init(int fd);
void callf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
aclError ret(aclError rc);                 /* appends " -> rc" to the current call */
void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* rc must be nonzero: why says why. */
void must_fail(aclError rc, const char *why);
/* rc must be 0 (or one of the codes the current state allows). */
void must_pass(aclError rc, unsigned allow);
void mismatch(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void finding(const char *cls, const char *sig, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void print_summary(FILE *f, const char *who);

/* Codes a call with valid arguments may still return. */
enum allow {
    AL_FAULT = 1 << 0,       /* a fault of an earlier task (trap, timeout) */
    AL_CAPTURE = 1 << 1,     /* refused or changed by a capture in progress */
    AL_RESOURCE = 1 << 2,    /* out of streams, events, memory */
    AL_NOTREADY = 1 << 3,    /* timeouts of bounded waits */
    AL_ANY = 1u << 31,       /* expect nothing */
};

unsigned allow_for_ctx(int ctx);
unsigned allow_for_stream(int s);

/* ---- argument generators (gen.c) ------------------------------------- */

/* What a generated argument is, for the expectation. */
enum validity { VALID, INVALID, UNSURE };

typedef struct harg {
    void *h;
    int idx;              /* object index when live */
    enum validity v;
    const char *what;     /* "live", "NULL", "stale", "wrong-kind", "garbage" */
} harg;

harg pick_handle(int kind, int null_ok);
harg pick_stream(void);              /* NULL (default stream) is valid */
const char *hdesc(const harg *a);    /* for call descriptions */

typedef struct parg {
    char *p;
    uint64_t room;        /* bytes from p to the end of its allocation */
    int a;                /* allocation index, -1 */
    enum validity v;
    const char *what;
    enum mkind kind;
    int dev;
} parg;

/* A pointer for count bytes of memory of the kinds in kindmask. */
parg pick_ptr(int kindmask, uint64_t count);
parg valid_ptr(int a, uint64_t count);
uint64_t room_of(const void *p);
void pattern(void *buf, uint64_t n, uint64_t seed);
int first_diff(const void *a, const void *b, uint64_t n);
void rand_name(char *buf, size_t n);

/* ---- API areas -------------------------------------------------------- */

typedef void (*op_fn)(void);
struct op {
    const char *name;
    int weight;
    op_fn fn;
};

extern const struct op ops_dev[], ops_query[], ops_stream[], ops_event[], ops_notify[], ops_mem[], ops_copy[], ops_kernel[],
    ops_launch[], ops_capture[], ops_group[], ops_model[], ops_label[], ops_pool[], ops_allocator[],
    ops_vmm[], ops_vmm_use[], ops_managed[], ops_buf[], ops_cntnotify[], ops_process[], ops_binary[], ops_streamctl[], ops_snapshot[], ops_control[], ops_engines[],
    ops_ipc[];
extern const struct op ops_peer[];
extern const struct op ops_ipc_peer[]; /* ops_ipcpeer.c, with its second process (ipc_peer.c, ipc.h) */
int peer_start(void);
void peer_stop(void);
void peer_model_reset(void);        /* aclInit: no peer access, limits as configured */
int peer_on(int from, int to);      /* copies from device from's memory into to's are allowed */
extern const struct op ops_hostreg[], ops_batch[];
void hostreg_forget(void);               /* aclFinalize ended every host registration */
void vmm_device_closed(int dev);         /* ops_vmm.c: what a device closing takes */
void vmm_finalized(void);                /* ops_vmm.c: what aclFinalize takes */
void managed_device_closed(int dev);     /* ops_managed.c: the same for managed memory */
void managed_finalized(void);
int valid_dev(void);
int32_t bad_dev(void);

/* Helpers shared between areas. */
enum validity queue_on(harg *s);         /* makes s's context current, mostly */
int stream_dev(const harg *s);
int same_stream(const harg *a, const harg *b);  /* NULL is the default stream */
int stream_obj(const harg *s);           /* its object, -2 for the default stream unnamed */
int stream_clean(int s);                 /* an eager stream whose results can be checked */
int use_ctx_of_stream(int s);            /* make s's context current; 0 on success */
int use_ctx(int ctx);
void records_dropped(int s);              /* s dropped its queued tasks */
void cap_abandon(int c);                  /* the capture's model was destroyed */
int clean_stream(int ctx);                /* a stream that can start a capture or run a model */
int new_model(void *h, int ctx, int dev); /* a model object for a new model handle */
int owning_model_on(int dev, int ctx);   /* a model owning device memory on dev (or in ctx) */
int ensure_device(void);                 /* a current context exists; 0 on success */
void ctx_taint(int ctx);
void host_fn(void *arg);
void kernels_init(void);
int kernel_fill(int s_idx, void *stream, char *dst, uint64_t n, uint8_t pattern, aclError *rc);
void data_check(void);
void cap_note_task(int s, int a);        /* a task on stream s touched allocation a */
void cap_note_trap(int s);               /* a trapping kernel was queued on stream s */
void report_thread_start(void);

/* Fuzz kernels (kernels.c, loaded from a shared object). */
enum fk { FK_FILL, FK_NOP, FK_TRAP, FK_ADD, FK_FAULT, NFK };
extern const char *const fk_names[NFK];

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

#endif /* FUZZ_H_ */
