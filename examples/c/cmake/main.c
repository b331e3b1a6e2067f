/*
 * The host program of the CMake example: loads the fatbin and the shared
 * kernel library that ascendc.cmake built, with aclrtBinaryLoadFromFile,
 * and checks what their kernels computed.
 */
#include "common.h"
#include "aclrtlaunch_vinc.h"

#define N 1000

/* What the exception callback saw. */
static uint32_t seen_code;
static aclrtFuncHandle seen_func;

static void on_exception(aclrtExceptionInfo *info)
{
    seen_code = aclrtGetErrorCodeFromExceptionInfo(info);
    aclrtGetFuncHandleFromExceptionInfo(info, &seen_func);
}

/* The static kernel library's launchers (vinc.cpp). */
void vinc_do(uint32_t blockDim, void *stream, uint32_t *x, uint32_t by);
int32_t vinc_code(uint32_t blockDim, void *stream, uint32_t *x, uint32_t by);
void vaxpy_do(void *stream, float a, float *x, float *y, uint32_t n);
void vtrap_do(uint32_t blockDim, void *stream);

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

    /* The static library: kernels linked into this program, launched by
     * its host functions with <<<>>>. */
    uint32_t counts[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    CHECK(aclrtMemcpy(x, sizeof counts, counts, sizeof counts, ACL_MEMCPY_HOST_TO_DEVICE));
    vinc_do(8, s, (uint32_t *)x, 10);
    vinc_do(4, s, (uint32_t *)x, 100);
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtMemcpy(counts, sizeof counts, x, sizeof counts, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(counts[0] == 111 && counts[3] == 114 && counts[4] == 15 && counts[7] == 18,
           "ascendc_library STATIC: vinc<<<8>>> and vinc<<<4>>> from the library's host code (%u %u %u %u)", counts[0],
           counts[3], counts[4], counts[7]);
    /* The launch function the library's build generated for vinc, from C. */
    uint32_t rc0 = ACLRT_LAUNCH_KERNEL(vinc)(8, s, x, 1000);
    uint32_t rc1 = aclrtlaunch_vinc(8, (aclrtStream)(uintptr_t)0x12345678, x, 1);
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtMemcpy(counts, sizeof counts, x, sizeof counts, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(rc0 == 0 && rc1 == ACL_ERROR_RT_INVALID_HANDLE && counts[0] == 1111 && counts[7] == 1018,
           "ACLRT_LAUNCH_KERNEL(vinc) from aclrtlaunch_vinc.h: codes %u and %u, %u %u", rc0, rc1, counts[0], counts[7]);
    float fx[4] = {1, 2, 3, 4}, fy[4] = {10, 20, 30, 40};
    CHECK(aclrtMemcpy(x, sizeof fx, fx, sizeof fx, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(y, sizeof fy, fy, sizeof fy, ACL_MEMCPY_HOST_TO_DEVICE));
    vaxpy_do(s, 0.5f, (float *)x, (float *)y, 4);
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtMemcpy(fy, sizeof fy, y, sizeof fy, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(fy[0] == 10.5f && fy[3] == 42.0f, "vaxpy<<<1>>> with a float parameter: %g %g", fy[0], fy[3]);
    CHECK(aclrtExceptionInfoCallbackRegister(on_exception));
    vtrap_do(2, s);
    clear_errors();
    aclError rc = aclrtSynchronizeStream(s);
    EXPECT(rc == ACL_ERROR_RT_AICORE_TRAP_EXCEPTION, "vtrap<<<2>>>: asm(\"trap\") fails the launch with an AI core trap (%d)", rc);
    EXPECT(seen_code == ACL_ERROR_RT_AICORE_TRAP_EXCEPTION && seen_func != NULL,
           "the exception callback saw the linked kernel's trap (%u) and its function handle", seen_code);
    vinc_do(1, s, (uint32_t *)x, 1);
    CHECK(aclrtSynchronizeStream(s));
    vinc_do(2, (void *)(uintptr_t)0x12345678, (uint32_t *)x, 1);
    rc = aclrtGetLastError(ACL_RT_THREAD_LEVEL);
    EXPECT(rc == ACL_ERROR_RT_INVALID_HANDLE, "a <<<>>> launch on a bad stream leaves its error for aclrtGetLastError (%d)", rc);
    int32_t code = vinc_code(2, (void *)(uintptr_t)0x12345678, (uint32_t *)x, 1);
    int32_t ok = vinc_code(2, s, (uint32_t *)x, 1);
    CHECK(aclrtSynchronizeStream(s));
    EXPECT(code == ACL_ERROR_RT_INVALID_HANDLE && ok == 0, "the value of a <<<>>> launch is its code: %d, then %d", code, ok);

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
