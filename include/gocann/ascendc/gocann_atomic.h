/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * Part of kernel_operator.h: the atomic mode of the copies into global
 * memory (SetAtomicAdd, SetAtomicMax, SetAtomicMin, SetAtomicType,
 * DisableDmaAtomic). While it is on, a copy to global memory combines each
 * element with the one already there instead of overwriting it. Blocks run
 * on threads at once, so every element is updated with a compare-and-swap
 * on the aligned 4-byte word that holds it: two blocks adding into the two
 * halves of one word lose nothing. The mode is the core's, so the block's
 * (per thread); InitSocState and a new TPipe turn it off, as on the device.
 * Include kernel_operator.h, not this.
 */
#ifndef GOCANN_ASCENDC_ATOMIC_H_
#define GOCANN_ASCENDC_ATOMIC_H_

#include <cstring>
#include <type_traits>

#include "gocann_tensor.h"

namespace AscendC {

/* The data types and the operation of SetStoreAtomicConfig. */
enum class AtomicDtype { ATOMIC_NONE = 0, ATOMIC_F32, ATOMIC_F16, ATOMIC_S16, ATOMIC_S32, ATOMIC_S8, ATOMIC_BF16 };
enum class AtomicOp { ATOMIC_SUM = 0 };

namespace gocann {

/* AtomicState is the core's atomic mode: the element type (an AtomicDtype
 * value, ATOMIC_NONE when off) and the operation (0 sum, 1 max, 2 min). */
struct AtomicState {
    uint8_t type = 0;
    uint8_t op = 0;
};

inline AtomicState &Atomic()
{
    static thread_local AtomicState state;
    return state;
}

enum : uint8_t { kAtomicSum = 0, kAtomicMax = 1, kAtomicMin = 2 };

/* IsBf16 tells bfloat16_t from the other 2-byte types without naming it. */
template <typename T>
constexpr bool IsBf16 = sizeof(T) == 2 && !std::is_integral_v<T> && !std::is_same_v<T, half>;

/* AtomicCode is T's AtomicDtype value, 0 for a type the copy engines cannot
 * combine. */
template <typename T>
constexpr uint8_t AtomicCode()
{
    if constexpr (std::is_same_v<T, float>) {
        return uint8_t(AtomicDtype::ATOMIC_F32);
    } else if constexpr (std::is_same_v<T, half>) {
        return uint8_t(AtomicDtype::ATOMIC_F16);
    } else if constexpr (std::is_same_v<T, int16_t>) {
        return uint8_t(AtomicDtype::ATOMIC_S16);
    } else if constexpr (std::is_same_v<T, int32_t>) {
        return uint8_t(AtomicDtype::ATOMIC_S32);
    } else if constexpr (std::is_same_v<T, int8_t>) {
        return uint8_t(AtomicDtype::ATOMIC_S8);
    } else if constexpr (IsBf16<T>) {
        return uint8_t(AtomicDtype::ATOMIC_BF16);
    } else {
        return 0;
    }
}

template <typename T>
inline void SetAtomic(int op, const char *what)
{
    constexpr uint8_t code = AtomicCode<T>();
    if (code == 0) {
        Fail("%s: a %zu-byte element type the copy engines cannot combine (int8_t, int16_t, half, bfloat16_t, "
             "int32_t or float)",
             what, sizeof(T));
    }
    Atomic().type = code;
    if (op >= 0) {
        Atomic().op = uint8_t(op);
    }
}

/* Bf16ToFloat and DoubleToBf16 convert bfloat16 bits, the latter rounding
 * to nearest even. Sums are formed in double, exact for two half or two
 * bfloat16 values that matter to each other, then rounded once: to float
 * by rounding to odd, which keeps the final rounding to bfloat16 exact. */
inline float Bf16ToFloat(uint16_t b)
{
    uint32_t u = uint32_t(b) << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

inline uint16_t DoubleToBf16(double d)
{
    float f = float(d);
    uint32_t u;
    memcpy(&u, &f, 4);
    if (double(f) != d && (u & 0x7f800000u) != 0x7f800000u) {
        if ((d < 0) == (double(f) < d)) {
            u--; // f was rounded away from zero: truncate instead
        }
        u |= 1;
    }
    if ((u & 0x7fffffffu) > 0x7f800000u) {
        return uint16_t((u >> 16) | 0x40); // a quiet NaN
    }
    u += 0x7fff + ((u >> 16) & 1);
    return uint16_t(u >> 16);
}

/* Pick is the element max or min keeps: the copied one only when it is
 * strictly greater (or less), so ties and NaNs keep global memory's. */
template <typename A>
inline A Pick(uint8_t op, A gm, A in)
{
    return (op == kAtomicMax ? in > gm : in < gm) ? in : gm;
}

/* Combine is what an element of atomic type code becomes: gm, the bits in
 * global memory, combined with in, the bits the copy brings. */
inline uint32_t Combine(uint8_t code, uint8_t op, uint32_t gm, uint32_t in)
{
    switch (AtomicDtype(code)) {
    case AtomicDtype::ATOMIC_F32: {
        float a, b;
        memcpy(&a, &gm, 4);
        memcpy(&b, &in, 4);
        float r = op == kAtomicSum ? a + b : Pick(op, a, b);
        uint32_t u;
        memcpy(&u, &r, 4);
        return u;
    }
    case AtomicDtype::ATOMIC_F16: {
        uint16_t x = uint16_t(gm), y = uint16_t(in);
        half a, b;
        memcpy(&a, &x, 2);
        memcpy(&b, &y, 2);
        half r = op == kAtomicSum ? half(double(a) + double(b)) : Pick(op, a, b);
        uint16_t u;
        memcpy(&u, &r, 2);
        return u;
    }
    case AtomicDtype::ATOMIC_BF16: {
        float a = Bf16ToFloat(uint16_t(gm)), b = Bf16ToFloat(uint16_t(in));
        if (op == kAtomicSum) {
            return DoubleToBf16(double(a) + double(b));
        }
        return (op == kAtomicMax ? b > a : b < a) ? in : gm;
    }
    case AtomicDtype::ATOMIC_S32: {
        int32_t a = int32_t(gm), b = int32_t(in);
        return uint32_t(op == kAtomicSum ? int32_t(uint32_t(a) + uint32_t(b)) : Pick(op, a, b));
    }
    case AtomicDtype::ATOMIC_S16: {
        int16_t a = int16_t(gm), b = int16_t(in);
        return uint16_t(op == kAtomicSum ? int16_t(uint16_t(a + b)) : Pick(op, a, b));
    }
    default: {
        int8_t a = int8_t(gm), b = int8_t(in);
        return uint8_t(op == kAtomicSum ? int8_t(uint8_t(a + b)) : Pick(op, a, b));
    }
    }
}

inline uint32_t AtomicSize(uint8_t code)
{
    switch (AtomicDtype(code)) {
    case AtomicDtype::ATOMIC_F32:
    case AtomicDtype::ATOMIC_S32:
        return 4;
    case AtomicDtype::ATOMIC_S8:
        return 1;
    default:
        return 2;
    }
}

/* CombineAt updates the element of size bytes at p with a compare-and-swap
 * loop on the aligned word holding it (the host is little-endian). */
inline void CombineAt(uint8_t *p, uint32_t size, uint8_t code, uint8_t op, uint32_t in)
{
    uintptr_t a = reinterpret_cast<uintptr_t>(p);
    uint32_t *word = reinterpret_cast<uint32_t *>(a & ~uintptr_t(3));
    uint32_t shift = uint32_t(a & 3) * 8;
    uint32_t mask = size == 4 ? 0xffffffffu : ((1u << (size * 8)) - 1) << shift;
    uint32_t old = __atomic_load_n(word, __ATOMIC_RELAXED);
    for (;;) {
        uint32_t r = Combine(code, op, (old & mask) >> shift, in) << shift & mask;
        if (__atomic_compare_exchange_n(word, &old, (old & ~mask) | r, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
            return;
        }
    }
}

/* StoreGM is how every copy writes bytes into global memory: plainly, or
 * combined element by element in the atomic mode, whose type says how the
 * bytes are read (as on the device, whatever the copy's element type). */
inline void StoreGM(void *dst, const void *src, uint64_t bytes, const char *what = "DataCopy")
{
    const AtomicState s = Atomic();
    if (s.type == 0) {
        memcpy(dst, src, bytes);
        return;
    }
    uint32_t size = AtomicSize(s.type);
    uint8_t *d = static_cast<uint8_t *>(dst);
    const uint8_t *x = static_cast<const uint8_t *>(src);
    if (bytes % size != 0 || reinterpret_cast<uintptr_t>(d) % size != 0) {
        Fail("%s: in the atomic mode, %llu bytes to global address %p are not whole aligned %u-byte elements of the "
             "atomic type",
             what, (unsigned long long)bytes, dst, size);
    }
    for (uint64_t i = 0; i < bytes; i += size) {
        uint32_t in = 0;
        memcpy(&in, x + i, size);
        CombineAt(d + i, size, s.type, s.op, in);
    }
}

template <typename T>
inline void StoreGM(T *dst, const T *src, uint64_t count, const char *what = "DataCopy")
{
    StoreGM(static_cast<void *>(dst), static_cast<const void *>(src), count * sizeof(T), what);
}

} // namespace gocann

/* SetAtomicAdd, SetAtomicMax and SetAtomicMin turn the atomic mode on for
 * elements of type T; SetAtomicType changes only the type. */
template <typename T>
__aicore__ inline void SetAtomicAdd()
{
    gocann::SetAtomic<T>(gocann::kAtomicSum, "SetAtomicAdd");
}
template <typename T>
__aicore__ inline void SetAtomicMax()
{
    gocann::SetAtomic<T>(gocann::kAtomicMax, "SetAtomicMax");
}
template <typename T>
__aicore__ inline void SetAtomicMin()
{
    gocann::SetAtomic<T>(gocann::kAtomicMin, "SetAtomicMin");
}
template <typename T>
__aicore__ inline void SetAtomicType()
{
    gocann::SetAtomic<T>(-1, "SetAtomicType");
}

/* DisableDmaAtomic (and its old name SetAtomicNone) turns it off: copies
 * overwrite global memory again. */
__aicore__ inline void DisableDmaAtomic() { gocann::Atomic().type = 0; }
__aicore__ inline void SetAtomicNone() { DisableDmaAtomic(); }

/* SetStoreAtomicConfig and GetStoreAtomicConfig set and read the mode as
 * its register holds it: the type's AtomicDtype value and the operation
 * (0 sum; 1 max and 2 min after SetAtomicMax and SetAtomicMin). */
template <AtomicDtype type, AtomicOp op>
__aicore__ inline void SetStoreAtomicConfig()
{
    gocann::Atomic().type = uint8_t(type);
    gocann::Atomic().op = uint8_t(op);
}

__aicore__ inline void GetStoreAtomicConfig(uint16_t &atomicType, uint16_t &atomicOp)
{
    atomicType = gocann::Atomic().type;
    atomicOp = gocann::Atomic().op;
}

} // namespace AscendC

#endif /* GOCANN_ASCENDC_ATOMIC_H_ */
