/*
 * 22_churn: objects created and destroyed at random for a long time, so
 * that handles, their slots and what the library keeps for each object
 * (the records and pinned submission areas of the direct launch path) are
 * reused over and over while the Go garbage collector runs: the test runs
 * this program with GOGC=5. Nothing kept for an object may outlive it, and
 * every call must do what it says.
 *
 * The program makes a random sequence of calls over a few context slots:
 * contexts destroyed with their streams, events and device memory still
 * live; streams, events and memory created and destroyed; asynchronous
 * memsets, event records and kernel launches (the direct path takes those
 * on busy streams) between them; now and then device 1's default context
 * set and reset with a stream live. Every launch adds 1 to one counter,
 * which must end equal to the launches made. Then contexts are destroyed
 * with an event and a notify live many times over: the program's memory
 * must stay flat. Last, a destroyed stream's handle stays refused after
 * its slot has served 65536 more streams.
 *
 * Usage: 22_churn <kernel binary with count_up> [calls [seed]]
 */
#include <unistd.h>

#include "common.h"

enum { SLOTS = 4, STREAMS = 6, EVENTS = 4, BLOCKS = 6, DEFAULT_CALLS = 150000 };

static uint64_t rng = 0x9e3779b97f4a7c15ull;

/* rnd returns a pseudo-random number below n (xorshift64). */
static uint32_t rnd(uint32_t n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng % n);
}

static aclrtFuncHandle countFn;
static uint64_t *counter; /* device 0 memory */
static aclrtContext first; /* device 0's default context */

/* count_on launches count_up(counter) on s through one of three calls. */
static aclError count_on(aclrtStream s, int how)
{
    void *slot = counter;
    switch (how % 3) {
    case 0:
        return aclrtLaunchKernel(countFn, 1, &slot, sizeof slot, s);
    case 1:
        return aclrtLaunchKernelV2(countFn, 1, &slot, sizeof slot, NULL, s);
    default:
        return aclrtLaunchKernelWithHostArgs(countFn, 1, s, NULL, &slot, sizeof slot, NULL, 0);
    }
}

struct slot {
    aclrtContext ctx;
    aclrtStream s[STREAMS];
    aclrtEvent e[EVENTS];
    void *m[BLOCKS];
};

struct tally {
    long calls, contexts, ctxDestroys, streams, events, blocks, launches, device1;
};

/* destroy_slot destroys the slot's context with everything in it live, then
 * frees its memory (which the context's streams no longer use). */
static void destroy_slot(struct slot *sl, struct tally *n)
{
    CHECK(aclrtDestroyContext(sl->ctx));
    n->ctxDestroys++;
    n->calls++;
    for (int i = 0; i < BLOCKS; i++) {
        if (sl->m[i] != NULL) {
            CHECK(aclrtFree(sl->m[i]));
            n->calls++;
        }
    }
    memset(sl, 0, sizeof *sl);
}

/* device1 sets device 1, creates a stream and uses it, and resets the
 * device with the stream live: its default context ends. */
static void device1(struct slot *sl, struct tally *n)
{
    void *m = NULL;
    aclrtStream s = NULL;
    CHECK(aclrtSetDevice(1));
    CHECK(aclrtCreateStream(&s));
    CHECK(aclrtMalloc(&m, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemsetAsync(m, 4096, 7, 4096, s));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtFree(m));
    CHECK(aclrtResetDevice(1));
    CHECK(aclrtSetCurrentContext(sl->ctx));
    n->device1++;
    n->calls += 8;
}

/* step makes a call on slot sl, which has a context; mostly ones that
 * create and destroy. */
static void step(struct slot *sl, struct tally *n)
{
    int i = (int)rnd(STREAMS), j = (int)rnd(BLOCKS), k = (int)rnd(EVENTS);
    aclrtStream s = sl->s[i];
    uint32_t op = rnd(32);
    if (op < 3) {
        destroy_slot(sl, n);
        return;
    }
    if (op < 13) {
        if (s != NULL) {
            CHECK(aclrtDestroyStream(s));
            sl->s[i] = NULL;
        } else {
            CHECK(aclrtCreateStream(&sl->s[i]));
            n->streams++;
        }
    } else if (op < 17) {
        if (sl->m[j] != NULL) {
            CHECK(aclrtSynchronizeDevice()); /* its memsets are done */
            CHECK(aclrtFree(sl->m[j]));
            sl->m[j] = NULL;
            n->calls++;
        } else {
            CHECK(aclrtMalloc(&sl->m[j], 64 + rnd(1 << 16), ACL_MEM_MALLOC_HUGE_FIRST));
            n->blocks++;
        }
    } else if (op < 19) {
        if (sl->e[k] != NULL) {
            CHECK(aclrtDestroyEvent(sl->e[k]));
            sl->e[k] = NULL;
        } else {
            CHECK(aclrtCreateEvent(&sl->e[k]));
            n->events++;
        }
    } else if (op < 21) {
        if (sl->e[k] == NULL) {
            return;
        }
        CHECK(aclrtRecordEvent(sl->e[k], s)); /* a NULL stream is the default one */
    } else if (op < 25) {
        if (sl->m[j] == NULL) {
            return;
        }
        CHECK(aclrtMemsetAsync(sl->m[j], 64, (int32_t)rnd(256), 64, s));
    } else if (op < 26) {
        CHECK(aclrtSynchronizeStream(s));
    } else if (op < 27) {
        if (rnd(8) == 0) {
            device1(sl, n);
        }
        return;
    } else {
        CHECK(count_on(s, (int)rnd(3)));
        n->launches++;
    }
    n->calls++;
}

static void churn(long calls)
{
    struct slot slots[SLOTS];
    struct tally n = {0};
    memset(slots, 0, sizeof slots);
    CHECK(aclrtMemset(counter, 8, 0, 8));
    while (n.calls < calls) {
        struct slot *sl = &slots[rnd(SLOTS)];
        if (sl->ctx == NULL) {
            CHECK(aclrtCreateContext(&sl->ctx, 0));
            n.contexts++;
        } else {
            CHECK(aclrtSetCurrentContext(sl->ctx));
        }
        n.calls++;
        step(sl, &n);
    }
    for (int i = 0; i < SLOTS; i++) {
        if (slots[i].ctx != NULL) {
            destroy_slot(&slots[i], &n);
        }
    }
    CHECK(aclrtSetCurrentContext(first));
    uint64_t got = read_u64(counter);
    EXPECT(got == (uint64_t)n.launches,
           "churn: %ld calls (%ld contexts, %ld destroyed live; %ld streams, %ld events, %ld blocks, %ld device 1 "
           "resets): the counter is %llu, the launches made",
           n.calls, n.contexts, n.ctxDestroys, n.streams, n.events, n.blocks, n.device1, (unsigned long long)got);
}

/* rss_mb is the program's resident set in MiB. */
static long rss_mb(void)
{
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f == NULL || fscanf(f, "%ld %ld", &pages, &resident) != 2) {
        fail_exit(__FILE__, __LINE__, 0, "cannot read /proc/self/statm");
    }
    fclose(f);
    return resident * (sysconf(_SC_PAGESIZE) / 1024) / 1024;
}

/* ended: contexts destroyed with an event and a notify live, many times
 * over. The objects end with their context, and so must everything kept
 * for them: the program's memory stays flat. */
static void ended(void)
{
    enum { ROUNDS = 20000, BOUND_MB = 64 };
    long before = rss_mb();
    for (int i = 0; i < ROUNDS; i++) {
        aclrtContext c = NULL;
        aclrtEvent e = NULL;
        aclrtNotify nt = NULL;
        CHECK(aclrtCreateContext(&c, 0));
        CHECK(aclrtCreateEvent(&e));
        CHECK(aclrtRecordEvent(e, NULL));
        CHECK(aclrtCreateNotify(&nt, ACL_NOTIFY_DEFAULT));
        CHECK(aclrtDestroyContext(c));
        if (i == 0) {
            CHECK(aclrtSetCurrentContext(first));
            EXPECT_CODE(aclrtDestroyEvent(e), ACL_ERROR_RT_INVALID_HANDLE, "ended: an event of a destroyed context");
            EXPECT_CODE(aclrtDestroyNotify(nt), ACL_ERROR_RT_INVALID_HANDLE, "ended: a notify of a destroyed context");
        }
    }
    CHECK(aclrtSetCurrentContext(first));
    long grown = rss_mb() - before;
    EXPECT(grown < BOUND_MB, "ended: %d contexts destroyed with an event and a notify live: memory grew by %ld MiB (bound %d)",
           ROUNDS, grown, BOUND_MB);
    clear_errors();
}

/* stale: a stream destroyed, then its handle's slot reused by 65536 more
 * streams: the old handle stays refused, and does not name the stream that
 * now holds the slot. */
static void stale(void)
{
    enum { REUSES = 1 << 16 };
    aclrtStream old = NULL, s = NULL;
    CHECK(aclrtCreateStream(&old));
    CHECK(aclrtDestroyStream(old));
    for (int i = 0; i < REUSES; i++) {
        CHECK(aclrtCreateStream(&s));
        if (i < REUSES - 1) {
            CHECK(aclrtDestroyStream(s));
        }
    }
    CHECK(aclrtMemsetAsync(counter, 8, 0, 8, s));
    EXPECT_CODE(aclrtMemsetAsync(counter, 8, 0, 8, old), ACL_ERROR_RT_INVALID_HANDLE,
                "stale: a stream handle destroyed 65536 stream lifetimes ago");
    EXPECT_CODE(aclrtDestroyStream(old), ACL_ERROR_RT_INVALID_HANDLE, "stale: and destroying it again");
    CHECK(aclrtDestroyStream(s)); /* the live stream was untouched */
    clear_errors();
}

int main(int argc, char **argv)
{
    aclrtBinHandle bin = NULL;
    if (argc < 2) {
        fprintf(stderr, "usage: %s kernel.so [calls [seed]]\n", argv[0]);
        return 2;
    }
    long calls = argc > 2 ? atol(argv[2]) : DEFAULT_CALLS;
    if (argc > 3) {
        rng = strtoull(argv[3], NULL, 0) | 1;
    }
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtGetCurrentContext(&first));
    CHECK(aclrtBinaryLoadFromFile(argv[1], NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "count_up", &countFn));
    CHECK(aclrtMalloc((void **)&counter, 8, ACL_MEM_MALLOC_NORMAL_ONLY));
    churn(calls);
    ended();
    stale();
    CHECK(aclrtFree(counter));
    CHECK(aclrtBinaryUnLoad(bin));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS 22_churn\n");
    return 0;
}
