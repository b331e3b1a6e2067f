// A static kernel library's source, as CANN samples write them: kernels
// and the host functions that launch them with <<<>>>, which
// ascendc.cmake rewrites for the host compiler. extern "C" lets the C host
// program call the launchers.
#include "kernel_operator.h"

// ascendc_compile_options gave the kernel code and the host code one each.
#if !defined(VINC_KERNEL_OPT) || !defined(VINC_HOST_OPT)
#error "ascendc_compile_options did not reach the compiler"
#endif

// x[block] += by: each block its own element.
extern "C" __global__ __aicore__ void vinc(__gm__ uint32_t *x, uint32_t by)
{
    int32_t idx = block_idx;
    x[idx] += by;
}

// y[i] = a * x[i] + y[i] for n floats, one block.
extern "C" __global__ __aicore__ void vaxpy(float a, __gm__ float *x, __gm__ float *y, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        y[i] = a * x[i] + y[i];
    }
}

// The AI core's trap instruction stops the block.
extern "C" __global__ __aicore__ void vtrap() { asm("trap"); }

extern "C" void vinc_do(uint32_t blockDim, void *stream, uint32_t *x, uint32_t by)
{
    vinc<<<blockDim, nullptr, stream>>>(x, by);
}

// The launch's value is its code.
extern "C" int32_t vinc_code(uint32_t blockDim, void *stream, uint32_t *x, uint32_t by)
{
    return static_cast<int32_t>(vinc<<<blockDim, nullptr, stream>>>(x, by));
}

extern "C" void vaxpy_do(void *stream, float a, float *x, float *y, uint32_t n) { vaxpy<<<1, nullptr, stream>>>(a, x, y, n); }

extern "C" void vtrap_do(uint32_t blockDim, void *stream) { vtrap<<<blockDim, nullptr, stream>>>(); }
