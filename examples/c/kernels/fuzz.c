/*
 * Kernels for the fuzzer (examples/c/fuzz): one that writes a pattern the
 * fuzzer can check, one that does nothing, one that traps, one that adds
 * to a word.
 * Build: gcc -g -O2 -shared -fPIC -I<include> fuzz.c -o libfuzzk.so
 */
#include <gocann/kernel.h>

/* A device global for the symbol calls (fuzz/ops_pool.c). */
uint8_t fz_global[64];

/* dst[i] = (uint8_t)(pattern + i) for i < n, each block doing its share. */
__global__ __aicore__ void fz_fill(GM_ADDR dst, uint64_t n, uint64_t pattern)
{
    uint64_t blocks = (uint64_t)GetBlockNum();
    uint64_t per = (n + blocks - 1) / blocks;
    uint64_t lo = per * (uint64_t)GetBlockIdx();
    uint64_t hi = lo + per < n ? lo + per : n;
    for (uint64_t i = lo; i < hi; i++) {
        dst[i] = (uint8_t)(pattern + i);
    }
}

__global__ __aicore__ void fz_nop(void)
{
}

/* Block 0 traps: the launch fails with an AI core trap exception. */
__global__ __aicore__ void fz_trap(void)
{
    if (GetBlockIdx() == 0) {
        Trap();
    }
}

/* Adds k to the 64-bit word, once per launch. */
__global__ __aicore__ void fz_add(GM_ADDR word, uint64_t k)
{
    if (GetBlockIdx() == 0) {
        __atomic_add_fetch((uint64_t *)word, k, __ATOMIC_SEQ_CST);
    }
}
