/*
 * 59_sk_overlap: SetNextTaskStart and WaitPreTaskEnd in a SuperKernel on
 * an Atlas A3 (run with GOCANN_SOC_NAME=Ascend910_9391), where they take
 * effect.
 *
 * Two one-block sub-kernels whose tails sleep 150 ms after
 * SetNextTaskStart overlap: the run takes clearly less than 300 ms;
 * without the call it takes at least 300 ms. WaitPreTaskEnd holds a block
 * until the sub-kernel before has ended everywhere; without it the next
 * sub-kernel starts while the tails run. A sub-kernel calling
 * SetNextTaskStart on some cores only, or whose SK_BIND cap declares a
 * call it does not make, fails with an AI-core exception naming the
 * SuperKernel, the sub-kernel and the cores; none hangs. A kernel making
 * the calls outside a SuperKernel runs as if they were not there.
 *
 * Usage: 59_sk_overlap <kernel binary of kernels/skbind.cpp>
 */
#include "common.h"

#include <gocann/superkernel.h>

static aclrtStream s;
static aclrtBinHandle bin;

static aclrtFuncHandle fn(const char *name)
{
    aclrtFuncHandle f;
    CHECK(aclrtBinaryGetFunction(bin, name, &f));
    return f;
}

static void launch(aclrtFuncHandle f, uint32_t blocks, void *a0, void *a1, uint32_t u)
{
    void *args[3] = {&a0, &a1, &u};
    CHECK(aclrtLaunchKernelWithArgsArray(f, blocks, s, NULL, args));
}

/* run_sk replays m once and returns how long it took, in ms, and its
 * code. */
static double run(aclmdlRI m, aclError *rc)
{
    double start = now_ms();
    CHECK(aclmdlRIExecuteAsync(m, s));
    *rc = aclrtSynchronizeStream(s);
    return now_ms() - start;
}

static aclmdlRI begin(const char *name)
{
    CHECK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK(gocannSuperKernelBegin(s, name));
    return NULL;
}

static aclmdlRI end(void)
{
    aclmdlRI m = NULL;
    CHECK(gocannSuperKernelEnd(s));
    CHECK(aclmdlRICaptureEnd(s, &m));
    return m;
}

static void launch1(aclrtFuncHandle f, uint32_t blocks, void *a0)
{
    void *args[1] = {&a0};
    CHECK(aclrtLaunchKernelWithArgsArray(f, blocks, s, NULL, args));
}

static void launch2u(aclrtFuncHandle f, uint32_t blocks, void *a0, uint32_t u)
{
    void *args[2] = {&a0, &u};
    CHECK(aclrtLaunchKernelWithArgsArray(f, blocks, s, NULL, args));
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s <kernel binary>\n", argv[0]);
        return 2;
    }
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    const char *soc = aclrtGetSocName();
    EXPECT(soc != NULL && strncmp(soc, "Ascend910_93", 12) == 0, "running on an Atlas A3 (%s)", soc ? soc : "?");
    CHECK(aclrtCreateStream(&s));
    CHECK(aclrtBinaryLoadFromFile(argv[1], NULL, &bin));
    aclrtFuncHandle tail = fn("sk_tail"), late = fn("sk_late"), sum = fn("sk_sum"), some = fn("sk_some"),
                    liar = fn("sk_liar"), scale = fn("sk_scale");
    void *a = NULL, *b = NULL;
    CHECK(aclrtMalloc(&a, 512, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&b, 512, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemset(a, 512, 0, 512));
    aclError rc;

    for (uint32_t set = 1; set <= 1; set--) {
        begin("tails");
        launch2u(tail, 1, a, set);
        launch2u(tail, 1, b, set);
        aclmdlRI m = end();
        double ms = run(m, &rc);
        CHECK(rc);
        if (set) {
            EXPECT(ms < 250, "two 150 ms tails after SetNextTaskStart overlap: %.0f ms, clearly less than 300", ms);
        } else {
            EXPECT(ms >= 300, "without SetNextTaskStart the two run in turn: %.0f ms, at least 300", ms);
        }
        CHECK(aclmdlRIDestroy(m));
    }

    for (uint32_t wait = 1; wait <= 1; wait--) {
        int64_t w[2];
        CHECK(aclrtMemset(a, 512, 0, 512));
        CHECK(aclrtMemset(b, 512, 0, 512));
        begin("late_sum");
        launch1(late, 4, a);
        launch(sum, 2, a, b, wait);
        aclmdlRI m = end();
        (void)run(m, &rc);
        CHECK(rc);
        CHECK(aclrtMemcpy(w, sizeof w, b, sizeof w, ACL_MEMCPY_DEVICE_TO_HOST));
        if (wait) {
            EXPECT(w[0] == 4 && w[1] == 4, "WaitPreTaskEnd: both blocks saw the 4 flags written after SetNextTaskStart (%lld %lld)",
                   (long long)w[0], (long long)w[1]);
        } else {
            EXPECT(w[0] == 0 && w[1] == 0, "without WaitPreTaskEnd the next sub-kernel ran beside the tails (%lld %lld)",
                   (long long)w[0], (long long)w[1]);
        }
        CHECK(aclmdlRIDestroy(m));
    }

    begin("broken");
    launch1(scale, 1, a); /* sk_scale's sub-function calls both, as its cap 3 says: fine */
    launch1(some, 3, a);
    aclmdlRI m = end();
    clear_errors();
    double ms = run(m, &rc);
    const char *msg = aclGetRecentErrMsg();
    EXPECT(rc == ACL_ERROR_RT_AICORE_EXCEPTION && msg && strstr(msg, "SuperKernel \"broken\" sub-kernel 1 (\"sk_some\", 3 blocks)") &&
               strstr(msg, "cores [0] called SetNextTaskStart and cores [1 2] did not") && ms < 10000,
           "SetNextTaskStart on some cores only -> %d in %.0f ms: %s", rc, ms, msg ? msg : "(none)");
    CHECK(aclmdlRIDestroy(m));

    begin("liar");
    launch1(liar, 2, a);
    m = end();
    clear_errors();
    ms = run(m, &rc);
    msg = aclGetRecentErrMsg();
    EXPECT(rc == ACL_ERROR_RT_AICORE_EXCEPTION && msg && strstr(msg, "its SK_BIND cap 2 declares SetNextTaskStart") && ms < 10000,
           "an SK_BIND cap declaring a call not made -> %d in %.0f ms: %s", rc, ms, msg ? msg : "(none)");
    CHECK(aclmdlRIDestroy(m));

    begin("sneak");
    launch1(fn("sk_sneak"), 2, a);
    m = end();
    clear_errors();
    ms = run(m, &rc);
    msg = aclGetRecentErrMsg();
    EXPECT(rc == ACL_ERROR_RT_AICORE_EXCEPTION && msg && strstr(msg, "cores [0 1] called SetNextTaskStart, which its SK_BIND cap 0 does not declare") &&
               ms < 10000,
           "a call an SK_BIND cap does not declare -> %d in %.0f ms: %s", rc, ms, msg ? msg : "(none)");
    CHECK(aclmdlRIDestroy(m));

    launch2u(tail, 2, a, 1);
    launch1(some, 3, a);
    CHECK(aclrtSynchronizeStream(s));
    pass("outside a SuperKernel the calls do nothing");

    CHECK(aclrtFree(a));
    CHECK(aclrtFree(b));
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtBinaryUnLoad(bin));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS 59_sk_overlap\n");
    return 0;
}
