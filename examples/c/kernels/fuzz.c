/*
 * Kernels for the fuzzer (examples/c/fuzz): one that writes a pattern the
 * fuzzer can check, one that does nothing, one that traps, one whose code
 * faults, one that adds to a word, and a SIMT kernel whose threads read each other's slots.
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

/* Every block faults, as a kernel bug does: how 0 reads the word at addr,
 * 1 (and 3) writes it, 2 divides by addr (0). The launch fails with the
 * AI-core code of the fault; the process goes on. */
__global__ __aicore__ void fz_fault(uint64_t how, uint64_t addr)
{
    if (how == 0) {
        (void)*(volatile uint64_t *)(uintptr_t)addr;
    } else if (how == 2) {
        volatile uint32_t a = 1, b = (uint32_t)addr;
        a = a / b;
    } else {
        *(volatile uint64_t *)(uintptr_t)addr = how;
    }
}

/* Adds k to the 64-bit word, once per launch. */
__global__ __aicore__ void fz_add(GM_ADDR word, uint64_t k)
{
    if (GetBlockIdx() == 0) {
        __atomic_add_fetch((uint64_t *)word, k, __ATOMIC_SEQ_CST);
    }
}

/* A SIMT kernel: thread x of block b writes pattern + its global index to
 * its slot of in, waits at the block barrier, then copies the slot of its
 * mirror thread (blockDim.x - 1 - x) of the same block to out. */
GOCANN_SIMT_KERNEL(fz_simt);
__global__ __aicore__ void fz_simt(GM_ADDR in, GM_ADDR out, uint64_t pattern)
{
    gocann_dim3 t = gocann_thread_idx(), b = gocann_block_idx(), d = gocann_block_dim();
    uint64_t *i = (uint64_t *)in + b.x * d.x, *o = (uint64_t *)out + b.x * d.x;
    __atomic_store_n(&i[t.x], pattern + b.x * d.x + t.x, __ATOMIC_SEQ_CST);
    asc_syncthreads();
    o[t.x] = __atomic_load_n(&i[d.x - 1 - t.x], __ATOMIC_SEQ_CST);
}
