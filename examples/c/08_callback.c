/*
 * 08_callback: host functions in stream order, and the report-thread
 * model: a user thread looping aclrtProcessReport runs the callbacks
 * aclrtLaunchCallback queues on the streams subscribed to it.
 */
#include "common.h"

#include <pthread.h>
#include <string.h>

#include <gocann/host.h>

/* Host functions append their number to a log. */
static int order[16];
static int norder;

static void log_host(void *arg)
{
    order[norder++] = (int)(intptr_t)arg;
}

static void sleep_host(void *arg)
{
    sleep_ms((long)(intptr_t)arg);
    order[norder++] = 100;
}

/* The report thread. */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static volatile int stop;
static int processed, timeouts, others;
static aclError firstTimeout;

static volatile int subscribed;

static void *report_loop(void *arg)
{
    (void)arg;
    while (!subscribed) { /* aclrtProcessReport needs the subscription */
        sleep_ms(1);
    }
    while (!stop) {
        aclError rc = aclrtProcessReport(50);
        pthread_mutex_lock(&mu);
        if (rc == ACL_SUCCESS) {
            processed++;
        } else if (rc == ACL_ERROR_RT_REPORT_TIMEOUT) {
            if (timeouts++ == 0) {
                firstTimeout = rc;
            }
        } else {
            others++;
        }
        pthread_mutex_unlock(&mu);
    }
    return NULL;
}

/* Callbacks record which thread ran them and in which order. */
static pthread_t ranOn[8];
static int cbOrder[8];
static int ncb;

/* A host function or blocking callback that fails its task, as a binding
 * does for a callable that raised. */
static void failing_host(void *arg) { gocann_host_func_fail((const char *)arg); }

static void record_cb(void *userData)
{
    pthread_mutex_lock(&mu);
    ranOn[ncb] = pthread_self();
    cbOrder[ncb++] = (int)(intptr_t)userData;
    pthread_mutex_unlock(&mu);
}

static void slow_cb(void *userData)
{
    sleep_ms((long)(intptr_t)userData);
    record_cb(userData);
}

/* A NO_BLOCK callback that waits until the main thread has seen the
 * stream finish without it. */
static int released;
static int gateTimedOut;

static void gated_cb(void *userData)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 10;
    pthread_mutex_lock(&mu);
    while (!released && !gateTimedOut) {
        if (pthread_cond_timedwait(&cv, &mu, &until) != 0) {
            gateTimedOut = 1;
        }
    }
    pthread_mutex_unlock(&mu);
    record_cb(userData);
}

int main(void)
{
    aclrtStream s = NULL, other = NULL;
    aclError rc;

    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&s));
    CHECK(aclrtCreateStream(&other));

    /* aclrtLaunchHostFunc runs in stream order, holding later tasks. */
    void *d = NULL;
    unsigned char b = 0;
    CHECK(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMemset(d, 64, 0, 64));
    CHECK(aclrtLaunchHostFunc(other, log_host, (void *)1));
    CHECK(aclrtLaunchHostFunc(other, sleep_host, (void *)(intptr_t)100));
    CHECK(aclrtMemsetAsync(d, 64, 0x3c, 64, other));
    CHECK(aclrtLaunchHostFunc(other, log_host, (void *)2));
    CHECK(aclrtLaunchHostFunc(other, log_host, (void *)3));
    CHECK(aclrtSynchronizeStream(other));
    CHECK(aclrtMemcpy(&b, 1, d, 1, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(norder == 4 && order[0] == 1 && order[1] == 100 && order[2] == 2 && order[3] == 3 && b == 0x3c,
           "aclrtLaunchHostFunc: host functions run in stream order, the slow one holding the rest");
    EXPECT_CODE(aclrtLaunchHostFunc(other, NULL, NULL), ACL_ERROR_INVALID_PARAM, "aclrtLaunchHostFunc with NULL fn");

    /* The report thread model. */
    EXPECT_CODE(aclrtProcessReport(10), ACL_ERROR_RT_THREAD_SUBSCRIBE, "aclrtProcessReport in a thread never subscribed");
    EXPECT_CODE(aclrtLaunchCallback(record_cb, NULL, ACL_CALLBACK_BLOCK, s), ACL_ERROR_RT_STREAM_NO_CB_REG,
                "aclrtLaunchCallback on a stream with no report thread");
    pthread_t reporter;
    if (pthread_create(&reporter, NULL, report_loop, NULL) != 0) {
        fail_exit(__FILE__, __LINE__, 0, "pthread_create");
    }
    CHECK(aclrtSubscribeReport((uint64_t)reporter, s));
    subscribed = 1;
    pass("aclrtSubscribeReport(report thread, s)");
    /* The error table gives ACL_ERROR_REPEAT_SUBSCRIBE for this, the
     * runtime codes also ACL_ERROR_RT_STREAM_SUBSCRIBE; the first is used. */
    EXPECT_CODE(aclrtSubscribeReport((uint64_t)reporter, s), ACL_ERROR_REPEAT_SUBSCRIBE, "subscribing the stream twice");
    /* A report thread serves streams of one device. */
    aclrtStream dev1 = NULL;
    CHECK(aclrtSetDevice(1));
    CHECK(aclrtCreateStream(&dev1));
    EXPECT_CODE(aclrtSubscribeReport((uint64_t)reporter, dev1), ACL_ERROR_RT_THREAD_SUBSCRIBE,
                "subscribing a report thread to a stream of a second device");
    CHECK(aclrtDestroyStream(dev1));
    CHECK(aclrtSetDevice(0));

    /* Let the report thread's ProcessReport time out at least once. */
    sleep_ms(120);
    pthread_mutex_lock(&mu);
    int sawTimeout = timeouts > 0 && firstTimeout == ACL_ERROR_RT_REPORT_TIMEOUT;
    pthread_mutex_unlock(&mu);
    EXPECT(sawTimeout, "aclrtProcessReport(50 ms) with nothing to run returns ACL_ERROR_RT_REPORT_TIMEOUT (507012)");

    /* BLOCK callbacks hold the stream until they return: the sync waits
     * for the slow one. */
    double t0 = now_ms();
    CHECK(aclrtLaunchCallback(record_cb, (void *)1, ACL_CALLBACK_BLOCK, s));
    CHECK(aclrtLaunchCallback(slow_cb, (void *)(intptr_t)150, ACL_CALLBACK_BLOCK, s));
    CHECK(aclrtMemsetAsync(d, 64, 0x4d, 64, s));
    CHECK(aclrtLaunchCallback(record_cb, (void *)3, ACL_CALLBACK_BLOCK, s));
    CHECK(aclrtSynchronizeStream(s));
    double took = now_ms() - t0;
    pthread_mutex_lock(&mu);
    int okBlock = ncb == 3 && cbOrder[0] == 1 && cbOrder[1] == 150 && cbOrder[2] == 3;
    int onReporter = ncb == 3 && pthread_equal(ranOn[0], reporter) && pthread_equal(ranOn[2], reporter);
    pthread_mutex_unlock(&mu);
    EXPECT(okBlock && took >= 150, "BLOCK callbacks ran in order and the stream waited for them (%.0f ms)", took);
    EXPECT(onReporter, "the callbacks ran on the subscribed report thread");

    /* A NO_BLOCK callback does not hold the stream's later tasks. The
     * reference does not say whether synchronizing waits for it; here it
     * does not: the stream finishes while the callback is still waiting
     * for us. */
    CHECK(aclrtLaunchCallback(gated_cb, (void *)4, ACL_CALLBACK_NO_BLOCK, s));
    CHECK(aclrtMemsetAsync(d, 64, 0x5e, 64, s));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtMemcpy(&b, 1, d, 1, ACL_MEMCPY_DEVICE_TO_HOST));
    pthread_mutex_lock(&mu);
    int pending = ncb == 3;
    released = 1;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&mu);
    EXPECT(pending && b == 0x5e, "NO_BLOCK: the stream ran past the callback before it returned");
    for (int i = 0; i < 200; i++) {
        pthread_mutex_lock(&mu);
        int n = ncb;
        pthread_mutex_unlock(&mu);
        if (n == 4) {
            break;
        }
        sleep_ms(10);
    }
    pthread_mutex_lock(&mu);
    int okNoBlock = ncb == 4 && cbOrder[3] == 4 && !gateTimedOut;
    pthread_mutex_unlock(&mu);
    EXPECT(okNoBlock, "the NO_BLOCK callback then ran to its end");
    EXPECT_CODE(aclrtLaunchCallback(record_cb, NULL, (aclrtCallbackBlockType)7, s), ACL_ERROR_RT_PARAM_INVALID,
                "unknown block type");

    /* gocann_host_func_fail in a BLOCK callback fails the task waiting for it. */
    CHECK(aclrtLaunchCallback(failing_host, (void *)"the callback refused", ACL_CALLBACK_BLOCK, s));
    rc = aclrtSynchronizeStream(s);
    const char *msg = aclGetRecentErrMsg();
    EXPECT(rc == ACL_ERROR_RT_INTERNAL_ERROR && msg != NULL && strstr(msg, "the callback refused") != NULL,
           "gocann_host_func_fail in a BLOCK callback: the stream reports %d with its message", rc);
    CHECK(aclrtStreamAbort(s));

    /* Unsubscribed, the stream takes no callbacks again. */
    CHECK(aclrtUnSubscribeReport((uint64_t)reporter, s));
    pass("aclrtUnSubscribeReport");
    EXPECT_CODE(aclrtLaunchCallback(record_cb, NULL, ACL_CALLBACK_BLOCK, s), ACL_ERROR_RT_STREAM_NO_CB_REG,
                "aclrtLaunchCallback after aclrtUnSubscribeReport");
    rc = aclrtUnSubscribeReport((uint64_t)reporter, s);
    EXPECT(rc == ACL_ERROR_RT_STREAM_NO_CB_REG, "aclrtUnSubscribeReport twice -> %d", rc);

    stop = 1;
    pthread_join(reporter, NULL);
    EXPECT(others == 0 && processed == 5, "the report thread processed 5 callbacks, no unexpected codes (%d)", others);

    /* gocann_host_func_fail in a host function fails its task: the stream
     * reports a host function fault with the message. */
    CHECK(aclrtLaunchHostFunc(other, failing_host, (void *)"bad input from the host function"));
    rc = aclrtSynchronizeStream(other);
    msg = aclGetRecentErrMsg();
    EXPECT(rc == ACL_ERROR_RT_INTERNAL_ERROR && msg != NULL && strstr(msg, "bad input from the host function") != NULL,
           "gocann_host_func_fail in a host function: the stream reports %d with its message", rc);
    gocann_host_func_fail("outside any host function: nothing happens");
    CHECK(aclrtStreamAbort(other));
    CHECK(aclrtLaunchHostFunc(other, log_host, (void *)4));
    CHECK(aclrtSynchronizeStream(other));
    pass("a host function after the failed one runs and synchronizes cleanly");

    CHECK(aclrtFree(d));
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtDestroyStream(other));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS 08_callback\n");
    return 0;
}
