/*
 * 11_threads: eight threads at once, each with its own context (on device
 * 0 or 1), streams, event, device memory and kernel binary, checking its
 * results, and each seeing only its own last error.
 *
 * Usage: 11_threads <kernel binary with vadd and add_scalar>
 */
#include "common.h"

#include <pthread.h>

#define THREADS 8
#define ROUNDS 50
#define N 4099

static const char *kernelPath;
static pthread_barrier_t barrier;

struct worker {
    int id;
    aclError want;  /* the error this thread causes */
    aclError seen;  /* its last error after every thread caused one */
    int otherSeen;  /* a thread's own error, read again at the end */
    int ok;
};

/* Each thread fails a different call; the codes are all distinct. */
static aclError cause_error(int id, aclrtStream s, aclrtFuncHandle trap, void *mem, aclrtEvent plain)
{
    void *p = NULL;
    struct { void *out; uint64_t which; } targs = {mem, 0};
    switch (id) {
    case 0:
        return aclrtSetDevice(99);
    case 1:
        return aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST);
    case 2:
        return aclrtGetDevice(NULL);
    case 3:
        return aclrtSynchronizeStream((aclrtStream)(uintptr_t)0x4242);
    case 4:
        return aclrtValueWrite((char *)mem + 4, 1, 0, s);
    case 5: {
        uint64_t ts;
        return aclrtEventGetTimestamp(plain, &ts);
    }
    case 6:
        CHECK(aclrtLaunchKernelWithHostArgs(trap, 1, s, NULL, &targs, sizeof targs, NULL, 0));
        return aclrtSynchronizeStream(s);
    default:
        return aclrtProcessReport(10);
    }
}

static void *work(void *arg)
{
    struct worker *w = arg;
    const int dev = w->id % 2;
    aclrtContext ctx = NULL, cur = NULL;
    aclrtStream s1 = NULL, s2 = NULL;
    aclrtEvent ev = NULL, plain = NULL;
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle vadd = NULL, addk = NULL, trap = NULL;
    void *x = NULL, *y = NULL, *z = NULL;
    int32_t gotDev = -1;
    float *hx = NULL, *hz = NULL;
    int32_t *hy = NULL;

    CHECK(aclrtCreateContext(&ctx, dev));
    CHECK(aclrtGetCurrentContext(&cur));
    CHECK(aclrtGetDevice(&gotDev));
    if (cur != ctx || gotDev != dev) {
        fail_exit(__FILE__, __LINE__, 0, "thread %d: context or device not current", w->id);
    }
    CHECK(aclrtCreateStream(&s1));
    CHECK(aclrtCreateStream(&s2));
    CHECK(aclrtCreateEvent(&ev));
    CHECK(aclrtCreateEventWithFlag(&plain, ACL_EVENT_SYNC));
    CHECK(aclrtBinaryLoadFromFile(kernelPath, NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "vadd", &vadd));
    CHECK(aclrtBinaryGetFunction(bin, "add_scalar", &addk));
    CHECK(aclrtBinaryGetFunction(bin, "trap_block", &trap));
    CHECK(aclrtMalloc(&x, N * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&y, N * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&z, N * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMallocHost((void **)&hx, N * 4));
    CHECK(aclrtMallocHost((void **)&hz, N * 4));
    CHECK(aclrtMallocHost((void **)&hy, N * 4));

    int ok = 1;
    for (int r = 0; r < ROUNDS && ok; r++) {
        for (int i = 0; i < N; i++) {
            hx[i] = (float)(i + r + w->id);
        }
        /* s1: z = x + y with y cleared; s2 waits for s1's event, then adds
         * id + r to y as int32 (which s1's clear must not undo) and copies
         * both back. */
        CHECK(aclrtMemcpyAsync(x, N * 4, hx, N * 4, ACL_MEMCPY_HOST_TO_DEVICE, s1));
        CHECK(aclrtMemsetAsync(y, N * 4, 0, N * 4, s1));
        struct { void *x, *y, *z; uint64_t n; } a = {x, y, z, N};
        CHECK(aclrtLaunchKernelWithHostArgs(vadd, 1 + (uint32_t)(w->id % 4), s1, NULL, &a, sizeof a, NULL, 0));
        CHECK(aclrtRecordEvent(ev, s1));
        CHECK(aclrtStreamWaitEvent(s2, ev));
        struct { void *x; int64_t k; uint64_t n; } b = {y, w->id + r, N};
        CHECK(aclrtLaunchKernelWithHostArgs(addk, 3, s2, NULL, &b, sizeof b, NULL, 0));
        CHECK(aclrtMemcpyAsync(hz, N * 4, z, N * 4, ACL_MEMCPY_DEVICE_TO_HOST, s2));
        CHECK(aclrtMemcpyAsync(hy, N * 4, y, N * 4, ACL_MEMCPY_DEVICE_TO_HOST, s2));
        CHECK(aclrtSynchronizeStream(s2));
        for (int i = 0; i < N && ok; i++) {
            if (hz[i] != hx[i] || hy[i] != w->id + r) {
                ok = 0;
                fprintf(stderr, "thread %d round %d: z[%d] = %f (want %f), y[%d] = %d (want %d)\n", w->id, r, i, hz[i],
                        hx[i], i, hy[i], w->id + r);
            }
        }
    }

    /* Last-error isolation: every thread causes its own error, then all
     * read their own. */
    clear_errors();
    aclError rc = cause_error(w->id, s1, trap, x, plain);
    pthread_barrier_wait(&barrier);
    w->want = rc;
    w->seen = aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL);
    pthread_barrier_wait(&barrier);
    w->otherSeen = aclrtGetLastError(ACL_RT_THREAD_LEVEL) == rc;
    clear_errors();

    CHECK(aclrtBinaryUnLoad(bin));
    CHECK(aclrtFree(x));
    CHECK(aclrtFree(y));
    CHECK(aclrtFree(z));
    CHECK(aclrtFreeHost(hx));
    CHECK(aclrtFreeHost(hz));
    CHECK(aclrtFreeHost(hy));
    CHECK(aclrtDestroyEvent(ev));
    CHECK(aclrtDestroyEvent(plain));
    CHECK(aclrtDestroyStream(s1));
    CHECK(aclrtDestroyStream(s2));
    CHECK(aclrtDestroyContext(ctx));
    w->ok = ok;
    return NULL;
}

int main(int argc, char **argv)
{
    pthread_t th[THREADS];
    struct worker w[THREADS];
    static const aclError want[THREADS] = {
        ACL_ERROR_RT_INVALID_DEVICEID, ACL_ERROR_RT_PARAM_INVALID, ACL_ERROR_INVALID_PARAM,
        ACL_ERROR_RT_INVALID_HANDLE, ACL_ERROR_RT_ADDR_UNALIGNED, ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID,
        ACL_ERROR_RT_AICORE_TRAP_EXCEPTION, ACL_ERROR_RT_THREAD_SUBSCRIBE,
    };

    if (argc < 2) {
        fprintf(stderr, "usage: %s kernel.so\n", argv[0]);
        return 2;
    }
    kernelPath = argv[1];
    pthread_barrier_init(&barrier, NULL, THREADS);
    CHECK(aclInit(NULL));
    double t0 = now_ms();
    for (int i = 0; i < THREADS; i++) {
        memset(&w[i], 0, sizeof w[i]);
        w[i].id = i;
        if (pthread_create(&th[i], NULL, work, &w[i]) != 0) {
            fail_exit(__FILE__, __LINE__, 0, "pthread_create");
        }
    }
    for (int i = 0; i < THREADS; i++) {
        pthread_join(th[i], NULL);
    }
    double took = now_ms() - t0;
    for (int i = 0; i < THREADS; i++) {
        EXPECT(w[i].ok, "thread %d (own context on device %d): %d rounds of vadd and add_scalar on two streams, correct", i,
               i % 2, ROUNDS);
    }
    for (int i = 0; i < THREADS; i++) {
        EXPECT(w[i].want == want[i] && w[i].seen == want[i] && w[i].otherSeen,
               "thread %d: its last error is its own %d (saw %d) while the others failed differently", i, want[i], w[i].seen);
    }
    EXPECT_CODE(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS, "the main thread saw none of them");
    EXPECT(aclGetRecentErrMsg() == NULL, "nor their messages");
    printf("threads took %.0f ms\n", took);
    CHECK(aclFinalize());
    pthread_barrier_destroy(&barrier);
    printf("PASS 11_threads\n");
    return 0;
}
