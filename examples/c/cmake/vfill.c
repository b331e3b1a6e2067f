/* A kernel in C; FILL_BIAS comes from ascendc_compile_definitions. */
#include <gocann/kernel.h>

/* y[i] = i + FILL_BIAS for n int32 elements. */
__global__ __aicore__ void vfill(GM_ADDR y, uint64_t n)
{
    int32_t *out = (int32_t *)y;
    for (uint64_t i = (uint64_t)GetBlockIdx(); i < n; i += (uint64_t)GetBlockNum()) {
        out[i] = (int32_t)i + FILL_BIAS;
    }
}
