/*
 * 49_timeouts: operator timeouts.
 *
 * On the default chip (Atlas A2): the timeout tick (2^32 ns, truncated to
 * 4294967 us), the default execute timeout (1091 s, in ms), the rounding
 * of aclrtSetOpExecuteTimeOutV2 and aclrtSetOpExecuteTimeOut, the
 * refusals, and an aclrtStreamWaitEvent queued after aclrtSetOpWaitTimeout
 * failing at the next synchronize with ACL_ERROR_RT_WAIT_TIMEOUT.
 *
 * Then, on a chip configured with a 1 ms tick (op_timeout_interval_us), a
 * kernel running past a 20 ms execute timeout: the synchronize and the
 * exception callback see ACL_ERROR_RT_AICORE_TIMEOUT; the task queued
 * after it runs under ACL_CONTINUE_ON_FAILURE and is dropped under
 * ACL_STOP_ON_FAILURE, where the synchronize returns at the deadline.
 *
 * Usage: 49_timeouts <kernel binary with linger>
 */
#include "common.h"

static int exc_count;
static uint32_t exc_code;

static void on_exception(aclrtExceptionInfo *info)
{
    __atomic_store_n(&exc_code, aclrtGetErrorCodeFromExceptionInfo(info), __ATOMIC_SEQ_CST);
    __atomic_add_fetch(&exc_count, 1, __ATOMIC_SEQ_CST);
}

/* overrun launches linger for ms on st with a memset of mark behind it,
 * and returns how long the synchronize took, in ms. */
static double overrun(aclrtFuncHandle linger, aclrtStream st, void *done, void *mark, int64_t ms, const char *what)
{
    CHECK(aclrtMemset(done, 8, 0, 8));
    CHECK(aclrtMemset(mark, 8, 0, 8));
    __atomic_store_n(&exc_count, 0, __ATOMIC_SEQ_CST);
    void *args[2] = {&done, &ms};
    double t0 = now_ms();
    CHECK(aclrtLaunchKernelWithArgsArray(linger, 1, st, NULL, args));
    CHECK(aclrtMemsetAsync(mark, 8, 0x11, 8, st));
    EXPECT_CODE(aclrtSynchronizeStream(st), ACL_ERROR_RT_AICORE_TIMEOUT, what);
    double took = now_ms() - t0;
    int n = __atomic_load_n(&exc_count, __ATOMIC_SEQ_CST);
    uint32_t code = __atomic_load_n(&exc_code, __ATOMIC_SEQ_CST);
    EXPECT(n == 1 && code == ACL_ERROR_RT_AICORE_TIMEOUT, "the exception callback saw the timeout once (%d, %u)", n,
           code);
    clear_errors();
    return took;
}

static void kernel_timeouts(const char *path)
{
    const int64_t ms = 300;
    uint64_t iv = 0, actual = 0, done = 0, mark = 0;
    write_file("fast_timeouts.json", "{\"simulator\": {\"op_timeout_interval_us\": 1000}}\n");
    CHECK(aclInit("fast_timeouts.json"));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtGetOpTimeOutInterval(&iv));
    EXPECT(iv == 1000, "op_timeout_interval_us sets the tick: %llu us", (unsigned long long)iv);
    CHECK(aclrtSetOpExecuteTimeOutV2(20000, &actual));
    EXPECT(actual == 20000, "aclrtSetOpExecuteTimeOutV2(20 ms) is 20 ticks: %llu us", (unsigned long long)actual);

    aclrtBinHandle bin = NULL;
    aclrtFuncHandle linger = NULL;
    CHECK(aclrtBinaryLoadFromFile(path, NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "linger", &linger));
    void *dDone = NULL, *dMark = NULL;
    CHECK(aclrtMalloc(&dDone, 8, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dMark, 8, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtExceptionInfoCallbackRegister(on_exception));

    /* ACL_CONTINUE_ON_FAILURE: the block runs on, the memset after it. */
    aclrtStream sc = NULL;
    CHECK(aclrtCreateStream(&sc));
    double took = overrun(linger, sc, dDone, dMark, ms, "CONTINUE_ON_FAILURE: a kernel past a 20 ms execute timeout");
    CHECK(aclrtMemcpy(&done, 8, dDone, 8, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(aclrtMemcpy(&mark, 8, dMark, 8, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(done == 1 && mark == 0x1111111111111111ULL,
           "the block ran on to its end and the task after it ran (%.0f ms)", took);
    CHECK(aclrtSynchronizeStream(sc));
    CHECK(aclrtDestroyStream(sc));

    /* ACL_STOP_ON_FAILURE: the synchronize returns at the deadline, the
     * memset after the kernel never runs. */
    aclrtStream ss = NULL;
    CHECK(aclrtCreateStream(&ss));
    CHECK(aclrtSetStreamFailureMode(ss, ACL_STOP_ON_FAILURE));
    took = overrun(linger, ss, dDone, dMark, ms, "STOP_ON_FAILURE: a kernel past a 20 ms execute timeout");
    EXPECT(took >= 20 && took < ms, "the synchronize returned at the deadline, before the kernel ended (%.0f ms)",
           took);
    sleep_ms(ms + 100); /* the block returns; what follows it stays dropped */
    CHECK(aclrtStreamAbort(ss));
    CHECK(aclrtSynchronizeStream(ss));
    CHECK(aclrtMemcpy(&done, 8, dDone, 8, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(aclrtMemcpy(&mark, 8, dMark, 8, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(done == 1 && mark == 0, "the block ran to its end; the task after it was dropped (%#llx)",
           (unsigned long long)mark);

    CHECK(aclrtExceptionInfoCallbackUnregister(on_exception));
    CHECK(aclrtDestroyStream(ss));
    CHECK(aclrtFree(dDone));
    CHECK(aclrtFree(dMark));
    CHECK(aclrtBinaryUnLoad(bin));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s <kernel binary with linger>\n", argv[0]);
        return 2;
    }
    uint64_t iv = 0, actual = 0;
    uint32_t ms = 0;

    EXPECT_CODE(aclrtSetOpWaitTimeout(1), ACL_ERROR_UNINITIALIZE, "aclrtSetOpWaitTimeout before aclInit");
    EXPECT_CODE(aclrtGetOpExecuteTimeout(&ms), ACL_ERROR_UNINITIALIZE, "aclrtGetOpExecuteTimeout before aclInit");
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));

    CHECK(aclrtGetOpTimeOutInterval(&iv));
    EXPECT(iv == 4294967, "aclrtGetOpTimeOutInterval: %llu us", (unsigned long long)iv);
    CHECK(aclrtGetOpExecuteTimeout(&ms));
    EXPECT(ms == 1090922, "default execute timeout: %u ms", ms);
    CHECK(aclrtSetOpExecuteTimeOutV2(20000000, &actual));
    EXPECT(actual == 21474836, "aclrtSetOpExecuteTimeOutV2(20 s) rounds up to 5 ticks: %llu us",
           (unsigned long long)actual);
    CHECK(aclrtGetOpExecuteTimeout(&ms));
    EXPECT(ms == 21475, "aclrtGetOpExecuteTimeout after it: %u ms", ms);
    CHECK(aclrtSetOpExecuteTimeOutV2(0, &actual));
    EXPECT(actual == 1090921693, "aclrtSetOpExecuteTimeOutV2(0) is the longest: %llu us", (unsigned long long)actual);
    CHECK(aclrtSetOpExecuteTimeOut(5));
    CHECK(aclrtGetOpExecuteTimeout(&ms));
    EXPECT(ms == 8590, "aclrtSetOpExecuteTimeOut(5 s) rounds up to 2 ticks: %u ms", ms);

    REFUSE(aclrtSetOpExecuteTimeOutV2(1, NULL), ACL_ERROR_INVALID_PARAM, "actualTimeout",
           "aclrtSetOpExecuteTimeOutV2 with actualTimeout NULL");
    REFUSE(aclrtGetOpTimeOutInterval(NULL), ACL_ERROR_INVALID_PARAM, "interval",
           "aclrtGetOpTimeOutInterval with interval NULL");
    REFUSE(aclrtGetOpExecuteTimeout(NULL), ACL_ERROR_INVALID_PARAM, "timeoutMs",
           "aclrtGetOpExecuteTimeout with timeoutMs NULL");
    REFUSE(aclrtSetOpExecuteTimeOutWithMs(100), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtSetOpExecuteTimeOutWithMs",
           "aclrtSetOpExecuteTimeOutWithMs");

    /* A wait for an event recorded behind a held stream. */
    aclrtStream s1 = NULL, s2 = NULL;
    aclrtEvent e = NULL;
    aclrtNotify hold = NULL;
    CHECK(aclrtCreateStream(&s1));
    CHECK(aclrtCreateStream(&s2));
    CHECK(aclrtCreateNotify(&hold, ACL_NOTIFY_DEFAULT));
    CHECK(aclrtCreateEventWithFlag(&e, ACL_EVENT_SYNC));
    CHECK(aclrtWaitAndResetNotify(hold, s2, 0));
    CHECK(aclrtRecordEvent(e, s2));
    CHECK(aclrtSetOpWaitTimeout(1));
    CHECK(aclrtStreamWaitEvent(s1, e));
    double t0 = now_ms();
    EXPECT_CODE(aclrtSynchronizeStream(s1), ACL_ERROR_RT_WAIT_TIMEOUT, "a wait past aclrtSetOpWaitTimeout(1)");
    EXPECT(now_ms() - t0 >= 900, "the wait failed after its timeout (%.0f ms)", now_ms() - t0);
    CHECK(aclrtSetOpWaitTimeout(0));
    CHECK(aclrtRecordNotify(hold, s1));
    CHECK(aclrtSynchronizeStream(s2));
    CHECK(aclrtSynchronizeStream(s1));
    pass("after aclrtSetOpWaitTimeout(0) the streams go on");

    CHECK(aclrtDestroyEvent(e));
    CHECK(aclrtDestroyNotify(hold));
    CHECK(aclrtDestroyStream(s1));
    CHECK(aclrtDestroyStream(s2));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());

    kernel_timeouts(argv[1]);
    printf("PASS 49_timeouts\n");
    return 0;
}
