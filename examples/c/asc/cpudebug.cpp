// A main written for CANN's CPU-debug mode: no streams, GmAlloc'd memory
// the host reads in place, ICPU_RUN_KF, and a tiling key the kernel tests
// with TILING_KEY_IS.
#include <cstdint>
#include <cstdio>

#include "kernel_operator.h"
#include "tikicpulib.h"

extern "C" __global__ __aicore__ void pick(GM_ADDR y)
{
    __gm__ int32_t *out = reinterpret_cast<__gm__ int32_t *>(y);
    if (TILING_KEY_IS(1)) {
        out[GetBlockIdx()] = 100 + int32_t(GetBlockIdx());
    } else if (TILING_KEY_IS(2)) {
        out[GetBlockIdx()] = 200 + int32_t(GetBlockIdx());
    }
}

int main()
{
    constexpr uint32_t blocks = 8;
    uint8_t *y = static_cast<uint8_t *>(AscendC::GmAlloc(blocks * sizeof(int32_t)));
    if (y == nullptr) {
        printf("FAIL: GmAlloc\n");
        return 1;
    }
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    int32_t *got = reinterpret_cast<int32_t *>(y);
    for (uint64_t key = 1; key <= 2; key++) {
        ICPU_SET_TILING_KEY(key);
        ICPU_RUN_KF(pick, blocks, y);
        uint32_t right = 0;
        for (uint32_t i = 0; i < blocks; i++) {
            right += got[i] == int32_t(100 * key + i);
        }
        if (right != blocks) {
            printf("FAIL: tiling key %llu: %u of %u right\n", (unsigned long long)key, right, blocks);
            return 1;
        }
        printf("ok: ICPU_RUN_KF(pick, %u) with tiling key %llu: %u of %u right\n", blocks, (unsigned long long)key,
               right, blocks);
    }
    AscendC::GmFree(y);
    printf("PASS cpu_pick\n");
    return 0;
}
