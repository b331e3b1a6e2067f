/*
 * Vector kernels for the examples, in Ascend C style: each block handles
 * an equal share of the elements, found from GetBlockIdx/GetBlockNum.
 * Build: gcc -g -O2 -shared -fPIC -I<include> vadd.c -o libvadd.so
 */
#include <stdio.h>

#include <gocann/kernel.h>

/* share returns the element range [*lo, *hi) of the calling block. */
static void share(uint64_t n, uint64_t *lo, uint64_t *hi)
{
    uint64_t blocks = (uint64_t)GetBlockNum();
    uint64_t per = (n + blocks - 1) / blocks;
    *lo = per * (uint64_t)GetBlockIdx();
    *hi = *lo + per < n ? *lo + per : n;
    if (*lo > n) {
        *lo = n;
    }
}

/* z[i] = x[i] + y[i] for float vectors of n elements. */
__global__ __aicore__ void vadd(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint64_t n)
{
    const float *a = (const float *)x;
    const float *b = (const float *)y;
    float *c = (float *)z;
    uint64_t lo, hi;
    share(n, &lo, &hi);
    for (uint64_t i = lo; i < hi; i++) {
        c[i] = a[i] + b[i];
    }
}

/* vadd with a 4-byte element count, to check argument packing by size. */
__global__ __aicore__ void vadd_n32(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n)
{
    vadd(x, y, z, n);
}

/* Adds the scalar k to n int32 elements of x in place. */
__global__ __aicore__ void add_scalar(GM_ADDR x, int64_t k, uint64_t n)
{
    int32_t *v = (int32_t *)x;
    uint64_t lo, hi;
    share(n, &lo, &hi);
    for (uint64_t i = lo; i < hi; i++) {
        v[i] += (int32_t)k;
    }
}

/* A parameter of 16 bytes: it takes two 8-byte slots of the argument
 * block, as two integer registers carry it. */
struct span {
    uint64_t first;
    uint64_t count;
};

/* out[i] = sp.first + i for i < sp.count (int64 elements). */
__global__ __aicore__ void iota(GM_ADDR out, struct span sp)
{
    int64_t *o = (int64_t *)out;
    uint64_t lo, hi;
    share(sp.count, &lo, &hi);
    for (uint64_t i = lo; i < hi; i++) {
        o[i] = (int64_t)(sp.first + i);
    }
}

/* Block `which` calls Trap(); the others write their index to out. */
__global__ __aicore__ void trap_block(GM_ADDR out, uint64_t which)
{
    if ((uint64_t)GetBlockIdx() == which) {
        Trap();
    }
    ((int64_t *)out)[GetBlockIdx()] = GetBlockIdx();
}

/* Block 0 prints a line with the tag; kernels' printf goes to the
 * process's stdout. */
__global__ __aicore__ void hello(uint64_t tag)
{
    if (GetBlockIdx() == 0) {
        printf("kernel hello: tag %llu, %lld blocks\n", (unsigned long long)tag, (long long)GetBlockNum());
        fflush(stdout);
    }
}
