/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * Part of kernel_operator.h: bfloat16_t, int4b_t, RoundMode and the
 * rounding of one value into another type, which Cast and the scalar
 * conversions share. A value is taken exactly (as sign, 64-bit magnitude
 * and binary exponent) and rounded once, by the bit rules of the API's
 * precision-conversion table: RINT to nearest even, ROUND half away from
 * zero, FLOOR, CEIL, TRUNC, ODD (an inexact result gets an odd last
 * bit); CAST_NONE rounds as RINT. The float results follow the device's
 * default INF/NAN mode: a finite value that overflows becomes an infinity
 * where IEEE 754 rounding in that mode gives one, the largest finite value
 * otherwise; a NaN stays a NaN. Integer results saturate, NaN becomes 0,
 * infinities the type's extremes. Include kernel_operator.h, not this.
 */
#ifndef GOCANN_ASCENDC_ROUND_H_
#define GOCANN_ASCENDC_ROUND_H_

#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "gocann_tensor.h"

namespace AscendC {

/* The round modes of a conversion (Atlas A2 has no CAST_HYBRID). */
enum class RoundMode : uint8_t {
    CAST_NONE = 0,
    CAST_RINT,
    CAST_FLOOR,
    CAST_CEIL,
    CAST_ROUND,
    CAST_TRUNC,
    CAST_ODD,
};

namespace gocann {

/* Exact is a finite value: (-1)^neg * mag * 2^exp. */
struct Exact {
    bool neg;
    uint64_t mag;
    int32_t exp;
};

/* ExactOf takes a finite double (which holds every float, half and
 * bfloat16 value) apart. */
inline Exact ExactOf(double v)
{
    uint64_t b;
    std::memcpy(&b, &v, sizeof b);
    uint64_t mant = b & ((uint64_t(1) << 52) - 1);
    int32_t e = int32_t(b >> 52 & 0x7FF);
    Exact x = e == 0 ? Exact{b >> 63 != 0, mant, -1074} : Exact{b >> 63 != 0, mant | uint64_t(1) << 52, e - 1075};
    if (x.mag != 0) { // the fewest bits, so that products of two values fit
        int32_t z = __builtin_ctzll(x.mag);
        x.mag >>= z;
        x.exp += z;
    }
    return x;
}

inline Exact ExactOf(int64_t v)
{
    return Exact{v < 0, v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v), 0};
}

/* RoundShift divides mag by 2^shift (shift > 0), rounding by mode; neg is the
 * value's sign, which FLOOR and CEIL look at. */
inline uint64_t RoundShift(uint64_t mag, int32_t shift, bool neg, RoundMode mode)
{
    uint64_t q = shift < 64 ? mag >> shift : 0;
    bool guard = shift <= 64 && (mag >> (shift - 1) & 1);
    bool sticky = shift <= 64 ? (mag & ((uint64_t(1) << (shift - 1)) - 1)) != 0 : mag != 0;
    bool inexact = guard || sticky, up = false;
    switch (mode) {
    case RoundMode::CAST_FLOOR: up = neg && inexact; break;
    case RoundMode::CAST_CEIL: up = !neg && inexact; break;
    case RoundMode::CAST_ROUND: up = guard; break;
    case RoundMode::CAST_TRUNC: break;
    case RoundMode::CAST_ODD: up = inexact && !(q & 1); break;
    default: up = guard && (sticky || (q & 1)); break; // CAST_RINT, CAST_NONE
    }
    return q + up;
}

/* FloatBits rounds x into a binary float format of mbits mantissa and
 * ebits exponent bits and returns its bits. */
inline uint32_t FloatBits(const Exact &x, RoundMode mode, int32_t mbits, int32_t ebits)
{
    const int32_t bias = (1 << (ebits - 1)) - 1, emin = 1 - bias, top = (1 << ebits) - 1;
    uint32_t sign = uint32_t(x.neg) << (mbits + ebits);
    if (x.mag == 0) {
        return sign;
    }
    int32_t e = 63 - __builtin_clzll(x.mag) + x.exp; // exponent of the leading bit
    int32_t qe = (e > emin ? e : emin) - mbits;      // exponent of the last bit kept
    int32_t shift = qe - x.exp;
    uint64_t q = shift <= 0 ? x.mag << -shift : RoundShift(x.mag, shift, x.neg, mode);
    if (q >> (mbits + 1)) { // rounded up into the next binade
        q >>= 1;
        qe++;
    }
    if (q < (uint64_t(1) << mbits)) {
        return sign | uint32_t(q); // subnormal or zero
    }
    int32_t biased = qe + mbits + bias;
    if (biased >= top) {
        bool inf = mode == RoundMode::CAST_NONE || mode == RoundMode::CAST_RINT || mode == RoundMode::CAST_ROUND ||
                   (mode == RoundMode::CAST_CEIL && !x.neg) || (mode == RoundMode::CAST_FLOOR && x.neg);
        return sign | ((uint32_t(top) << mbits) - (inf ? 0 : 1));
    }
    return sign | (uint32_t(biased) << mbits) | uint32_t(q - (uint64_t(1) << mbits));
}

/* RoundInteger rounds x to an integer by mode and clamps it to [lo, hi]. */
inline int64_t RoundInteger(const Exact &x, RoundMode mode, int64_t lo, int64_t hi)
{
    uint64_t limit = x.neg ? uint64_t(0) - uint64_t(lo) : uint64_t(hi);
    uint64_t q;
    if (x.mag == 0) {
        return 0;
    } else if (x.exp < 0) {
        q = RoundShift(x.mag, -x.exp, x.neg, mode);
    } else if (x.exp >= 64 || (x.exp > 0 && x.mag >> (64 - x.exp) != 0)) {
        q = ~uint64_t(0);
    } else {
        q = x.mag << x.exp;
    }
    if (q > limit) {
        q = limit;
    }
    return x.neg ? int64_t(uint64_t(0) - q) : int64_t(q);
}

} // namespace gocann

/* int4b_t is a signed 4-bit integer. Tensors hold two to a byte, the
 * even element in the low half; a LocalTensor<int4b_t> here counts its
 * size in bytes, as the int8_t tensor it is reinterpreted from does. */
struct int4b_t {
    uint8_t storage = 0;
    int4b_t() = default;
    __aicore__ inline int4b_t(int32_t v) : storage(uint8_t(v & 0xF)) {}
    __aicore__ inline operator int32_t() const { return (storage & 0x8) ? int32_t(storage) - 16 : int32_t(storage); }
};

} // namespace AscendC

/* Ascend C's bfloat16_t: float's upper 16 bits. It converts to and from
 * float (rounding to nearest even) and computes through float, as half
 * computes here, each result rounded once when stored. */
struct bfloat16_t {
    uint16_t value;

    bfloat16_t() = default;
    template <typename U, typename = std::enable_if_t<std::is_arithmetic<U>::value || std::is_same<U, half>::value>>
    __aicore__ inline bfloat16_t(U v) : value(Round(double(v)))
    {
    }
    __aicore__ inline operator float() const
    {
        uint32_t b = uint32_t(value) << 16;
        float f;
        std::memcpy(&f, &b, sizeof f);
        return f;
    }

    template <typename U>
    __aicore__ inline bfloat16_t &operator+=(U v) { return *this = bfloat16_t(float(*this) + v); }
    template <typename U>
    __aicore__ inline bfloat16_t &operator-=(U v) { return *this = bfloat16_t(float(*this) - v); }
    template <typename U>
    __aicore__ inline bfloat16_t &operator*=(U v) { return *this = bfloat16_t(float(*this) * v); }
    template <typename U>
    __aicore__ inline bfloat16_t &operator/=(U v) { return *this = bfloat16_t(float(*this) / v); }

    /* Round is a value's bfloat16 bits, rounded to nearest even. */
    static inline uint16_t Round(double v)
    {
        if (v != v) { // a quiet NaN with v's sign and the top of its payload
            float f = float(v);
            uint32_t b;
            std::memcpy(&b, &f, sizeof b);
            return uint16_t(b >> 16 | 0x7FC0);
        }
        if (v == 1.0 / 0.0 || v == -1.0 / 0.0) {
            return v > 0 ? 0x7F80 : 0xFF80;
        }
        return uint16_t(AscendC::gocann::FloatBits(AscendC::gocann::ExactOf(v), AscendC::RoundMode::CAST_RINT, 7, 8));
    }
};
static_assert(sizeof(bfloat16_t) == 2, "bfloat16_t is two bytes");

namespace AscendC {
namespace gocann {

/* The float formats: their mantissa and exponent bits. */
template <typename T>
struct FloatFormat;
template <>
struct FloatFormat<half> {
    static constexpr int32_t mbits = 10, ebits = 5;
};
template <>
struct FloatFormat<bfloat16_t> {
    static constexpr int32_t mbits = 7, ebits = 8;
};
template <>
struct FloatFormat<float> {
    static constexpr int32_t mbits = 23, ebits = 8;
};

template <typename T>
constexpr bool IsFloatType =
    std::is_same<T, half>::value || std::is_same<T, bfloat16_t>::value || std::is_same<T, float>::value;

template <typename T>
inline T FloatFromBits(uint32_t b)
{
    T t;
    if constexpr (sizeof(T) == 2) {
        uint16_t h = uint16_t(b);
        std::memcpy(&t, &h, 2);
    } else {
        std::memcpy(&t, &b, 4);
    }
    return t;
}

/* The integer types' ranges. */
template <typename T>
struct IntRange {
    static constexpr int64_t lo = int64_t(std::numeric_limits<T>::min()), hi = int64_t(std::numeric_limits<T>::max());
};
template <>
struct IntRange<int4b_t> {
    static constexpr int64_t lo = -8, hi = 7;
};

/* ConvertTo rounds x into D by mode: a float source's NaN and infinities
 * as the header comment says, every other value exactly and once. */
template <typename D, typename S>
inline D ConvertTo(S x, RoundMode mode)
{
    if constexpr (IsFloatType<S>) {
        float f = float(x); // exact for half and bfloat16_t
        uint32_t fb;
        std::memcpy(&fb, &f, 4);
        bool nan = f != f, inf = !nan && (fb & 0x7FFFFFFF) == 0x7F800000;
        if constexpr (std::is_same<D, float>::value) {
            if (!std::is_same<S, float>::value || nan || inf) {
                return f;
            }
            // float to float rounds to an integral value; a zero result is +0 on the device.
            int64_t q = RoundInteger(ExactOf(double(f)), mode, -(int64_t(1) << 40), int64_t(1) << 40);
            return std::fabs(f) >= 8388608.0f ? f : float(q);
        } else if constexpr (IsFloatType<D>) {
            constexpr int32_t mb = FloatFormat<D>::mbits, eb = FloatFormat<D>::ebits;
            uint32_t sign = fb >> 31 << (mb + eb), top = ((uint32_t(1) << eb) - 1) << mb;
            if (nan) { // quiet, keeping the sign and the top of the payload
                return FloatFromBits<D>(sign | top | uint32_t(1) << (mb - 1) | (fb & 0x7FFFFF) >> (23 - mb));
            }
            if (inf) {
                return FloatFromBits<D>(sign | top);
            }
            return FloatFromBits<D>(FloatBits(ExactOf(double(f)), mode, mb, eb));
        } else {
            if (nan) {
                return D(0);
            }
            if (inf) {
                return D(fb >> 31 ? IntRange<D>::lo : IntRange<D>::hi);
            }
            return D(RoundInteger(ExactOf(double(f)), mode, IntRange<D>::lo, IntRange<D>::hi));
        }
    } else {
        int64_t v = int64_t(x);
        if constexpr (IsFloatType<D>) {
            return FloatFromBits<D>(FloatBits(ExactOf(v), mode, FloatFormat<D>::mbits, FloatFormat<D>::ebits));
        } else {
            return D(v < IntRange<D>::lo ? IntRange<D>::lo : v > IntRange<D>::hi ? IntRange<D>::hi : v);
        }
    }
}

} // namespace gocann
} // namespace AscendC

#endif /* GOCANN_ASCENDC_ROUND_H_ */
