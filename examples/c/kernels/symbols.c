/*
 * Kernels that read and write device globals: the exported variables of
 * this binary are its device symbols (aclrtBinaryGetGlobal,
 * aclrtMemcpyToSymbol, ...).
 * Build: gcc -g -O2 -shared -fPIC -I<include> symbols.c -o libsymbols.so
 */
#include <gocann/kernel.h>

/* The globals the host writes and reads. */
uint64_t coeff = 1;
int32_t table[16];

/* x[i] *= coeff, for n elements, by one block. */
__global__ __aicore__ void scale_by_coeff(GM_ADDR x, uint64_t n)
{
    uint64_t *v = (uint64_t *)x;
    if (GetBlockIdx() != 0) {
        return;
    }
    for (uint64_t i = 0; i < n; i++) {
        v[i] *= coeff;
    }
}

/* out[0] = the sum of table; then coeff += 1, which the host reads back. */
__global__ __aicore__ void sum_table(GM_ADDR out)
{
    int64_t s = 0;
    if (GetBlockIdx() != 0) {
        return;
    }
    for (int i = 0; i < 16; i++) {
        s += table[i];
    }
    *(int64_t *)out = s;
    coeff += 1;
}
