/*
 * 06_notify: notifies between streams and between devices, one record per
 * wait, wait timeouts, notify ids and destruction.
 */
#include "common.h"

static unsigned char read_byte(void *dev, size_t off)
{
    unsigned char b = 0;
    CHECK(aclrtMemcpy(&b, 1, (char *)dev + off, 1, ACL_MEMCPY_DEVICE_TO_HOST));
    return b;
}

int main(void)
{
    aclrtContext ctx0 = NULL, ctx1 = NULL;
    aclrtStream a = NULL, b = NULL, d1 = NULL;
    aclrtNotify n = NULL, m = NULL, x = NULL;
    aclrtStreamStatus st;
    uint32_t idN = 0, idM = 0;
    void *buf = NULL;

    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(1));
    CHECK(aclrtGetCurrentContext(&ctx1));
    CHECK(aclrtCreateStream(&d1));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtGetCurrentContext(&ctx0));
    CHECK(aclrtCreateStream(&a));
    CHECK(aclrtCreateStream(&b));
    CHECK(aclrtMalloc(&buf, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMemset(buf, 64, 0, 64));

    CHECK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
    CHECK(aclrtCreateNotify(&m, ACL_NOTIFY_DEFAULT));
    CHECK(aclrtGetNotifyId(n, &idN));
    CHECK(aclrtGetNotifyId(m, &idM));
    EXPECT(idN != idM, "aclrtGetNotifyId: distinct ids %u and %u", idN, idM);
    EXPECT_CODE(aclrtGetNotifyId(n, NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetNotifyId with NULL id");
    aclError rc = aclrtCreateNotify(&x, 7);
    EXPECT(rc == ACL_ERROR_RT_PARAM_INVALID, "aclrtCreateNotify with an unknown flag -> %d", rc);

    /* One record releases one wait: b waits twice, a records once, then
     * again. */
    CHECK(aclrtWaitAndResetNotify(n, b, 0));
    CHECK(aclrtMemsetAsync(buf, 64, 1, 1, b));
    CHECK(aclrtWaitAndResetNotify(n, b, 0));
    CHECK(aclrtMemsetAsync((char *)buf + 1, 63, 2, 1, b));
    sleep_ms(20);
    EXPECT(read_byte(buf, 0) == 0, "nothing after the first wait runs before a record");
    CHECK(aclrtRecordNotify(n, a));
    CHECK(aclrtSynchronizeStream(a));
    for (int i = 0; i < 500 && read_byte(buf, 0) != 1; i++) {
        sleep_ms(10);
    }
    sleep_ms(20); /* time for a wrongly released second wait to show */
    CHECK(aclrtStreamQuery(b, &st));
    EXPECT(read_byte(buf, 0) == 1 && read_byte(buf, 1) == 0 && st == ACL_STREAM_STATUS_NOT_READY,
           "one record released exactly one wait (the second still holds the stream)");
    CHECK(aclrtRecordNotify(n, a));
    CHECK(aclrtSynchronizeStream(b));
    EXPECT(read_byte(buf, 1) == 2, "a second record releases the second wait");

    /* A record before the wait is kept: the wait passes at once. */
    CHECK(aclrtRecordNotify(m, a));
    CHECK(aclrtSynchronizeStream(a));
    CHECK(aclrtWaitAndResetNotify(m, b, 0));
    CHECK(aclrtSynchronizeStream(b));
    pass("a wait after the record passes, and resets the notify");

    /* Across devices: a stream of device 1 waits for a record on device
     * 0's stream. The notify is created on device 1, where it is waited. */
    aclrtNotify cross = NULL;
    void *buf1 = NULL;
    CHECK(aclrtSetCurrentContext(ctx1));
    CHECK(aclrtCreateNotify(&cross, ACL_NOTIFY_DEFAULT));
    CHECK(aclrtMalloc(&buf1, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMemset(buf1, 64, 0, 64));
    CHECK(aclrtWaitAndResetNotify(cross, d1, 0));
    CHECK(aclrtMemsetAsync(buf1, 64, 9, 64, d1));
    CHECK(aclrtSetCurrentContext(ctx0));
    sleep_ms(20);
    CHECK(aclrtStreamQuery(d1, &st));
    EXPECT(st == ACL_STREAM_STATUS_NOT_READY, "device 1's stream waits for the notify");
    CHECK(aclrtRecordNotify(cross, a));
    CHECK(aclrtSynchronizeStream(d1));
    CHECK(aclrtSetCurrentContext(ctx1));
    EXPECT(read_byte(buf1, 63) == 9, "a record on device 0 released the wait on device 1");
    CHECK(aclrtSetCurrentContext(ctx0));

    /* A wait with a timeout (seconds, as the reference gives it; the
     * header comment says ms) that no record meets: a fault reported at
     * the next synchronization, 107019, and the stream moves on. */
    double t0 = now_ms();
    CHECK(aclrtWaitAndResetNotify(m, b, 1));
    CHECK(aclrtMemsetAsync((char *)buf + 2, 62, 3, 1, b));
    EXPECT_CODE(aclrtSynchronizeStream(b), ACL_ERROR_RT_WAIT_TIMEOUT, "aclrtWaitAndResetNotify(1 s) with no record");
    double waited = now_ms() - t0;
    EXPECT(waited >= 900 && waited < 10000, "the wait gave up after %.0f ms", waited);
    EXPECT(read_byte(buf, 2) == 3, "the stream ran on after the timeout");
    CHECK(aclrtSynchronizeStream(b));
    pass("the timeout is reported once");
    EXPECT_CODE(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_WAIT_TIMEOUT, "the thread's last error holds the timeout");
    EXPECT_CODE(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS, "and aclrtGetLastError cleared it");

    /* Destruction. */
    CHECK(aclrtDestroyNotify(n));
    EXPECT_CODE(aclrtRecordNotify(n, a), ACL_ERROR_RT_INVALID_HANDLE, "record of a destroyed notify");
    EXPECT_CODE(aclrtWaitAndResetNotify(n, b, 0), ACL_ERROR_RT_INVALID_HANDLE, "wait on a destroyed notify");
    EXPECT_CODE(aclrtDestroyNotify(n), ACL_ERROR_RT_INVALID_HANDLE, "aclrtDestroyNotify twice");
    EXPECT_CODE(aclrtRecordNotify(a, a), ACL_ERROR_RT_INVALID_HANDLE, "a stream handle passed as a notify");

    CHECK(aclrtDestroyNotify(m));
    CHECK(aclrtFree(buf));
    CHECK(aclrtDestroyStream(a));
    CHECK(aclrtDestroyStream(b));
    CHECK(aclrtSetCurrentContext(ctx1));
    CHECK(aclrtDestroyNotify(cross));
    CHECK(aclrtFree(buf1));
    CHECK(aclrtDestroyStream(d1));
    CHECK(aclrtResetDevice(1));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS 06_notify\n");
    return 0;
}
