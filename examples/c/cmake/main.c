/*
 * The host program of the CMake example: loads the fatbin and the shared
 * kernel library that ascendc.cmake built, with aclrtBinaryLoadFromFile,
 * and checks what their kernels computed.
 */
#include "common.h"

#define N 1000

int main(void)
{
    aclrtStream s = NULL;
    aclrtBinHandle fat = NULL, lib = NULL;
    aclrtFuncHandle vscale = NULL, vclamp = NULL, vfill = NULL;
    void *x = NULL, *y = NULL;
    static int32_t hx[N], hy[N];

    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&s));
    CHECK(aclrtMalloc(&x, sizeof hx, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&y, sizeof hy, ACL_MEM_MALLOC_HUGE_FIRST));
    for (int i = 0; i < N; i++) {
        hx[i] = i - 500;
    }
    CHECK(aclrtMemcpy(x, sizeof hx, hx, sizeof hx, ACL_MEMCPY_HOST_TO_DEVICE));

    /* The fatbin: its parameters come from the debug information
     * ascendc.cmake builds it with, so the array launch can pack them. */
    CHECK(aclrtBinaryLoadFromFile(FATBIN_PATH, NULL, &fat));
    CHECK(aclrtBinaryGetFunction(fat, "vscale", &vscale));
    int32_t factor = -3;
    uint32_t n = N;
    void *args[4] = {&x, &y, &factor, &n};
    CHECK(aclrtLaunchKernelWithArgsArray(vscale, 8, s, NULL, args));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtMemcpy(hy, sizeof hy, y, sizeof hy, ACL_MEMCPY_DEVICE_TO_HOST));
    int right = 0;
    for (int i = 0; i < N; i++) {
        right += hy[i] == (i - 500) * -3;
    }
    EXPECT(right == N, "ascendc_fatbin_library: vscale from %s, %d of %d right", FATBIN_PATH, right, N);

    /* The fatbin's kernel written with kernel_operator.h. */
    CHECK(aclrtBinaryGetFunction(fat, "vclamp", &vclamp));
    int32_t lo = -7;
    void *cargs[4] = {&x, &y, &lo, &n};
    CHECK(aclrtLaunchKernelWithArgsArray(vclamp, 1, s, NULL, cargs));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtMemcpy(hy, sizeof hy, y, sizeof hy, ACL_MEMCPY_DEVICE_TO_HOST));
    right = 0;
    for (int i = 0; i < N; i++) {
        right += hy[i] == (i - 500 > lo ? i - 500 : lo);
    }
    EXPECT(right == N, "kernel_operator.h: vclamp (TPipe, TQue, DataCopy, Maxs), %d of %d right", right, N);

    /* The shared library, built with a definition of its own. */
    CHECK(aclrtBinaryLoadFromFile(SHARED_PATH, NULL, &lib));
    CHECK(aclrtBinaryGetFunction(lib, "vfill", &vfill));
    struct {
        void *y;
        uint64_t n;
    } fargs = {y, N};
    CHECK(aclrtLaunchKernelWithHostArgs(vfill, 4, s, NULL, &fargs, sizeof fargs, NULL, 0));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtMemcpy(hy, sizeof hy, y, sizeof hy, ACL_MEMCPY_DEVICE_TO_HOST));
    right = 0;
    for (int i = 0; i < N; i++) {
        right += hy[i] == i + 100;
    }
    EXPECT(right == N, "ascendc_library SHARED: vfill with FILL_BIAS=100, %d of %d right", right, N);

    CHECK(aclrtBinaryUnLoad(fat));
    CHECK(aclrtBinaryUnLoad(lib));
    CHECK(aclrtFree(x));
    CHECK(aclrtFree(y));
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS cmake_example\n");
    return 0;
}
