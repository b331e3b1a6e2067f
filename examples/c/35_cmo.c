/*
 * Cache maintenance: aclrtMemFlush, aclrtMemInvalidate,
 * aclrtDeviceL2CacheFlush, aclrtCmoAsync, the descriptor forms
 * (aclrtCmoGetDescSize, aclrtCmoSetDesc, aclrtCmoAsyncWithDesc) and the
 * barrier forms on a model's stream (aclrtCmoAsyncWithBarrier,
 * aclrtCmoWaitBarrier), refused on an Atlas A2 and run on an Atlas 200I/500
 * A2, the chip that has them. The simulated memory is coherent: each operation is
 * checked and, queued, keeps its place in the stream, is captured like any
 * task, and changes no bytes.
 */
#include "common.h"

#include <stdint.h>

#define SIZE 8192

static int bytes_are(void *dev, size_t off, size_t n, unsigned char v)
{
    static unsigned char got[SIZE];
    CHECK(aclrtMemcpy(got, SIZE, dev, SIZE, ACL_MEMCPY_DEVICE_TO_HOST));
    for (size_t i = off; i < off + n; i++) {
        if (got[i] != v) {
            return 0;
        }
    }
    return 1;
}

/* The barrier forms on an Atlas 200I/500 A2 (Ascend310B1), the simulated
 * chip that has them: on a stream bound to a model only. */
static void barriers(void)
{
    write_file("profile_310b.json", "{\"simulator\": {\"soc_name\": \"Ascend310B1\"}}\n");
    CHECK(aclInit("profile_310b.json"));
    CHECK(aclrtSetDevice(0));
    aclrtStream s = NULL;
    void *d = NULL;
    CHECK(aclrtCreateStream(&s));
    CHECK(aclrtMalloc(&d, SIZE, ACL_MEM_MALLOC_HUGE_FIRST));
    aclrtBarrierTaskInfo info;
    memset(&info, 0, sizeof info);
    info.barrierNum = 1;
    info.cmoInfo[0].cmoType = ACL_RT_CMO_TYPE_INVALID;
    info.cmoInfo[0].barrierId = 3;
    EXPECT_CODE(aclrtCmoAsyncWithBarrier(d, 64, ACL_RT_CMO_TYPE_INVALID, 3, s), ACL_ERROR_RT_STREAM_MODEL, "aclrtCmoAsyncWithBarrier on an unbound stream");
    EXPECT_CODE(aclrtCmoWaitBarrier(&info, s, 0), ACL_ERROR_RT_STREAM_MODEL, "aclrtCmoWaitBarrier on an unbound stream");
    aclrtStream ps = NULL;
    aclmdlRI m = NULL;
    CHECK(aclrtCreateStreamWithConfig(&ps, 0, ACL_STREAM_PERSISTENT));
    CHECK(aclmdlRIBuildBegin(&m, 0));
    CHECK(aclmdlRIBindStream(m, ps, ACL_MODEL_STREAM_FLAG_HEAD));
    CHECK(aclrtMemsetAsync(d, SIZE, 0x22, 8, ps));
    CHECK(aclrtCmoAsyncWithBarrier(d, 64, ACL_RT_CMO_TYPE_INVALID, 3, ps));
    CHECK(aclrtCmoAsyncWithBarrier(d, 64, ACL_RT_CMO_TYPE_WRITEBACK, 0, ps));
    CHECK(aclrtCmoWaitBarrier(&info, ps, 0));
    CHECK(aclrtMemsetAsync(d, SIZE, 0x33, 4, ps));
    EXPECT_CODE(aclrtCmoAsyncWithBarrier(d, 64, ACL_RT_CMO_TYPE_INVALID, 0, ps), ACL_ERROR_RT_PARAM_INVALID, "barrierId 0 for INVALID");
    EXPECT_CODE(aclrtCmoAsyncWithBarrier(d, 64, ACL_RT_CMO_TYPE_FLUSH, 4, ps), ACL_ERROR_RT_PARAM_INVALID, "barrierId 4 for FLUSH");
    info.barrierNum = 7;
    EXPECT_CODE(aclrtCmoWaitBarrier(&info, ps, 0), ACL_ERROR_RT_PARAM_INVALID, "aclrtCmoWaitBarrier barrierNum 7");
    info.barrierNum = 1;
    info.cmoInfo[0].cmoType = ACL_RT_CMO_TYPE_FLUSH;
    EXPECT_CODE(aclrtCmoWaitBarrier(&info, ps, 0), ACL_ERROR_RT_PARAM_INVALID, "aclrtCmoWaitBarrier of a FLUSH");
    info.cmoInfo[0].cmoType = ACL_RT_CMO_TYPE_INVALID;
    EXPECT_CODE(aclrtCmoWaitBarrier(&info, ps, 1), ACL_ERROR_RT_PARAM_INVALID, "aclrtCmoWaitBarrier flag 1");
    EXPECT_CODE(aclrtCmoWaitBarrier(NULL, ps, 0), ACL_ERROR_RT_PARAM_INVALID, "aclrtCmoWaitBarrier NULL");
    CHECK(aclmdlRIEndTask(m, ps));
    CHECK(aclmdlRIBuildEnd(m, NULL));
    CHECK(aclmdlRIExecute(m, -1)); /* no aclmdlRIExecuteAsync on this chip */
    EXPECT(bytes_are(d, 0, 4, 0x33) && bytes_are(d, 4, 4, 0x22), "the model's barrier operations ran in order between its memsets");
    CHECK(aclmdlRIDestroy(m));
    CHECK(aclrtDestroyStream(ps));
    CHECK(aclrtFree(d));
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
}

int main(void)
{
    aclrtStream s = NULL;
    void *d = NULL, *desc = NULL;
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&s));
    CHECK(aclrtMalloc(&d, SIZE, ACL_MEM_MALLOC_NORMAL_ONLY));

    CHECK(aclrtMemFlush(d, SIZE));
    CHECK(aclrtMemInvalidate(d, 100));
    pass("aclrtMemFlush and aclrtMemInvalidate of device memory");
    EXPECT_CODE(aclrtMemFlush(NULL, 8), ACL_ERROR_INVALID_PARAM, "aclrtMemFlush NULL");
    EXPECT_CODE(aclrtMemFlush(d, 0), ACL_ERROR_INVALID_PARAM, "aclrtMemFlush size 0");
    EXPECT_CODE(aclrtMemInvalidate(d, SIZE + 1), ACL_ERROR_RT_PARAM_INVALID, "aclrtMemInvalidate past the allocation");
    CHECK(aclrtDeviceL2CacheFlush(NULL));
    pass("aclrtDeviceL2CacheFlush");
    EXPECT_CODE(aclrtDeviceL2CacheFlush(d), ACL_ERROR_INVALID_PARAM, "aclrtDeviceL2CacheFlush rsv not NULL");

    /* Queued between two memsets: in order, no byte changed. */
    size_t n = 0;
    CHECK(aclrtCmoGetDescSize(&n));
    EXPECT(n == 32, "aclrtCmoGetDescSize = %zu", n);
    CHECK(aclrtMalloc(&desc, n, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtCmoSetDesc(desc, (char *)d + 64, 1024));
    CHECK(aclrtMemsetAsync(d, SIZE, 0x5A, SIZE, s));
    CHECK(aclrtCmoAsync(d, SIZE, ACL_RT_CMO_TYPE_PREFETCH, s));
    CHECK(aclrtCmoAsyncWithDesc(desc, ACL_RT_CMO_TYPE_PREFETCH, s, NULL));
    CHECK(aclrtMemsetAsync(d, SIZE, 0x11, 16, s));
    CHECK(aclrtSynchronizeStream(s));
    EXPECT(bytes_are(d, 0, 16, 0x11) && bytes_are(d, 16, SIZE - 16, 0x5A),
           "memset, aclrtCmoAsync, aclrtCmoAsyncWithDesc, memset: the cache operations ran in order and changed nothing");

    EXPECT_CODE(aclrtCmoAsync(d, SIZE, ACL_RT_CMO_TYPE_FLUSH, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtCmoAsync FLUSH (only PREFETCH)");
    EXPECT_CODE(aclrtCmoAsync(d, SIZE, (aclrtCmoType)9, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtCmoAsync type 9");
    EXPECT_CODE(aclrtCmoAsync(NULL, SIZE, ACL_RT_CMO_TYPE_PREFETCH, s), ACL_ERROR_INVALID_PARAM, "aclrtCmoAsync NULL");
    EXPECT_CODE(aclrtCmoAsync(d, 0, ACL_RT_CMO_TYPE_PREFETCH, s), ACL_ERROR_INVALID_PARAM, "aclrtCmoAsync size 0");
    EXPECT_CODE(aclrtCmoAsync(d, SIZE + 1, ACL_RT_CMO_TYPE_PREFETCH, s), ACL_ERROR_RT_PARAM_INVALID, "aclrtCmoAsync past the allocation");
    int host_word = 0;
    EXPECT_CODE(aclrtCmoAsync(&host_word, 4, ACL_RT_CMO_TYPE_PREFETCH, s), ACL_ERROR_RT_PARAM_INVALID, "aclrtCmoAsync of host memory");
    EXPECT_CODE(aclrtCmoGetDescSize(NULL), ACL_ERROR_RT_PARAM_INVALID, "aclrtCmoGetDescSize NULL");
    EXPECT_CODE(aclrtCmoSetDesc(NULL, d, 8), ACL_ERROR_RT_PARAM_INVALID, "aclrtCmoSetDesc NULL desc");
    EXPECT_CODE(aclrtCmoSetDesc(desc, d, 0), ACL_ERROR_RT_PARAM_INVALID, "aclrtCmoSetDesc size 0");
    EXPECT_CODE(aclrtCmoSetDesc(desc, d, SIZE + 1), ACL_ERROR_RT_PARAM_INVALID, "aclrtCmoSetDesc past the source");
    EXPECT_CODE(aclrtCmoAsyncWithDesc(desc, (aclrtCmoType)4, s, NULL), ACL_ERROR_RT_PARAM_INVALID, "aclrtCmoAsyncWithDesc type 4");
    EXPECT_CODE(aclrtCmoAsyncWithDesc(desc, ACL_RT_CMO_TYPE_WRITEBACK, s, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtCmoAsyncWithDesc WRITEBACK");
    EXPECT_CODE(aclrtCmoAsyncWithDesc(desc, ACL_RT_CMO_TYPE_PREFETCH, s, d), ACL_ERROR_RT_PARAM_INVALID, "aclrtCmoAsyncWithDesc reserve not NULL");

    /* Captured like any task, and replayed. */
    aclrtStream cs = NULL;
    aclmdlRI cap = NULL;
    CHECK(aclrtCreateStream(&cs));
    CHECK(aclmdlRICaptureBegin(cs, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK(aclrtCmoAsync(d, 64, ACL_RT_CMO_TYPE_PREFETCH, cs));
    CHECK(aclrtMemsetAsync(d, SIZE, 0x77, 8, cs));
    CHECK(aclmdlRICaptureEnd(cs, &cap));
    CHECK(aclmdlRIExecuteAsync(cap, s));
    CHECK(aclrtSynchronizeStream(s));
    EXPECT(bytes_are(d, 0, 8, 0x77), "a captured aclrtCmoAsync replays with the memset after it");
    CHECK(aclmdlRIDestroy(cap));
    CHECK(aclrtDestroyStream(cs));

    /* The barrier forms are not on an Atlas A2: barriers() runs them on a
     * chip that has them. */
    EXPECT_CODE(aclrtCmoAsyncWithBarrier(d, 64, ACL_RT_CMO_TYPE_INVALID, 3, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtCmoAsyncWithBarrier on an Atlas A2");
    EXPECT_CODE(aclrtCmoWaitBarrier(NULL, s, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtCmoWaitBarrier on an Atlas A2");

    CHECK(aclrtFree(desc));
    CHECK(aclrtFree(d));
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    barriers();
    printf("PASS 35_cmo\n");
    return 0;
}
