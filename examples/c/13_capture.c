/*
 * 13_capture: single-stream capture (aclmdlRICaptureBegin ..
 * aclmdlRICaptureEnd). Captured tasks of every kind do not run during the
 * capture and run at each replay, on any stream. The three capture modes
 * and aclmdlRICaptureThreadExchangeMode decide, per OS thread, whether
 * synchronous copies and memsets are allowed; synchronizing or querying
 * what a capture involves is refused in every mode; a refused call
 * invalidates the capture. Also: the default stream, pageable
 * asynchronous copies, and ending a capture on the wrong thread or stream.
 *
 * Usage: 13_capture <kernel binary with add_word>
 */
#include "common.h"

#include <pthread.h>

static aclrtFuncHandle addFn;
static aclrtContext ctx;
static aclrtStream cap; /* the stream captured throughout */
static uint64_t *p, *q;  /* device words */

static const char *modeName[] = {"GLOBAL", "THREAD_LOCAL", "RELAXED"};

static aclError add_word(aclrtStream s, uint64_t *w, uint64_t k)
{
    struct { void *w; uint64_t k; } a = {w, k};
    return aclrtLaunchKernelWithHostArgs(addFn, 1, s, NULL, &a, sizeof a, NULL, 0);
}

static aclmdlRICaptureStatus capture_status(aclrtStream s)
{
    aclmdlRICaptureStatus st = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
    aclmdlRI m = NULL;
    CHECK(aclmdlRICaptureGetInfo(s, &st, &m));
    return st;
}

/* Ends the capture on cap, which a refused call invalidated: status 2,
 * then aclmdlRICaptureEnd fails with 507903 and cap is free again. */
static void end_invalidated(const char *what)
{
    aclmdlRI m = NULL;
    aclmdlRICaptureStatus st = capture_status(cap);
    aclError rc = aclmdlRICaptureEnd(cap, &m);
    EXPECT(st == ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED && rc == ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED &&
               capture_status(cap) == ACL_MODEL_RI_CAPTURE_STATUS_NONE,
           "%s: the capture is invalidated (status %d), aclmdlRICaptureEnd -> %d", what, (int)st, rc);
    clear_errors();
}

static int hostRuns;

static void count_host(void *arg)
{
    (void)arg;
    __atomic_add_fetch(&hostRuns, 1, __ATOMIC_SEQ_CST);
}

/* ---- Unsafe calls from threads ------------------------------------- */

/* The unsafe calls of the mode table: a synchronous copy of 0x2a into p
 * and a synchronous memset of q to 0x07. */
struct unsafe_calls {
    int setMode;              /* whether to exchange the thread's mode first */
    aclmdlRICaptureMode mode; /* the mode to set */
    aclError copyRc, setRc;
};

static void make_unsafe_calls(struct unsafe_calls *u)
{
    const uint64_t v = 0x2a;
    aclmdlRICaptureMode prev = u->mode;
    if (u->setMode) {
        CHECK(aclmdlRICaptureThreadExchangeMode(&prev));
    }
    u->copyRc = aclrtMemcpy(p, 8, &v, 8, ACL_MEMCPY_HOST_TO_DEVICE);
    u->setRc = aclrtMemset(q, 8, 0x07, 8);
    if (u->setMode) {
        CHECK(aclmdlRICaptureThreadExchangeMode(&prev)); /* back to what it was */
    }
    clear_errors();
}

static void *unsafe_thread(void *arg)
{
    CHECK(aclrtSetCurrentContext(ctx));
    make_unsafe_calls(arg);
    return NULL;
}

/* One cell of the mode table: a capture in capMode on the main thread;
 * the unsafe calls from the capturing thread (other = 0) or another
 * thread, in threadMode if setMode; allowed or refused with 107030. */
static void mode_case(aclmdlRICaptureMode capMode, int other, int setMode, aclmdlRICaptureMode threadMode, int allowed)
{
    char who[128];
    snprintf(who, sizeof who, "%s capture, %s thread in %s mode", modeName[capMode], other ? "another" : "the capturing",
             setMode ? modeName[threadMode] : "its default (GLOBAL)");
    write_u64(p, 0);
    write_u64(q, 0);
    CHECK(aclmdlRICaptureBegin(cap, capMode));
    CHECK(aclrtMemsetAsync(p, 8, 0x55, 8, cap)); /* captured, not run */
    struct unsafe_calls u = {setMode, threadMode, -1, -1};
    if (other) {
        pthread_t th;
        if (pthread_create(&th, NULL, unsafe_thread, &u) != 0) {
            fail_exit(__FILE__, __LINE__, 0, "pthread_create");
        }
        pthread_join(th, NULL);
    } else {
        make_unsafe_calls(&u);
    }
    /* Reading the words back is itself a synchronous copy: end first. */
    if (!allowed) {
        EXPECT(u.copyRc == ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT && u.setRc == ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
               "%s: aclrtMemcpy and aclrtMemset refused (%d, %d)", who, u.copyRc, u.setRc);
        end_invalidated(who);
        EXPECT(read_u64(p) == 0 && read_u64(q) == 0, "%s: the refused calls did not run", who);
        return;
    }
    aclmdlRICaptureStatus st = capture_status(cap);
    aclmdlRI m = NULL;
    CHECK(aclmdlRICaptureEnd(cap, &m));
    uint64_t gotP = read_u64(p), gotQ = read_u64(q);
    /* The calls ran at once and were not captured: a replay runs only the
     * captured memset. */
    write_u64(q, 0);
    CHECK(aclmdlRIExecuteAsync(m, NULL));
    CHECK(aclrtSynchronizeStream(NULL));
    EXPECT(u.copyRc == ACL_SUCCESS && u.setRc == ACL_SUCCESS && gotP == 0x2a && gotQ == 0x0707070707070707ULL &&
               st == ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE && read_u64(p) == 0x5555555555555555ULL && read_u64(q) == 0,
           "%s: aclrtMemcpy and aclrtMemset run at once, uncaptured", who);
    CHECK(aclmdlRIDestroy(m));
}

/* ---- Ending a capture from another thread -------------------------- */

struct end_call {
    aclmdlRI m;
    aclError rc;
};

static void *end_thread(void *arg)
{
    struct end_call *e = arg;
    CHECK(aclrtSetCurrentContext(ctx));
    e->rc = aclmdlRICaptureEnd(cap, &e->m);
    clear_errors();
    return NULL;
}

static struct end_call end_elsewhere(void)
{
    struct end_call e = {NULL, -1};
    pthread_t th;
    if (pthread_create(&th, NULL, end_thread, &e) != 0) {
        fail_exit(__FILE__, __LINE__, 0, "pthread_create");
    }
    pthread_join(th, NULL);
    return e;
}

/* ---- Synchronization during capture ------------------------------- */

static aclrtEvent ev;
static aclrtStream ctxStream; /* a stream of an explicit context */

static aclError sync_stream(void) { return aclrtSynchronizeStream(cap); }
static aclError sync_stream_timeout(void) { return aclrtSynchronizeStreamWithTimeout(cap, 100); }
static aclError query_stream(void)
{
    aclrtStreamStatus st;
    return aclrtStreamQuery(cap, &st);
}
static aclError sync_event(void) { return aclrtSynchronizeEvent(ev); }
static aclError sync_event_timeout(void) { return aclrtSynchronizeEventWithTimeout(ev, 100); }
static aclError query_event(void)
{
    aclrtEventRecordedStatus st;
    return aclrtQueryEventStatus(ev, &st);
}
static aclError sync_device(void) { return aclrtSynchronizeDevice(); }
static aclError sync_device_timeout(void) { return aclrtSynchronizeDeviceWithTimeout(100); }

int main(int argc, char **argv)
{
    aclrtBinHandle bin = NULL;
    aclrtStream other = NULL, other2 = NULL;
    aclmdlRI m = NULL, got = NULL;
    aclmdlRICaptureStatus st;

    if (argc < 2) {
        fprintf(stderr, "usage: %s kernel.so\n", argv[0]);
        return 2;
    }
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtGetCurrentContext(&ctx));
    CHECK(aclrtBinaryLoadFromFile(argv[1], NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "add_word", &addFn));
    CHECK(aclrtCreateStream(&cap));
    CHECK(aclrtCreateStream(&other));
    CHECK(aclrtCreateStream(&other2));
    uint64_t *a = NULL, *b = NULL, *c = NULL, *v = NULL;
    uint64_t *in = NULL, *out = NULL;
    uint64_t **words[] = {&a, &b, &c, &v, &p, &q};
    const size_t nwords = sizeof words / sizeof words[0];
    for (size_t i = 0; i < nwords; i++) {
        CHECK(aclrtMalloc((void **)words[i], 8, ACL_MEM_MALLOC_NORMAL_ONLY));
        write_u64(*words[i], 0);
    }
    CHECK(aclrtMallocHost((void **)&in, 8));
    CHECK(aclrtMallocHost((void **)&out, 8));
    *in = 0;
    *out = 0;
    aclrtNotify n = NULL;
    CHECK(aclrtCreateEventExWithFlag(&ev, ACL_EVENT_SYNC));
    CHECK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));

    /* Before a capture, GetInfo reports NONE and no model. */
    got = (aclmdlRI)&got;
    CHECK(aclmdlRICaptureGetInfo(cap, &st, &got));
    EXPECT(st == ACL_MODEL_RI_CAPTURE_STATUS_NONE && got == NULL, "aclmdlRICaptureGetInfo of a stream not capturing: NONE");

    /* Every kind of task, captured: none runs now. */
    CHECK(aclmdlRICaptureBegin(cap, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK(aclmdlRICaptureGetInfo(cap, &st, &got));
    EXPECT(st == ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE && got != NULL, "aclmdlRICaptureGetInfo during the capture: ACTIVE, its model");
    CHECK(aclrtMemsetAsync(a, 8, 0x11, 8, cap));
    CHECK(aclrtMemcpyAsync(b, 8, a, 8, ACL_MEMCPY_DEVICE_TO_DEVICE, cap));
    CHECK(aclrtMemcpyAsync(c, 8, in, 8, ACL_MEMCPY_HOST_TO_DEVICE, cap)); /* pinned: read at each run */
    CHECK(add_word(cap, c, 1));
    CHECK(aclrtMemcpyAsync(out, 8, c, 8, ACL_MEMCPY_DEVICE_TO_HOST, cap));
    CHECK(aclrtLaunchHostFunc(cap, count_host, NULL));
    CHECK(aclrtRecordEvent(ev, cap));
    CHECK(aclrtStreamWaitEvent(cap, ev));
    CHECK(aclrtRecordNotify(n, cap));
    CHECK(aclrtWaitAndResetNotify(n, cap, 0));
    CHECK(aclrtValueWrite(v, 5, 0, cap));
    CHECK(aclrtValueWait(v, 5, ACL_STREAM_WAIT_VALUE_EQ, cap));
    CHECK(add_word(cap, v, 1));
    /* A model being captured neither runs nor is destroyed. */
    EXPECT_CODE(aclmdlRIExecuteAsync(got, other), ACL_ERROR_RT_MODEL_CAPTURED, "aclmdlRIExecuteAsync of the model in capture");
    EXPECT_CODE(aclmdlRIDestroy(got), ACL_ERROR_RT_MODEL_CAPTURED, "aclmdlRIDestroy of the model in capture");
    EXPECT_CODE(aclmdlRICaptureBegin(cap, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_RT_STREAM_CAPTURED,
                "aclmdlRICaptureBegin of a stream already capturing");
    CHECK(aclmdlRICaptureEnd(cap, &m));
    EXPECT(m == got, "aclmdlRICaptureEnd returns the model GetInfo named");
    EXPECT(read_u64(a) == 0 && read_u64(b) == 0 && read_u64(c) == 0 && read_u64(v) == 0 && *out == 0 && hostRuns == 0,
           "nothing captured ran during the capture (memset, copies, kernels, host function, value write)");
    CHECK(aclmdlRICaptureGetInfo(cap, &st, &got));
    EXPECT(st == ACL_MODEL_RI_CAPTURE_STATUS_NONE, "after aclmdlRICaptureEnd the stream is not capturing");

    /* Replays on other streams, the default stream and the origin: each
     * runs every task once and reads the pinned input as it is then. */
    aclrtStream runOn[4] = {other, other2, NULL, cap};
    int replayed = 0;
    for (int i = 0; i < 4; i++) {
        uint64_t x = 100 * (uint64_t)(i + 1);
        *in = x;
        write_u64(v, 0);
        CHECK(aclmdlRIExecuteAsync(m, runOn[i]));
        CHECK(aclrtSynchronizeStream(runOn[i]));
        if (read_u64(a) == 0x1111111111111111ULL && read_u64(b) == 0x1111111111111111ULL && read_u64(c) == x + 1 &&
            *out == x + 1 && read_u64(v) == 6 && hostRuns == i + 1) {
            replayed++;
        }
    }
    EXPECT(replayed == 4, "4 replays on 3 other streams and the origin each ran every captured task once (%d right)", replayed);
    /* The notify recorded and waited inside the model is consumed in each
     * run: nothing is left for a wait outside. */
    CHECK(aclrtWaitAndResetNotify(n, other, 1));
    EXPECT_CODE(aclrtSynchronizeStream(other), ACL_ERROR_RT_WAIT_TIMEOUT, "the captured notify record was consumed in the run");
    CHECK(aclmdlRIDestroy(m));
    EXPECT_CODE(aclmdlRIExecuteAsync(m, other), ACL_ERROR_RT_INVALID_HANDLE, "aclmdlRIExecuteAsync of a destroyed model");

    /* aclmdlRICaptureThreadExchangeMode swaps the calling thread's mode. */
    aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
    CHECK(aclmdlRICaptureThreadExchangeMode(&mode));
    EXPECT(mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL, "a thread's mode starts GLOBAL (exchanged for RELAXED)");
    CHECK(aclmdlRICaptureThreadExchangeMode(&mode));
    EXPECT(mode == ACL_MODEL_RI_CAPTURE_MODE_RELAXED, "exchanging again gives RELAXED back and restores GLOBAL");
    mode = (aclmdlRICaptureMode)7;
    EXPECT_CODE(aclmdlRICaptureThreadExchangeMode(&mode), ACL_ERROR_RT_PARAM_INVALID, "mode 7");
    EXPECT_CODE(aclmdlRICaptureThreadExchangeMode(NULL), ACL_ERROR_INVALID_PARAM, "aclmdlRICaptureThreadExchangeMode(NULL)");

    /* The mode table: unsafe calls (aclrtMemcpy, aclrtMemset) by capture
     * mode, thread and thread mode. */
    const aclmdlRICaptureMode G = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL, T = ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL,
                              R = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
    mode_case(G, 0, 0, G, 0);
    mode_case(G, 0, 1, T, 0);
    mode_case(G, 0, 1, R, 1);
    mode_case(G, 1, 0, G, 0);
    mode_case(G, 1, 1, T, 1);
    mode_case(G, 1, 1, R, 1);
    mode_case(T, 0, 0, G, 0);
    mode_case(T, 0, 1, R, 1);
    mode_case(T, 1, 0, G, 1);
    mode_case(T, 1, 1, T, 1);
    mode_case(R, 0, 0, G, 1);
    mode_case(R, 1, 0, G, 1);
    mode_case(R, 1, 1, T, 1);

    /* An asynchronous copy with pageable memory degrades to a synchronous
     * one: on a stream that is not capturing it follows the same table. */
    uint64_t pageable = 9;
    CHECK(aclmdlRICaptureBegin(cap, G));
    EXPECT_CODE(aclrtMemcpyAsync(p, 8, &pageable, 8, ACL_MEMCPY_HOST_TO_DEVICE, other), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
                "GLOBAL capture, the capturing thread: aclrtMemcpyAsync from pageable memory on another stream");
    end_invalidated("after the pageable copy on another stream");
    CHECK(aclmdlRICaptureBegin(cap, G));
    mode = R;
    CHECK(aclmdlRICaptureThreadExchangeMode(&mode));
    CHECK(aclrtMemcpyAsync(p, 8, &pageable, 8, ACL_MEMCPY_HOST_TO_DEVICE, other));
    CHECK(aclmdlRICaptureThreadExchangeMode(&mode));
    CHECK(aclmdlRICaptureEnd(cap, &m));
    CHECK(aclrtSynchronizeStream(other));
    EXPECT(read_u64(p) == 9, "in RELAXED mode it is allowed and runs");
    CHECK(aclmdlRIDestroy(m));

    /* Synchronizing or querying what a capture involves is refused in
     * every mode, and invalidates the capture. */
    aclrtContext ctx2 = NULL;
    CHECK(aclrtCreateContext(&ctx2, 0));
    CHECK(aclrtCreateStream(&ctxStream));
    CHECK(aclrtSetCurrentContext(ctx));
    static const struct {
        const char *what;
        aclError (*call)(void);
        int event; /* records ev in the capture first */
    } syncs[] = {
        {"aclrtSynchronizeStream of the capturing stream", sync_stream, 0},
        {"aclrtSynchronizeStreamWithTimeout of the capturing stream", sync_stream_timeout, 0},
        {"aclrtStreamQuery of the capturing stream", query_stream, 0},
        {"aclrtSynchronizeEvent of a captured event", sync_event, 1},
        {"aclrtSynchronizeEventWithTimeout of a captured event", sync_event_timeout, 1},
        {"aclrtQueryEventStatus of a captured event", query_event, 1},
        {"aclrtSynchronizeDevice", sync_device, 0},
        {"aclrtSynchronizeDeviceWithTimeout", sync_device_timeout, 0},
    };
    int refusedAll = 1;
    for (aclmdlRICaptureMode md = G; md <= R; md++) {
        for (size_t i = 0; i < sizeof syncs / sizeof syncs[0]; i++) {
            CHECK(aclmdlRICaptureBegin(cap, md));
            CHECK(aclrtMemsetAsync(p, 8, 1, 8, cap));
            if (syncs[i].event) {
                CHECK(aclrtRecordEvent(ev, cap));
            }
            aclError rc = syncs[i].call();
            st = capture_status(cap);
            aclError end = aclmdlRICaptureEnd(cap, &m);
            clear_errors();
            if (rc != ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT || st != ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED ||
                end != ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED) {
                refusedAll = 0;
            }
            if (md == G) {
                EXPECT(rc == ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT && st == ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED &&
                           end == ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED,
                       "%s: refused (%d), the capture invalidated (status %d, aclmdlRICaptureEnd -> %d)", syncs[i].what,
                       rc, (int)st, end);
            }
        }
    }
    EXPECT(refusedAll, "each synchronization and query is refused the same way in THREAD_LOCAL and RELAXED captures");
    /* A capturing stream of another context makes the device busy too. */
    CHECK(aclrtSetCurrentContext(ctx2));
    CHECK(aclmdlRICaptureBegin(ctxStream, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    CHECK(aclrtSetCurrentContext(ctx));
    aclError rc = aclrtSynchronizeDevice();
    CHECK(aclrtSetCurrentContext(ctx2));
    st = capture_status(ctxStream);
    aclError end = aclmdlRICaptureEnd(ctxStream, &m);
    EXPECT(rc == ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT && st == ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED &&
               end == ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED,
           "aclrtSynchronizeDevice while a stream of another context captures: refused (%d), that capture invalidated (%d)",
           rc, end);
    clear_errors();
    CHECK(aclrtDestroyStream(ctxStream));
    CHECK(aclrtDestroyContext(ctx2));
    CHECK(aclrtSetCurrentContext(ctx));
    /* After the refusals the stream and the event work as usual. */
    CHECK(aclrtRecordEvent(ev, cap));
    CHECK(aclrtSynchronizeEvent(ev));
    CHECK(aclrtSynchronizeStream(cap));
    pass("after the invalidated captures, the stream and event synchronize again");

    /* An invalidated capture takes no more tasks. */
    CHECK(aclmdlRICaptureBegin(cap, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    EXPECT_CODE(aclrtSynchronizeStream(cap), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT, "synchronizing the capturing stream");
    EXPECT_CODE(aclrtMemsetAsync(p, 8, 1, 8, cap), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED,
                "a task on the stream of an invalidated capture");
    end_invalidated("after a refused synchronization");

    /* The default stream is not captured. */
    aclrtStream def = NULL;
    CHECK(aclrtCtxGetCurrentDefaultStream(&def));
    EXPECT_CODE(aclmdlRICaptureBegin(NULL, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT,
                "aclmdlRICaptureBegin of the default stream (NULL)");
    EXPECT_CODE(aclmdlRICaptureBegin(def, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT,
                "aclmdlRICaptureBegin of the default stream's handle");

    /* An asynchronous copy with pageable host memory would block: it is
     * refused on a capturing stream, in GLOBAL and RELAXED captures. */
    for (aclmdlRICaptureMode md = G; md <= R; md += 2) {
        CHECK(aclmdlRICaptureBegin(cap, md));
        EXPECT_CODE(aclrtMemcpyAsync(p, 8, &pageable, 8, ACL_MEMCPY_HOST_TO_DEVICE, cap), ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC,
                    md == G ? "GLOBAL capture: aclrtMemcpyAsync from pageable memory"
                            : "RELAXED capture: aclrtMemcpyAsync from pageable memory");
        end_invalidated("after the pageable copy");
    }

    /* Other refused begins and ends. */
    aclrtStream persistent = NULL;
    CHECK(aclrtCreateStreamWithConfig(&persistent, 0, ACL_STREAM_PERSISTENT));
    EXPECT_CODE(aclmdlRICaptureBegin(persistent, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_RT_PARAM_INVALID,
                "aclmdlRICaptureBegin of a persistent stream");
    EXPECT_CODE(aclmdlRICaptureBegin(cap, (aclmdlRICaptureMode)3), ACL_ERROR_RT_PARAM_INVALID, "aclmdlRICaptureBegin mode 3");
    EXPECT_CODE(aclmdlRICaptureEnd(cap, &m), ACL_ERROR_RT_STREAM_NOT_CAPTURED, "aclmdlRICaptureEnd of a stream not capturing");
    EXPECT_CODE(aclmdlRICaptureGetInfo(cap, NULL, &m), ACL_ERROR_INVALID_PARAM, "aclmdlRICaptureGetInfo with NULL status");

    /* Only a RELAXED capture ends on another thread. */
    for (aclmdlRICaptureMode md = G; md <= T; md++) {
        CHECK(aclmdlRICaptureBegin(cap, md));
        CHECK(add_word(cap, p, 1));
        struct end_call e = end_elsewhere();
        char what[96];
        snprintf(what, sizeof what, "%s capture: aclmdlRICaptureEnd on another thread", modeName[md]);
        EXPECT(e.rc == ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD && capture_status(cap) == ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE,
               "%s: refused (%d), the capture goes on", what, e.rc);
        CHECK(aclmdlRICaptureEnd(cap, &m));
        CHECK(aclmdlRIDestroy(m));
    }
    CHECK(aclmdlRICaptureBegin(cap, R));
    CHECK(add_word(cap, p, 3));
    struct end_call e = end_elsewhere();
    EXPECT(e.rc == ACL_SUCCESS && e.m != NULL, "RELAXED capture: aclmdlRICaptureEnd on another thread succeeds");
    write_u64(p, 0);
    CHECK(aclmdlRIExecuteAsync(e.m, other));
    CHECK(aclrtSynchronizeStream(other));
    EXPECT(read_u64(p) == 3, "and its model runs");
    CHECK(aclmdlRIDestroy(e.m));

    CHECK(aclrtDestroyStream(persistent));
    CHECK(aclrtDestroyNotify(n));
    CHECK(aclrtDestroyEvent(ev));
    CHECK(aclrtFreeHost(in));
    CHECK(aclrtFreeHost(out));
    for (size_t i = 0; i < nwords; i++) {
        CHECK(aclrtFree(*words[i]));
    }
    CHECK(aclrtDestroyStream(cap));
    CHECK(aclrtDestroyStream(other));
    CHECK(aclrtDestroyStream(other2));
    CHECK(aclrtBinaryUnLoad(bin));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS 13_capture\n");
    return 0;
}
