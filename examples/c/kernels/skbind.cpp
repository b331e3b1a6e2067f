// Kernels for 58_skbind: Ascend C kernels with SuperKernel sub-functions
// (SK_BIND). Launched alone they run themselves; captured inside a
// SuperKernel they run their bound __sk__ function, which gets the
// launch's arguments in a struct and, if it asks, its block count.
#include "kernel_operator.h"

// sk_scale alone marks its word -1; its sub-function stores
// factor * 1000 + bias * 10 + the block count.
extern "C" __global__ __aicore__ void sk_scale(GM_ADDR out, uint32_t factor, int16_t bias)
{
    (void)factor;
    (void)bias;
    ((int64_t *)out)[AscendC::GetBlockIdx()] = -1;
}

struct ScaleArgs {
    GM_ADDR out;
    uint32_t factor;
    alignas(4) int16_t bias;
};

__sk__ __aicore__ void sk_scale_sk(const ScaleArgs *args, sk::SkSystemArgs *sys)
{
    AscendC::WaitPreTaskEnd();
    int64_t v = (int64_t)args->factor * 1000 + args->bias * 10 + (int64_t)sys->SkGetNumBlocks();
    ((int64_t *)args->out)[AscendC::GetBlockIdx()] = v;
    AscendC::SetNextTaskStart();
}
SK_BIND(sk_scale, 3, sk_scale_sk);

// sk_add alone adds d to its word; its sub-functions (one template, two
// instances) add d to its neighbour's word instead, which the sub-kernel
// before it wrote.
extern "C" __global__ __aicore__ void sk_add(GM_ADDR out, GM_ADDR in, int64_t d)
{
    (void)in;
    ((int64_t *)out)[AscendC::GetBlockIdx()] += d;
}

struct AddArgs {
    GM_ADDR out;
    GM_ADDR in;
    int64_t d;
};

template <uint32_t Split>
__sk__ __aicore__ void sk_add_sk(const AddArgs *args)
{
    uint32_t j = AscendC::GetBlockIdx();
    ((int64_t *)args->out)[j] = ((const int64_t *)args->in)[j + 1] + args->d + Split;
}
SK_BIND(sk_add, 0, sk_add_sk<0>, sk_add_sk<1>);
