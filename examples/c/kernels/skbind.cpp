// Kernels for 58_skbind: Ascend C kernels with SuperKernel sub-functions
// (SK_BIND). Launched alone they run themselves; captured inside a
// SuperKernel they run their bound __sk__ function, which gets the
// launch's arguments in a struct and, if it asks, its block count.
#include <time.h>

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

// For 58_skbind and 59_sk_overlap: kernels calling SetNextTaskStart and
// WaitPreTaskEnd, through gocann/kernel.h's C functions and Ascend C's.

// sk_tail stores 1 at out[block] after 150 ms, calling SetNextTaskStart
// first if set says.
extern "C" __global__ __aicore__ void sk_tail(GM_ADDR out, uint32_t set)
{
    if (set) {
        ::SetNextTaskStart();
    }
    struct timespec ts = {0, 150000000L};
    nanosleep(&ts, NULL);
    ((int64_t *)out)[AscendC::GetBlockIdx()] = 1;
}

// sk_late sets flags[block] 50 ms after SetNextTaskStart.
extern "C" __global__ __aicore__ void sk_late(GM_ADDR flags)
{
    AscendC::SetNextTaskStart();
    struct timespec ts = {0, 50000000L};
    nanosleep(&ts, NULL);
    __atomic_store_n(&((int64_t *)flags)[AscendC::GetBlockIdx()], 1, __ATOMIC_SEQ_CST);
}

// sk_sum stores the four flags' sum at out[block], after WaitPreTaskEnd if
// wait says.
extern "C" __global__ __aicore__ void sk_sum(GM_ADDR flags, GM_ADDR out, uint32_t wait)
{
    if (wait) {
        AscendC::WaitPreTaskEnd();
    }
    int64_t sum = 0;
    for (int j = 0; j < 4; j++) {
        sum += __atomic_load_n(&((int64_t *)flags)[j], __ATOMIC_SEQ_CST);
    }
    ((int64_t *)out)[AscendC::GetBlockIdx()] = sum;
}

// sk_some breaks the contract: only block 0 calls SetNextTaskStart.
extern "C" __global__ __aicore__ void sk_some(GM_ADDR out)
{
    (void)out;
    if (AscendC::GetBlockIdx() == 0) {
        ::SetNextTaskStart();
    }
}

// sk_liar's cap declares SetNextTaskStart, which its sub-function never
// calls.
extern "C" __global__ __aicore__ void sk_liar(GM_ADDR out)
{
    ((int64_t *)out)[AscendC::GetBlockIdx()] = 2;
}

struct LiarArgs {
    GM_ADDR out;
};

__sk__ __aicore__ void sk_liar_sk(const LiarArgs *args)
{
    ((int64_t *)args->out)[AscendC::GetBlockIdx()] = 3;
}
SK_BIND(sk_liar, 2, sk_liar_sk);

// sk_sneak's sub-function calls SetNextTaskStart, which its cap 0 does not
// declare.
extern "C" __global__ __aicore__ void sk_sneak(GM_ADDR out)
{
    (void)out;
}

__sk__ __aicore__ void sk_sneak_sk(const LiarArgs *args)
{
    (void)args;
    AscendC::SetNextTaskStart();
}
SK_BIND(sk_sneak, 0, sk_sneak_sk);
