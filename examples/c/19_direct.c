/*
 * 19_direct: the direct launch path. aclrtLaunchKernel, aclrtLaunchKernelV2
 * (cfg NULL or no attributes) and aclrtLaunchKernelWithHostArgs (cfg NULL,
 * no placeholders) write a launch straight into the stream's submission
 * area while the stream has work ahead of it; anything invalid or unusual
 * takes the checked path. These checks look only at what a program can
 * see: the order launches run in, against the other tasks of the stream,
 * from one thread or many; launches queued behind a held stream that do
 * not run before it is released; errors refused with the same codes as on
 * an idle stream; streams stopped by STOP_ON_FAILURE; capture; arguments
 * in device memory, which are read when the kernel starts and checked at
 * the call, as on the checked path.
 *
 * Usage: 19_direct <kernel binary with append_log, count_up and trap_now>
 */
#include "common.h"

#include <pthread.h>

#define LOG_CAP 10000 /* entries of the device log */
#define THREADS 8

static aclrtFuncHandle appendFn, countFn, trapFn;
static aclrtContext ctxA;
static aclrtNotify hold_n; /* holds a stream of ctxA until recorded */
static aclrtStream releaser; /* a stream of ctxA that records hold_n */
static uint64_t *logDev, *countDev; /* the device log and its entry count */
static uint64_t hostLog[LOG_CAP];

/* append_log's argument block: four 8-byte slots. */
struct append_args {
    void *log, *count;
    uint64_t value, cap;
};

/* Launches f with the argument block args on s through one of the calls
 * the direct path serves, chosen by how: 0 aclrtLaunchKernel, 1
 * aclrtLaunchKernelV2 with no cfg, 2 aclrtLaunchKernelV2 with a cfg of no
 * attributes, 3 aclrtLaunchKernelWithHostArgs. Callers keep the block on
 * the stack: each call must take its copy before returning. */
static aclError launch_via(aclrtFuncHandle f, void *args, size_t size, aclrtStream s, int how)
{
    aclrtLaunchKernelCfg none = {NULL, 0};
    switch (how & 3) {
    case 0:
        return aclrtLaunchKernel(f, 1, args, size, s);
    case 1:
        return aclrtLaunchKernelV2(f, 1, args, size, NULL, s);
    case 2:
        return aclrtLaunchKernelV2(f, 1, args, size, &none, s);
    default:
        return aclrtLaunchKernelWithHostArgs(f, 1, s, NULL, args, size, NULL, 0);
    }
}

/* Launches append_log(log, count, value) on s through call how. */
static aclError append_via(aclrtStream s, uint64_t value, int how)
{
    struct append_args a = {logDev, countDev, value, LOG_CAP};
    return launch_via(appendFn, &a, sizeof a, s, how);
}

static aclError append(aclrtStream s, uint64_t value) { return append_via(s, value, (int)(value & 3)); }

/* Launches count_up(counter) on s through call how. */
static aclError count_via(aclrtStream s, uint64_t *counter, int how)
{
    void *slot = counter;
    return launch_via(countFn, &slot, sizeof slot, s, how);
}

/* Clears the log and its count (synchronously; no stream is running). */
static void reset_log(void)
{
    CHECK(aclrtMemset(logDev, LOG_CAP * 8, 0, LOG_CAP * 8));
    write_u64(countDev, 0);
}

/* Checks the log holds exactly n entries first, first+1, ..., with
 * synchronous copies (which do not wait for any stream). */
static void check_log(const char *what, uint64_t n, uint64_t first)
{
    uint64_t count = read_u64(countDev);
    if (count != n) {
        fail_exit(__FILE__, __LINE__, 0, "%s: the log has %llu entries, expected %llu", what, (unsigned long long)count,
                  (unsigned long long)n);
    }
    long bad = -1;
    if (n > 0) {
        CHECK(aclrtMemcpy(hostLog, n * 8, logDev, n * 8, ACL_MEMCPY_DEVICE_TO_HOST));
        for (uint64_t i = 0; i < n && bad < 0; i++) {
            if (hostLog[i] != first + i) {
                bad = (long)i;
            }
        }
    }
    if (bad >= 0) {
        fail_exit(__FILE__, __LINE__, 0, "%s: entry %ld is %llu, expected %llu", what, bad, (unsigned long long)hostLog[bad],
                  (unsigned long long)(first + (uint64_t)bad));
    }
    pass("%s: %llu entries, %llu..%llu in order", what, (unsigned long long)n, (unsigned long long)first,
         (unsigned long long)(first + n - 1));
}

/* hold queues a wait for hold_n on s: s runs nothing after it until
 * release records hold_n on another stream of ctxA. */
static void hold(aclrtStream s) { CHECK(aclrtWaitAndResetNotify(hold_n, s, 0)); }

static void release(void) { CHECK(aclrtRecordNotify(hold_n, releaser)); }

static aclrtStreamStatus status_of(aclrtStream s)
{
    aclrtStreamStatus st = ACL_STREAM_STATUS_COMPLETE;
    CHECK(aclrtStreamQuery(s, &st));
    return st;
}

static void sleep_host(void *arg) { sleep_ms((long)(intptr_t)arg); }

/* expect_refused: a call refused with code want whose message (the
 * thread's aclGetRecentErrMsg) names param. */
static void expect_refused(const char *file, int line, aclError rc, aclError want, const char *param, const char *what)
{
    const char *msg = aclGetRecentErrMsg();
    if (rc != want) {
        fail_exit(file, line, rc, "%s: returned %d, expected %d (message: %s)", what, rc, (int)want, msg ? msg : "(null)");
    }
    if (msg == NULL || strstr(msg, param) == NULL) {
        fail_exit(file, line, rc, "%s: aclGetRecentErrMsg does not name %s: %s", what, param, msg ? msg : "(null)");
    }
    pass("%s -> %d, and the message names %s", what, (int)want, param);
}

#define REFUSED(call, want, param, what)                                       \
    do {                                                                       \
        clear_errors();                                                        \
        aclError refused_rc_ = (call);                                         \
        expect_refused(__FILE__, __LINE__, refused_rc_, (want), (param), (what)); \
    } while (0)

/* ---- 1. Order on one stream ----------------------------------------- */

static void order(aclrtStream s)
{
    enum { N = 10000, EVERY = 100 };
    uint64_t *snaps = NULL; /* snaps[k]: the count as a copy queued after launch (k+1)*EVERY saw it */
    uint64_t hostSnaps[N / EVERY];
    aclrtEvent ev = NULL;

    CHECK(aclrtMalloc((void **)&snaps, sizeof hostSnaps, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMemset(snaps, sizeof hostSnaps, 0xff, sizeof hostSnaps));
    CHECK(aclrtCreateEvent(&ev));
    reset_log();
    /* A host function first, so the queue has work ahead of the launches
     * from the start; the queue then stays busy as they outpace it. */
    CHECK(aclrtLaunchHostFunc(s, sleep_host, (void *)(intptr_t)20));
    for (uint64_t i = 0; i < N; i++) {
        CHECK(append(s, i));
        if (i % EVERY == EVERY - 1) {
            /* Tasks queued by Go between the launches: a copy of the count
             * and an event record. */
            CHECK(aclrtMemcpyAsync(&snaps[i / EVERY], 8, countDev, 8, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
            CHECK(aclrtRecordEvent(ev, s));
        }
    }
    CHECK(aclrtSynchronizeStream(s));
    check_log("order: 10000 launches from one thread, interleaved every 100 with aclrtMemcpyAsync and aclrtRecordEvent", N, 0);
    CHECK(aclrtMemcpy(hostSnaps, sizeof hostSnaps, snaps, sizeof hostSnaps, ACL_MEMCPY_DEVICE_TO_HOST));
    int bad = -1;
    for (int k = 0; k < N / EVERY && bad < 0; k++) {
        if (hostSnaps[k] != (uint64_t)(k + 1) * EVERY) {
            bad = k;
        }
    }
    if (bad >= 0) {
        fail_exit(__FILE__, __LINE__, 0, "order: copy %d saw the count %llu, expected %d", bad, (unsigned long long)hostSnaps[bad],
                  (bad + 1) * EVERY);
    }
    pass("order: each aclrtMemcpyAsync of the count ran between the launches queued before and after it (%d copies)", N / EVERY);
    aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    CHECK(aclrtQueryEventStatus(ev, &st));
    EXPECT(st == ACL_EVENT_RECORDED_STATUS_COMPLETE, "order: the last event record completed");
    CHECK(aclrtDestroyEvent(ev));
    CHECK(aclrtFree(snaps));
}

/* ---- 2. A held stream ------------------------------------------------ */

static void held(aclrtStream s, const char *name)
{
    enum { N = 1000 };
    char what[160];
    reset_log();
    hold(s);
    for (uint64_t i = 0; i < N; i++) {
        CHECK(append(s, i));
    }
    sleep_ms(20); /* time for a launch that wrongly runs to show */
    uint64_t count = read_u64(countDev);
    aclrtStreamStatus st = status_of(s);
    EXPECT(count == 0 && st == ACL_STREAM_STATUS_NOT_READY,
           "held %s: %d launches queued behind the wait, none ran (count %llu, stream NOT_READY)", name, N,
           (unsigned long long)count);
    release();
    CHECK(aclrtSynchronizeStream(s));
    snprintf(what, sizeof what, "held %s: after aclrtRecordNotify on another stream", name);
    check_log(what, N, 0);
}

/* The same on device 1, with a function first launched on device 0:
 * kernels are numbered for the direct path once for all devices. */
static void held_other_device(void)
{
    enum { N = 500 };
    aclrtStream s1 = NULL, rel1 = NULL;
    aclrtNotify n1 = NULL;
    uint64_t *counter = NULL;
    CHECK(aclrtSetDevice(1));
    CHECK(aclrtCreateStream(&s1));
    CHECK(aclrtCreateStream(&rel1));
    CHECK(aclrtCreateNotify(&n1, ACL_NOTIFY_DEFAULT));
    CHECK(aclrtMalloc((void **)&counter, 8, ACL_MEM_MALLOC_NORMAL_ONLY));
    write_u64(counter, 0);
    CHECK(aclrtWaitAndResetNotify(n1, s1, 0));
    for (int i = 0; i < N; i++) {
        CHECK(count_via(s1, counter, i));
    }
    sleep_ms(10);
    uint64_t c = read_u64(counter);
    EXPECT(c == 0, "held stream of device 1: %d count_up launches queued behind the wait, none ran (%llu)", N, (unsigned long long)c);
    CHECK(aclrtRecordNotify(n1, rel1));
    CHECK(aclrtSynchronizeStream(s1));
    c = read_u64(counter);
    EXPECT(c == N, "held stream of device 1: after the release the counter is %llu", (unsigned long long)c);
    CHECK(aclrtFree(counter));
    CHECK(aclrtDestroyNotify(n1));
    CHECK(aclrtDestroyStream(s1));
    CHECK(aclrtDestroyStream(rel1));
    CHECK(aclrtResetDevice(1));
    CHECK(aclrtSetCurrentContext(ctxA));
}

/* ---- 3. Threads ----------------------------------------------------- */

enum { PER_THREAD = 2000 };

static pthread_barrier_t barrier;
static aclrtStream shared;
static uint64_t *counters; /* device: [0] the shared stream's, [1 + i] thread i's */

struct worker {
    int id;
    int own; /* 0: launch onto the shared stream; 1: onto a stream of its own */
    aclError rc; /* the first failure, if any */
    uint64_t seen; /* own: the thread's counter after synchronizing */
};

static void *launcher(void *arg)
{
    struct worker *w = arg;
    aclrtStream s = shared;
    uint64_t *counter = &counters[0];
    w->rc = aclrtSetCurrentContext(ctxA);
    if (w->rc == ACL_SUCCESS && w->own) {
        counter = &counters[1 + w->id];
        w->rc = aclrtCreateStream(&s);
        if (w->rc == ACL_SUCCESS) {
            /* Work ahead of the launches, so they find the queue busy. */
            w->rc = aclrtLaunchHostFunc(s, sleep_host, (void *)(intptr_t)10);
        }
    }
    pthread_barrier_wait(&barrier);
    for (int i = 0; i < PER_THREAD && w->rc == ACL_SUCCESS; i++) {
        w->rc = count_via(s, counter, w->id + i);
    }
    if (w->own && s != shared) {
        if (w->rc == ACL_SUCCESS) {
            w->rc = aclrtSynchronizeStream(s);
        }
        if (w->rc == ACL_SUCCESS) {
            w->rc = aclrtMemcpy(&w->seen, 8, counter, 8, ACL_MEMCPY_DEVICE_TO_HOST);
        }
        aclError rc = aclrtDestroyStream(s);
        if (w->rc == ACL_SUCCESS) {
            w->rc = rc;
        }
    }
    return NULL;
}

static void run_threads(int own)
{
    pthread_t th[THREADS];
    struct worker w[THREADS];
    pthread_barrier_init(&barrier, NULL, THREADS + 1);
    for (int i = 0; i < THREADS; i++) {
        memset(&w[i], 0, sizeof w[i]);
        w[i].id = i;
        w[i].own = own;
        if (pthread_create(&th[i], NULL, launcher, &w[i]) != 0) {
            fail_exit(__FILE__, __LINE__, 0, "pthread_create");
        }
    }
    pthread_barrier_wait(&barrier);
    if (!own) {
        /* The shared stream is held: the threads fill its queue (1024
         * tasks), then wait for room. */
        sleep_ms(50);
        uint64_t c = read_u64(&counters[0]);
        EXPECT(c == 0, "threads: %d threads launching onto one held stream: nothing ran before the release (%llu)", THREADS,
               (unsigned long long)c);
        release();
    }
    for (int i = 0; i < THREADS; i++) {
        pthread_join(th[i], NULL);
    }
    pthread_barrier_destroy(&barrier);
    for (int i = 0; i < THREADS; i++) {
        if (w[i].rc != ACL_SUCCESS) {
            fail_exit(__FILE__, __LINE__, w[i].rc, "thread %d (own stream %d) failed", i, own);
        }
    }
    if (!own) {
        CHECK(aclrtSynchronizeStream(shared));
        uint64_t c = read_u64(&counters[0]);
        EXPECT(c == (uint64_t)THREADS * PER_THREAD, "threads: %d threads x %d count_up launches onto one shared stream: counter %llu",
               THREADS, PER_THREAD, (unsigned long long)c);
    } else {
        int bad = -1;
        for (int i = 0; i < THREADS && bad < 0; i++) {
            uint64_t c = read_u64(&counters[1 + i]);
            if (c != PER_THREAD || w[i].seen != PER_THREAD) {
                bad = i;
            }
        }
        if (bad >= 0) {
            fail_exit(__FILE__, __LINE__, 0, "threads: thread %d's counter is %llu (read by it %llu), expected %d", bad,
                      (unsigned long long)read_u64(&counters[1 + bad]), (unsigned long long)w[bad].seen, PER_THREAD);
        }
        pass("threads: %d threads, each with its own stream of the same context: each counter is %d", THREADS, PER_THREAD);
    }
}

/* A stream destroyed while threads launch onto it: each launch is taken,
 * refused as an invalid handle, or, waiting for room in a full stream,
 * ends as aborted; never a crash or a hang. Once the destroy has returned
 * every launch is refused. */
struct racer {
    aclrtStream s;
    int stop; /* set by the main thread, read atomically */
    aclError bad; /* a code other than success, 107017 or 107023, if any */
    long taken, refused;
};

static void *race_launcher(void *arg)
{
    struct racer *r = arg;
    if (aclrtSetCurrentContext(ctxA) != ACL_SUCCESS) {
        r->bad = -1;
        return NULL;
    }
    pthread_barrier_wait(&barrier);
    for (long i = 0; !__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE); i++) {
        aclError rc = count_via(r->s, &counters[0], (int)i);
        if (rc == ACL_SUCCESS) {
            r->taken++;
        } else if (rc == ACL_ERROR_RT_INVALID_HANDLE || rc == ACL_ERROR_RT_STREAM_ABORT) {
            r->refused++;
        } else if (r->bad == ACL_SUCCESS) {
            r->bad = rc;
        }
    }
    return NULL;
}

static void destroy_race(void)
{
    pthread_t th[4];
    struct racer r[4];
    aclrtStream s = NULL;
    CHECK(aclrtCreateStream(&s));
    CHECK(aclrtLaunchHostFunc(s, sleep_host, (void *)(intptr_t)1)); /* busy at first */
    pthread_barrier_init(&barrier, NULL, 5);
    for (int i = 0; i < 4; i++) {
        r[i] = (struct racer){.s = s};
        if (pthread_create(&th[i], NULL, race_launcher, &r[i]) != 0) {
            fail_exit(__FILE__, __LINE__, 0, "pthread_create");
        }
    }
    pthread_barrier_wait(&barrier);
    sleep_ms(3);
    CHECK(aclrtDestroyStream(s));
    aclError after = count_via(s, &counters[0], 0);
    sleep_ms(2);
    long taken = 0, refused = 0;
    aclError bad = ACL_SUCCESS;
    for (int i = 0; i < 4; i++) {
        __atomic_store_n(&r[i].stop, 1, __ATOMIC_RELEASE);
        pthread_join(th[i], NULL);
        taken += r[i].taken;
        refused += r[i].refused;
        if (bad == ACL_SUCCESS) {
            bad = r[i].bad;
        }
    }
    pthread_barrier_destroy(&barrier);
    EXPECT(bad == ACL_SUCCESS, "destroy race: every launch was taken, or refused with 107017 or 107023 (other code: %d)", bad);
    EXPECT(after == ACL_ERROR_RT_INVALID_HANDLE && refused > 0 && taken > 0,
           "destroy race: 4 threads launching while the stream is destroyed: some taken, then all refused (107017 after the destroy)");
    clear_errors();
}

static void threads(void)
{
    CHECK(aclrtMalloc((void **)&counters, 8 * (THREADS + 1), ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMemset(counters, 8 * (THREADS + 1), 0, 8 * (THREADS + 1)));
    CHECK(aclrtCreateStream(&shared));
    hold(shared);
    run_threads(0);
    run_threads(1);
    CHECK(aclrtDestroyStream(shared));
    destroy_race();
    CHECK(aclrtFree(counters));
}

/* ---- 4. Errors ------------------------------------------------------- */

/* The refusals of one stream state: each is checked on an idle stream
 * (which the checked path serves) and on a held one (where a valid launch
 * would go direct), with the same code and message. */
static void refusals(aclrtStream s, const char *state)
{
    struct append_args a = {logDev, countDev, 1, LOG_CAP};
    uint64_t big[40];
    char junk[64];
    char what[200];
    memset(big, 0, sizeof big);
    memcpy(big, &a, sizeof a);
    memset(junk, 0x5a, sizeof junk);

#define W(text) (snprintf(what, sizeof what, "%s stream: %s", state, text), what)
    REFUSED(aclrtLaunchKernel(appendFn, 0, &a, sizeof a, s), ACL_ERROR_RT_PARAM_INVALID, "numBlocks",
            W("numBlocks 0 (aclrtLaunchKernel)"));
    REFUSED(aclrtLaunchKernelV2(appendFn, 0, &a, sizeof a, NULL, s), ACL_ERROR_RT_PARAM_INVALID, "numBlocks",
            W("numBlocks 0 (aclrtLaunchKernelV2)"));
    REFUSED(aclrtLaunchKernelWithHostArgs(appendFn, 0, s, NULL, &a, sizeof a, NULL, 0), ACL_ERROR_RT_PARAM_INVALID,
            "numBlocks", W("numBlocks 0 (aclrtLaunchKernelWithHostArgs)"));
    REFUSED(aclrtLaunchKernel(appendFn, 65536, &a, sizeof a, s), ACL_ERROR_RT_PARAM_INVALID, "numBlocks",
            W("numBlocks 65536 (aclrtLaunchKernel)"));
    REFUSED(aclrtLaunchKernel(appendFn, 1, &a, 12, s), ACL_ERROR_RT_PARAM_INVALID, "argsSize",
            W("argsSize 12 (aclrtLaunchKernel)"));
    REFUSED(aclrtLaunchKernelV2(appendFn, 1, &a, 12, NULL, s), ACL_ERROR_RT_PARAM_INVALID, "argsSize",
            W("argsSize 12 (aclrtLaunchKernelV2)"));
    REFUSED(aclrtLaunchKernelWithHostArgs(appendFn, 1, s, NULL, &a, 12, NULL, 0), ACL_ERROR_RT_PARAM_INVALID, "argsSize",
            W("argsSize 12 (aclrtLaunchKernelWithHostArgs)"));
    REFUSED(aclrtLaunchKernel(appendFn, 1, big, 264, s), ACL_ERROR_RT_PARAM_INVALID, "argsSize",
            W("argsSize 264 (aclrtLaunchKernel)"));
    REFUSED(aclrtLaunchKernelV2(appendFn, 1, big, 264, NULL, s), ACL_ERROR_RT_PARAM_INVALID, "argsSize",
            W("argsSize 264 (aclrtLaunchKernelV2)"));
    REFUSED(aclrtLaunchKernel(appendFn, 1, NULL, 8, s), ACL_ERROR_INVALID_PARAM, "argsData",
            W("argsData NULL with argsSize 8 (aclrtLaunchKernel)"));
    REFUSED(aclrtLaunchKernelV2(appendFn, 1, NULL, 8, NULL, s), ACL_ERROR_INVALID_PARAM, "argsData",
            W("argsData NULL with argsSize 8 (aclrtLaunchKernelV2)"));
    REFUSED(aclrtLaunchKernelWithHostArgs(appendFn, 1, s, NULL, NULL, 8, NULL, 0), ACL_ERROR_INVALID_PARAM, "hostArgs",
            W("hostArgs NULL with argsSize 8 (aclrtLaunchKernelWithHostArgs)"));
    REFUSED(aclrtLaunchKernel(NULL, 1, &a, sizeof a, s), ACL_ERROR_INVALID_PARAM, "funcHandle",
            W("a NULL funcHandle (aclrtLaunchKernel)"));
    REFUSED(aclrtLaunchKernelV2(NULL, 1, &a, sizeof a, NULL, s), ACL_ERROR_INVALID_PARAM, "funcHandle",
            W("a NULL funcHandle (aclrtLaunchKernelV2)"));
    REFUSED(aclrtLaunchKernelWithHostArgs(NULL, 1, s, NULL, &a, sizeof a, NULL, 0), ACL_ERROR_INVALID_PARAM, "funcHandle",
            W("a NULL funcHandle (aclrtLaunchKernelWithHostArgs)"));
    REFUSED(aclrtLaunchKernel((aclrtFuncHandle)(uintptr_t)0x1234, 1, &a, sizeof a, s), ACL_ERROR_RT_INVALID_HANDLE,
            "funcHandle", W("a made-up funcHandle 0x1234 (aclrtLaunchKernel)"));
    REFUSED(aclrtLaunchKernelV2((aclrtFuncHandle)junk, 1, &a, sizeof a, NULL, s), ACL_ERROR_RT_INVALID_HANDLE, "funcHandle",
            W("a pointer to random memory as funcHandle (aclrtLaunchKernelV2)"));
    REFUSED(aclrtLaunchKernelWithHostArgs((aclrtFuncHandle)&junk[8], 1, s, NULL, &a, sizeof a, NULL, 0),
            ACL_ERROR_RT_INVALID_HANDLE, "funcHandle", W("a pointer to random memory as funcHandle (aclrtLaunchKernelWithHostArgs)"));
#undef W
}

static void errors(aclrtStream s)
{
    struct append_args a = {logDev, countDev, 1, LOG_CAP};
    uint64_t big[40];
    memset(big, 0, sizeof big);
    memcpy(big, &a, sizeof a);

    reset_log();
    CHECK(aclrtSynchronizeStream(s));
    EXPECT(status_of(s) == ACL_STREAM_STATUS_COMPLETE, "errors: the stream starts idle");
    refusals(s, "idle");
    hold(s);
    refusals(s, "held");
    EXPECT(status_of(s) == ACL_STREAM_STATUS_NOT_READY, "errors: the stream was held throughout");

    /* aclrtLaunchKernelWithHostArgs takes a block longer than 32 slots
     * without placeholders (its first 32 slots are the parameters); the
     * direct path leaves it to the checked path, which takes it on a held
     * stream as on an idle one. */
    clear_errors();
    aclError busyRc = aclrtLaunchKernelWithHostArgs(appendFn, 1, s, NULL, big, 264, NULL, 0);
    release();
    CHECK(aclrtSynchronizeStream(s));
    check_log("errors: nothing refused ran; a 264-byte block for aclrtLaunchKernelWithHostArgs ran once", 1, 1);
    aclError idleRc = aclrtLaunchKernelWithHostArgs(appendFn, 1, s, NULL, big, 264, NULL, 0);
    CHECK(aclrtSynchronizeStream(s));
    EXPECT(busyRc == ACL_SUCCESS && idleRc == ACL_SUCCESS,
           "errors: aclrtLaunchKernelWithHostArgs with argsSize 264: held %d, idle %d (both taken)", busyRc, idleRc);

    /* A destroyed stream, whose slot a new held stream probably reuses. */
    aclrtStream dead = NULL, fresh = NULL;
    CHECK(aclrtCreateStream(&dead));
    CHECK(aclrtDestroyStream(dead));
    CHECK(aclrtCreateStream(&fresh));
    hold(fresh);
    CHECK(append(fresh, 2)); /* fresh is busy: a valid launch goes direct */
    reset_log();
    REFUSED(aclrtLaunchKernel(appendFn, 1, &a, sizeof a, dead), ACL_ERROR_RT_INVALID_HANDLE, "stream",
            "a destroyed stream (aclrtLaunchKernel)");
    REFUSED(aclrtLaunchKernelV2(appendFn, 1, &a, sizeof a, NULL, dead), ACL_ERROR_RT_INVALID_HANDLE, "stream",
            "a destroyed stream (aclrtLaunchKernelV2)");
    REFUSED(aclrtLaunchKernelWithHostArgs(appendFn, 1, dead, NULL, &a, sizeof a, NULL, 0), ACL_ERROR_RT_INVALID_HANDLE,
            "stream", "a destroyed stream (aclrtLaunchKernelWithHostArgs)");
    release();
    CHECK(aclrtSynchronizeStream(fresh));
    pass("errors: (the destroyed stream's handle %p, the new held stream's %p)", dead, fresh);
    check_log("errors: of the launches on the destroyed stream none ran; the new stream's own one did", 1, 2);
    CHECK(aclrtDestroyStream(fresh));

    /* A stream of another context, held busy there. */
    aclrtContext ctxB = NULL;
    aclrtStream sB = NULL, relB = NULL;
    aclrtNotify nB = NULL;
    CHECK(aclrtCreateContext(&ctxB, 0));
    CHECK(aclrtCreateStream(&sB));
    CHECK(aclrtCreateStream(&relB));
    CHECK(aclrtCreateNotify(&nB, ACL_NOTIFY_DEFAULT));
    CHECK(aclrtWaitAndResetNotify(nB, sB, 0));
    CHECK(aclrtLaunchKernel(appendFn, 1, &a, sizeof a, sB)); /* sB is busy: this one may go direct */
    CHECK(aclrtSetCurrentContext(ctxA));
    reset_log();
    REFUSED(aclrtLaunchKernel(appendFn, 1, &a, sizeof a, sB), ACL_ERROR_RT_STREAM_CONTEXT, "stream",
            "a held stream of another context (aclrtLaunchKernel)");
    REFUSED(aclrtLaunchKernelV2(appendFn, 1, &a, sizeof a, NULL, sB), ACL_ERROR_RT_STREAM_CONTEXT, "stream",
            "a held stream of another context (aclrtLaunchKernelV2)");
    REFUSED(aclrtLaunchKernelWithHostArgs(appendFn, 1, sB, NULL, &a, sizeof a, NULL, 0), ACL_ERROR_RT_STREAM_CONTEXT, "stream",
            "a held stream of another context (aclrtLaunchKernelWithHostArgs)");
    CHECK(aclrtSetCurrentContext(ctxB));
    CHECK(aclrtRecordNotify(nB, relB));
    CHECK(aclrtSynchronizeStream(sB));
    uint64_t c = read_u64(countDev);
    EXPECT(c == 1, "errors: of the launches on the other context's stream only its own context's ran (count %llu)",
           (unsigned long long)c);
    CHECK(aclrtDestroyNotify(nB));
    CHECK(aclrtDestroyStream(sB));
    CHECK(aclrtDestroyStream(relB));
    CHECK(aclrtDestroyContext(ctxB));
    CHECK(aclrtSetCurrentContext(ctxA));
    clear_errors();
}

/* ---- 5. STOP_ON_FAILURE ---------------------------------------------- */

static void stop_on_failure(void)
{
    aclrtContext ctxS = NULL;
    aclrtStream t1 = NULL, t2 = NULL, rel = NULL;
    aclrtNotify n1 = NULL, n2 = NULL;
    char what[160];

    /* A context of its own: the failure mode applies to all its streams. */
    CHECK(aclrtCreateContext(&ctxS, 0));
    CHECK(aclrtCreateStream(&t1));
    CHECK(aclrtCreateStream(&t2));
    CHECK(aclrtCreateStream(&rel));
    CHECK(aclrtCreateNotify(&n1, ACL_NOTIFY_DEFAULT));
    CHECK(aclrtCreateNotify(&n2, ACL_NOTIFY_DEFAULT));
    CHECK(aclrtSetStreamFailureMode(t1, ACL_STOP_ON_FAILURE));
    reset_log();

    /* t1: held, then the trap, then launches behind it (direct: t1 is
     * busy). t2: held with launches behind, the context's other stream. */
    CHECK(aclrtWaitAndResetNotify(n1, t1, 0));
    CHECK(aclrtLaunchKernel(trapFn, 1, NULL, 0, t1));
    for (uint64_t i = 0; i < 10; i++) {
        CHECK(append(t1, 100 + i));
    }
    CHECK(aclrtWaitAndResetNotify(n2, t2, 0));
    for (uint64_t i = 0; i < 10; i++) {
        CHECK(append(t2, 200 + i));
    }
    CHECK(aclrtRecordNotify(n1, rel));
    EXPECT_CODE(aclrtSynchronizeStream(t1), ACL_ERROR_RT_AICORE_TRAP_EXCEPTION, "stop: the trap is reported on its stream");
    uint64_t c = read_u64(countDev);
    EXPECT(c == 0, "stop: none of the launches behind the trap ran, nor those of the held stream (count %llu)",
           (unsigned long long)c);

    /* Both streams are stopped: every launch call is refused, on the
     * trapping stream and on the held one, and it stays so. */
    for (int round = 0; round < 2; round++) {
        for (int how = 0; how < 4; how++) {
            clear_errors();
            aclError rc1 = append_via(t1, 300, how);
            const char *m1 = aclGetRecentErrMsg();
            int named1 = m1 != NULL && strstr(m1, "STOP_ON_FAILURE") != NULL;
            clear_errors();
            aclError rc2 = append_via(t2, 300, how);
            const char *m2 = aclGetRecentErrMsg();
            int named2 = m2 != NULL && strstr(m2, "STOP_ON_FAILURE") != NULL;
            snprintf(what, sizeof what, "stop: launch call %d, round %d: refused on the trapping stream (%d) and the held one (%d)",
                     how, round, rc1, rc2);
            EXPECT(rc1 == ACL_ERROR_RT_AICORE_TRAP_EXCEPTION && rc2 == ACL_ERROR_RT_AICORE_TRAP_EXCEPTION && named1 && named2,
                   "%s, the messages say STOP_ON_FAILURE", what);
        }
    }
    clear_errors();

    /* aclrtStreamAbort clears the stop and drops what was queued. */
    CHECK(aclrtStreamAbort(t1));
    CHECK(aclrtStreamAbort(t2));
    CHECK(aclrtStreamAbort(rel)); /* stopped too, with nothing queued */
    pass("stop: aclrtStreamAbort on the context's streams");
    c = read_u64(countDev);
    EXPECT(c == 0, "stop: the aborted launches never ran (count %llu)", (unsigned long long)c);
    CHECK(aclrtWaitAndResetNotify(n1, t1, 0));
    for (uint64_t i = 0; i < 5; i++) {
        CHECK(append(t1, i));
    }
    CHECK(aclrtRecordNotify(n1, rel));
    CHECK(aclrtSynchronizeStream(t1));
    for (uint64_t i = 5; i < 10; i++) {
        CHECK(append(t2, i));
    }
    CHECK(aclrtSynchronizeStream(t2));
    check_log("stop: after the aborts both streams take launches again", 10, 0);

    CHECK(aclrtDestroyNotify(n1));
    CHECK(aclrtDestroyNotify(n2));
    CHECK(aclrtDestroyStream(t1));
    CHECK(aclrtDestroyStream(t2));
    CHECK(aclrtDestroyStream(rel));
    CHECK(aclrtDestroyContext(ctxS));
    CHECK(aclrtSetCurrentContext(ctxA));
    clear_errors();
}

/* ---- 6. Capture ------------------------------------------------------ */

static void capture(aclrtStream s, aclrtStream other)
{
    aclmdlRI m = NULL;
    reset_log();
    hold(s);
    for (uint64_t i = 0; i < 10; i++) {
        CHECK(append(s, i)); /* before the capture: they run eagerly */
    }
    CHECK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    for (uint64_t i = 0; i < 100; i++) {
        CHECK(append(s, 10 + i));
    }
    CHECK(aclmdlRICaptureEnd(s, &m));
    pass("capture: 100 launches captured on a held stream");
    uint64_t c = read_u64(countDev);
    EXPECT(c == 0, "capture: nothing ran while the stream was held (count %llu)", (unsigned long long)c);
    release();
    CHECK(aclrtSynchronizeStream(s));
    check_log("capture: after the release only the 10 launches queued before aclmdlRICaptureBegin ran", 10, 0);
    CHECK(aclmdlRIExecuteAsync(m, s));
    CHECK(aclrtSynchronizeStream(s));
    check_log("capture: aclmdlRIExecuteAsync ran the 100 captured launches after them", 110, 0);
    /* A replay on a held stream runs only after the release too. */
    hold(other);
    CHECK(aclmdlRIExecuteAsync(m, other));
    for (uint64_t i = 0; i < 10; i++) {
        CHECK(append(other, 110 + i)); /* direct, behind the replay */
    }
    sleep_ms(10);
    c = read_u64(countDev);
    EXPECT(c == 110, "capture: a replay queued on a held stream waits (count %llu)", (unsigned long long)c);
    release();
    CHECK(aclrtSynchronizeStream(other));
    CHECK(aclrtMemcpy(hostLog, 220 * 8, logDev, 220 * 8, ACL_MEMCPY_DEVICE_TO_HOST));
    int bad = -1;
    for (int i = 0; i < 220 && bad < 0; i++) {
        uint64_t want = i < 110 ? (uint64_t)i : (uint64_t)(i - 100); /* replay: 10..109 again, then 110..119 */
        if (hostLog[i] != want) {
            bad = i;
        }
    }
    c = read_u64(countDev);
    if (c != 220 || bad >= 0) {
        fail_exit(__FILE__, __LINE__, 0, "capture: after the second replay the count is %llu (expected 220), first wrong entry %d",
                  (unsigned long long)c, bad);
    }
    pass("capture: then the replay and the 10 launches behind it ran, in order (220 entries)");
    CHECK(aclmdlRIDestroy(m));
}

/* ---- What the direct path leaves to the checked path ---------------- */

/* Each case holds on an idle stream, where the checked path serves the
 * launch, and must hold as well on a held one, where a launch could go
 * direct. */
static void declined(aclrtStream s)
{
    struct append_args a = {logDev, countDev, 7, LOG_CAP};

    /* 1. Arguments in device memory are read when the kernel starts, after
     * the stream's earlier tasks (here a copy that changes them). */
    {
        struct append_args *dargs = NULL;
        uint64_t v = 42;
        aclrtLaunchKernelAttr attr;
        memset(&attr, 0, sizeof attr);
        attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE;
        aclrtLaunchKernelCfg cfg = {&attr, 1}; /* an attribute: never direct */
        CHECK(aclrtMalloc((void **)&dargs, sizeof a, ACL_MEM_MALLOC_NORMAL_ONLY));
        CHECK(aclrtMemcpy(dargs, sizeof a, &a, sizeof a, ACL_MEMCPY_HOST_TO_DEVICE));
        reset_log();
        hold(s);
        CHECK(aclrtMemcpyAsync(&dargs->value, 8, &v, 8, ACL_MEMCPY_HOST_TO_DEVICE, s));
        CHECK(aclrtLaunchKernelV2(appendFn, 1, dargs, sizeof a, &cfg, s));
        release();
        CHECK(aclrtSynchronizeStream(s));
        uint64_t got = read_u64(logDev);
        EXPECT(got == 42, "the reference: aclrtLaunchKernelV2 with a cfg (the checked path) reads argsData in "
                          "device memory when the kernel starts (value %llu)", (unsigned long long)got);
        v = 43;
        CHECK(aclrtMemcpy(dargs, sizeof a, &a, sizeof a, ACL_MEMCPY_HOST_TO_DEVICE));
        reset_log();
        hold(s);
        CHECK(aclrtMemcpyAsync(&dargs->value, 8, &v, 8, ACL_MEMCPY_HOST_TO_DEVICE, s));
        CHECK(aclrtLaunchKernel(appendFn, 1, dargs, sizeof a, s));
        release();
        CHECK(aclrtSynchronizeStream(s));
        got = read_u64(logDev);
        EXPECT(got == 43, "aclrtLaunchKernel with argsData in device memory on a held stream reads it when "
                          "the kernel starts, after an earlier aclrtMemcpyAsync into it (value %llu, expected 43)",
               (unsigned long long)got);
        CHECK(aclrtFree(dargs));
    }

    /* 2. Live handles of other kinds as funcHandle. */
    {
        aclrtContext ctx = NULL;
        CHECK(aclrtGetCurrentContext(&ctx));
        reset_log();
        hold(s);
        REFUSED(aclrtLaunchKernel((aclrtFuncHandle)s, 1, &a, sizeof a, s), ACL_ERROR_RT_INVALID_HANDLE, "funcHandle",
                "a stream handle as funcHandle on a held stream");
        REFUSED(aclrtLaunchKernel((aclrtFuncHandle)ctx, 1, &a, sizeof a, s), ACL_ERROR_RT_INVALID_HANDLE, "funcHandle",
                "a context handle as funcHandle on a held stream");
        release();
        CHECK(aclrtSynchronizeStream(s));
    }

    /* 3. argsData in another device's memory (holding valid arguments). */
    {
        void *d1 = NULL;
        aclrtContext ctx1 = NULL;
        CHECK(aclrtSetDevice(1));
        CHECK(aclrtGetCurrentContext(&ctx1));
        CHECK(aclrtMalloc(&d1, sizeof a, ACL_MEM_MALLOC_NORMAL_ONLY));
        CHECK(aclrtMemcpy(d1, sizeof a, &a, sizeof a, ACL_MEMCPY_HOST_TO_DEVICE));
        CHECK(aclrtSetCurrentContext(ctxA));
        hold(s);
        REFUSED(aclrtLaunchKernel(appendFn, 1, d1, sizeof a, s), ACL_ERROR_RT_PARAM_INVALID, "argsData",
                "argsData in device 1 memory for a held stream of device 0");
        release();
        CHECK(aclrtSynchronizeStream(s));
        CHECK(aclrtSetCurrentContext(ctx1));
        CHECK(aclrtFree(d1));
        CHECK(aclrtResetDevice(1));
        CHECK(aclrtSetCurrentContext(ctxA));
    }

    /* 4. argsData whose range runs past its allocation. */
    {
        void *small = NULL;
        CHECK(aclrtMalloc(&small, 16, ACL_MEM_MALLOC_NORMAL_ONLY));
        CHECK(aclrtMemcpy(small, 16, &a, 16, ACL_MEMCPY_HOST_TO_DEVICE));
        hold(s);
        REFUSED(aclrtLaunchKernel(appendFn, 1, small, sizeof a, s), ACL_ERROR_RT_PARAM_INVALID, "argsData",
                "argsData of 32 bytes in a 16-byte allocation on a held stream");
        release();
        CHECK(aclrtSynchronizeStream(s));
        CHECK(aclrtFree(small));
    }

    /* 5. Freed device memory as argsData is refused at the call. */
    {
        void *freed = NULL;
        CHECK(aclrtMalloc(&freed, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
        CHECK(aclrtFree(freed));
        hold(s);
        REFUSED(aclrtLaunchKernel(appendFn, 1, freed, sizeof a, s), ACL_ERROR_RT_PARAM_INVALID, "argsData",
                "freed device memory as argsData on a held stream");
        release();
        CHECK(aclrtSynchronizeStream(s));
    }
    clear_errors();
}

/* aclFinalize with an explicit context and stream still live, then a second
 * initialization that creates and destroys many streams, launching on each:
 * what the direct path kept for the first streams is let go, and nothing it
 * keeps for the later ones outlives them (the garbage collector runs many
 * times over). */
static void reinit(const char *kernels)
{
    aclrtContext ctx = NULL;
    aclrtStream s = NULL;
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle f = NULL;
    uint64_t *counter = NULL, n = 0;
    CHECK(aclInit(NULL));
    CHECK(aclrtCreateContext(&ctx, 0));
    CHECK(aclrtCreateStream(&s));
    CHECK(aclrtBinaryLoadFromFile(kernels, NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "count_up", &f));
    CHECK(aclrtMalloc((void **)&counter, 8, ACL_MEM_MALLOC_NORMAL_ONLY));
    void *slot = counter;
    CHECK(aclrtLaunchKernel(f, 1, &slot, sizeof slot, s));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclFinalize()); /* the context, the stream and the binary end with it */

    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtBinaryLoadFromFile(kernels, NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "count_up", &f));
    CHECK(aclrtMalloc((void **)&counter, 8, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMemset(counter, 8, 0, 8));
    slot = counter;
    enum { STREAMS = 3000 };
    for (int i = 0; i < STREAMS; i++) {
        CHECK(aclrtCreateStream(&s));
        CHECK(aclrtLaunchKernel(f, 1, &slot, sizeof slot, s));
        CHECK(aclrtLaunchKernel(f, 1, &slot, sizeof slot, s));
        CHECK(aclrtDestroyStream(s));
    }
    CHECK(aclrtMemcpy(&n, 8, counter, 8, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(n == 2 * STREAMS, "reinit: after aclFinalize with live streams, %d streams created, launched on and destroyed (counter %llu)",
           STREAMS, (unsigned long long)n);
    CHECK(aclrtFree(counter));
    CHECK(aclrtBinaryUnLoad(bin));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
}

int main(int argc, char **argv)
{
    aclrtBinHandle bin = NULL;
    aclrtStream s = NULL, other = NULL;

    if (argc < 2) {
        fprintf(stderr, "usage: %s kernel.so\n", argv[0]);
        return 2;
    }
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtGetCurrentContext(&ctxA));
    CHECK(aclrtCreateStream(&s));
    CHECK(aclrtCreateStream(&other));
    CHECK(aclrtCreateStream(&releaser));
    CHECK(aclrtCreateNotify(&hold_n, ACL_NOTIFY_DEFAULT));
    CHECK(aclrtBinaryLoadFromFile(argv[1], NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "append_log", &appendFn));
    CHECK(aclrtBinaryGetFunction(bin, "count_up", &countFn));
    CHECK(aclrtBinaryGetFunction(bin, "trap_now", &trapFn));
    CHECK(aclrtMalloc((void **)&logDev, LOG_CAP * 8, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc((void **)&countDev, 8, ACL_MEM_MALLOC_NORMAL_ONLY));

    /* A function goes direct once it has been launched: launch each once
     * on an idle stream. */
    reset_log();
    CHECK(append(s, 0));
    CHECK(count_via(s, countDev, 0));
    CHECK(aclrtSynchronizeStream(s));
    EXPECT(read_u64(countDev) == 2, "a first launch of each function on an idle stream");

    order(s);
    held(s, "stream");
    held(NULL, "default stream (NULL)");
    held_other_device();
    threads();
    errors(s);
    stop_on_failure();
    capture(s, other);
    declined(s);

    CHECK(aclrtBinaryUnLoad(bin));
    CHECK(aclrtFree(logDev));
    CHECK(aclrtFree(countDev));
    CHECK(aclrtDestroyNotify(hold_n));
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtDestroyStream(other));
    CHECK(aclrtDestroyStream(releaser));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    reinit(argv[1]);
    printf("PASS 19_direct\n");
    return 0;
}
