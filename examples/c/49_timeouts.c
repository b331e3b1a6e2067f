/*
 * 49_timeouts: operator timeouts.
 *
 * On the default chip (Atlas A2): the timeout tick (2^32 ns, truncated to
 * 4294967 us), the default execute timeout (1091 s, in ms), the rounding
 * of aclrtSetOpExecuteTimeOutV2 and aclrtSetOpExecuteTimeOut, the
 * refusals, and an aclrtStreamWaitEvent queued after aclrtSetOpWaitTimeout
 * failing at the next synchronize with ACL_ERROR_RT_WAIT_TIMEOUT.
 */
#include "common.h"

int main(void)
{
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
    printf("PASS 49_timeouts\n");
    return 0;
}
