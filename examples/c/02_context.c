/*
 * 02_context: explicit contexts, the current context of a thread, switching
 * devices through contexts, default streams and destroyed contexts.
 */
#include "common.h"

int main(void)
{
    aclrtContext c0 = NULL, c1 = NULL, cur = NULL, def0 = NULL;
    aclrtStream ds0 = NULL, ds1 = NULL, ds = NULL;
    int32_t dev = -1;

    CHECK(aclInit(NULL));
    EXPECT_CODE(aclrtGetCurrentContext(&cur), ACL_ERROR_RT_CONTEXT_NULL, "no current context before any device is set");

    CHECK(aclrtSetDevice(0));
    CHECK(aclrtGetCurrentContext(&def0));
    EXPECT(def0 != NULL, "aclrtSetDevice(0) makes the default context current (%p)", def0);

    /* aclrtCreateContext makes the new context current. */
    CHECK(aclrtCreateContext(&c0, 0));
    CHECK(aclrtGetCurrentContext(&cur));
    EXPECT(cur == c0 && c0 != def0, "aclrtCreateContext(0) makes the new context current");
    CHECK(aclrtCtxGetCurrentDefaultStream(&ds0));
    EXPECT(ds0 != NULL, "aclrtCtxGetCurrentDefaultStream of context 0 = %p", ds0);

    CHECK(aclrtCreateContext(&c1, 1));
    CHECK(aclrtGetCurrentContext(&cur));
    CHECK(aclrtGetDevice(&dev));
    EXPECT(cur == c1 && dev == 1, "aclrtCreateContext(1) switches to device 1 (device %d)", dev);
    CHECK(aclrtCtxGetCurrentDefaultStream(&ds1));
    EXPECT(ds1 != NULL && ds1 != ds0, "each context has its own default stream");

    /* Switching contexts switches the device. */
    CHECK(aclrtSetCurrentContext(c0));
    CHECK(aclrtGetDevice(&dev));
    CHECK(aclrtGetCurrentContext(&cur));
    EXPECT(cur == c0 && dev == 0, "aclrtSetCurrentContext(c0): device %d", dev);
    CHECK(aclrtCtxGetCurrentDefaultStream(&ds));
    EXPECT(ds == ds0, "default stream follows the current context");

    /* Memory allocated in a context belongs to its device. */
    void *p = NULL;
    aclrtPtrAttributes attr;
    CHECK(aclrtSetCurrentContext(c1));
    CHECK(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtPointerGetAttributes(p, &attr));
    EXPECT(attr.location.type == ACL_MEM_LOCATION_TYPE_DEVICE && attr.location.id == 1,
           "memory allocated in context 1 is on device %u", attr.location.id);
    /* Work queued on the NULL stream goes to the current context's
     * default stream, of device 1. */
    CHECK(aclrtMemsetAsync(p, 4096, 7, 4096, NULL));
    CHECK(aclrtSynchronizeStream(ds1));
    unsigned char host[16];
    CHECK(aclrtMemcpy(host, sizeof host, p, sizeof host, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(host[0] == 7 && host[15] == 7, "NULL stream is the current context's default stream");
    CHECK(aclrtFree(p));

    CHECK(aclrtSetCurrentContext(def0));
    CHECK(aclrtGetDevice(&dev));
    EXPECT(dev == 0, "back to the default context of device 0");

    /* Work goes only to streams of the current context; synchronizing
     * another context's stream is allowed. */
    EXPECT_CODE(aclrtMemsetAsync(host, sizeof host, 0, sizeof host, ds1), ACL_ERROR_RT_STREAM_CONTEXT,
                "queueing on a stream of another context");
    CHECK(aclrtSynchronizeStream(ds1));

    /* The default context cannot be destroyed with aclrtDestroyContext
     * (the reference names no code). */
    aclError rc = aclrtDestroyContext(def0);
    EXPECT(rc != ACL_SUCCESS, "aclrtDestroyContext of a default context fails (%d)", rc);
    clear_errors();

    /* Destroying a context: its handle and its default stream are dead. */
    CHECK(aclrtDestroyContext(c1));
    pass("aclrtDestroyContext(c1)");
    EXPECT_CODE(aclrtSetCurrentContext(c1), ACL_ERROR_RT_INVALID_HANDLE, "aclrtSetCurrentContext of a destroyed context");
    EXPECT_CODE(aclrtDestroyContext(c1), ACL_ERROR_RT_INVALID_HANDLE, "aclrtDestroyContext twice");
    EXPECT_CODE(aclrtSynchronizeStream(ds1), ACL_ERROR_RT_INVALID_HANDLE, "default stream of a destroyed context");

    /* Destroying the current context leaves the thread without one: the
     * reference does not say; the runtime does not fall back to the
     * default context. */
    CHECK(aclrtSetCurrentContext(c0));
    CHECK(aclrtDestroyContext(c0));
    EXPECT_CODE(aclrtGetCurrentContext(&cur), ACL_ERROR_RT_CONTEXT_NULL, "destroying the current context leaves none current");
    EXPECT_CODE(aclrtCreateContext(&c0, 2), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtCreateContext on a device that does not exist");
    EXPECT_CODE(aclrtCreateContext(NULL, 0), ACL_ERROR_INVALID_PARAM, "aclrtCreateContext with NULL context");

    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS 02_context\n");
    return 0;
}
