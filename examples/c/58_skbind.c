/*
 * 58_skbind: Ascend C kernels with SuperKernel sub-functions (SK_BIND,
 * __sk__, sk::SkSystemArgs of kernel_operator.h).
 *
 * A kernel launched alone runs itself, also in a captured model; launched
 * inside a SuperKernel (gocann/superkernel.h) it runs its bound
 * sub-function, which reads the launch's arguments from its struct (a
 * 16-bit one aligned to 4) and its block count from sk::SkSystemArgs; the
 * sub-kernel after it sees what it wrote.
 *
 * Usage: 58_skbind <kernel binary with sk_scale and sk_add>
 */
#include "common.h"

#include <gocann/superkernel.h>

static aclrtStream s;
static aclrtFuncHandle scale, add;

static aclError launch_scale(void *out, uint32_t blocks, uint32_t factor, int16_t bias)
{
    void *args[3] = {&out, &factor, &bias};
    return aclrtLaunchKernelWithArgsArray(scale, blocks, s, NULL, args);
}

static aclError launch_add(void *out, void *in, uint32_t blocks, int64_t d)
{
    void *args[3] = {&out, &in, &d};
    return aclrtLaunchKernelWithArgsArray(add, blocks, s, NULL, args);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s <kernel binary>\n", argv[0]);
        return 2;
    }
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&s));
    aclrtBinHandle bin;
    CHECK(aclrtBinaryLoadFromFile(argv[1], NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "sk_scale", &scale));
    CHECK(aclrtBinaryGetFunction(bin, "sk_add", &add));
    void *a = NULL, *b = NULL;
    int64_t w[8];
    CHECK(aclrtMalloc(&a, 512, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&b, 512, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemset(a, 512, 0, 512));
    CHECK(aclrtMemset(b, 512, 0, 512));

    CHECK(launch_scale(a, 4, 7, -3));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtMemcpy(w, sizeof w, a, sizeof w, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(w[0] == -1 && w[3] == -1, "a launch alone runs the kernel itself (%lld %lld)", (long long)w[0], (long long)w[3]);

    aclmdlRI m = NULL;
    CHECK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK(gocannSuperKernelBegin(s, "scale_add"));
    CHECK(launch_scale(a, 5, 7, -3));
    CHECK(launch_add(b, a, 4, 100));
    CHECK(gocannSuperKernelEnd(s));
    CHECK(launch_scale(a, 1, 9, 9)); /* outside the range: the kernel itself */
    CHECK(aclmdlRICaptureEnd(s, &m));
    for (int i = 0; i < 3; i++) {
        CHECK(aclmdlRIExecuteAsync(m, s));
    }
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtMemcpy(w, sizeof w, a, sizeof w, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(w[0] == -1 && w[1] == 7000 - 30 + 5 && w[4] == 7000 - 30 + 5,
           "in a SuperKernel sk_scale runs its __sk__ function: factor, 16-bit bias and skNumBlocks from the struct and "
           "SkSystemArgs (%lld %lld), the launch after the range the kernel (%lld)",
           (long long)w[1], (long long)w[4], (long long)w[0]);
    CHECK(aclrtMemcpy(w, sizeof w, b, sizeof w, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(w[0] == 7000 - 30 + 5 + 100 && w[3] == 7000 - 30 + 5 + 100 && w[4] == 0,
           "sk_add's template sub-function (the first bound) read what sk_scale's wrote (%lld %lld %lld)",
           (long long)w[0], (long long)w[3], (long long)w[4]);
    CHECK(aclmdlRIDestroy(m));

    /* On this chip (the default, an Atlas A2) the calls only compile: two
     * one-block sub-kernels whose 150 ms tails follow SetNextTaskStart run
     * in turn. */
    aclrtFuncHandle tail;
    CHECK(aclrtBinaryGetFunction(bin, "sk_tail", &tail));
    uint32_t set = 1;
    void *targs[2] = {&a, &set};
    CHECK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK(gocannSuperKernelBegin(s, "tails"));
    CHECK(aclrtLaunchKernelWithArgsArray(tail, 1, s, NULL, targs));
    CHECK(aclrtLaunchKernelWithArgsArray(tail, 1, s, NULL, targs));
    CHECK(gocannSuperKernelEnd(s));
    CHECK(aclmdlRICaptureEnd(s, &m));
    double start = now_ms();
    CHECK(aclmdlRIExecuteAsync(m, s));
    CHECK(aclrtSynchronizeStream(s));
    double ms = now_ms() - start;
    EXPECT(ms >= 300, "on %s SetNextTaskStart does nothing: the two 150 ms sub-kernels took %.0f ms", aclrtGetSocName(), ms);
    CHECK(aclmdlRIDestroy(m));
    CHECK(aclrtFree(a));
    CHECK(aclrtFree(b));
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtBinaryUnLoad(bin));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS 58_skbind\n");
    return 0;
}
