/*
 * Stream and device control: state callbacks, the primary context's
 * state, the detail of device faults, and the refusals of aclrtStreamStop
 * and aclrtDeviceTaskAbort. A stop or an abort that succeeds would drop
 * tasks the model expects to run, so only calls that must fail are made of
 * those two. The callbacks registered count their calls and call nothing.
 */
#include <string.h>

#include "fuzz.h"

/* has_abort: the chip offers aclrtStreamStop, aclrtDeviceTaskAbort and
 * aclrtGetErrorVerbose (not the Atlas 200I/500 A2). */
static int has_abort(void)
{
    const char *soc = aclrtGetSocName();
    return soc == NULL || strncmp(soc, "Ascend310B", 10) != 0;
}

static volatile int state_calls;

static void count_stream(aclrtStream s, aclrtStreamState st, void *args)
{
    (void)s;
    (void)st;
    (void)args;
    state_calls++;
}

static void count_device(int32_t dev, aclrtDeviceState st, void *args)
{
    (void)dev;
    (void)st;
    (void)args;
    state_calls++;
}

/* Register a callback under a fresh name, once more under that name (which
 * must fail), then remove it, or leave it for a while. */
static void op_state_callbacks(void)
{
    static int serial;
    static char kept[2][32];
    int dev = (int)below(2);
    char name[32];
    snprintf(name, sizeof name, "fuzz-%d", serial++);
    if (!fz.inited) {
        return;
    }
    aclError rc;
    if (one_in(8)) {
        callf("aclrt%sStateCallback(NULL, cb, NULL)", dev ? "RegDevice" : "RegStream");
        rc = ret(dev ? aclrtRegDeviceStateCallback(NULL, count_device, NULL) : aclrtRegStreamStateCallback(NULL, count_stream, NULL));
        must_fail(rc, "regName NULL");
        return;
    }
    if (kept[dev][0] != 0) {
        callf("aclrt%sStateCallback(\"%s\", NULL, NULL) [remove]", dev ? "RegDevice" : "RegStream", kept[dev]);
        rc = ret(dev ? aclrtRegDeviceStateCallback(kept[dev], NULL, NULL) : aclrtRegStreamStateCallback(kept[dev], NULL, NULL));
        must_pass(rc, 0);
        kept[dev][0] = 0;
        return;
    }
    callf("aclrt%sStateCallback(\"%s\", cb, NULL)", dev ? "RegDevice" : "RegStream", name);
    rc = ret(dev ? aclrtRegDeviceStateCallback(name, count_device, NULL) : aclrtRegStreamStateCallback(name, count_stream, NULL));
    must_pass(rc, 0);
    if (rc != 0) {
        return;
    }
    callf("aclrt%sStateCallback(\"%s\", cb, NULL) [again]", dev ? "RegDevice" : "RegStream", name);
    rc = ret(dev ? aclrtRegDeviceStateCallback(name, count_device, NULL) : aclrtRegStreamStateCallback(name, count_stream, NULL));
    must_fail(rc, "a name already registered");
    memcpy(kept[dev], name, sizeof name);
}

static void op_primary_ctx_state(void)
{
    int bad = one_in(4);
    int32_t dev = bad ? bad_dev() : valid_dev();
    int32_t active = -1;
    uint32_t flags = 0;
    int with_flags = one_in(6), null_active = one_in(6);
    callf("aclrtGetPrimaryCtxState(%d, %s, %s)", dev, with_flags ? "&flags" : "NULL", null_active ? "NULL" : "&active");
    aclError rc = ret(aclrtGetPrimaryCtxState(dev, with_flags ? &flags : NULL, null_active ? NULL : &active));
    if (with_flags || null_active || bad || !fz.inited) {
        must_fail(rc, with_flags ? "flags not NULL" : null_active ? "active NULL" : bad ? "an invalid device" : "before aclInit");
        return;
    }
    must_pass(rc, 0);
    if (rc == 0 && active != 0 && active != 1) {
        mismatch("aclrtGetPrimaryCtxState: active %d, want 0 or 1", active);
    }
}

static void op_error_verbose(void)
{
    int bad = one_in(4), null = one_in(6);
    int32_t dev = bad ? bad_dev() : valid_dev();
    aclrtErrorInfo info;
    callf("aclrtGetErrorVerbose(%d, %s)", dev, null ? "NULL" : "&info");
    aclError rc = ret(aclrtGetErrorVerbose(dev, null ? NULL : &info));
    if (null || bad || !fz.inited || !has_abort()) {
        must_fail(rc, null ? "errorInfo NULL" : bad ? "an invalid device" : !fz.inited ? "before aclInit" : "a chip without it");
        return;
    }
    must_pass(rc, 0);
    if (rc == 0 && info.errorType != ACL_RT_NO_ERROR && info.errorType != ACL_RT_ERROR_MEMORY &&
        info.errorType != ACL_RT_ERROR_AICORE && info.errorType != ACL_RT_ERROR_OTHERS) {
        mismatch("aclrtGetErrorVerbose: error type %d is not one the simulator reports", (int)info.errorType);
    }
}

/* The exception-info getters given no information. */
static void op_exception_getters(void)
{
    void *args = NULL;
    uint32_t len = 0;
    aclrtFuncHandle f = NULL;
    callf("aclrtGetArgsFromExceptionInfo(NULL, &args, &len)");
    aclError rc = ret(aclrtGetArgsFromExceptionInfo(NULL, &args, &len));
    if (rc != (aclError)0xFFFFFFFF) {
        finding("WRONG CODE", "aclrtGetArgsFromExceptionInfo", "returned %d for no information, want 0xFFFFFFFF", rc);
    }
    callf("aclrtGetFuncHandleFromExceptionInfo(NULL, &f)");
    rc = ret(aclrtGetFuncHandleFromExceptionInfo(NULL, &f));
    if (rc != (aclError)0xFFFFFFFF) {
        finding("WRONG CODE", "aclrtGetFuncHandleFromExceptionInfo", "returned %d for no information, want 0xFFFFFFFF", rc);
    }
}

/* Stops and aborts that must be refused. */
static void op_stop_abort_refused(void)
{
    aclError rc;
    switch (below(3)) {
    case 0: {
        harg s = pick_handle(K_STREAM, 1);
        if (s.v == VALID || s.v == UNSURE) {
            return; /* a stop that may succeed */
        }
        callf("aclrtStreamStop(%s)", hdesc(&s));
        must_fail(ret(aclrtStreamStop(s.h)), "an invalid stream");
        break;
    }
    case 1:
        callf("aclrtStreamStop(NULL)");
        must_fail(ret(aclrtStreamStop(NULL)), "the default stream");
        break;
    default: {
        int32_t dev = one_in(2) ? bad_dev() : valid_dev();
        uint32_t timeout = 36u * 60u * 1000u + 1u + (uint32_t)below(1000);
        if (dev < 0 || dev >= fz.ndev) {
            timeout = (uint32_t)below(2);
        }
        callf("aclrtDeviceTaskAbort(%d, %u)", dev, timeout);
        rc = ret(aclrtDeviceTaskAbort(dev, timeout));
        must_fail(rc, dev < 0 || dev >= fz.ndev ? "an invalid device" : "a timeout past 36 minutes");
    }
    }
}

/* The thread's last task, and information that cannot be attached. */
static void op_last_task(void)
{
    uint32_t id = 0;
    static const char ext[] = "{}";
    switch (below(4)) {
    case 0:
        callf("aclrtGetThreadLastTaskId(NULL)");
        must_fail(ret(aclrtGetThreadLastTaskId(NULL)), "taskId NULL");
        break;
    case 1:
        callf("aclrtGetThreadLastTaskId(&id)");
        must_pass(ret(aclrtGetThreadLastTaskId(&id)), fz.inited ? 0 : AL_ANY);
        break;
    case 2: {
        int null = one_in(2);
        size_t size = null ? 2 : one_in(2) ? 0 : (64 << 10) + 1;
        callf("aclrtCacheLastTaskOpInfo(%s, %zu)", null ? "NULL" : "ext", size);
        must_fail(ret(aclrtCacheLastTaskOpInfo(null ? NULL : ext, size)), "infoPtr NULL or infoSize out of range");
        break;
    }
    default: {
        int null = one_in(2);
        size_t size = null ? 2 : 0;
        callf("aclrtCacheLastTaskExtendInfo(%s, %zu)", null ? "NULL" : "ext", size);
        must_fail(ret(aclrtCacheLastTaskExtendInfo(null ? NULL : ext, size)), "extendInfoPtr NULL or infoSize 0");
    }
    }
}

const struct op ops_streamctl[] = {
    {"last_task", 2, op_last_task},
    {"state_callbacks", 2, op_state_callbacks},
    {"primary_ctx_state", 2, op_primary_ctx_state},
    {"error_verbose", 2, op_error_verbose},
    {"exception_getters", 1, op_exception_getters},
    {"stop_abort_refused", 2, op_stop_abort_refused},
    {NULL, 0, NULL},
};
