/*
 * 01_device: initialization, devices and their reference counts, device
 * queries, and the defaultDevice configuration key.
 */
#include "common.h"

#include <pthread.h>

/* A thread that never calls aclrtSetDevice, run with defaultDevice set. */
static void *implicit_device(void *arg)
{
    int32_t *dev = arg;
    void *p = NULL;
    aclrtStream s = NULL;
    CHECK(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    pass("defaultDevice: aclrtMalloc without aclrtSetDevice");
    CHECK(aclrtCreateStream(&s));
    pass("defaultDevice: aclrtCreateStream without aclrtSetDevice");
    CHECK(aclrtMemsetAsync(p, 4096, 0x5a, 4096, s));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtGetDevice(dev));
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtFree(p));
    return NULL;
}

int main(void)
{
    uint32_t count = 0;
    int32_t dev = -1;
    int64_t v = 0;
    size_t freeMem = 0, total = 0;

    /* The reference states no precondition for aclrtGetSocName, so it is
     * called before aclInit too. */
    const char *soc = aclrtGetSocName();
    EXPECT(soc != NULL && strncmp(soc, "Ascend", 6) == 0, "aclrtGetSocName before aclInit: %s", soc ? soc : "(null)");

    EXPECT_CODE(aclrtGetDeviceCount(&count), ACL_ERROR_UNINITIALIZE, "aclrtGetDeviceCount before aclInit");
    CHECK(aclInit(NULL));
    pass("aclInit(NULL)");
    EXPECT_CODE(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE, "repeated aclInit");

    CHECK(aclrtGetDeviceCount(&count));
    EXPECT(count >= 2, "aclrtGetDeviceCount = %u (>= 2)", count);

    soc = aclrtGetSocName();
    EXPECT(soc != NULL && strncmp(soc, "Ascend", 6) == 0, "aclrtGetSocName after aclInit: %s", soc ? soc : "(null)");

    int32_t maj = 0, min = 0, patch = 0;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations" /* still exported for old programs */
    CHECK(aclrtGetVersion(&maj, &min, &patch));
#pragma GCC diagnostic pop
    EXPECT(maj == ACL_MAJOR_VERSION && min == ACL_MINOR_VERSION && patch == ACL_PATCH_VERSION,
           "aclrtGetVersion = %d.%d.%d", maj, min, patch);

    /* No device set yet: the thread has no context. */
    EXPECT_CODE(aclrtGetDevice(&dev), ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetDevice before aclrtSetDevice");
    EXPECT_CODE(aclrtSetDevice((int32_t)count), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtSetDevice(count)");
    EXPECT_CODE(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtSetDevice(-1)");

    CHECK(aclrtSetDevice(0));
    CHECK(aclrtGetDevice(&dev));
    EXPECT(dev == 0, "aclrtGetDevice after aclrtSetDevice(0) = %d", dev);
    CHECK(aclrtSetDevice(1));
    CHECK(aclrtGetDevice(&dev));
    EXPECT(dev == 1, "aclrtGetDevice after aclrtSetDevice(1) = %d", dev);

    /* Device queries. */
    CHECK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &v));
    EXPECT(v > 0, "aclrtGetDeviceInfo AICORE_CORE_NUM = %lld", (long long)v);
    CHECK(aclrtGetDeviceInfo(1, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, &v));
    EXPECT(v > 0, "aclrtGetDeviceInfo TOTAL_GLOBAL_MEM_SIZE = %lld", (long long)v);
    int64_t hbm = v;
    EXPECT_CODE(aclrtGetDeviceInfo(count, ACL_DEV_ATTR_AICORE_CORE_NUM, &v), ACL_ERROR_RT_INVALID_DEVICEID,
                "aclrtGetDeviceInfo of a device that does not exist");
    EXPECT_CODE(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, NULL), ACL_ERROR_INVALID_PARAM,
                "aclrtGetDeviceInfo with NULL value");

    CHECK(aclrtGetMemInfo(ACL_HBM_MEM, &freeMem, &total));
    EXPECT(total > 0 && freeMem <= total && (int64_t)total == hbm, "aclrtGetMemInfo: free %zu of %zu", freeMem, total);
    void *big = NULL;
    const size_t bigSize = 256u << 20;
    CHECK(aclrtMalloc(&big, bigSize, ACL_MEM_MALLOC_HUGE_ONLY));
    size_t free2 = 0, total2 = 0;
    CHECK(aclrtGetMemInfo(ACL_HBM_MEM, &free2, &total2));
    EXPECT(total2 == total && free2 + bigSize <= freeMem, "aclrtGetMemInfo after a 256 MiB aclrtMalloc: free %zu", free2);
    CHECK(aclrtFree(big));

    int32_t least = -1, greatest = -1;
    CHECK(aclrtDeviceGetStreamPriorityRange(&least, &greatest));
    EXPECT(greatest == 0 && least == 7, "aclrtDeviceGetStreamPriorityRange: least %d, greatest %d", least, greatest);

    /* Reference counting: two aclrtSetDevice(0) need two aclrtResetDevice(0).
     * A stream of the default context lives until the last reset. */
    CHECK(aclrtSetDevice(0)); /* second reference on device 0 */
    aclrtStream s0 = NULL;
    CHECK(aclrtCreateStream(&s0));
    CHECK(aclrtResetDevice(0));
    CHECK(aclrtSynchronizeStream(s0));
    pass("after one of two aclrtResetDevice(0), a stream of device 0 still works");
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtResetDevice(0));
    CHECK(aclrtResetDevice(0));
    EXPECT_CODE(aclrtSynchronizeStream(s0), ACL_ERROR_RT_INVALID_HANDLE,
                "after the last aclrtResetDevice(0), its streams are gone");
    /* The reference says a reset past the last reference fails, without
     * naming the code. */
    aclError rc = aclrtResetDevice(0);
    EXPECT(rc != ACL_SUCCESS, "aclrtResetDevice(0) with no reference left fails (%d)", rc);
    clear_errors();

    /* aclrtResetDeviceForce drops every reference at once. */
    CHECK(aclrtSetDevice(1));
    CHECK(aclrtSetDevice(1)); /* three references on device 1 now */
    aclrtStream s1 = NULL;
    CHECK(aclrtCreateStream(&s1));
    CHECK(aclrtResetDeviceForce(1));
    pass("aclrtResetDeviceForce(1) with three references");
    EXPECT_CODE(aclrtSynchronizeStream(s1), ACL_ERROR_RT_INVALID_HANDLE, "stream of a force-reset device is gone");
    rc = aclrtResetDeviceForce(1);
    EXPECT(rc != ACL_SUCCESS, "second aclrtResetDeviceForce(1) fails (%d)", rc);
    rc = aclrtResetDevice(1);
    EXPECT(rc != ACL_SUCCESS, "aclrtResetDevice(1) after the force reset fails (%d)", rc);
    clear_errors();

    /* Finalize; a second one is a repeat; initialization works again. An
     * explicit context and stream still alive at aclFinalize end with it. */
    aclrtContext ctx = NULL;
    aclrtStream live = NULL;
    CHECK(aclrtCreateContext(&ctx, 0));
    CHECK(aclrtCreateStream(&live));
    CHECK(aclFinalize());
    pass("aclFinalize");
    EXPECT_CODE(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE, "second aclFinalize");
    /* aclrtSetDevice without a running runtime starts it, as aclInit(NULL)
     * would (CANN's runtime layer needs no aclInit); the next aclInit takes
     * that start over, and one with a configuration is too late for it. */
    EXPECT_CODE(aclrtSetDevice(0), ACL_SUCCESS, "aclrtSetDevice after aclFinalize starts the runtime again");
    write_file("late.json", "{}\n");
    EXPECT_CODE(aclInit("late.json"), ACL_ERROR_REPEAT_INITIALIZE, "aclInit with a configuration after that start");
    CHECK(aclFinalize());
    CHECK(aclrtSetDevice(0));
    CHECK(aclInit(NULL));
    pass("aclInit(NULL) takes over the start aclrtSetDevice made");
    EXPECT_CODE(aclrtSetCurrentContext(ctx), ACL_ERROR_RT_INVALID_HANDLE, "a context from before aclFinalize is gone");
    EXPECT_CODE(aclrtSynchronizeStream(live), ACL_ERROR_RT_INVALID_HANDLE, "and so is its stream");
    CHECK(aclrtSetDevice(0));
    void *p = NULL;
    CHECK(aclrtMalloc(&p, 1024, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMemset(p, 1024, 0, 1024));
    CHECK(aclrtFree(p));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    pass("aclInit / aclFinalize / aclInit again works");

    /* aclFinalizeReference undoes one aclInit; the last one finalizes. */
    uint64_t refs = 99;
    CHECK(aclInit(NULL));
    EXPECT_CODE(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE, "second aclInit adds a reference");
    CHECK(aclFinalizeReference(&refs));
    CHECK(aclrtGetDeviceCount(&count));
    EXPECT(refs == 1, "aclFinalizeReference leaves %llu reference; the runtime still works", (unsigned long long)refs);
    CHECK(aclFinalizeReference(&refs));
    EXPECT(refs == 0, "the last aclFinalizeReference leaves %llu", (unsigned long long)refs);
    EXPECT_CODE(aclrtGetDeviceCount(&count), ACL_ERROR_UNINITIALIZE, "and finalizes");
    EXPECT_CODE(aclFinalizeReference(&refs), ACL_ERROR_REPEAT_FINALIZE, "one more aclFinalizeReference");

    /* A configuration file: defaultDevice lets a thread use device 1
     * without aclrtSetDevice. */
    write_file("default_device.json", "{\"defaultDevice\": {\"default_device\": \"1\"}}\n");
    CHECK(aclInit("default_device.json"));
    pass("aclInit with a JSON configuration file");
    pthread_t th;
    dev = -1;
    if (pthread_create(&th, NULL, implicit_device, &dev) != 0 || pthread_join(th, NULL) != 0) {
        fail_exit(__FILE__, __LINE__, 0, "pthread");
    }
    EXPECT(dev == 1, "defaultDevice: aclrtGetDevice in the thread = %d", dev);
    CHECK(aclrtResetDeviceForce(1));
    CHECK(aclFinalize());

    write_file("bad.json", "{\"defaultDevice\": ");
    rc = aclInit("bad.json");
    EXPECT(rc == ACL_ERROR_PARSE_FILE, "aclInit with malformed JSON -> %d", rc);
    rc = aclInit("does-not-exist.json");
    EXPECT(rc == ACL_ERROR_INVALID_FILE, "aclInit with a missing file -> %d", rc);

    printf("PASS 01_device\n");
    return 0;
}
