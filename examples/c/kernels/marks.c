/*
 * Kernels for 27_unload_race: mark_0 .. mark_15 each store their own
 * marker, MARK(k), in the word they are given, so the word shows which
 * kernel a launch ran.
 * Build: gcc -g -O2 -shared -fPIC -I<include> marks.c -o libmarks.so
 */
#include <gocann/kernel.h>

#define MARK(k) (0x6d61726b00000000ull | (k))

#define MARK_KERNEL(k)                                                                                                 \
    __global__ __aicore__ void mark_##k(GM_ADDR word)                                                              \
    {                                                                                                              \
        if (GetBlockIdx() == 0) {                                                                                  \
            *(uint64_t *)word = MARK(k);                                                                           \
        }                                                                                                          \
    }

MARK_KERNEL(0)
MARK_KERNEL(1)
MARK_KERNEL(2)
MARK_KERNEL(3)
MARK_KERNEL(4)
MARK_KERNEL(5)
MARK_KERNEL(6)
MARK_KERNEL(7)
MARK_KERNEL(8)
MARK_KERNEL(9)
MARK_KERNEL(10)
MARK_KERNEL(11)
MARK_KERNEL(12)
MARK_KERNEL(13)
MARK_KERNEL(14)
MARK_KERNEL(15)
