/*
 * Kernels for 46_kernels: one with declared parameters to describe, one
 * that traps (a binary's exception callback), and one whose blocks meet
 * on the device's hardware synchronization word; and, for 51_control, one
 * that counts its blocks running at once; for 49_timeouts, one that runs
 * past a short execute timeout; for 57_superkernel, two that one
 * SuperKernel orders.
 * Build: gcc -O2 -shared -fPIC -I<include> kernels.c -o libkernels.so
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep under -std=c11 */
#include <time.h>

#include <gocann/kernel.h>

/* fill stores v + w at out[block]. */
__global__ __aicore__ void fill(GM_ADDR out, int32_t v, int64_t w)
{
    ((int64_t *)out)[GetBlockIdx()] = v + w;
}
GOCANN_KERNEL_PARAMS(fill, GOCANN_PARAM_PTR, GOCANN_PARAM_INT32, GOCANN_PARAM_INT64);

/* fill_neg stores -(v + w) at out[block]: what an update turns fill into. */
__global__ __aicore__ void fill_neg(GM_ADDR out, int32_t v, int64_t w)
{
    ((int64_t *)out)[GetBlockIdx()] = -(v + w);
}
GOCANN_KERNEL_PARAMS(fill_neg, GOCANN_PARAM_PTR, GOCANN_PARAM_INT32, GOCANN_PARAM_INT64);

/* boom traps in every block. */
__global__ __aicore__ void boom(GM_ADDR out)
{
    (void)out;
    gocann_trap("boom");
}
GOCANN_KERNEL_PARAMS(boom, GOCANN_PARAM_PTR);

/* meet is a barrier over the 64-bit word at sync: each block adds one and
 * waits (up to about 5 s of spinning) until every block of the launch has
 * arrived, counting from the launch's first arrival; out[block] is 1 if it
 * saw all of them. Any starting value works, so launches may follow each
 * other on one word. */
__global__ __aicore__ void meet(GM_ADDR sync, GM_ADDR out)
{
    uint64_t *word = (uint64_t *)sync;
    uint64_t n = (uint64_t)GetBlockNum();
    uint64_t mine = __atomic_fetch_add(word, 1, __ATOMIC_SEQ_CST);
    uint64_t target = (mine / n + 1) * n;
    int met = 0;
    for (long i = 0; i < 500000000L; i++) {
        if (__atomic_load_n(word, __ATOMIC_SEQ_CST) >= target) {
            met = 1;
            break;
        }
    }
    ((int64_t *)out)[GetBlockIdx()] = met;
}
GOCANN_KERNEL_PARAMS(meet, GOCANN_PARAM_PTR, GOCANN_PARAM_PTR);

/* peak counts its blocks running at once: words[0] is the number running,
 * words[1] the most seen, words[2] the blocks that ran. Each block holds
 * its core for a millisecond, so every block allowed to start overlaps
 * others. */
__global__ __aicore__ void peak(GM_ADDR words)
{
    int64_t *w = (int64_t *)words;
    int64_t n = __atomic_add_fetch(&w[0], 1, __ATOMIC_SEQ_CST);
    int64_t m = __atomic_load_n(&w[1], __ATOMIC_SEQ_CST);
    while (n > m && !__atomic_compare_exchange_n(&w[1], &m, n, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
    }
    struct timespec ts = {0, 1000000L};
    nanosleep(&ts, NULL);
    __atomic_sub_fetch(&w[0], 1, __ATOMIC_SEQ_CST);
    __atomic_add_fetch(&w[2], 1, __ATOMIC_SEQ_CST);
}
GOCANN_KERNEL_PARAMS(peak, GOCANN_PARAM_PTR);

/* mirror is a SIMT kernel: each thread of a block writes its index + 1 to
 * its slot of in, waits at the block barrier, then copies the slot of its
 * mirror thread (blockDim.x - 1 - x) of the same block to out. */
GOCANN_SIMT_KERNEL(mirror);
__global__ __aicore__ void mirror(GM_ADDR in, GM_ADDR out)
{
    gocann_dim3 t = gocann_thread_idx(), b = gocann_block_idx(), d = gocann_block_dim();
    uint64_t *i = (uint64_t *)in + b.x * d.x, *o = (uint64_t *)out + b.x * d.x;
    __atomic_store_n(&i[t.x], (uint64_t)t.x + 1, __ATOMIC_SEQ_CST);
    asc_syncthreads();
    o[t.x] = __atomic_load_n(&i[d.x - 1 - t.x], __ATOMIC_SEQ_CST);
}
GOCANN_KERNEL_PARAMS(mirror, GOCANN_PARAM_PTR, GOCANN_PARAM_PTR);

/* overflows reports a float overflow from block 0. */
__global__ __aicore__ void overflows(void)
{
    if (GetBlockIdx() == 0) {
        gocann_report_overflow();
    }
}
GOCANN_KERNEL_PARAMS(overflows);

/* linger holds its core for ms milliseconds, then stores 1 at done. */
__global__ __aicore__ void linger(GM_ADDR done, int64_t ms)
{
    struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
    __atomic_store_n((int64_t *)done, 1, __ATOMIC_SEQ_CST);
}
GOCANN_KERNEL_PARAMS(linger, GOCANN_PARAM_PTR, GOCANN_PARAM_INT64);

/* For 57_superkernel: sk_fill stores base + block at out[block], block 1
 * after a short sleep; sk_shift copies in[block + 1] to out[block]. In
 * one SuperKernel, sk_shift's block j reads what sk_fill's block j + 1
 * wrote. */
__global__ __aicore__ void sk_fill(GM_ADDR out, int64_t base)
{
    if (GetBlockIdx() == 1) {
        struct timespec ts = {0, 2000000L};
        nanosleep(&ts, NULL);
    }
    ((int64_t *)out)[GetBlockIdx()] = base + GetBlockIdx();
}
GOCANN_KERNEL_PARAMS(sk_fill, GOCANN_PARAM_PTR, GOCANN_PARAM_INT64);

__global__ __aicore__ void sk_shift(GM_ADDR in, GM_ADDR out)
{
    ((int64_t *)out)[GetBlockIdx()] = ((int64_t *)in)[GetBlockIdx() + 1];
}
GOCANN_KERNEL_PARAMS(sk_shift, GOCANN_PARAM_PTR, GOCANN_PARAM_PTR);

/* sk_tail stores 1 at out[block] after 150 ms, calling gocann/kernel.h's
 * SetNextTaskStart first if set says: in a SuperKernel on an Atlas A3
 * the next sub-kernel may start during the sleep. */
__global__ __aicore__ void sk_tail_c(GM_ADDR out, int64_t set)
{
    if (set) {
        SetNextTaskStart();
    }
    struct timespec ts = {0, 150000000L};
    nanosleep(&ts, NULL);
    ((int64_t *)out)[GetBlockIdx()] = 1;
}
GOCANN_KERNEL_PARAMS(sk_tail_c, GOCANN_PARAM_PTR, GOCANN_PARAM_INT64);

/* sk_some_c breaks the calls' contract: block 0 alone calls
 * SetNextTaskStart, and every block WaitPreTaskEnd twice. */
__global__ __aicore__ void sk_some_c(GM_ADDR out, int64_t twice)
{
    (void)out;
    if (twice) {
        WaitPreTaskEnd();
        WaitPreTaskEnd();
    } else if (GetBlockIdx() == 0) {
        SetNextTaskStart();
    }
}
GOCANN_KERNEL_PARAMS(sk_some_c, GOCANN_PARAM_PTR, GOCANN_PARAM_INT64);
