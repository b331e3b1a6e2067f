/*
 * 03_stream: stream creation and its configuration, the default stream,
 * queries and bounded synchronization, attributes, STOP_ON_FAILURE and
 * recovery with aclrtStreamAbort, the stream pool, forced destruction.
 *
 * Usage: 03_stream <kernel binary with trap_block>
 */
#include "common.h"

static void sleep_host(void *arg)
{
    sleep_ms((long)(intptr_t)arg);
}

int main(int argc, char **argv)
{
    aclrtStream s = NULL, s2 = NULL, def = NULL;
    aclrtStreamStatus st;
    uint32_t prio = 99, flags = 99;
    int32_t id1 = -1, id2 = -1, idDef = -1, idNull = -2;

    if (argc < 2) {
        fprintf(stderr, "usage: %s kernel.so\n", argv[0]);
        return 2;
    }
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));

    /* Creation and the properties read back. */
    CHECK(aclrtCreateStream(&s));
    CHECK(aclrtStreamGetPriority(s, &prio));
    CHECK(aclrtStreamGetFlags(s, &flags));
    EXPECT(prio == 0 && flags == 0, "aclrtCreateStream: priority %u (highest), flags %#x", prio, flags);
    /* The reference calls the priority parameter reserved; the header and
     * aclrtDeviceGetStreamPriorityRange give it 0..7 (0 highest), which
     * the runtime follows. */
    CHECK(aclrtCreateStreamWithConfig(&s2, 3, ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC));
    CHECK(aclrtStreamGetPriority(s2, &prio));
    CHECK(aclrtStreamGetFlags(s2, &flags));
    EXPECT(prio == 3 && flags == (ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC),
           "aclrtCreateStreamWithConfig(3, FAST_LAUNCH|FAST_SYNC): priority %u, flags %#x", prio, flags);
    CHECK(aclrtStreamGetId(s, &id1));
    CHECK(aclrtStreamGetId(s2, &id2));
    EXPECT(id1 >= 0 && id2 >= 0 && id1 != id2, "aclrtStreamGetId: %d and %d", id1, id2);
    CHECK(aclrtDestroyStream(s2));
    /* CANN clamps an out-of-range priority to the nearest bound. */
    CHECK(aclrtCreateStreamWithConfig(&s2, 100, 0));
    CHECK(aclrtStreamGetPriority(s2, &prio));
    EXPECT(prio == 7, "priority 100 is clamped to the least priority (%u)", prio);
    CHECK(aclrtDestroyStream(s2));
    EXPECT_CODE(aclrtSynchronizeStream(s2), ACL_ERROR_RT_INVALID_HANDLE, "destroyed stream");
    EXPECT_CODE(aclrtDestroyStream(s2), ACL_ERROR_RT_INVALID_HANDLE, "aclrtDestroyStream twice");

    /* NULL is the current context's default stream, as the guide says
     * (an error-reference example says NULL is refused; the guide wins). */
    CHECK(aclrtCtxGetCurrentDefaultStream(&def));
    CHECK(aclrtStreamGetId(def, &idDef));
    CHECK(aclrtStreamGetId(NULL, &idNull));
    CHECK(aclrtStreamGetPriority(NULL, &prio));
    EXPECT(idDef == idNull && prio == 0, "NULL stream is the default stream (id %d, priority %u)", idNull, prio);
    CHECK(aclrtSynchronizeStream(NULL));
    pass("aclrtSynchronizeStream(NULL)");
    EXPECT_CODE(aclrtDestroyStream(NULL), ACL_ERROR_RT_PARAM_INVALID, "the default stream (NULL) cannot be destroyed");
    aclError rc = aclrtDestroyStream(def);
    EXPECT(rc != ACL_SUCCESS, "the default stream's handle cannot be destroyed either (%d)", rc);
    clear_errors();

    /* A stream held by a notify wait is NOT_READY until the notify is
     * recorded from another stream. */
    aclrtNotify n = NULL;
    CHECK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
    CHECK(aclrtCreateStream(&s2));
    CHECK(aclrtStreamQuery(s, &st));
    EXPECT(st == ACL_STREAM_STATUS_COMPLETE, "empty stream: aclrtStreamQuery COMPLETE");
    CHECK(aclrtWaitAndResetNotify(n, s, 0));
    CHECK(aclrtStreamQuery(s, &st));
    EXPECT(st == ACL_STREAM_STATUS_NOT_READY, "held stream: aclrtStreamQuery NOT_READY");
    double t0 = now_ms();
    EXPECT_CODE(aclrtSynchronizeStreamWithTimeout(s, 100), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                "aclrtSynchronizeStreamWithTimeout(100 ms) on a held stream");
    double waited = now_ms() - t0;
    EXPECT(waited >= 90 && waited < 5000, "the bounded wait took %.0f ms", waited);
    /* 0 is not in the reference's range; the header says it checks once. */
    EXPECT_CODE(aclrtSynchronizeStreamWithTimeout(s, 0), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                "aclrtSynchronizeStreamWithTimeout(0) only checks");
    EXPECT_CODE(aclrtSynchronizeStreamWithTimeout(s, -2), ACL_ERROR_RT_PARAM_INVALID, "timeout -2 is invalid");
    EXPECT_CODE(aclrtSynchronizeDeviceWithTimeout(50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                "aclrtSynchronizeDeviceWithTimeout(50 ms) with a held stream");
    CHECK(aclrtRecordNotify(n, s2));
    CHECK(aclrtSynchronizeStreamWithTimeout(s, -1));
    CHECK(aclrtSynchronizeDevice());
    pass("aclrtSynchronizeDevice once the stream is released");
    CHECK(aclrtStreamQuery(s, &st));
    EXPECT(st == ACL_STREAM_STATUS_COMPLETE, "released stream: aclrtStreamQuery COMPLETE");

    /* Stream attributes. */
    aclrtStreamAttrValue val;
    memset(&val, 0, sizeof val);
    val.streamPriority = 5;
    CHECK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, &val));
    CHECK(aclrtStreamGetPriority(s, &prio));
    memset(&val, 0xff, sizeof val);
    CHECK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, &val));
    EXPECT(prio == 5 && val.streamPriority == 5, "ACL_STREAM_ATTR_PRIORITY 5 reads back (%u, %u)", prio, val.streamPriority);
    val.userCustomTag = 0xC0FFEE;
    CHECK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &val));
    memset(&val, 0, sizeof val);
    CHECK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &val));
    EXPECT(val.userCustomTag == 0xC0FFEE, "ACL_STREAM_ATTR_USER_CUSTOM_TAG reads back %#x", val.userCustomTag);
    val.overflowSwitch = 1;
    CHECK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &val));
    memset(&val, 0, sizeof val);
    CHECK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &val));
    EXPECT(val.overflowSwitch == 1, "ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK reads back %u", val.overflowSwitch);
    memset(&val, 0xff, sizeof val);
    CHECK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &val));
    EXPECT(val.failureMode == ACL_CONTINUE_ON_FAILURE, "ACL_STREAM_ATTR_FAILURE_MODE defaults to CONTINUE (%llu)",
           (unsigned long long)val.failureMode);
    EXPECT_CODE(aclrtSetStreamAttribute(s, (aclrtStreamAttr)99, &val), ACL_ERROR_RT_PARAM_INVALID, "unknown attribute");
    EXPECT_CODE(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, NULL), ACL_ERROR_INVALID_PARAM, "NULL value");

    /* STOP_ON_FAILURE: a trapping kernel on s stops the context's other
     * streams too. The reference documents no way back; here
     * aclrtStreamAbort of each stopped stream recovers it. */
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle trap = NULL;
    CHECK(aclrtBinaryLoadFromFile(argv[1], NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "trap_block", &trap));
    void *out = NULL, *mark = NULL;
    CHECK(aclrtMalloc(&out, 8 * 4, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMalloc(&mark, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMemset(mark, 64, 0, 64));
    CHECK(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE));
    EXPECT_CODE(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE), ACL_ERROR_RT_PARAM_INVALID,
                "aclrtSetStreamFailureMode is called once per stream");
    memset(&val, 0, sizeof val);
    CHECK(aclrtGetStreamAttribute(s2, ACL_STREAM_ATTR_FAILURE_MODE, &val));
    EXPECT(val.failureMode == ACL_STOP_ON_FAILURE, "STOP_ON_FAILURE on one stream applies to the context's others");
    CHECK(aclrtWaitAndResetNotify(n, s2, 0));    /* s2 is held ...          */
    CHECK(aclrtMemsetAsync(mark, 64, 0x11, 64, s2)); /* ... with work behind */
    struct { void *out; uint64_t which; } args = {out, 1};
    CHECK(aclrtLaunchKernelWithHostArgs(trap, 4, s, NULL, &args, sizeof args, NULL, 0));
    EXPECT_CODE(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_TRAP_EXCEPTION, "the trap is reported at synchronization");
    rc = aclrtSynchronizeStream(s2);
    EXPECT(rc == ACL_ERROR_RT_AICORE_TRAP_EXCEPTION, "the other stream of the context is stopped by it (%d)", rc);
    rc = aclrtMemsetAsync(mark, 64, 0x22, 64, s);
    EXPECT(rc != ACL_SUCCESS, "a stopped stream takes no new tasks (%d)", rc);
    clear_errors();
    CHECK(aclrtStreamAbort(s));
    CHECK(aclrtStreamAbort(s2));
    pass("aclrtStreamAbort on both streams");
    CHECK(aclrtMemsetAsync(mark, 32, 0x33, 32, s));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtMemsetAsync((char *)mark + 32, 32, 0x44, 32, s2));
    CHECK(aclrtSynchronizeStream(s2));
    unsigned char host[64];
    CHECK(aclrtMemcpy(host, sizeof host, mark, sizeof host, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(host[0] == 0x33 && host[31] == 0x33 && host[32] == 0x44 && host[63] == 0x44,
           "after the aborts both streams run new work, and the dropped memset never ran");
    CHECK(aclrtBinaryUnLoad(bin));

    /* aclrtDestroyStreamForce does not wait for queued work, but the work
     * already submitted still runs: aclrtSynchronizeDevice waits for it. */
    aclrtStream s3 = NULL;
    CHECK(aclrtCreateStream(&s3));
    CHECK(aclrtMemset(mark, 64, 0, 64));
    CHECK(aclrtLaunchHostFunc(s3, sleep_host, (void *)(intptr_t)300));
    CHECK(aclrtMemsetAsync(mark, 64, 0x55, 64, s3));
    t0 = now_ms();
    CHECK(aclrtDestroyStreamForce(s3));
    waited = now_ms() - t0;
    CHECK(aclrtMemcpy(host, sizeof host, mark, sizeof host, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(host[0] == 0 && waited < 250, "aclrtDestroyStreamForce returned in %.0f ms, before the queued memset ran", waited);
    EXPECT_CODE(aclrtStreamQuery(s3, &st), ACL_ERROR_RT_INVALID_HANDLE, "force-destroyed stream is gone");
    CHECK(aclrtSynchronizeDevice());
    CHECK(aclrtMemcpy(host, sizeof host, mark, sizeof host, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(host[0] == 0x55 && host[63] == 0x55, "the memset submitted before aclrtDestroyStreamForce ran; aclrtSynchronizeDevice waited for it");

    /* aclrtDestroyStream waits for queued work. */
    CHECK(aclrtCreateStream(&s3));
    CHECK(aclrtLaunchHostFunc(s3, sleep_host, (void *)(intptr_t)100));
    CHECK(aclrtMemsetAsync(mark, 64, 0x66, 64, s3));
    CHECK(aclrtDestroyStream(s3));
    CHECK(aclrtMemcpy(host, sizeof host, mark, sizeof host, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(host[0] == 0x66, "aclrtDestroyStream waited for the queued memset");

    CHECK(aclrtDestroyNotify(n));
    CHECK(aclrtFree(out));
    CHECK(aclrtFree(mark));
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtDestroyStream(s2));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());

    /* A small stream pool: creation fails with 207008 once it is used up,
     * and works again after a destroy. */
    write_file("stream_limit.json", "{\"simulator\": {\"stream_limit\": 8}}\n");
    CHECK(aclInit("stream_limit.json"));
    CHECK(aclrtSetDevice(0));
    aclrtStream pool[16];
    int created = 0;
    clear_errors();
    while (created < 16 && (rc = aclrtCreateStream(&pool[created])) == ACL_SUCCESS) {
        created++;
    }
    EXPECT(rc == ACL_ERROR_RT_NO_STREAM_RESOURCE && created > 0 && created < 8,
           "stream pool of 8 (with the default stream): %d created, then %d", created, rc);
    const char *msg = aclGetRecentErrMsg();
    EXPECT(msg != NULL && strstr(msg, "aclrtCreateStream") != NULL, "the pool error names the call: %s", msg ? msg : "(null)");
    CHECK(aclrtDestroyStream(pool[created - 1]));
    CHECK(aclrtCreateStream(&pool[created - 1]));
    pass("after a destroy a stream can be created again");
    EXPECT_CODE(aclrtCreateStream(&s), ACL_ERROR_RT_NO_STREAM_RESOURCE, "and the pool is full again");
    for (int i = 0; i < created; i++) {
        CHECK(aclrtDestroyStream(pool[i]));
    }
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS 03_stream\n");
    return 0;
}
