/*
 * 19_direct: the direct launch path. aclrtLaunchKernel, aclrtLaunchKernelV2
 * (cfg NULL or no attributes) and aclrtLaunchKernelWithHostArgs (cfg NULL,
 * no placeholders) write a launch straight into the stream's submission
 * area; anything invalid or unusual takes the checked path (see
 * 20_direct_refusals). These checks look only at what a program can see:
 * the order launches run in, against the other tasks of the stream, from
 * one thread or many; launches queued behind a held stream that do not run
 * before it is released; a stream destroyed under launching threads;
 * capture.
 *
 * Usage: 19_direct <kernel binary with append_log, count_up and trap_now>
 */
#include "direct.h"

#include <pthread.h>

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

int main(int argc, char **argv)
{
    aclrtStream s = NULL, other = NULL;

    if (argc < 2) {
        fprintf(stderr, "usage: %s kernel.so\n", argv[0]);
        return 2;
    }
    aclrtBinHandle bin = direct_open(argv[1], &s);
    CHECK(aclrtCreateStream(&other));
    order(s);
    held(s, "stream");
    held(NULL, "default stream (NULL)");
    held_other_device();
    threads();
    capture(s, other);
    CHECK(aclrtDestroyStream(other));
    direct_close(bin, s);
    printf("PASS 19_direct\n");
    return 0;
}
