/*
 * 10_error: the per-thread last error and error messages, faults of
 * asynchronous tasks, exception callbacks, and bad handles and NULL
 * out-parameters, which return codes and never crash.
 *
 * Usage: 10_error <kernel binary with trap_block>
 */
#define _GNU_SOURCE /* syscall(SYS_gettid) */
#include "common.h"

#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

static aclrtContext ctx;
static aclrtStream shared;
static aclrtFuncHandle trap;
static void *out;

/* A thread that fails a call and reports what it sees of its own state. */
struct thread_errors {
    int readMsg; /* in: whether to read the message */
    aclError peek;
    int hadMsg;
};

static void *failing_thread(void *arg)
{
    struct thread_errors *te = arg;
    int32_t dev = 0;
    (void)aclrtGetDevice(&dev); /* no context in this thread: 107002 */
    te->peek = aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL);
    if (te->readMsg) {
        const char *msg = aclGetRecentErrMsg();
        te->hadMsg = msg != NULL && strstr(msg, "aclrtGetDevice") != NULL;
    }
    return NULL;
}

/* Launches a trapping kernel on the shared stream; the launch succeeds. */
static void *launching_thread(void *arg)
{
    aclError *peek = arg;
    struct { void *out; uint64_t which; } args = {out, 0};
    CHECK(aclrtSetCurrentContext(ctx));
    CHECK(aclrtLaunchKernelWithHostArgs(trap, 2, shared, NULL, &args, sizeof args, NULL, 0));
    *peek = aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL);
    return NULL;
}

/* Exception callbacks. */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static int nSet, nReg;
static uint32_t gotTask, gotStream, gotThread, gotDevice, gotCode;

static void on_exception_set(aclrtExceptionInfo *info)
{
    pthread_mutex_lock(&mu);
    nSet++;
    gotTask = aclrtGetTaskIdFromExceptionInfo(info);
    gotStream = aclrtGetStreamIdFromExceptionInfo(info);
    gotThread = aclrtGetThreadIdFromExceptionInfo(info);
    gotDevice = aclrtGetDeviceIdFromExceptionInfo(info);
    gotCode = aclrtGetErrorCodeFromExceptionInfo(info);
    pthread_mutex_unlock(&mu);
}

static void on_exception_reg(aclrtExceptionInfo *info)
{
    (void)info;
    pthread_mutex_lock(&mu);
    nReg++;
    pthread_mutex_unlock(&mu);
}

/* The callbacks run when the device reports the fault, which may be just
 * after a synchronizing call has returned it: wait for them, up to limit
 * milliseconds. */
static void wait_callbacks(int set, int reg, int limit)
{
    for (int i = 0; i < limit / 2; i++) {
        pthread_mutex_lock(&mu);
        int done = nSet >= set && nReg >= reg;
        pthread_mutex_unlock(&mu);
        if (done) {
            break;
        }
        sleep_ms(2);
    }
    sleep_ms(20); /* and let any extra call arrive */
}

static void run_thread(void *(*fn)(void *), void *arg)
{
    pthread_t th;
    if (pthread_create(&th, NULL, fn, arg) != 0 || pthread_join(th, NULL) != 0) {
        fail_exit(__FILE__, __LINE__, 0, "pthread");
    }
}

int main(int argc, char **argv)
{
    aclrtBinHandle bin = NULL;

    if (argc < 2) {
        fprintf(stderr, "usage: %s kernel.so\n", argv[0]);
        return 2;
    }
    CHECK(aclInit(NULL));

    /* aclGetRecentErrMsg returns NULL when no call failed since the last
     * time it was called. */
    clear_errors();
    EXPECT(aclGetRecentErrMsg() == NULL, "aclGetRecentErrMsg with no failure: NULL");
    EXPECT_CODE(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS, "the last error starts as ACL_SUCCESS");

    /* Peek keeps the last error, Get returns and clears it; a success in
     * between does not clear it. */
    EXPECT_CODE(aclrtSetDevice(99), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtSetDevice(99)");
    CHECK(aclrtSetDevice(0));
    EXPECT_CODE(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_DEVICEID, "a later success keeps it");
    EXPECT_CODE(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtPeekAtLastError keeps it");
    EXPECT_CODE(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtGetLastError returns it");
    EXPECT_CODE(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS, "and clears it");
    EXPECT_CODE(aclrtPeekAtLastError((aclrtLastErrLevel)1), ACL_ERROR_RT_PARAM_INVALID, "an unknown level");
    clear_errors();

    /* Every error overwrites it; messages name the parameter, newest first. */
    void *p = NULL;
    EXPECT_CODE(aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_PARAM_INVALID, "aclrtMalloc of 0 bytes");
    EXPECT_CODE(aclrtGetDevice(NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetDevice(NULL)");
    EXPECT_CODE(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_INVALID_PARAM, "the newest error wins");
    const char *msg = aclGetRecentErrMsg();
    EXPECT(msg != NULL, "aclGetRecentErrMsg after two failures:\n%s", msg ? msg : "(null)");
    const char *getDev = strstr(msg, "aclrtGetDevice"), *malloc0 = strstr(msg, "aclrtMalloc");
    EXPECT(getDev != NULL && malloc0 != NULL && getDev < malloc0, "both are there, the newest first");
    EXPECT(strstr(msg, "deviceId") != NULL && strstr(msg, "size") != NULL, "each names its parameter");
    EXPECT(aclGetRecentErrMsg() == NULL, "aclGetRecentErrMsg cleared them");
    clear_errors();

    /* A thread that never reads its messages keeps at most 1000 of them,
     * as CANN's error manager does; the last error still moves on. */
    for (int i = 0; i < 5000; i++) {
        (void)aclrtGetDevice(NULL);
    }
    EXPECT_CODE(aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_PARAM_INVALID, "after 5000 unread failures, one more");
    msg = aclGetRecentErrMsg();
    int lines = 0;
    for (const char *q = msg; q != NULL && *q != '\0'; q = strchr(q, '\n') ? strchr(q, '\n') + 1 : "") {
        lines++;
    }
    EXPECT(lines == 1000 && strstr(msg, "aclrtMalloc") == NULL, "5001 unread failures leave 1000 messages pending (%d)", lines);
    clear_errors();

    /* Another thread's errors are its own. */
    struct thread_errors te = {1, 0, 0};
    run_thread(failing_thread, &te);
    EXPECT(te.peek == ACL_ERROR_RT_CONTEXT_NULL && te.hadMsg, "the other thread sees its own error %d and message", te.peek);
    EXPECT_CODE(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS, "this thread does not see it");
    EXPECT(aclGetRecentErrMsg() == NULL, "nor its message");

    /* An asynchronous fault lands in the last error of the thread whose
     * synchronizing call reports it, not the launching thread's. */
    CHECK(aclrtGetCurrentContext(&ctx));
    CHECK(aclrtCreateStream(&shared));
    CHECK(aclrtMalloc(&out, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtBinaryLoadFromFile(argv[1], NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "trap_block", &trap));
    aclError launcherPeek = -1;
    run_thread(launching_thread, &launcherPeek);
    EXPECT(launcherPeek == ACL_SUCCESS, "the launching thread's last error stays ACL_SUCCESS");
    EXPECT_CODE(aclrtSynchronizeStream(shared), ACL_ERROR_RT_AICORE_TRAP_EXCEPTION, "this thread's sync reports the trap");
    EXPECT_CODE(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_AICORE_TRAP_EXCEPTION, "and it is this thread's last error");
    clear_errors();

    /* Exception callbacks: the deprecated single slot and the registered
     * list are both called, with the fault's details. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations" /* the old call is still exported */
    CHECK(aclrtSetExceptionInfoCallback(on_exception_set));
#pragma GCC diagnostic pop
    CHECK(aclrtExceptionInfoCallbackRegister(on_exception_reg));
    CHECK(aclrtExceptionInfoCallbackRegister(on_exception_reg)); /* kept once */
    EXPECT_CODE(aclrtExceptionInfoCallbackRegister(NULL), ACL_ERROR_INVALID_PARAM, "registering NULL");
    aclrtStream fresh = NULL;
    int32_t freshId = -1;
    CHECK(aclrtCreateStream(&fresh));
    CHECK(aclrtStreamGetId(fresh, &freshId));
    struct { void *out; uint64_t which; } args = {out, 1};
    CHECK(aclrtLaunchKernelWithHostArgs(trap, 2, fresh, NULL, &args, sizeof args, NULL, 0));
    EXPECT_CODE(aclrtSynchronizeStream(fresh), ACL_ERROR_RT_AICORE_TRAP_EXCEPTION, "a trap with exception callbacks installed");
    wait_callbacks(1, 1, 5000);
    pthread_mutex_lock(&mu);
    EXPECT(nSet == 1 && nReg == 1, "each callback ran once (set %d, registered %d)", nSet, nReg);
    EXPECT(gotTask == 1 && gotStream == (uint32_t)freshId && gotDevice == 0 && gotCode == ACL_ERROR_RT_AICORE_TRAP_EXCEPTION,
           "getters: task %u, stream %u (want %d), device %u, code %u", gotTask, gotStream, freshId, gotDevice, gotCode);
    EXPECT(gotThread == (uint32_t)syscall(SYS_gettid), "getter: thread %u is the launching thread", gotThread);
    pthread_mutex_unlock(&mu);
    EXPECT(aclrtGetTaskIdFromExceptionInfo(NULL) == 0xFFFFFFFFu && aclrtGetErrorCodeFromExceptionInfo(NULL) == 0xFFFFFFFFu,
           "getters of a NULL info return 0xFFFFFFFF");

    CHECK(aclrtExceptionInfoCallbackUnregister(on_exception_reg));
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    CHECK(aclrtSetExceptionInfoCallback(NULL));
#pragma GCC diagnostic pop
    CHECK(aclrtLaunchKernelWithHostArgs(trap, 2, fresh, NULL, &args, sizeof args, NULL, 0));
    EXPECT_CODE(aclrtSynchronizeStream(fresh), ACL_ERROR_RT_AICORE_TRAP_EXCEPTION, "another trap");
    wait_callbacks(2, 2, 200); /* they must not come */
    pthread_mutex_lock(&mu);
    EXPECT(nSet == 1 && nReg == 1, "after Unregister and Set(NULL) no callback runs");
    pthread_mutex_unlock(&mu);
    clear_errors();

    /* Bad handles: NULL, destroyed, stale, wrong kind, random. */
    aclrtEvent ev = NULL;
    aclrtStreamStatus st;
    CHECK(aclrtCreateEvent(&ev));
    EXPECT_CODE(aclrtStreamQuery((aclrtStream)ev, &st), ACL_ERROR_RT_INVALID_HANDLE, "an event handle passed as a stream");
    msg = aclGetRecentErrMsg();
    EXPECT(msg != NULL && strstr(msg, "is an event handle, expected a stream handle") != NULL,
           "the message says what it was: %s", msg ? msg : "(null)");
    EXPECT_CODE(aclrtRecordEvent((aclrtEvent)fresh, shared), ACL_ERROR_RT_INVALID_HANDLE, "a stream handle passed as an event");
    EXPECT_CODE(aclrtSetCurrentContext((aclrtContext)shared), ACL_ERROR_RT_INVALID_HANDLE, "a stream handle passed as a context");
    EXPECT_CODE(aclrtSynchronizeStream((aclrtStream)(uintptr_t)0x1234), ACL_ERROR_RT_INVALID_HANDLE, "a made-up stream value");
    char junk[64];
    memset(junk, 0x5a, sizeof junk);
    EXPECT_CODE(aclrtSynchronizeStream((aclrtStream)junk), ACL_ERROR_RT_INVALID_HANDLE, "a pointer to random memory as a stream");
    EXPECT_CODE(aclrtDestroyEvent((aclrtEvent)junk), ACL_ERROR_RT_INVALID_HANDLE, "a pointer to random memory as an event");
    EXPECT_CODE(aclrtDestroyContext((aclrtContext)&junk[8]), ACL_ERROR_RT_INVALID_HANDLE,
                "a pointer to random memory as a context");
    EXPECT_CODE(aclrtBinaryUnLoad((aclrtBinHandle)junk), ACL_ERROR_RT_INVALID_HANDLE, "a pointer to random memory as a binary");
    EXPECT_CODE(aclrtSynchronizeEvent(NULL), ACL_ERROR_INVALID_PARAM, "a NULL event");
    EXPECT_CODE(aclrtSetCurrentContext(NULL), ACL_ERROR_INVALID_PARAM, "a NULL context");
    EXPECT_CODE(aclrtLaunchKernelWithHostArgs(NULL, 1, fresh, NULL, &args, sizeof args, NULL, 0), ACL_ERROR_INVALID_PARAM,
                "a NULL function");
    CHECK(aclrtDestroyStream(fresh));
    EXPECT_CODE(aclrtSynchronizeStream(fresh), ACL_ERROR_RT_INVALID_HANDLE, "a destroyed stream");
    EXPECT_CODE(aclrtMemsetAsync(out, 64, 0, 64, fresh), ACL_ERROR_RT_INVALID_HANDLE, "work on a destroyed stream");
    aclrtStream again = NULL;
    CHECK(aclrtCreateStream(&again)); /* may reuse the destroyed stream's slot */
    EXPECT_CODE(aclrtSynchronizeStream(fresh), ACL_ERROR_RT_INVALID_HANDLE, "the stale handle stays dead after a new stream");
    CHECK(aclrtSynchronizeStream(again));
    pass("the new stream works (%p, old %p)", again, fresh);
    CHECK(aclrtDestroyStream(again));

    /* Pointers and handles below 4096 are refused before anything looks at
     * them: no memory or handle lies there. */
    uint64_t word = 7;
    EXPECT_CODE(aclrtMemcpy((void *)(uintptr_t)0x10, 8, &word, 8, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_INVALID_PARAM,
                "a copy to address 0x10");
    msg = aclGetRecentErrMsg();
    EXPECT(msg != NULL && strstr(msg, "dst is 0x10") != NULL, "the message names dst: %s", msg ? msg : "(null)");
    EXPECT_CODE(aclrtCreateStream((aclrtStream *)(uintptr_t)0x8), ACL_ERROR_INVALID_PARAM, "aclrtCreateStream into address 0x8");
    EXPECT_CODE(aclrtSetCurrentContext((aclrtContext)(uintptr_t)0x1), ACL_ERROR_RT_INVALID_HANDLE, "context handle 0x1");
    EXPECT_CODE(aclrtSynchronizeStream((aclrtStream)(uintptr_t)0xfff), ACL_ERROR_RT_INVALID_HANDLE, "stream handle 0xfff");
    CHECK(aclrtDestroyEvent(ev));
    EXPECT_CODE(aclrtSynchronizeEvent(ev), ACL_ERROR_RT_INVALID_HANDLE, "a destroyed event");

    /* NULL out-parameters: ACL_ERROR_INVALID_PARAM. */
    uint32_t u32;
    size_t sz;
    EXPECT_CODE(aclrtGetDeviceCount(NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceCount(NULL)");
    EXPECT_CODE(aclrtGetCurrentContext(NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetCurrentContext(NULL)");
    EXPECT_CODE(aclrtCreateContext(NULL, 0), ACL_ERROR_INVALID_PARAM, "aclrtCreateContext(NULL, 0)");
    EXPECT_CODE(aclrtCreateStream(NULL), ACL_ERROR_INVALID_PARAM, "aclrtCreateStream(NULL)");
    EXPECT_CODE(aclrtCreateEvent(NULL), ACL_ERROR_INVALID_PARAM, "aclrtCreateEvent(NULL)");
    EXPECT_CODE(aclrtCreateNotify(NULL, 0), ACL_ERROR_INVALID_PARAM, "aclrtCreateNotify(NULL, 0)");
    EXPECT_CODE(aclrtStreamQuery(shared, NULL), ACL_ERROR_INVALID_PARAM, "aclrtStreamQuery(s, NULL)");
    EXPECT_CODE(aclrtStreamGetPriority(shared, NULL), ACL_ERROR_INVALID_PARAM, "aclrtStreamGetPriority(s, NULL)");
    EXPECT_CODE(aclrtStreamGetId(shared, NULL), ACL_ERROR_INVALID_PARAM, "aclrtStreamGetId(s, NULL)");
    EXPECT_CODE(aclrtCtxGetCurrentDefaultStream(NULL), ACL_ERROR_INVALID_PARAM, "aclrtCtxGetCurrentDefaultStream(NULL)");
    EXPECT_CODE(aclrtMallocHost(NULL, 64), ACL_ERROR_INVALID_PARAM, "aclrtMallocHost(NULL, 64)");
    EXPECT_CODE(aclrtGetMemInfo(ACL_HBM_MEM, NULL, &sz), ACL_ERROR_INVALID_PARAM, "aclrtGetMemInfo with NULL free");
    EXPECT_CODE(aclrtPointerGetAttributes(out, NULL), ACL_ERROR_INVALID_PARAM, "aclrtPointerGetAttributes(p, NULL)");
    EXPECT_CODE(aclrtDeviceGetStreamPriorityRange(NULL, NULL), ACL_ERROR_INVALID_PARAM,
                "aclrtDeviceGetStreamPriorityRange(NULL, NULL)");
    EXPECT_CODE(aclrtBinaryLoadFromFile(argv[1], NULL, NULL), ACL_ERROR_INVALID_PARAM,
                "aclrtBinaryLoadFromFile with NULL handle");
    EXPECT_CODE(aclrtBinaryGetFunction(bin, "trap_block", NULL), ACL_ERROR_INVALID_PARAM,
                "aclrtBinaryGetFunction with NULL handle");
    EXPECT_CODE(aclrtGetNotifyId(NULL, &u32), ACL_ERROR_INVALID_PARAM, "aclrtGetNotifyId with a NULL notify");
    EXPECT_CODE(aclrtKernelArgsInit(trap, NULL), ACL_ERROR_INVALID_PARAM, "aclrtKernelArgsInit with NULL handle");

    CHECK(aclrtBinaryUnLoad(bin));
    CHECK(aclrtFree(out));
    CHECK(aclrtDestroyStream(shared));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());

    /* err_msg_mode 1: messages are kept per process, so this thread reads
     * the other thread's. */
    write_file("err_msg_mode.json", "{\"err_msg_mode\": \"1\"}\n");
    CHECK(aclInit("err_msg_mode.json"));
    clear_errors();
    te.readMsg = 0;
    run_thread(failing_thread, &te);
    msg = aclGetRecentErrMsg();
    EXPECT(msg != NULL && strstr(msg, "aclrtGetDevice") != NULL, "err_msg_mode 1: another thread's message is visible: %s",
           msg ? msg : "(null)");
    EXPECT_CODE(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS, "the last error stays per thread");
    CHECK(aclFinalize());
    printf("PASS 10_error\n");
    return 0;
}
