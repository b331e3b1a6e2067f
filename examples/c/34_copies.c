/*
 * More copies: aclrtMemcpyBatch / V2 and aclrtMemcpyBatchAsync / V2 (each
 * copy's bytes, per-copy attributes, the failure index of a refused copy,
 * nothing copied by a refused batch), aclrtMemsetD32 / Async,
 * aclrtMemcpyAsyncWithOffset, copy descriptors (aclrtGetMemcpyDescSize,
 * aclrtSetMemcpyDesc, aclrtMemcpyAsyncWithDesc, replayed from a capture)
 * and aclrtMemcpyAsyncWithCondition.
 */
#include "common.h"

#include <stdint.h>

#define N 16
#define CHUNK 4096

static unsigned char *host;     /* N chunks, patterned */
static void *dev[N];            /* N device chunks */
static void *dsts[N], *srcs[N];
static size_t maxs[N], sizes[N];

static void reset_device(void)
{
    for (int i = 0; i < N; i++) {
        CHECK(aclrtMemset(dev[i], CHUNK, 0xEE, CHUNK));
    }
}

static int device_is(int i, const unsigned char *want)
{
    static unsigned char got[CHUNK];
    CHECK(aclrtMemcpy(got, CHUNK, dev[i], CHUNK, ACL_MEMCPY_DEVICE_TO_HOST));
    return memcmp(got, want, CHUNK) == 0;
}

static int untouched(void)
{
    static unsigned char ee[CHUNK];
    memset(ee, 0xEE, CHUNK);
    int ok = 1;
    for (int i = 0; i < N; i++) {
        ok = ok && device_is(i, ee);
    }
    return ok;
}

static void h2d(void)
{
    for (int i = 0; i < N; i++) {
        dsts[i] = dev[i];
        srcs[i] = host + i * CHUNK;
        maxs[i] = sizes[i] = CHUNK;
    }
}

static void batches(aclrtStream s)
{
    aclrtMemcpyBatchAttr attr[2];
    memset(attr, 0, sizeof attr);
    attr[0].dstLoc.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    attr[0].dstLoc.id = 0;
    attr[0].srcLoc.type = ACL_MEM_LOCATION_TYPE_HOST;
    size_t idx[2] = {0, 0};
    size_t fail = 7;

    reset_device();
    h2d();
    CHECK(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, N, attr, idx, 1, &fail));
    int ok = fail == SIZE_MAX;
    for (int i = 0; i < N; i++) {
        ok = ok && device_is(i, host + i * CHUNK);
    }
    EXPECT(ok, "aclrtMemcpyBatch: each of %d copies landed, failIndex SIZE_MAX", N);

    /* Back to pinned host memory in one queued task, two attribute runs. */
    unsigned char *back = NULL;
    CHECK(aclrtMallocHost((void **)&back, N * CHUNK));
    for (int i = 0; i < N; i++) {
        dsts[i] = back + i * CHUNK;
        srcs[i] = dev[i];
    }
    aclrtMemcpyBatchAttr d2h[2];
    memset(d2h, 0, sizeof d2h);
    d2h[0].dstLoc.type = ACL_MEM_LOCATION_TYPE_HOST;
    d2h[0].srcLoc.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    d2h[1] = d2h[0];
    d2h[1].dstLoc.type = ACL_MEM_LOCATION_TYPE_HOST_NUMA;
    size_t idx2[2] = {0, 5};
    CHECK(aclrtMemcpyBatchAsync(dsts, maxs, srcs, sizes, N, d2h, idx2, 2, &fail, s));
    CHECK(aclrtSynchronizeStream(s));
    EXPECT(memcmp(back, host, N * CHUNK) == 0 && fail == SIZE_MAX,
           "aclrtMemcpyBatchAsync device to host, two attribute runs: every byte back");
    memset(back, 0, N * CHUNK);
    CHECK(aclrtMemcpyBatchAsyncV2(dsts, maxs, srcs, sizes, N, d2h, idx2, 2, s));
    CHECK(aclrtSynchronizeStream(s));
    EXPECT(memcmp(back, host, N * CHUNK) == 0, "aclrtMemcpyBatchAsyncV2: every byte back");
    memset(back, 0, N * CHUNK);
    CHECK(aclrtMemcpyBatchV2(dsts, maxs, srcs, sizes, N, d2h, idx2, 2));
    EXPECT(memcmp(back, host, N * CHUNK) == 0, "aclrtMemcpyBatchV2: every byte back");

    /* Pageable host memory: the async batch returns with its copies done. */
    static unsigned char page[N * CHUNK];
    memset(page, 0, sizeof page);
    CHECK(aclrtMemcpyBatchAsync(dsts, maxs, srcs, sizes, N, d2h, idx2, 1, &fail, s)); /* into pinned: queued */
    for (int i = 0; i < N; i++) {
        dsts[i] = page + i * CHUNK;
    }
    CHECK(aclrtMemcpyBatchAsync(dsts, maxs, srcs, sizes, N, d2h, idx2, 1, &fail, s));
    EXPECT(memcmp(page, host, sizeof page) == 0, "aclrtMemcpyBatchAsync into pageable memory returns with the copies done");
    CHECK(aclrtSynchronizeStream(s));

    /* Refusals: each names the bad copy where the reference says so, and a
     * refused batch copies nothing, the copies before the bad one included. */
    reset_device();
    h2d();
    attr[1] = attr[0];
    attr[1].dstLoc.id = 1;
    idx[1] = 9;
    EXPECT_CODE(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, N, attr, idx, 2, &fail), ACL_ERROR_RT_PARAM_INVALID,
                "a copy whose attribute names device 1 for device 0 memory");
    EXPECT(fail == 9 && untouched(), "failIndex 9 (the first copy of the bad attribute's run), nothing copied");
    EXPECT_CODE(aclrtMemcpyBatchAsync(dsts, maxs, srcs, sizes, N, attr, idx, 2, &fail, s), ACL_ERROR_RT_PARAM_INVALID,
                "the same batch queued");
    CHECK(aclrtSynchronizeStream(s));
    EXPECT(fail == 9 && untouched(), "queued: failIndex 9, nothing copied");
    srcs[4] = dev[3];
    EXPECT_CODE(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, N, attr, idx, 1, &fail), ACL_ERROR_RT_PARAM_INVALID,
                "a device-to-device copy in the batch");
    EXPECT(fail == 4 && untouched(), "failIndex 4, nothing copied");
    h2d();
    maxs[2] = 10;
    EXPECT_CODE(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, N, attr, idx, 1, &fail), ACL_ERROR_INVALID_PARAM,
                "sizes[2] above destMaxs[2]");
    EXPECT(fail == SIZE_MAX, "failIndex SIZE_MAX for a size check");
    h2d();
    attr[0].rsv[5] = 1;
    EXPECT_CODE(aclrtMemcpyBatchV2(dsts, maxs, srcs, sizes, N, attr, idx, 1), ACL_ERROR_INVALID_PARAM, "attrs rsv not 0");
    attr[0].rsv[5] = 0;
    idx[0] = 1;
    EXPECT_CODE(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, N, attr, idx, 1, &fail), ACL_ERROR_RT_PARAM_INVALID, "attrsIndexes[0] not 0");
    idx[0] = 0;
    idx[1] = N;
    EXPECT_CODE(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, N, attr, idx, 2, &fail), ACL_ERROR_RT_PARAM_INVALID, "attrsIndexes[1] = numBatches");
    EXPECT_CODE(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 1, attr, idx, 2, &fail), ACL_ERROR_RT_PARAM_INVALID, "numAttrs above numBatches");
    EXPECT_CODE(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, N, attr, idx, 0, &fail), ACL_ERROR_RT_PARAM_INVALID, "numAttrs 0");
    EXPECT_CODE(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, N, attr, idx, 1, NULL), ACL_ERROR_INVALID_PARAM, "failIndex NULL");
    EXPECT_CODE(aclrtMemcpyBatch(NULL, maxs, srcs, sizes, N, attr, idx, 1, &fail), ACL_ERROR_INVALID_PARAM, "dsts NULL");
    EXPECT_CODE(aclrtMemcpyBatchAsyncV2(dsts, maxs, srcs, NULL, N, attr, idx, 1, s), ACL_ERROR_INVALID_PARAM, "sizes NULL");
    EXPECT_CODE(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 0, attr, idx, 1, &fail), ACL_ERROR_INVALID_PARAM, "numBatches 0");
    sizes[3] = 0;
    EXPECT_CODE(aclrtMemcpyBatchAsync(dsts, maxs, srcs, sizes, N, attr, idx, 1, &fail, s), ACL_ERROR_RT_PARAM_INVALID,
                "a zero-byte copy in a queued batch");
    EXPECT(fail == 3, "failIndex 3 for the zero-byte copy");
    CHECK(aclrtSynchronizeStream(s));
    EXPECT(untouched(), "no refused batch copied a byte");
    memset(sizes, 0, sizeof sizes);
    CHECK(aclrtMemcpyBatch(NULL, NULL, NULL, sizes, N, NULL, NULL, 0, &fail));
    EXPECT(fail == SIZE_MAX, "a batch of zero-byte copies succeeds with nothing else checked");
    CHECK(aclrtFreeHost(back));
}

static void memset32(aclrtStream s)
{
    uint32_t got[64];
    CHECK(aclrtMemset(dev[0], CHUNK, 0, CHUNK));
    CHECK(aclrtMemsetD32((char *)dev[0] + 4, 60, 0xDEADBEEF, 15));
    CHECK(aclrtMemsetD32Async((char *)dev[0] + 128, 128, 0x01020304, 32, s));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtMemcpy(got, sizeof got, dev[0], sizeof got, ACL_MEMCPY_DEVICE_TO_HOST));
    int ok = got[0] == 0 && got[16] == 0 && got[31] == 0 && got[63] == 0x01020304;
    for (int i = 1; i <= 15; i++) {
        ok = ok && got[i] == 0xDEADBEEF;
    }
    for (int i = 32; i < 64; i++) {
        ok = ok && got[i] == 0x01020304;
    }
    EXPECT(ok, "aclrtMemsetD32 and aclrtMemsetD32Async fill their words and nothing else");
    uint32_t *pinned = NULL;
    CHECK(aclrtMallocHost((void **)&pinned, 64));
    CHECK(aclrtMemsetD32Async(pinned, 64, 9, 16, s));
    EXPECT(pinned[15] == 9, "aclrtMemsetD32Async of host memory fills it before returning");
    CHECK(aclrtFreeHost(pinned));
    EXPECT_CODE(aclrtMemsetD32((char *)dev[0] + 2, 64, 1, 1), ACL_ERROR_INVALID_PARAM, "aclrtMemsetD32 unaligned");
    EXPECT_CODE(aclrtMemsetD32(dev[0], 7, 1, 2), ACL_ERROR_INVALID_PARAM, "aclrtMemsetD32 memSize < N*4");
    EXPECT_CODE(aclrtMemsetD32(dev[0], 2 * CHUNK, 1, CHUNK / 2), ACL_ERROR_RT_PARAM_INVALID, "aclrtMemsetD32 past the allocation");
    EXPECT_CODE(aclrtMemsetD32(NULL, 64, 1, 1), ACL_ERROR_INVALID_PARAM, "aclrtMemsetD32 NULL");
    CHECK(aclrtMemsetD32(NULL, 0, 1, 0));
    pass("aclrtMemsetD32 of 0 words checks nothing");
}

static void indirect(aclrtStream s)
{
    void *words = NULL;
    CHECK(aclrtMalloc(&words, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
    uint64_t w[2] = {(uint64_t)(uintptr_t)dev[1], (uint64_t)(uintptr_t)dev[0]};
    CHECK(aclrtMemcpy(dev[0], CHUNK, host, CHUNK, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemset(dev[1], CHUNK, 0, CHUNK));
    CHECK(aclrtMemcpyAsync(words, 16, w, 16, ACL_MEMCPY_HOST_TO_DEVICE, s)); /* read when the copy starts */
    CHECK(aclrtMemcpyAsyncWithOffset((void **)words, CHUNK, 100, (const void **)((char *)words + 8), 1000, 200,
                                     ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, s));
    CHECK(aclrtSynchronizeStream(s));
    static unsigned char got[CHUNK];
    CHECK(aclrtMemcpy(got, CHUNK, dev[1], CHUNK, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(memcmp(got + 100, host + 200, 1000) == 0 && got[99] == 0 && got[1100] == 0,
           "aclrtMemcpyAsyncWithOffset copies between the addresses in the words, at the offsets");
    EXPECT_CODE(aclrtMemcpyAsyncWithOffset((void **)words, CHUNK, 0, (const void **)words, 8, 0, ACL_MEMCPY_DEVICE_TO_DEVICE, s),
                ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpyAsyncWithOffset kind DEVICE_TO_DEVICE");
    EXPECT_CODE(aclrtMemcpyAsyncWithOffset(NULL, CHUNK, 0, (const void **)words, 8, 0, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, s),
                ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpyAsyncWithOffset NULL dst");
    CHECK(aclrtMemcpyAsyncWithOffset((void **)words, CHUNK, CHUNK, (const void **)((char *)words + 8), 8, 0,
                                     ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, s));
    EXPECT_CODE(aclrtSynchronizeStream(s), ACL_ERROR_RT_SYS_DMA, "an offset past the allocation faults the copy when it starts");

    size_t n = 0;
    CHECK(aclrtGetMemcpyDescSize(ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, &n));
    EXPECT(n == 32, "aclrtGetMemcpyDescSize = %zu", n);
    EXPECT_CODE(aclrtGetMemcpyDescSize(ACL_MEMCPY_HOST_TO_DEVICE, &n), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtGetMemcpyDescSize HOST_TO_DEVICE");
    EXPECT_CODE(aclrtGetMemcpyDescSize((aclrtMemcpyKind)9, &n), ACL_ERROR_INVALID_PARAM, "aclrtGetMemcpyDescSize kind 9");
    EXPECT_CODE(aclrtGetMemcpyDescSize(ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetMemcpyDescSize NULL");
    void *desc = NULL;
    CHECK(aclrtMalloc(&desc, n, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtSetMemcpyDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, dev[0], dev[2], 64, NULL));

    aclmdlRI m = NULL;
    aclrtStream cs = NULL;
    CHECK(aclrtCreateStream(&cs));
    CHECK(aclmdlRICaptureBegin(cs, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK(aclrtMemcpyAsyncWithDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, cs));
    CHECK(aclmdlRICaptureEnd(cs, &m));
    CHECK(aclrtMemset(dev[2], CHUNK, 0, CHUNK));
    CHECK(aclmdlRIExecuteAsync(m, s));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtMemcpy(got, CHUNK, dev[2], CHUNK, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(memcmp(got, host, 64) == 0 && got[64] == 0, "a captured aclrtMemcpyAsyncWithDesc copies at its replay");
    CHECK(aclrtSetMemcpyDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, (char *)dev[0] + 1000, (char *)dev[2] + 2000, 300, NULL));
    CHECK(aclmdlRIExecuteAsync(m, s));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtMemcpy(got, CHUNK, dev[2], CHUNK, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(memcmp(got + 2000, host + 1000, 300) == 0, "after aclrtSetMemcpyDesc the same model copies what the descriptor now says");
    CHECK(aclmdlRIDestroy(m));
    CHECK(aclrtDestroyStream(cs));
    EXPECT_CODE(aclrtSetMemcpyDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, dev[0], dev[2], 64, desc), ACL_ERROR_INVALID_PARAM, "aclrtSetMemcpyDesc config not NULL");
    EXPECT_CODE(aclrtSetMemcpyDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, dev[0], dev[2], 0, NULL), ACL_ERROR_INVALID_PARAM, "aclrtSetMemcpyDesc count 0");
    EXPECT_CODE(aclrtSetMemcpyDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, dev[0], dev[2], CHUNK + 1, NULL), ACL_ERROR_RT_PARAM_INVALID, "aclrtSetMemcpyDesc past the source");
    EXPECT_CODE(aclrtSetMemcpyDesc(host, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, dev[0], dev[2], 8, NULL), ACL_ERROR_RT_PARAM_INVALID, "aclrtSetMemcpyDesc into host memory");
    EXPECT_CODE(aclrtMemcpyAsyncWithDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, NULL), ACL_ERROR_INVALID_PARAM, "aclrtMemcpyAsyncWithDesc NULL stream");
    EXPECT_CODE(aclrtMemcpyAsyncWithDesc(NULL, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, s), ACL_ERROR_INVALID_PARAM, "aclrtMemcpyAsyncWithDesc NULL desc");
    CHECK(aclrtFree(desc));
    CHECK(aclrtFree(words));

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    unsigned char hx[8] = {0};
    EXPECT_CODE(aclrtMemcpyAsyncWithCondition(hx, 4, hx + 4, 4, ACL_MEMCPY_HOST_TO_HOST, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                "aclrtMemcpyAsyncWithCondition HOST_TO_HOST");
    CHECK(aclrtMemcpyAsyncWithCondition(dev[3], CHUNK, host, CHUNK, ACL_MEMCPY_HOST_TO_DEVICE, s));
#pragma GCC diagnostic pop
    CHECK(aclrtSynchronizeStream(s));
    EXPECT(device_is(3, host), "aclrtMemcpyAsyncWithCondition copies as aclrtMemcpyAsync");
}

int main(void)
{
    aclrtStream s = NULL;
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&s));
    CHECK(aclrtMallocHost((void **)&host, N * CHUNK));
    for (int i = 0; i < N * CHUNK; i++) {
        host[i] = (unsigned char)(i * 7 + i / CHUNK);
    }
    for (int i = 0; i < N; i++) {
        CHECK(aclrtMalloc(&dev[i], CHUNK, ACL_MEM_MALLOC_NORMAL_ONLY));
    }
    batches(s);
    memset32(s);
    indirect(s);
    for (int i = 0; i < N; i++) {
        CHECK(aclrtFree(dev[i]));
    }
    CHECK(aclrtFreeHost(host));
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS 34_copies\n");
    return 0;
}
