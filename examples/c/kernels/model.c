/*
 * Kernels for the model run instance examples (12_model_build to
 * 18_graph_example): small operations on 64-bit words of device memory
 * whose results show which captured or bound tasks ran, how often and in
 * which order, and a vector kernel whose scalar parameters a task update
 * replaces.
 * Build: gcc -g -O2 -shared -fPIC -I<include> model.c -o libmodel.so
 */
#include <gocann/kernel.h>

/* Appends the decimal digit d to the trace word: *word = *word * 10 + d.
 * Reading the word back tells the order the tasks ran in. */
__global__ __aicore__ void trace(GM_ADDR word, uint64_t d)
{
    if (GetBlockIdx() == 0) {
        uint64_t *w = (uint64_t *)word;
        *w = *w * 10 + d;
    }
}

/* Adds k to the word, once per launch whatever the block count. */
__global__ __aicore__ void add_word(GM_ADDR word, uint64_t k)
{
    if (GetBlockIdx() == 0) {
        __atomic_add_fetch((uint64_t *)word, k, __ATOMIC_SEQ_CST);
    }
}

/* The body of a WHILE loop: decrements the condition word and counts the
 * iterations in *count. */
__global__ __aicore__ void countdown(GM_ADDR cond, GM_ADDR count)
{
    if (GetBlockIdx() == 0) {
        *(uint64_t *)cond -= 1;
        *(uint64_t *)count += 1;
    }
}

/* y[i] = a * x[i] + b for n int64 elements, each block doing its share. */
__global__ __aicore__ void axpb(GM_ADDR x, GM_ADDR y, int64_t a, int64_t b, uint64_t n)
{
    const int64_t *xs = (const int64_t *)x;
    int64_t *ys = (int64_t *)y;
    uint64_t blocks = (uint64_t)GetBlockNum();
    uint64_t per = (n + blocks - 1) / blocks;
    uint64_t lo = per * (uint64_t)GetBlockIdx();
    uint64_t hi = lo + per < n ? lo + per : n;
    for (uint64_t i = lo; i < hi; i++) {
        ys[i] = a * xs[i] + b;
    }
}
