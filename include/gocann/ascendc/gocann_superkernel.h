/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * Part of kernel_operator.h: a kernel's SuperKernel sub-function. A
 * __global__ kernel may bind, with SK_BIND(kernel, cap, sk0, ...), an
 * __sk__ function taking a pointer to a struct of the kernel's parameters
 * (in order; a member under 4 bytes aligned to 4) and optionally an
 * sk::SkSystemArgs *. A launch of the kernel captured inside a SuperKernel
 * (gocann/superkernel.h) runs sk0 instead of the kernel: the launch's
 * arguments packed into the struct, skNumBlocks its block count. The
 * other sub-functions (sk1 to sk3, instances of one template, say) are
 * accepted and not used. cap's bits declare the calls the kernel makes:
 * 1 WaitPreTaskEnd, 2 SetNextTaskStart (4 and 8 tune CANN's fusion and
 * mean nothing here).
 *
 * SK_BIND defines two exported symbols: gocann_sk_<kernel>, which the
 * runtime calls with the launch's argument slots, and gocann_skcap_<kernel>,
 * the cap. Include kernel_operator.h, not this.
 */
#ifndef GOCANN_ASCENDC_SUPERKERNEL_H_
#define GOCANN_ASCENDC_SUPERKERNEL_H_

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../kernel.h"

/* An SK sub-function: on the host an ordinary function. */
#define __sk__

namespace sk {

/* What the SuperKernel tells a sub-function about its launch. */
struct SkSystemArgs {
    uint32_t skNumBlocks; /* the launch's block count */

    __aicore__ inline uint32_t SkGetNumBlocks() const { return skNumBlocks; }
};

} // namespace sk

namespace gocann_sk {

/* A member's alignment in the argument struct: its own, at least 4. */
template <typename T>
constexpr size_t member_align() { return alignof(T) < 4 ? 4 : alignof(T); }

/* put stores slot's low bytes, as a T, at dst. */
template <typename T>
inline void put(unsigned char *dst, const uint64_t *slot)
{
    T v;
    memcpy(static_cast<void *>(&v), slot, sizeof v);
    memcpy(static_cast<void *>(dst), static_cast<const void *>(&v), sizeof v);
}

/* pack lays the launch's argument slots out as the struct of the kernel's
 * parameters Ts, each slot holding its value in its low bytes; it returns
 * the parameter count. */
template <typename... Ts>
inline size_t pack(void (*)(Ts...), const uint64_t *slots, size_t nslots, unsigned char *buf)
{
    static_assert(((sizeof(Ts) <= 8) && ...), "SK_BIND: a kernel parameter is wider than an argument slot");
    size_t off = 0, i = 0;
    ((off = (off + member_align<Ts>() - 1) / member_align<Ts>() * member_align<Ts>(),
      (i < nslots ? put<Ts>(buf + off, &slots[i]) : (void)0), off += sizeof(Ts), i++),
     ...);
    return sizeof...(Ts);
}

/* invoke calls a sub-function of either shape. */
template <typename A>
inline void invoke(void (*f)(const A *), const void *buf, sk::SkSystemArgs *)
{
    f(static_cast<const A *>(buf));
}
template <typename A>
inline void invoke(void (*f)(const A *, sk::SkSystemArgs *), const void *buf, sk::SkSystemArgs *sys)
{
    f(static_cast<const A *>(buf), sys);
}
template <typename A>
inline void invoke(void (*f)(A *), const void *buf, sk::SkSystemArgs *)
{
    f(static_cast<A *>(const_cast<void *>(buf)));
}
template <typename A>
inline void invoke(void (*f)(A *, sk::SkSystemArgs *), const void *buf, sk::SkSystemArgs *sys)
{
    f(static_cast<A *>(const_cast<void *>(buf)), sys);
}

/* call is gocann_sk_<kernel>'s body: pack, check the count, call. */
template <typename G, typename S>
inline void call(G kernel, S sub, const char *name, const uint64_t *slots, uint64_t nslots, uint64_t nblocks)
{
    alignas(16) unsigned char buf[16 * 64] = {0};
    size_t want = pack(kernel, slots, (size_t)nslots, buf);
    if (want != nslots) {
        char msg[160];
        snprintf(msg, sizeof msg, "SK_BIND(%s): the launch has %llu argument slots, the kernel %zu parameters", name,
                 (unsigned long long)nslots, want);
        gocann_trap(msg);
    }
    sk::SkSystemArgs sys = {(uint32_t)nblocks};
    invoke(sub, buf, &sys);
}

} // namespace gocann_sk

#define GOCANN_SK_FIRST_(sk0, ...) sk0

/* SK_BIND(kernel, cap, sk0, ...): bind kernel's SuperKernel sub-functions
 * (one to four); sk0 is the one that runs. */
#define SK_BIND(GF, cap, ...)                                                                                       \
    extern "C" __attribute__((visibility("default"), used)) void gocann_sk_##GF(const uint64_t *slots,             \
                                                                                uint64_t nslots, uint64_t nblocks) \
    {                                                                                                              \
        gocann_sk::call(&GF, GOCANN_SK_FIRST_(__VA_ARGS__, 0), #GF, slots, nslots, nblocks);                      \
    }                                                                                                              \
    extern "C" __attribute__((visibility("default"), used)) const unsigned long long gocann_skcap_##GF = (cap)

#endif /* GOCANN_ASCENDC_SUPERKERNEL_H_ */
