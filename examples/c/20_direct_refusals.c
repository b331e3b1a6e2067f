/*
 * 20_direct_refusals: what the direct launch path (see 19_direct) leaves
 * to the checked path, seen from a program. Every bad argument is refused
 * with the same code and message on a busy stream, where a launch could go
 * direct, as on an idle one; a stream stopped by STOP_ON_FAILURE refuses
 * launches until aborted; arguments in device memory are checked at the
 * call and read when the kernel starts; and aclFinalize with live streams
 * lets go of what the path kept for them.
 *
 * Usage: 20_direct_refusals <kernel binary with append_log, count_up and trap_now>
 */
#include "direct.h"

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
    aclrtStream s = NULL;

    if (argc < 2) {
        fprintf(stderr, "usage: %s kernel.so\n", argv[0]);
        return 2;
    }
    aclrtBinHandle bin = direct_open(argv[1], &s);
    errors(s);
    stop_on_failure();
    declined(s);
    direct_close(bin, s);
    reinit(argv[1]);
    printf("PASS 20_direct_refusals\n");
    return 0;
}
