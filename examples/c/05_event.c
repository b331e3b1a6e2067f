/*
 * 05_event: event creation variants, cross-stream ordering with
 * record/wait, status queries, bounded synchronization, timing, reset,
 * and stream waits with a timeout.
 */
#include "common.h"

static void sleep_host(void *arg)
{
    sleep_ms((long)(intptr_t)arg);
}

int main(void)
{
    aclrtStream s1 = NULL, s2 = NULL;
    aclrtEvent e = NULL, eSync = NULL, eEx = NULL, t0 = NULL, t1 = NULL;
    aclrtEventRecordedStatus rs;
    aclrtNotify hold = NULL;

    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&s1));
    CHECK(aclrtCreateStream(&s2));
    CHECK(aclrtCreateNotify(&hold, ACL_NOTIFY_DEFAULT));

    /* Creation variants. */
    CHECK(aclrtCreateEvent(&e));
    CHECK(aclrtCreateEventWithFlag(&eSync, ACL_EVENT_SYNC));
    CHECK(aclrtCreateEventExWithFlag(&eEx, ACL_EVENT_SYNC));
    CHECK(aclrtCreateEventWithFlag(&t0, ACL_EVENT_TIME_LINE));
    CHECK(aclrtCreateEventWithFlag(&t1, ACL_EVENT_TIME_LINE));
    pass("aclrtCreateEvent, aclrtCreateEventWithFlag(SYNC, TIME_LINE), aclrtCreateEventExWithFlag(SYNC)");
    aclrtEvent bad = NULL;
    EXPECT_CODE(aclrtCreateEventWithFlag(&bad, 0x80000000u), ACL_ERROR_RT_PARAM_INVALID, "unknown event flag");
    EXPECT_CODE(aclrtCreateEvent(NULL), ACL_ERROR_INVALID_PARAM, "aclrtCreateEvent(NULL)");

    /* The recorded-status enum counts the other way from aclrtEventStatus. */
    EXPECT(ACL_EVENT_RECORDED_STATUS_NOT_READY == 0 && ACL_EVENT_RECORDED_STATUS_COMPLETE == 1,
           "ACL_EVENT_RECORDED_STATUS_NOT_READY = 0, COMPLETE = 1");

    /* Record on s1 after slow work, wait on s2: s2's copy sees s1's memset. */
    void *x = NULL, *y = NULL;
    CHECK(aclrtMalloc(&x, 256, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMalloc(&y, 256, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMemset(x, 256, 0, 256));
    CHECK(aclrtMemset(y, 256, 0, 256));
    CHECK(aclrtLaunchHostFunc(s1, sleep_host, (void *)(intptr_t)100));
    CHECK(aclrtMemsetAsync(x, 256, 0x77, 256, s1));
    CHECK(aclrtRecordEvent(e, s1));
    CHECK(aclrtStreamWaitEvent(s2, e));
    CHECK(aclrtMemcpyAsync(y, 256, x, 256, ACL_MEMCPY_DEVICE_TO_DEVICE, s2));
    CHECK(aclrtSynchronizeStream(s2));
    unsigned char host[256];
    CHECK(aclrtMemcpy(host, 256, y, 256, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(host[0] == 0x77 && host[255] == 0x77, "aclrtStreamWaitEvent orders s2's copy after s1's memset");
    CHECK(aclrtQueryEventStatus(e, &rs));
    EXPECT(rs == ACL_EVENT_RECORDED_STATUS_COMPLETE, "recorded and done: COMPLETE (%d)", (int)rs);

    /* A record behind a held stream is NOT_READY until the stream moves. */
    CHECK(aclrtWaitAndResetNotify(hold, s1, 0));
    CHECK(aclrtRecordEvent(eEx, s1));
    CHECK(aclrtQueryEventStatus(eEx, &rs));
    EXPECT(rs == ACL_EVENT_RECORDED_STATUS_NOT_READY, "record behind a held stream: NOT_READY (%d)", (int)rs);
    double start = now_ms();
    EXPECT_CODE(aclrtSynchronizeEventWithTimeout(eEx, 100), ACL_ERROR_RT_EVENT_SYNC_TIMEOUT,
                "aclrtSynchronizeEventWithTimeout(100 ms) before the record runs");
    double waited = now_ms() - start;
    EXPECT(waited >= 90 && waited < 5000, "the bounded event wait took %.0f ms", waited);

    /* aclrtStreamWaitEventWithTimeout: the reference gives the timeout in
     * seconds, the header comment in milliseconds; the runtime follows the
     * reference (seconds, 0 = no timeout). s2 gives up waiting on the
     * held record after 1 s; the timeout is reported at s2's next sync,
     * and s2 moves on. */
    CHECK(aclrtStreamWaitEventWithTimeout(s2, eEx, 1));
    CHECK(aclrtMemsetAsync(y, 256, 0x12, 256, s2));
    start = now_ms();
    EXPECT_CODE(aclrtSynchronizeStream(s2), ACL_ERROR_RT_WAIT_TIMEOUT, "aclrtStreamWaitEventWithTimeout(1 s) times out");
    waited = now_ms() - start;
    EXPECT(waited >= 900 && waited < 10000, "after about a second (%.0f ms)", waited);
    CHECK(aclrtMemcpy(host, 256, y, 256, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(host[0] == 0x12, "the stream ran on after the wait timed out");
    EXPECT_CODE(aclrtStreamWaitEventWithTimeout(s2, eEx, -1), ACL_ERROR_RT_PARAM_INVALID, "negative wait timeout");

    CHECK(aclrtRecordNotify(hold, s2));
    CHECK(aclrtSynchronizeEvent(eEx));
    CHECK(aclrtQueryEventStatus(eEx, &rs));
    EXPECT(rs == ACL_EVENT_RECORDED_STATUS_COMPLETE, "after the release: aclrtSynchronizeEvent, then COMPLETE");

    /* A wait with a timeout that is met in time. */
    CHECK(aclrtLaunchHostFunc(s1, sleep_host, (void *)(intptr_t)50));
    CHECK(aclrtRecordEvent(eEx, s1));
    CHECK(aclrtStreamWaitEventWithTimeout(s2, eEx, 5));
    CHECK(aclrtSynchronizeStream(s2));
    pass("aclrtStreamWaitEventWithTimeout met in time succeeds");

    /* Timing: TIME_LINE events around a host function sleeping 50 ms. */
    CHECK(aclrtRecordEvent(t0, s1));
    CHECK(aclrtLaunchHostFunc(s1, sleep_host, (void *)(intptr_t)50));
    CHECK(aclrtRecordEvent(t1, s1));
    CHECK(aclrtSynchronizeEvent(t1));
    float ms = 0;
    CHECK(aclrtEventElapsedTime(&ms, t0, t1));
    EXPECT(ms >= 50.0f && ms < 5000.0f, "aclrtEventElapsedTime around a 50 ms sleep = %.3f ms", ms);
    /* Timestamps are in microseconds as the reference says (the header
     * says "syscnt"). */
    uint64_t ts0 = 0, ts1 = 0;
    CHECK(aclrtEventGetTimestamp(t0, &ts0));
    CHECK(aclrtEventGetTimestamp(t1, &ts1));
    EXPECT(ts1 >= ts0 + 50000, "aclrtEventGetTimestamp (us): %llu then %llu", (unsigned long long)ts0,
           (unsigned long long)ts1);
    EXPECT_CODE(aclrtEventGetTimestamp(eSync, &ts0), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID,
                "aclrtEventGetTimestamp of an event without TIME_LINE");
    EXPECT_CODE(aclrtEventElapsedTime(NULL, t0, t1), ACL_ERROR_INVALID_PARAM, "aclrtEventElapsedTime with NULL ms");

    /* aclrtResetEvent: for aclrtCreateEventWithFlag events with
     * ACL_EVENT_SYNC only. */
    CHECK(aclrtRecordEvent(eSync, s1));
    CHECK(aclrtSynchronizeEvent(eSync));
    CHECK(aclrtQueryEventStatus(eSync, &rs));
    EXPECT(rs == ACL_EVENT_RECORDED_STATUS_COMPLETE, "WithFlag(SYNC) event recorded: COMPLETE");
    CHECK(aclrtResetEvent(eSync, s1));
    CHECK(aclrtSynchronizeStream(s1));
    CHECK(aclrtQueryEventStatus(eSync, &rs));
    EXPECT(rs == ACL_EVENT_RECORDED_STATUS_NOT_READY, "after aclrtResetEvent it reads NOT_READY again (%d)", (int)rs);
    clear_errors();
    EXPECT_CODE(aclrtResetEvent(eEx, s1), ACL_ERROR_RT_PARAM_INVALID, "aclrtResetEvent of an aclrtCreateEventExWithFlag event");
    const char *msg = aclGetRecentErrMsg();
    EXPECT(msg != NULL && strstr(msg, "aclrtResetEvent") != NULL, "the message says why: %s", msg ? msg : "(null)");
    EXPECT_CODE(aclrtResetEvent(t0, s1), ACL_ERROR_RT_PARAM_INVALID, "aclrtResetEvent of a TIME_LINE-only event");

    /* Destroyed events. */
    CHECK(aclrtDestroyEvent(e));
    EXPECT_CODE(aclrtRecordEvent(e, s1), ACL_ERROR_RT_INVALID_HANDLE, "record of a destroyed event");
    EXPECT_CODE(aclrtQueryEventStatus(e, &rs), ACL_ERROR_RT_INVALID_HANDLE, "query of a destroyed event");
    EXPECT_CODE(aclrtDestroyEvent(e), ACL_ERROR_RT_INVALID_HANDLE, "aclrtDestroyEvent twice");

    CHECK(aclrtDestroyEvent(eSync));
    CHECK(aclrtDestroyEvent(eEx));
    CHECK(aclrtDestroyEvent(t0));
    CHECK(aclrtDestroyEvent(t1));
    CHECK(aclrtDestroyNotify(hold));
    CHECK(aclrtFree(x));
    CHECK(aclrtFree(y));
    CHECK(aclrtDestroyStream(s1));
    CHECK(aclrtDestroyStream(s2));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS 05_event\n");
    return 0;
}
