/*
 * Kernels for 19_direct: one-block operations on 64-bit words of device
 * memory whose results show how many launches ran and in which order.
 * Build: gcc -g -O2 -shared -fPIC -I<include> direct.c -o libdirect.so
 */
#include <gocann/kernel.h>

/* Appends value to the device log: log[(*count)++] = value. Entries past
 * cap are counted but not written, so a wrong launch cannot overrun the
 * log. Only block 0 acts. */
__global__ __aicore__ void append_log(GM_ADDR log, GM_ADDR count, uint64_t value, uint64_t cap)
{
    if (GetBlockIdx() == 0) {
        uint64_t *c = (uint64_t *)count;
        if (*c < cap) {
            ((uint64_t *)log)[*c] = value;
        }
        *c += 1;
    }
}

/* Adds 1 to the counter, atomically, once per launch whatever the block
 * count. */
__global__ __aicore__ void count_up(GM_ADDR counter)
{
    if (GetBlockIdx() == 0) {
        __atomic_fetch_add((uint64_t *)counter, 1, __ATOMIC_SEQ_CST);
    }
}

/* Block 0 traps: the launch fails with an AI core trap exception. */
__global__ __aicore__ void trap_now(void)
{
    if (GetBlockIdx() == 0) {
        Trap();
    }
}
