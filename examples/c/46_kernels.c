/*
 * 46_kernels: binary descriptions (aclrtCreateBinary, aclrtBinaryLoad),
 * function lookups by entry and by symbol, what a function handle tells
 * (binary, entry, code size, attributes, parameters), a binary's exception
 * callback, memory for the task scheduler, and the hardware
 * synchronization word that the blocks of one launch meet on.
 *
 * Usage: 46_kernels libkernels.so
 */
#include "common.h"

#include <dlfcn.h>

static int exc_calls;
static void *exc_user;
static uint32_t exc_code;

static void on_binary_exception(aclrtExceptionInfo *info, void *user)
{
    exc_calls++;
    exc_user = user;
    exc_code = aclrtGetErrorCodeFromExceptionInfo(info);
}

static char *read_all(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)len);
    if (buf != NULL && fread(buf, 1, (size_t)len, f) != (size_t)len) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *n = (size_t)len;
    return buf;
}

/* models: a kernel task keeps its launch configuration, an update task
 * rewrites it in place, and an abort ends a run that waits forever. */
static void models(aclrtStream s, aclrtBinHandle bin, aclrtFuncHandle fill, void *out)
{
    aclrtStream ps = NULL, ps2 = NULL;
    aclmdlRI m = NULL, m2 = NULL;
    void *word = NULL;
    int64_t host[4] = {0};
    CHECK(aclrtMalloc(&word, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMemset(word, 64, 0, 64));
    CHECK(aclrtCreateStreamWithConfig(&ps, 0, ACL_STREAM_PERSISTENT));
    CHECK(aclmdlRIBuildBegin(&m, 0));
    CHECK(aclmdlRIBindStream(m, ps, ACL_MODEL_STREAM_FLAG_HEAD));
    aclrtLaunchKernelAttr attrs[3];
    memset(attrs, 0, sizeof attrs);
    attrs[0].id = ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE;
    attrs[0].value.schemMode = 1;
    attrs[1].id = ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE;
    attrs[1].value.dynUBufSize = 4096;
    attrs[2].id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US;
    attrs[2].value.timeoutUs.timeoutLow = 2500000;
    aclrtLaunchKernelCfg cfg = {attrs, 3};
    int32_t v = 40;
    int64_t w = 2;
    void *args[3] = {&out, &v, &w};
    CHECK(aclrtLaunchKernelWithArgsArray(fill, 4, ps, &cfg, args));
    CHECK(aclrtValueWrite((char *)word + 8, 5, 0, ps));
    CHECK(aclmdlRIEndTask(m, ps));
    CHECK(aclmdlRIBuildEnd(m, NULL));

    aclmdlRITask tasks[4];
    uint32_t n = 4;
    CHECK(aclmdlRIGetTasksByStream(ps, tasks, &n));
    aclrtLaunchKernelAttrValue val;
    memset(&val, 0, sizeof val);
    CHECK(aclmdlRIKernelTaskGetAttribute(tasks[0], ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, &val));
    int schem = val.schemMode;
    CHECK(aclmdlRIKernelTaskGetAttribute(tasks[0], ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE, &val));
    uint32_t ubuf = val.dynUBufSize;
    CHECK(aclmdlRIKernelTaskGetAttribute(tasks[0], ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US, &val));
    uint32_t us = val.timeoutUs.timeoutLow;
    CHECK(aclmdlRIKernelTaskGetAttribute(tasks[0], ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT, &val));
    int sec = val.timeout;
    CHECK(aclmdlRIKernelTaskGetAttribute(tasks[0], ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP, &val));
    EXPECT(schem == 1 && ubuf == 4096 && us == 2500000 && sec == 2 && val.isDataDump == 0,
           "aclmdlRIKernelTaskGetAttribute: the launch's SCHEM_MODE 1, DYN_UBUF_SIZE 4096, TIMEOUT_US 2500000 (TIMEOUT 2 s), no DATA_DUMP");
    REFUSE(aclmdlRIKernelTaskGetAttribute(tasks[0], ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE, &val), ACL_ERROR_RT_PARAM_INVALID,
           "cannot be queried", "aclmdlRIKernelTaskGetAttribute of ENGINE_TYPE");
    REFUSE(aclmdlRIKernelTaskGetAttribute(tasks[1], ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, &val), ACL_ERROR_RT_PARAM_INVALID,
           "not a kernel task", "aclmdlRIKernelTaskGetAttribute of a value write task");

    /* The update reads fill_neg's entry and 3 blocks from device words. */
    aclrtFuncHandle neg = NULL;
    void *aic = NULL, *aiv = NULL;
    CHECK(aclrtBinaryGetFunction(bin, "fill_neg", &neg));
    CHECK(aclrtGetFunctionAddr(neg, &aic, &aiv));
    uint64_t words[2] = {(uint64_t)(uintptr_t)aic, 3};
    CHECK(aclrtMemcpy((char *)word + 16, 16, words, 16, ACL_MEMCPY_HOST_TO_DEVICE));
    aclrtTaskUpdateInfo info;
    memset(&info, 0, sizeof info);
    info.id = ACL_RT_UPDATE_AIC_AIV_TASK;
    info.val.aicAivTaskAttr.binHandle = bin;
    info.val.aicAivTaskAttr.funcEntryAddr = (char *)word + 16;
    info.val.aicAivTaskAttr.blockDimAddr = (char *)word + 24;
    CHECK(aclrtTaskUpdateAsync(ps, 0, &info, s));
    CHECK(aclrtSynchronizeStream(s));
    memset(host, 0, sizeof host);
    CHECK(aclrtMemcpy(out, sizeof host, host, sizeof host, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclmdlRIExecuteAsync(m, s));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtMemcpy(host, sizeof host, out, sizeof host, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(host[0] == -42 && host[2] == -42 && host[3] == 0,
           "aclrtTaskUpdateAsync: the next run runs fill_neg over 3 blocks with the task's arguments (%lld %lld %lld %lld)",
           (long long)host[0], (long long)host[1], (long long)host[2], (long long)host[3]);
    REFUSE(aclrtTaskUpdateAsync(ps, 9, &info, s), ACL_ERROR_RT_PARAM_INVALID, "taskId 9 is invalid", "aclrtTaskUpdateAsync of taskId 9");
    REFUSE(aclrtTaskUpdateAsync(ps, 1, &info, s), ACL_ERROR_RT_PARAM_INVALID, "expected a kernel task", "aclrtTaskUpdateAsync of a value write task");
    REFUSE(aclrtTaskUpdateAsync(ps, 0, NULL, s), ACL_ERROR_INVALID_PARAM, "info", "aclrtTaskUpdateAsync with info NULL");
    info.id = ACL_RT_UPDATE_RANDOM_TASK;
    REFUSE(aclrtTaskUpdateAsync(ps, 0, &info, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "random-number tasks",
           "aclrtTaskUpdateAsync of ACL_RT_UPDATE_RANDOM_TASK");
    /* An entry that starts no kernel of the binary faults the update task. */
    info.id = ACL_RT_UPDATE_AIC_AIV_TASK;
    words[0] += 1;
    CHECK(aclrtMemcpy((char *)word + 16, 8, words, 8, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtTaskUpdateAsync(ps, 0, &info, s));
    aclError rc = aclrtSynchronizeStream(s);
    EXPECT(rc != ACL_SUCCESS, "an update whose entry word names no kernel faults its stream (%d)", rc);
    clear_errors();

    /* A run waiting for a word nobody writes ends with aclmdlRIAbort. */
    CHECK(aclrtCreateStreamWithConfig(&ps2, 0, ACL_STREAM_PERSISTENT));
    CHECK(aclmdlRIBuildBegin(&m2, 0));
    CHECK(aclmdlRIBindStream(m2, ps2, ACL_MODEL_STREAM_FLAG_HEAD));
    CHECK(aclrtValueWait((char *)word + 32, 1, ACL_STREAM_WAIT_VALUE_EQ, ps2));
    CHECK(aclmdlRIEndTask(m2, ps2));
    CHECK(aclmdlRIBuildEnd(m2, NULL));
    CHECK(aclmdlRIExecuteAsync(m2, s));
    sleep_ms(50);
    CHECK(aclmdlRIAbort(m2));
    rc = aclrtSynchronizeStream(s);
    EXPECT(rc == ACL_ERROR_RT_MODEL_ABORT_NORMAL, "aclmdlRIAbort ends the waiting run: its stream reports %d", rc);
    clear_errors();
    uint64_t one = 1;
    CHECK(aclrtMemcpy((char *)word + 32, 8, &one, 8, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclmdlRIExecuteAsync(m2, s));
    CHECK(aclrtSynchronizeStream(s));
    EXPECT(1, "the model runs again after the abort");
    REFUSE(aclmdlRIAbort(NULL), ACL_ERROR_INVALID_PARAM, "modelRI", "aclmdlRIAbort(NULL)");

    CHECK(aclmdlRIDestroy(m2));
    CHECK(aclmdlRIDestroy(m));
    CHECK(aclrtDestroyStream(ps2));
    CHECK(aclrtDestroyStream(ps));
    CHECK(aclrtFree(word));
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s libkernels.so\n", argv[0]);
        return 2;
    }
    aclrtStream s = NULL;
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&s));

    /* A description of the caller's bytes, loaded like aclrtBinaryLoadFromData. */
    size_t len = 0;
    char *image = read_all(argv[1], &len);
    EXPECT(image != NULL && len > 0, "read %s", argv[1]);
    aclrtBinary desc = aclrtCreateBinary(image, len);
    EXPECT(desc != NULL, "aclrtCreateBinary of %zu bytes", len);
    clear_errors();
    EXPECT(aclrtCreateBinary(NULL, 8) == NULL && aclrtGetLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_INVALID_PARAM,
           "aclrtCreateBinary(NULL) is NULL, last error 100000");
    aclrtBinHandle bin = NULL;
    CHECK(aclrtBinaryLoad(desc, &bin));
    CHECK(aclrtDestroyBinary(desc)); /* the loaded binary keeps nothing of it */
    REFUSE(aclrtDestroyBinary(desc), ACL_ERROR_RT_INVALID_HANDLE, "binary", "aclrtDestroyBinary twice");
    REFUSE(aclrtBinaryLoad(desc, &bin), ACL_ERROR_RT_INVALID_HANDLE, "binary", "aclrtBinaryLoad of a destroyed description");
    aclrtBinary empty = aclrtCreateBinary(image, 0);
    aclrtBinHandle none = NULL;
    REFUSE(aclrtBinaryLoad(empty, &none), ACL_ERROR_RT_PARAM_INVALID, "dataLen 0 is invalid", "aclrtBinaryLoad of 0 bytes");
    CHECK(aclrtDestroyBinary(empty));

    aclrtFuncHandle fill = NULL, again = NULL, boom = NULL, meet = NULL;
    CHECK(aclrtBinaryGetFunction(bin, "fill", &fill));
    aclrtBinHandle owner = NULL;
    CHECK(aclrtFunctionGetBinary(fill, &owner));
    EXPECT(owner == bin, "aclrtFunctionGetBinary: the binary fill came from");

    void *aic = NULL, *aiv = (void *)1;
    CHECK(aclrtGetFunctionAddr(fill, &aic, &aiv));
    EXPECT(aic != NULL && aiv == NULL, "aclrtGetFunctionAddr: one entry point, no vector-core one");
    CHECK(aclrtBinaryGetFunctionByEntry(bin, (uint64_t)(uintptr_t)aic, &again));
    EXPECT(again == fill, "aclrtBinaryGetFunctionByEntry of that entry is fill's handle");
    REFUSE(aclrtBinaryGetFunctionByEntry(bin, (uint64_t)(uintptr_t)aic + 1, &again), ACL_ERROR_RT_SYMBOL_NOT_FOUND, "starts at",
           "aclrtBinaryGetFunctionByEntry inside a function");

    size_t csize = 0, vsize = 1;
    CHECK(aclrtGetFunctionSize(fill, &csize, &vsize));
    EXPECT(csize > 0 && vsize == 0, "aclrtGetFunctionSize: code of fill, none for vector cores");

    int64_t attr = -1;
    CHECK(aclrtGetFunctionAttribute(fill, ACL_FUNC_ATTR_KERNEL_TYPE, &attr));
    EXPECT(attr == ACL_KERNEL_TYPE_AICORE, "ACL_FUNC_ATTR_KERNEL_TYPE: ACL_KERNEL_TYPE_AICORE");
    REFUSE(aclrtGetFunctionAttribute(fill, (aclrtFuncAttribute)9, &attr), ACL_ERROR_RT_PARAM_INVALID, "attrType 9 is invalid",
           "aclrtGetFunctionAttribute with attrType 9");

    size_t count = 0, off[3], size[3];
    CHECK(aclrtFunctionGetParamCount(fill, &count));
    for (size_t i = 0; i < 3; i++) {
        CHECK(aclrtFunctionGetParamInfo(fill, i, &off[i], &size[i]));
    }
    EXPECT(count == 3 && off[0] == 0 && size[0] == 8 && off[1] == 8 && size[1] == 4 && off[2] == 16 && size[2] == 8,
           "fill's 3 declared parameters lie at 0, 8 and 16, of 8, 4 and 8 bytes");
    REFUSE(aclrtFunctionGetParamInfo(fill, 3, &off[0], NULL), ACL_ERROR_RT_PARAM_INVALID, "paramIndex 3 is invalid",
           "aclrtFunctionGetParamInfo past the last parameter");
    REFUSE(aclrtFunctionGetParamInfo(fill, 0, NULL, NULL), ACL_ERROR_INVALID_PARAM, "both NULL",
           "aclrtFunctionGetParamInfo with both outputs NULL");
    size_t ubuf = 1;
    CHECK(aclrtFunctionGetAvailDynUbufPerBlock(fill, 0, &ubuf));
    EXPECT(ubuf == 0, "aclrtFunctionGetAvailDynUbufPerBlock of a kernel that is not SIMT: 0");
    REFUSE(aclrtFunctionGetAvailDynUbufPerBlock(fill, 1, &ubuf), ACL_ERROR_INVALID_PARAM, "flags 1 is invalid",
           "aclrtFunctionGetAvailDynUbufPerBlock with flags 1");

    /* aclrtGetFuncBySymbol: the kernel a loaded library's function is. */
    void *lib = dlopen(argv[1], RTLD_LAZY | RTLD_GLOBAL);
    EXPECT(lib != NULL, "dlopen %s", argv[1]);
    void *sym = dlsym(lib, "fill");
    aclrtFuncHandle bysym = NULL;
    CHECK(aclrtGetFuncBySymbol(sym, &bysym));
    void *out = NULL;
    int64_t host[4] = {0};
    CHECK(aclrtMalloc(&out, sizeof host, ACL_MEM_MALLOC_NORMAL_ONLY));
    int32_t v = 40;
    int64_t w = 2;
    void *args[3] = {&out, &v, &w};
    CHECK(aclrtLaunchKernelWithArgsArray(bysym, 4, s, NULL, args));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtMemcpy(host, sizeof host, out, sizeof host, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(host[0] == 42 && host[3] == 42, "the kernel aclrtGetFuncBySymbol found runs (%lld)", (long long)host[0]);
    REFUSE(aclrtGetFuncBySymbol((const void *)main, &bysym), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "in the program itself",
           "aclrtGetFuncBySymbol of a function of the program");

    /* A binary's exception callback runs when a kernel of it faults. */
    CHECK(aclrtBinaryGetFunction(bin, "boom", &boom));
    CHECK(aclrtBinarySetExceptionCallback(bin, on_binary_exception, &exc_calls));
    void *bargs[1] = {&out};
    CHECK(aclrtLaunchKernelWithArgsArray(boom, 1, s, NULL, bargs));
    aclError rc = aclrtSynchronizeStream(s);
    EXPECT(rc != ACL_SUCCESS && exc_calls == 1 && exc_user == &exc_calls && exc_code == (uint32_t)rc,
           "the binary's exception callback ran once with its userData and the fault's code %u", exc_code);
    CHECK(aclrtBinarySetExceptionCallback(bin, NULL, NULL));
    CHECK(aclrtLaunchKernelWithArgsArray(boom, 1, s, NULL, bargs));
    (void)aclrtSynchronizeStream(s);
    EXPECT(exc_calls == 1, "a NULL callback removes it");
    clear_errors();

    /* Task scheduler memory: value writes and waits on it. */
    void *ts = NULL;
    CHECK(aclrtMallocForTaskScheduler(&ts, 64, ACL_MEM_MALLOC_HUGE_FIRST, NULL));
    CHECK(aclrtMemset(ts, 64, 0, 64));
    aclrtStream w2 = NULL;
    CHECK(aclrtCreateStream(&w2));
    CHECK(aclrtValueWait(ts, 7, ACL_STREAM_WAIT_VALUE_EQ, w2));
    CHECK(aclrtValueWrite((char *)ts + 8, 9, 0, w2));
    CHECK(aclrtValueWrite(ts, 7, 0, s));
    CHECK(aclrtSynchronizeStream(w2));
    uint64_t words[2] = {0};
    CHECK(aclrtMemcpy(words, sizeof words, ts, sizeof words, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(words[0] == 7 && words[1] == 9, "a value wait on aclrtMallocForTaskScheduler memory released by a value write");
    REFUSE(aclrtMallocForTaskScheduler(&ts, 0, ACL_MEM_MALLOC_HUGE_FIRST, NULL), ACL_ERROR_RT_PARAM_INVALID, "size 0",
           "aclrtMallocForTaskScheduler of 0 bytes");
    CHECK(aclrtFree(ts));

    /* The hardware synchronization word: four blocks of one launch meet. */
    void *hw = NULL, *hw2 = NULL;
    CHECK(aclrtGetHardwareSyncAddr(&hw));
    CHECK(aclrtGetHardwareSyncAddr(&hw2));
    EXPECT(hw != NULL && hw == hw2, "aclrtGetHardwareSyncAddr: one word per device");
    CHECK(aclrtBinaryGetFunction(bin, "meet", &meet));
    void *margs[2] = {&hw, &out};
    for (int round = 0; round < 2; round++) {
        memset(host, 0, sizeof host);
        CHECK(aclrtMemcpy(out, sizeof host, host, sizeof host, ACL_MEMCPY_HOST_TO_DEVICE));
        CHECK(aclrtLaunchKernelWithArgsArray(meet, 4, s, NULL, margs));
        CHECK(aclrtSynchronizeStream(s));
        CHECK(aclrtMemcpy(host, sizeof host, out, sizeof host, ACL_MEMCPY_DEVICE_TO_HOST));
        EXPECT(host[0] + host[1] + host[2] + host[3] == 4, "launch %d: the 4 blocks met on the word", round + 1);
    }
    REFUSE(aclrtGetHardwareSyncAddr(NULL), ACL_ERROR_INVALID_PARAM, "addr", "aclrtGetHardwareSyncAddr(NULL)");
    REFUSE(aclrtFree(hw), ACL_ERROR_RT_PARAM_INVALID, "the runtime owns", "aclrtFree of the word");

    models(s, bin, fill, out);

    CHECK(aclrtFree(out));
    CHECK(aclrtBinaryUnLoad(bin));
    CHECK(aclrtDestroyStream(w2));
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());

    /* Chips without them refuse them. */
    write_file("kernels_950.json", "{\"simulator\": {\"soc_name\": \"Ascend950PR_9599\"}}\n");
    CHECK(aclInit("kernels_950.json"));
    CHECK(aclrtSetDevice(0));
    REFUSE(aclrtGetHardwareSyncAddr(&hw), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "not supported", "aclrtGetHardwareSyncAddr on an Ascend 950");
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    write_file("kernels_310b.json", "{\"simulator\": {\"soc_name\": \"Ascend310B1\"}}\n");
    CHECK(aclInit("kernels_310b.json"));
    CHECK(aclrtSetDevice(0));
    REFUSE(aclrtGetFuncBySymbol(sym, &bysym), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "not supported", "aclrtGetFuncBySymbol on an Atlas 200I/500 A2");
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    free(image);
    printf("PASS 46_kernels\n");
    return 0;
}
