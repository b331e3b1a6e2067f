/*
 * 43_ascendc: kernels written with the Ascend C subset of
 * kernel_operator.h (TPipe, TQue, TBuf, GlobalTensor, LocalTensor,
 * DataCopy, vector operations on half and float): a double-buffered
 * addition of halves over 8 blocks, bit for bit; a float pipeline through a
 * working buffer; and misuses the hardware would get wrong silently or hang
 * on, each failing its launch with an AI core trap whose message says what
 * was wrong, the stream going on after.
 *
 * Usage: 43_ascendc libascendc.so
 */
#include "common.h"

enum { TOTAL = 8 * 2048, TILE = 128, FLOATS = 4 * 64 };

/* misuse launches the misuse kernel's case which and expects the trap at
 * synchronization with a message holding want. */
static void misuse(aclrtFuncHandle fn, aclrtStream s, void *x, uint32_t which, const char *want)
{
    struct {
        void *x;
        uint64_t which;
    } args = {x, which};
    CHECK(aclrtLaunchKernelWithHostArgs(fn, 1, s, NULL, &args, sizeof args, NULL, 0));
    aclError rc = aclrtSynchronizeStream(s);
    const char *msg = aclGetRecentErrMsg();
    EXPECT(rc == ACL_ERROR_RT_AICORE_TRAP_EXCEPTION && msg != NULL && strstr(msg, want) != NULL,
           "misuse %u traps with \"%s\" (%d: %s)", which, want, rc, msg ? msg : "(none)");
    CHECK(aclrtSynchronizeStream(s));
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s libascendc.so\n", argv[0]);
        return 2;
    }
    aclrtStream s = NULL;
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle addHalf = NULL, pipeline = NULL, bad = NULL;
    void *x = NULL, *y = NULL, *z = NULL, *p = NULL;
    static uint16_t hx[TOTAL], hy[TOTAL], hz[TOTAL];
    static float fx[FLOATS], fy[FLOATS];

    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&s));
    CHECK(aclrtBinaryLoadFromFile(argv[1], NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "add_half", &addHalf));
    CHECK(aclrtBinaryGetFunction(bin, "pipeline_float", &pipeline));
    CHECK(aclrtBinaryGetFunction(bin, "misuse", &bad));
    CHECK(aclrtMalloc(&x, sizeof hx, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMalloc(&y, sizeof hy, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMalloc(&z, sizeof hz, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK(aclrtMalloc(&p, 2 * sizeof(float), ACL_MEM_MALLOC_NORMAL_ONLY));

    /* Halves whose sums round: the kernel must round each sum once, as
     * the vector unit does. */
    for (int i = 0; i < TOTAL; i++) {
        hx[i] = aclFloatToFloat16((float)(i % 2000) * 0.37f - 300.0f);
        hy[i] = aclFloatToFloat16((float)(i % 77) * 1.013f);
    }
    CHECK(aclrtMemcpy(x, sizeof hx, hx, sizeof hx, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(y, sizeof hy, hy, sizeof hy, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemset(z, sizeof hz, 0xFF, sizeof hz));
    struct {
        void *x, *y, *z;
        uint64_t total, tile;
    } aargs = {x, y, z, TOTAL, TILE};
    CHECK(aclrtLaunchKernelWithHostArgs(addHalf, 8, s, NULL, &aargs, sizeof aargs, NULL, 0));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtMemcpy(hz, sizeof hz, z, sizeof hz, ACL_MEMCPY_DEVICE_TO_HOST));
    int right = 0;
    for (int i = 0; i < TOTAL; i++) {
        uint16_t want = aclFloatToFloat16(aclFloat16ToFloat(hx[i]) + aclFloat16ToFloat(hy[i]));
        right += hz[i] == want;
    }
    EXPECT(right == TOTAL, "add_half over 8 blocks, tiles of %d in double-buffered queues: %d of %d sums bit for bit",
           TILE, right, TOTAL);

    float params[2] = {-1.5f, 0.25f};
    for (int i = 0; i < FLOATS; i++) {
        fx[i] = (float)(i - FLOATS / 2) * 0.125f;
    }
    CHECK(aclrtMemcpy(x, sizeof fx, fx, sizeof fx, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(p, sizeof params, params, sizeof params, ACL_MEMCPY_HOST_TO_DEVICE));
    struct {
        void *x, *y, *p;
    } pargs = {x, y, p};
    CHECK(aclrtLaunchKernelWithHostArgs(pipeline, 4, s, NULL, &pargs, sizeof pargs, NULL, 0));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtMemcpy(fy, sizeof fy, y, sizeof fy, ACL_MEMCPY_DEVICE_TO_HOST));
    right = 0;
    for (int i = 0; i < FLOATS; i++) {
        float v = fx[i] * params[0] + 1.0f;
        v = v > 0 ? v : 0;
        v = v > params[1] ? v : params[1];
        right += fy[i] == v;
    }
    EXPECT(right == FLOATS, "pipeline_float: Muls, Adds, Relu, Duplicate and Max through a TBuf, %d of %d right", right,
           FLOATS);

    misuse(bad, s, x, 0, "DataCopy: 17 elements of 2 bytes are not a whole number of 32-byte blocks");
    misuse(bad, s, x, 1, "TQue::AllocTensor: all 2 buffers of the queue are in use");
    misuse(bad, s, x, 2, "TQue::DeQue: the queue is empty");
    misuse(bad, s, x, 3, "TQue::FreeTensor: the tensor was not allocated from this queue (or is a view into one)");
    misuse(bad, s, x, 4, "Add: 257 elements past the end of the LocalTensor's 256");
    misuse(bad, s, x, 5, "TPipe::InitBuffer(buf): 131072 more bytes, but 131072 of the 196608-byte unified buffer are already taken");
    misuse(bad, s, x, 6, "TQue::FreeTensor: the tensor is free, not allocated");
    misuse(bad, s, x, 7, "DataCopy from GlobalTensor: 32 elements past the end of the GlobalTensor's 16");

    /* The stream goes on after the traps. */
    CHECK(aclrtMemset(z, sizeof hz, 0, sizeof hz));
    CHECK(aclrtLaunchKernelWithHostArgs(addHalf, 8, s, NULL, &aargs, sizeof aargs, NULL, 0));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtMemcpy(hz, sizeof hz, z, sizeof hz, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(hz[TOTAL - 1] == aclFloatToFloat16(aclFloat16ToFloat(hx[TOTAL - 1]) + aclFloat16ToFloat(hy[TOTAL - 1])),
           "add_half runs again on the stream after the traps");

    CHECK(aclrtFree(p));
    CHECK(aclrtFree(z));
    CHECK(aclrtFree(y));
    CHECK(aclrtFree(x));
    CHECK(aclrtBinaryUnLoad(bin));
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS 43_ascendc\n");
    return 0;
}
