/*
 * 61_copy_after_launch: a synchronous copy or memset right after a launch
 * touching its memory, without a synchronization between them, sees the
 * kernel's work, as the device's head start gives on hardware (the
 * public sample memory/5_d2d_sync_memory_copy relies on it). Launches go
 * through the direct path, so the kernel may still be in the stream's
 * submission area when the copy is called.
 *
 * Usage: 61_copy_after_launch <kernel binary with vadd>
 */
#include "common.h"

#define N (4u << 20)

int main(int argc, char **argv)
{
    aclrtStream s = NULL;
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle vadd = NULL;
    void *x = NULL, *y = NULL, *z = NULL, *w = NULL;
    float *host = NULL;
    uint64_t args[4];
    int round, wrong = 0;

    if (argc < 2) {
        fprintf(stderr, "usage: %s kernels.so\n", argv[0]);
        return 2;
    }
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&s));
    CHECK(aclrtBinaryLoadFromFile(argv[1], NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "vadd", &vadd));
    CHECK(aclrtMalloc(&x, N * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&y, N * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&z, N * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&w, N * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMallocHost((void **)&host, N * sizeof(float)));
    for (uint32_t i = 0; i < N; i++) {
        host[i] = (float)(i % 1000);
    }
    CHECK(aclrtMemcpy(x, N * sizeof(float), host, N * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemset(y, N * sizeof(float), 0, N * sizeof(float)));

    args[0] = (uint64_t)(uintptr_t)x;
    args[1] = (uint64_t)(uintptr_t)y;
    args[2] = (uint64_t)(uintptr_t)z;
    args[3] = N;
    for (round = 0; round < 20; round++) {
        CHECK(aclrtMemset(z, N * sizeof(float), 0xff, N * sizeof(float)));
        CHECK(aclrtLaunchKernel(vadd, 8, args, sizeof args, s));
        CHECK(aclrtMemcpy(w, N * sizeof(float), z, N * sizeof(float), ACL_MEMCPY_DEVICE_TO_DEVICE));
        CHECK(aclrtMemcpy(host, N * sizeof(float), w, N * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST));
        if (host[N - 1] != (float)((N - 1) % 1000) || host[0] != 0.0f) {
            wrong++;
        }
    }
    EXPECT(wrong == 0, "a device-to-device aclrtMemcpy right after a vadd launch copied its sums, 20 of 20 rounds (%d wrong)", wrong);

    CHECK(aclrtLaunchKernel(vadd, 8, args, sizeof args, s));
    CHECK(aclrtMemset(z, N * sizeof(float), 0, 4));
    CHECK(aclrtMemcpy(host, 8, z, 8, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(host[0] == 0.0f && host[1] == 1.0f, "an aclrtMemset right after the launch lands after the kernel's writes (%g %g)", host[0], host[1]);

    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtFreeHost(host));
    CHECK(aclrtFree(x));
    CHECK(aclrtFree(y));
    CHECK(aclrtFree(z));
    CHECK(aclrtFree(w));
    CHECK(aclrtBinaryUnLoad(bin));
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS 61_copy_after_launch\n");
    return 0;
}
