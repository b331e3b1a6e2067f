/*
 * 45_streams: stream and device state, device task abort.
 *
 * On the default chip (Atlas A2): aclrtRegStreamStateCallback's callbacks
 * for explicit streams, a context's default stream and a device's;
 * aclrtStreamStop, which keeps the queued tasks unrun until
 * aclrtStreamAbort; aclrtRegDeviceStateCallback's callbacks
 * around aclrtSetDevice and the aclrtResetDevice that ends the default
 * context; aclrtGetPrimaryCtxState; aclrtSetDeviceTaskAbortCallback and
 * aclrtDeviceTaskAbort, which drops the queued tasks of every stream of
 * the device and leaves the streams usable; a trapping kernel's function
 * handle and argument slots in its exception report
 * (aclrtGetFuncHandleFromExceptionInfo, aclrtGetArgsFromExceptionInfo),
 * and the class of the fault until the abort (aclrtGetErrorVerbose);
 * aclrtGetThreadLastTaskId, and the information aclrtCacheLastTaskOpInfo
 * and aclrtCacheLastTaskExtendInfo attach to a captured task, in the
 * model's JSON description and in the report of its fault.
 *
 * Usage: 45_streams <kernel binary with trap_block>
 *
 * On an Atlas 200I/500 A2: the
 * stop and abort calls refused.
 */
#include <pthread.h>
#include "common.h"

static char trail[256];

static void note(const char *s)
{
    size_t n = strlen(trail);
    snprintf(trail + n, sizeof trail - n, "%s%s", n ? " " : "", s);
}

static void on_device(int32_t dev, aclrtDeviceState st, void *args)
{
    char s[32];
    snprintf(s, sizeof s, "%s%d:%d", (const char *)args, dev, (int)st);
    note(s);
}

static void device_states(void)
{
    static char tag[] = "d";
    trail[0] = 0;
    aclrtContext ctx0 = NULL;
    CHECK(aclrtGetCurrentContext(&ctx0));
    CHECK(aclrtRegDeviceStateCallback("45_streams", on_device, tag));
    REFUSE(aclrtRegDeviceStateCallback("45_streams", on_device, tag), ACL_ERROR_RT_PARAM_INVALID, "already registered",
           "aclrtRegDeviceStateCallback under a name already registered");
    REFUSE(aclrtRegDeviceStateCallback(NULL, on_device, tag), ACL_ERROR_INVALID_PARAM, "regName",
           "aclrtRegDeviceStateCallback with regName NULL");
    int32_t active = -1;
    CHECK(aclrtGetPrimaryCtxState(1, NULL, &active));
    EXPECT(active == 0, "aclrtGetPrimaryCtxState before aclrtSetDevice(1): %d", active);
    CHECK(aclrtSetDevice(1));
    CHECK(aclrtSetDevice(1));
    CHECK(aclrtGetPrimaryCtxState(1, NULL, &active));
    EXPECT(active == 1, "aclrtGetPrimaryCtxState after aclrtSetDevice(1): %d", active);
    CHECK(aclrtResetDevice(1));
    CHECK(aclrtResetDevice(1));
    CHECK(aclrtGetPrimaryCtxState(1, NULL, &active));
    EXPECT(active == 0, "aclrtGetPrimaryCtxState after the last aclrtResetDevice(1): %d", active);
    CHECK(aclrtRegDeviceStateCallback("45_streams", NULL, NULL));
    CHECK(aclrtSetDevice(1));
    CHECK(aclrtResetDevice(1));
    EXPECT(strcmp(trail, "d1:0 d1:1 d1:1 d1:2 d1:3") == 0,
           "device state callbacks: SET_PRE, SET_POST twice, RESET_PRE, RESET_POST, none once removed (%s)", trail);
    uint32_t flags = 0;
    REFUSE(aclrtGetPrimaryCtxState(1, &flags, &active), ACL_ERROR_INVALID_PARAM, "flags",
           "aclrtGetPrimaryCtxState with flags not NULL");
    REFUSE(aclrtGetPrimaryCtxState(1, NULL, NULL), ACL_ERROR_INVALID_PARAM, "active", "aclrtGetPrimaryCtxState with active NULL");
    REFUSE(aclrtGetPrimaryCtxState(99, NULL, &active), ACL_ERROR_RT_INVALID_DEVICEID, "99",
           "aclrtGetPrimaryCtxState of device 99");
    CHECK(aclrtSetCurrentContext(ctx0));
}

struct seen_state {
    aclrtStream s;
    int st;
};
static struct seen_state seen[16];
static int nseen;

static void on_stream(aclrtStream stm, aclrtStreamState st, void *args)
{
    (void)args;
    if (nseen < 16) {
        seen[nseen].s = stm;
        seen[nseen].st = (int)st;
    }
    nseen++;
}

static int seen_is(int i, aclrtStream s, int st)
{
    return i < nseen && seen[i].s == s && seen[i].st == st;
}

static void stream_states(void)
{
    nseen = 0;
    CHECK(aclrtRegStreamStateCallback("45_streams", on_stream, NULL));
    REFUSE(aclrtRegStreamStateCallback("45_streams", on_stream, NULL), ACL_ERROR_RT_PARAM_INVALID, "already registered",
           "aclrtRegStreamStateCallback under a name already registered");
    aclrtStream s2 = NULL;
    CHECK(aclrtCreateStream(&s2));
    CHECK(aclrtDestroyStream(s2));
    EXPECT(nseen == 2 && seen_is(0, s2, ACL_RT_STREAM_STATE_CREATE_POST) && seen_is(1, s2, ACL_RT_STREAM_STATE_DESTROY_PRE),
           "aclrtCreateStream then aclrtDestroyStream: CREATE_POST and DESTROY_PRE with the stream's handle (%d calls)", nseen);
    aclrtContext ctx0 = NULL, ctx = NULL;
    CHECK(aclrtGetCurrentContext(&ctx0));
    nseen = 0;
    CHECK(aclrtCreateContext(&ctx, 0));
    aclrtStream def = NULL;
    CHECK(aclrtCtxGetCurrentDefaultStream(&def));
    CHECK(aclrtDestroyContext(ctx));
    EXPECT(nseen == 2 && seen_is(0, def, ACL_RT_STREAM_STATE_CREATE_POST) && seen_is(1, def, ACL_RT_STREAM_STATE_DESTROY_PRE),
           "aclrtCreateContext then aclrtDestroyContext: the context's default stream, created and destroyed (%d calls)", nseen);
    nseen = 0;
    CHECK(aclrtSetDevice(1));
    CHECK(aclrtCtxGetCurrentDefaultStream(&def));
    CHECK(aclrtResetDevice(1));
    EXPECT(nseen == 2 && seen_is(0, def, ACL_RT_STREAM_STATE_CREATE_POST) && seen_is(1, def, ACL_RT_STREAM_STATE_DESTROY_PRE),
           "aclrtSetDevice then aclrtResetDevice: the device's default stream, created and destroyed (%d calls)", nseen);
    CHECK(aclrtSetCurrentContext(ctx0));
    CHECK(aclrtRegStreamStateCallback("45_streams", NULL, NULL));
    nseen = 0;
    CHECK(aclrtCreateStream(&s2));
    CHECK(aclrtDestroyStream(s2));
    EXPECT(nseen == 0, "no stream state call once the callback is removed (%d)", nseen);
}

static volatile int gate_open;
static volatile int gate_in;

static void gate(void *arg)
{
    (void)arg;
    gate_in = 1;
    while (!gate_open) {
        sleep_ms(1);
    }
}

static int abort_ret;

static int32_t on_abort(int32_t dev, aclrtDeviceTaskAbortStage st, uint32_t timeout, void *args)
{
    char s[32];
    snprintf(s, sizeof s, "%s%d:%d:%u", (const char *)args, dev, (int)st, timeout);
    note(s);
    return abort_ret;
}

struct waiter {
    aclrtContext ctx;
    aclrtStream s;
    aclError ret;
};

/* wait_then_open synchronizes the stream; the abort ends the wait once it
 * dropped the queued tasks, and only then is the running gate let go. */
static void *wait_then_open(void *arg)
{
    struct waiter *w = arg;
    CHECK(aclrtSetCurrentContext(w->ctx));
    w->ret = aclrtSynchronizeStream(w->s);
    gate_open = 1;
    return NULL;
}

static void task_abort(aclrtStream s)
{
    static char tag[] = "a";
    trail[0] = 0;
    void *word = NULL;
    CHECK(aclrtMalloc(&word, 8, ACL_MEM_MALLOC_HUGE_FIRST));
    write_u64(word, 0);
    CHECK(aclrtSetDeviceTaskAbortCallback("45_streams", on_abort, tag));
    REFUSE(aclrtSetDeviceTaskAbortCallback("45_streams", on_abort, tag), ACL_ERROR_RT_PARAM_INVALID, "already registered",
           "aclrtSetDeviceTaskAbortCallback under a name already registered");
    gate_open = 0;
    gate_in = 0;
    CHECK(aclrtLaunchHostFunc(s, gate, NULL));
    CHECK(aclrtValueWrite(word, 7, 0, s));
    while (!gate_in) {
        sleep_ms(1);
    }
    struct waiter w = {NULL, s, 0};
    CHECK(aclrtGetCurrentContext(&w.ctx));
    pthread_t th;
    EXPECT(pthread_create(&th, NULL, wait_then_open, &w) == 0, "a thread waits for the stream");
    sleep_ms(50); /* let the wait begin */
    CHECK(aclrtDeviceTaskAbort(0, 0));
    pthread_join(th, NULL);
    EXPECT(w.ret == ACL_ERROR_RT_STREAM_ABORT, "the stream's wait ended with %d (ACL_ERROR_RT_STREAM_ABORT)", (int)w.ret);
    EXPECT(strcmp(trail, "a0:0:0 a0:1:0") == 0, "abort callbacks: PRE then POST, timeout 0 (%s)", trail);
    EXPECT(read_u64(word) == 0, "aclrtDeviceTaskAbort dropped the queued write (word %llu)", (unsigned long long)read_u64(word));
    CHECK(aclrtValueWrite(word, 5, 0, s));
    CHECK(aclrtSynchronizeStream(s));
    EXPECT(read_u64(word) == 5, "the stream runs tasks after aclrtDeviceTaskAbort (word %llu)", (unsigned long long)read_u64(word));
    abort_ret = 9;
    REFUSE(aclrtDeviceTaskAbort(0, 1000), ACL_ERROR_RT_INTERNAL_ERROR, "returned 9",
           "aclrtDeviceTaskAbort with a callback returning 9");
    abort_ret = 0;
    CHECK(aclrtSetDeviceTaskAbortCallback("45_streams", NULL, NULL));
    REFUSE(aclrtDeviceTaskAbort(0, 36 * 60 * 1000 + 1), ACL_ERROR_RT_PARAM_INVALID, "timeout",
           "aclrtDeviceTaskAbort with a timeout past 36 minutes");
    REFUSE(aclrtDeviceTaskAbort(1, 0), ACL_ERROR_RT_INVALID_DEVICEID, "device 1",
           "aclrtDeviceTaskAbort of a device not set");
    REFUSE(aclrtSetDeviceTaskAbortCallback(NULL, on_abort, tag), ACL_ERROR_INVALID_PARAM, "regName",
           "aclrtSetDeviceTaskAbortCallback with regName NULL");
    CHECK(aclrtFree(word));
}

static void stream_stop(void)
{
    aclrtStream s = NULL;
    CHECK(aclrtCreateStream(&s));
    void *word = NULL;
    CHECK(aclrtMalloc(&word, 8, ACL_MEM_MALLOC_HUGE_FIRST));
    write_u64(word, 0);
    gate_open = 0;
    gate_in = 0;
    CHECK(aclrtLaunchHostFunc(s, gate, NULL));
    CHECK(aclrtValueWrite(word, 7, 0, s));
    while (!gate_in) {
        sleep_ms(1);
    }
    CHECK(aclrtStreamStop(s));
    gate_open = 1;
    REFUSE(aclrtSynchronizeStream(s), ACL_ERROR_RT_STREAM_ABORT, "is stopped", "aclrtSynchronizeStream of a stopped stream");
    REFUSE(aclrtValueWrite(word, 8, 0, s), ACL_ERROR_RT_STREAM_ABORT, "is stopped", "aclrtValueWrite on a stopped stream");
    EXPECT(read_u64(word) == 0, "the write queued before aclrtStreamStop did not run (word %llu)", (unsigned long long)read_u64(word));
    CHECK(aclrtStreamAbort(s));
    CHECK(aclrtValueWrite(word, 5, 0, s));
    CHECK(aclrtSynchronizeStream(s));
    EXPECT(read_u64(word) == 5, "after aclrtStreamAbort the stream runs again and the stopped write is gone (word %llu)",
           (unsigned long long)read_u64(word));
    REFUSE(aclrtStreamStop(NULL), ACL_ERROR_RT_PARAM_INVALID, "default stream cannot be stopped", "aclrtStreamStop(NULL)");
    CHECK(aclrtDestroyStream(s));
    REFUSE(aclrtStreamStop(s), ACL_ERROR_RT_INVALID_HANDLE, "stream", "aclrtStreamStop of a destroyed stream");
    CHECK(aclrtFree(word));
}

/* What the exception callback read of a kernel's fault. */
static pthread_mutex_t exc_mu = PTHREAD_MUTEX_INITIALIZER;
static int exc_calls;
static aclrtFuncHandle exc_func;
static uint64_t exc_args[2];
static uint32_t exc_len;
static aclError exc_null_info, exc_null_out;

static void on_exception(aclrtExceptionInfo *info)
{
    aclrtFuncHandle f = NULL;
    void *args = NULL;
    uint32_t len = 0;
    aclError rf = aclrtGetFuncHandleFromExceptionInfo(info, &f);
    aclError ra = aclrtGetArgsFromExceptionInfo(info, &args, &len);
    pthread_mutex_lock(&exc_mu);
    exc_calls++;
    if (rf == ACL_SUCCESS && ra == ACL_SUCCESS && len >= sizeof exc_args) {
        exc_func = f;
        memcpy(exc_args, args, sizeof exc_args);
        exc_len = len;
    }
    exc_null_info = aclrtGetArgsFromExceptionInfo(NULL, &args, &len);
    exc_null_out = aclrtGetFuncHandleFromExceptionInfo(info, NULL);
    pthread_mutex_unlock(&exc_mu);
}

static void exception_detail(aclrtStream s, const char *kernels)
{
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle trap = NULL;
    void *out = NULL;
    CHECK(aclrtBinaryLoadFromFile(kernels, NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "trap_block", &trap));
    CHECK(aclrtMalloc(&out, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
    aclrtErrorInfo ei;
    memset(&ei, 0xff, sizeof ei);
    CHECK(aclrtGetErrorVerbose(0, &ei));
    EXPECT(ei.errorType == ACL_RT_NO_ERROR && ei.tryRepair == 0 && ei.hasDetail == 0,
           "aclrtGetErrorVerbose before any fault: ACL_RT_NO_ERROR (%d)", (int)ei.errorType);
    CHECK(aclrtExceptionInfoCallbackRegister(on_exception));
    struct {
        void *out;
        uint64_t which;
    } args = {out, 1};
    CHECK(aclrtLaunchKernelWithHostArgs(trap, 2, s, NULL, &args, sizeof args, NULL, 0));
    EXPECT_CODE(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_TRAP_EXCEPTION, "a kernel trapping in block 1");
    for (int i = 0; i < 1000; i++) {
        pthread_mutex_lock(&exc_mu);
        int n = exc_calls;
        pthread_mutex_unlock(&exc_mu);
        if (n > 0) {
            break;
        }
        sleep_ms(2);
    }
    pthread_mutex_lock(&exc_mu);
    EXPECT(exc_func == trap, "aclrtGetFuncHandleFromExceptionInfo: the trapping kernel's function handle");
    EXPECT(exc_len == 16 && exc_args[0] == (uint64_t)(uintptr_t)out && exc_args[1] == 1,
           "aclrtGetArgsFromExceptionInfo: its two argument slots, %u bytes", exc_len);
    EXPECT(exc_null_info == (aclError)0xFFFFFFFF, "aclrtGetArgsFromExceptionInfo(NULL): 0xFFFFFFFF (%d)", (int)exc_null_info);
    EXPECT(exc_null_out == ACL_ERROR_INVALID_PARAM, "aclrtGetFuncHandleFromExceptionInfo with func NULL: %d", (int)exc_null_out);
    pthread_mutex_unlock(&exc_mu);
    CHECK(aclrtExceptionInfoCallbackUnregister(on_exception));
    CHECK(aclrtGetErrorVerbose(0, &ei));
    EXPECT(ei.errorType == ACL_RT_ERROR_OTHERS && ei.tryRepair == 0, "aclrtGetErrorVerbose after the trap: ACL_RT_ERROR_OTHERS (%#x)",
           (unsigned)ei.errorType);
    CHECK(aclrtDeviceTaskAbort(0, 0));
    CHECK(aclrtGetErrorVerbose(0, &ei));
    EXPECT(ei.errorType == ACL_RT_NO_ERROR, "aclrtGetErrorVerbose after aclrtDeviceTaskAbort: ACL_RT_NO_ERROR (%d)", (int)ei.errorType);
    REFUSE(aclrtGetErrorVerbose(0, NULL), ACL_ERROR_INVALID_PARAM, "errorInfo", "aclrtGetErrorVerbose with errorInfo NULL");
    REFUSE(aclrtGetErrorVerbose(7, &ei), ACL_ERROR_RT_INVALID_DEVICEID, "7", "aclrtGetErrorVerbose of device 7");
    CHECK(aclrtFree(out));
    CHECK(aclrtBinaryUnLoad(bin));
}

static int file_has(const char *path, const char *what)
{
    static char buf[1 << 16];
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        return 0;
    }
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return strstr(buf, what) != NULL;
}

static void last_task(aclrtStream s, const char *kernels)
{
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle fn = NULL;
    void *out = NULL;
    CHECK(aclrtBinaryLoadFromFile(kernels, NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "trap_block", &fn));
    CHECK(aclrtMalloc(&out, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
    struct {
        void *out;
        uint64_t which;
    } args = {out, 99}; /* no block traps */
    uint32_t id1 = 0, id2 = 0;
    CHECK(aclrtLaunchKernelWithHostArgs(fn, 2, s, NULL, &args, sizeof args, NULL, 0));
    CHECK(aclrtGetThreadLastTaskId(&id1));
    CHECK(aclrtLaunchKernelWithHostArgs(fn, 2, s, NULL, &args, sizeof args, NULL, 0));
    CHECK(aclrtGetThreadLastTaskId(&id2));
    CHECK(aclrtSynchronizeStream(s));
    EXPECT(id1 > 0 && id2 == id1 + 1, "aclrtGetThreadLastTaskId after two launches: consecutive task ids (%u, %u)", id1, id2);
    REFUSE(aclrtGetThreadLastTaskId(NULL), ACL_ERROR_INVALID_PARAM, "taskId", "aclrtGetThreadLastTaskId(NULL)");
    static const char ext[] = "{\"op\":\"trap_block\",\"shape\":[2]}";
    REFUSE(aclrtCacheLastTaskExtendInfo(ext, strlen(ext)), ACL_ERROR_RT_INTERNAL_ERROR, "in no model",
           "aclrtCacheLastTaskExtendInfo after a launch outside a model");

    CHECK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    args.which = 0; /* block 0 traps when the model runs */
    CHECK(aclrtLaunchKernelWithHostArgs(fn, 2, s, NULL, &args, sizeof args, NULL, 0));
    CHECK(aclrtGetThreadLastTaskId(&id1));
    EXPECT(id1 == 0, "aclrtGetThreadLastTaskId of a captured launch: its index in the model stream (%u)", id1);
    CHECK(aclrtCacheLastTaskExtendInfo(ext, strlen(ext)));
    static const unsigned char op[] = {7, 8, 9};
    CHECK(aclrtCacheLastTaskOpInfo(op, sizeof op));
    REFUSE(aclrtCacheLastTaskOpInfo(NULL, 4), ACL_ERROR_INVALID_PARAM, "infoPtr", "aclrtCacheLastTaskOpInfo(NULL, 4)");
    REFUSE(aclrtCacheLastTaskOpInfo(op, 0), ACL_ERROR_INVALID_PARAM, "infoSize 0", "aclrtCacheLastTaskOpInfo with infoSize 0");
    REFUSE(aclrtCacheLastTaskOpInfo(op, (64 << 10) + 1), ACL_ERROR_RT_PARAM_INVALID, "65537",
           "aclrtCacheLastTaskOpInfo with infoSize 64 KiB + 1");
    REFUSE(aclrtCacheLastTaskExtendInfo(NULL, 4), ACL_ERROR_RT_PARAM_INVALID, "extendInfoPtr",
           "aclrtCacheLastTaskExtendInfo(NULL, 4)");
    REFUSE(aclrtCacheLastTaskExtendInfo(ext, 0), ACL_ERROR_RT_PARAM_INVALID, "infoSize 0",
           "aclrtCacheLastTaskExtendInfo with infoSize 0");
    aclmdlRI m = NULL;
    CHECK(aclmdlRICaptureEnd(s, &m));
    CHECK(aclmdlRIDebugJsonPrint(m, "streams_model.json", 0));
    EXPECT(file_has("streams_model.json", "\"trap_block\"") && file_has("streams_model.json", "\"extend_info\"") &&
               file_has("streams_model.json", "\"op_info\": \"BwgJ\""),
           "aclmdlRIDebugJsonPrint: the captured task carries its extended and operator information");
    CHECK(aclmdlRIExecuteAsync(m, s));
    clear_errors();
    aclError rc = aclrtSynchronizeStream(s);
    const char *msg = aclGetRecentErrMsg();
    EXPECT(rc == ACL_ERROR_RT_AICORE_TRAP_EXCEPTION && msg != NULL && strstr(msg, "extend info: {\"op\":\"trap_block\"") != NULL,
           "the model's trap reports the task's extended information (%d)", (int)rc);
    CHECK(aclmdlRIDestroy(m));
    CHECK(aclrtFree(out));
    CHECK(aclrtBinaryUnLoad(bin));
}

static void fini(aclrtStream s)
{
    CHECK(aclrtDestroyStream(s));
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

    /* ---- Atlas A2 ---------------------------------------------------- */
    init_chip("streams_a2.json", "Ascend910B1");
    CHECK(aclrtCreateStream(&s));
    device_states();
    stream_states();
    stream_stop();
    task_abort(s);
    exception_detail(s, argv[1]);
    last_task(s, argv[1]);
    fini(s);

    /* ---- Atlas 200I/500 A2 ------------------------------------------- */
    init_chip("streams_310b.json", "Ascend310B1");
    CHECK(aclrtCreateStream(&s));
    aclrtErrorInfo ei;
    REFUSE(aclrtGetErrorVerbose(0, &ei), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtGetErrorVerbose is not supported on Ascend310B1",
           "aclrtGetErrorVerbose on an Atlas 200I/500 A2");
    REFUSE(aclrtStreamStop(s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtStreamStop is not supported on Ascend310B1",
           "aclrtStreamStop on an Atlas 200I/500 A2");
    REFUSE(aclrtDeviceTaskAbort(0, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtDeviceTaskAbort is not supported on Ascend310B1",
           "aclrtDeviceTaskAbort on an Atlas 200I/500 A2");
    REFUSE(aclrtSetDeviceTaskAbortCallback("x", on_abort, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
           "aclrtSetDeviceTaskAbortCallback is not supported on Ascend310B1", "aclrtSetDeviceTaskAbortCallback on an Atlas 200I/500 A2");
    fini(s);
    printf("PASS 45_streams\n");
    return 0;
}
