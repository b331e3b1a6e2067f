/*
 * Kernels that signal through a 64-bit word of device memory, as kernels
 * and aclrtValueWrite/aclrtValueWait do on the device.
 * Build: gcc -g -O2 -shared -fPIC -I<include> value.c -o libvalue.so
 */
#include <gocann/kernel.h>

/* Stores v into the word (one block). */
__global__ __aicore__ void store_word(GM_ADDR word, uint64_t v)
{
    if (GetBlockIdx() == 0) {
        __atomic_store_n((volatile uint64_t *)word, v, __ATOMIC_SEQ_CST);
    }
}

/* Spins until the word equals want (volatile loads, as a kernel polling
 * global memory must), then writes 1 to done. Gives up after about
 * limit iterations, writing 2, so a broken release cannot hang. */
__global__ __aicore__ void poll_word(GM_ADDR word, uint64_t want, GM_ADDR done, uint64_t limit)
{
    volatile uint64_t *w = (volatile uint64_t *)word;
    uint64_t spins = 0;
    if (GetBlockIdx() != 0) {
        return;
    }
    while (*w != want) {
        if (++spins == limit) {
            *(volatile uint64_t *)done = 2;
            return;
        }
        __asm__ __volatile__("" ::: "memory");
    }
    *(volatile uint64_t *)done = 1;
}
