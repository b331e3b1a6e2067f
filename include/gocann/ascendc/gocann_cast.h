/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * Part of kernel_operator.h: Cast, the conversion between tensors of two
 * types, on the first count elements (level 2) and as one instruction
 * with a mask, repeat times and strides (level 0, gocann_mask.h), for the
 * type pairs and round modes Atlas A2 has (gocann_round.h rounds); the
 * scalar conversions; SetDeqScale for int32_t to half. A repeat covers
 * 256 bytes of the wider type, so the narrower operand's repeat spans
 * fewer blocks, and the mask counts elements of the wider type. Include
 * kernel_operator.h, not this.
 */
#ifndef GOCANN_ASCENDC_CAST_H_
#define GOCANN_ASCENDC_CAST_H_

#include "gocann_mask.h"
#include "gocann_round.h"

namespace AscendC {

namespace gocann {

constexpr uint32_t kRounding = 0x3E; // CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC
constexpr uint32_t kNone = 0x01;     // CAST_NONE

/* CastModes is the set of round modes (bit m for RoundMode m) Atlas A2
 * has for a source S and a destination D; none for a pair it lacks. */
template <typename D, typename S>
constexpr uint32_t CastModes()
{
    using std::is_same;
    if constexpr (is_same<D, half>::value) {
        if (is_same<S, int4b_t>::value || is_same<S, int8_t>::value || is_same<S, uint8_t>::value) {
            return kNone;
        }
        if (is_same<S, int16_t>::value) {
            return kRounding | kNone;
        }
        if (is_same<S, int32_t>::value) {
            return 0x7F; // the round mode is ignored: SetDeqScale's scale applies
        }
        if (is_same<S, float>::value) {
            return kRounding | kNone | 0x40; // and CAST_ODD
        }
    } else if constexpr (is_same<D, float>::value) {
        if (is_same<S, int16_t>::value || is_same<S, half>::value || is_same<S, bfloat16_t>::value) {
            return kNone;
        }
        if (is_same<S, int32_t>::value) {
            return kRounding | kNone;
        }
        if (is_same<S, float>::value || is_same<S, int64_t>::value) {
            return kRounding;
        }
    } else if constexpr (is_same<D, int4b_t>::value || is_same<D, int8_t>::value || is_same<D, uint8_t>::value) {
        return is_same<S, half>::value ? kRounding | kNone : 0;
    } else if constexpr (is_same<D, int16_t>::value) {
        return is_same<S, half>::value || is_same<S, float>::value ? kRounding : is_same<S, int32_t>::value ? kNone : 0;
    } else if constexpr (is_same<D, int32_t>::value) {
        if (is_same<S, half>::value || is_same<S, float>::value || is_same<S, bfloat16_t>::value) {
            return kRounding;
        }
        return is_same<S, int64_t>::value ? kNone : 0;
    } else if constexpr (is_same<D, bfloat16_t>::value) {
        return is_same<S, float>::value ? kRounding : 0;
    } else if constexpr (is_same<D, int64_t>::value) {
        return is_same<S, float>::value ? kRounding : is_same<S, int32_t>::value ? kNone : 0;
    }
    return 0;
}

template <typename T>
constexpr const char *CastTypeName()
{
    using std::is_same;
    return is_same<T, half>::value         ? "half"
           : is_same<T, float>::value      ? "float"
           : is_same<T, bfloat16_t>::value ? "bfloat16_t"
           : is_same<T, int4b_t>::value    ? "int4b_t"
           : is_same<T, int8_t>::value     ? "int8_t"
           : is_same<T, uint8_t>::value    ? "uint8_t"
           : is_same<T, int16_t>::value    ? "int16_t"
           : is_same<T, int32_t>::value    ? "int32_t"
           : is_same<T, int64_t>::value    ? "int64_t"
                                           : "this type";
}

inline const char *RoundModeName(RoundMode m)
{
    static const char *const names[] = {"CAST_NONE", "CAST_RINT",  "CAST_FLOOR", "CAST_CEIL",
                                        "CAST_ROUND", "CAST_TRUNC", "CAST_ODD"};
    return uint32_t(m) < 7 ? names[uint32_t(m)] : "an unknown round mode";
}

/* DeqScale is the DEQSCALE register's half scale (SetDeqScale). */
inline half &DeqScale()
{
    static thread_local half scale = half(0);
    return scale;
}

template <typename D, typename S>
inline void CastCheck(RoundMode mode)
{
    static_assert(CastModes<D, S>() != 0, "Cast: Atlas A2 has no conversion between these types");
    if (uint32_t(mode) >= 7 || !(CastModes<D, S>() >> uint32_t(mode) & 1)) {
        Fail("Cast: %s is not a round mode of %s to %s on Atlas A2", RoundModeName(mode), CastTypeName<S>(),
             CastTypeName<D>());
    }
}

/* CastElement converts one element as the instruction does. */
template <typename D, typename S>
inline D CastElement(S x, RoundMode mode)
{
    if constexpr (std::is_same<D, half>::value && std::is_same<S, int32_t>::value) {
        // src * scale, rounded once to nearest even.
        half scale = DeqScale();
        if (!(scale - scale == scale - scale)) { // an infinite or NaN scale
            return ConvertTo<half, float>(float(x) * float(scale), RoundMode::CAST_RINT);
        }
        Exact s = ExactOf(double(scale)), v = ExactOf(int64_t(x));
        Exact p{s.neg != v.neg, s.mag * v.mag, s.exp}; // at most 11 + 31 bits
        return FloatFromBits<half>(FloatBits(p, RoundMode::CAST_RINT, 10, 5));
    } else {
        return ConvertTo<D, S>(x, mode);
    }
}

/* CastWider is the operand type whose 256 bytes make a repeat. */
template <typename D, typename S>
using CastWider = typename std::conditional<(sizeof(D) >= sizeof(S)), D, S>::type;

/* Int4Pairs is a walk over the bytes of an int4b_t operand: two elements
 * each. */
template <typename W>
struct Int4Pairs {
    const Walk<W> &w;
    uint32_t repeats;
    uint32_t Lanes(uint32_t r) const { return (w.Lanes(r) + 1) / 2; }
};

/* CastOperand reads and writes element j of repeat r of an operand. */
template <typename T>
struct CastOperand {
    Strided<T> s;
    template <typename W>
    CastOperand(const LocalTensor<T> &t, uint32_t blk, uint32_t rep, const Walk<W> &w, const char *name)
        : s(Operand(t, blk, rep, w, "Cast", name))
    {
    }
    T Get(uint32_t r, uint32_t j) const { return *s.At(r, j); }
    void Set(uint32_t r, uint32_t j, T v) const { *s.At(r, j) = v; }
};

template <>
struct CastOperand<int4b_t> {
    Strided<uint8_t> s;
    template <typename W>
    CastOperand(const LocalTensor<int4b_t> &t, uint32_t blk, uint32_t rep, const Walk<W> &w, const char *name)
        : s(Operand(t.template ReinterpretCast<uint8_t>(), blk, rep, Int4Pairs<W>{w, w.repeats}, "Cast", name))
    {
    }
    int4b_t Get(uint32_t r, uint32_t j) const
    {
        int4b_t v;
        v.storage = uint8_t(*s.At(r, j / 2) >> (j % 2 * 4) & 0xF);
        return v;
    }
    void Set(uint32_t r, uint32_t j, int4b_t v) const
    {
        uint8_t *b = s.At(r, j / 2);
        *b = uint8_t(j % 2 ? (*b & 0x0F) | v.storage << 4 : (*b & 0xF0) | v.storage);
    }
};

/* Cast0 runs one conversion instruction: each repeat reads its sources,
 * then writes its results. */
template <typename D, typename S>
inline void Cast0(const LocalTensor<D> &dst, const LocalTensor<S> &src, RoundMode mode, const Mask &m,
                  uint8_t repeatTime, const UnaryRepeatParams &p)
{
    CastCheck<D, S>(mode);
    using W = CastWider<D, S>;
    if constexpr (std::is_same<D, int4b_t>::value || std::is_same<S, int4b_t>::value) {
        // The instruction moves int4b_t elements in pairs, a byte at a time.
        if (m.counter && m.count % 2 != 0) {
            Fail("Cast: %llu elements of int4b_t are not a whole number of bytes", (unsigned long long)m.count);
        }
        for (uint32_t k = 0; !m.counter && k < 128; k += 2) {
            if ((m.bits[k / 64] >> (k % 64) & 3) % 3 != 0) {
                Fail("Cast: the mask takes one of the int4b_t elements %u and %u without the other", k, k + 1);
            }
        }
    }
    Walk<W> w(m, repeatTime);
    CastOperand<D> d(dst, p.dstBlkStride, p.dstRepStride, w, "dst");
    CastOperand<S> x(src, p.srcBlkStride, p.srcRepStride, w, "src");
    D out[128];
    for (uint32_t r = 0; r < w.repeats; r++) {
        uint32_t n = w.Lanes(r);
        for (uint32_t j = 0; j < n; j++) {
            if (w.On(j)) {
                out[j] = CastElement<D, S>(x.Get(r, j), mode);
            }
        }
        for (uint32_t j = 0; j < n; j++) {
            if (w.On(j)) {
                d.Set(r, j, out[j]);
            }
        }
    }
}

/* CastHolds checks that t holds count elements: bytes of int4b_t. */
template <typename T>
inline void CastHolds(const LocalTensor<T> &t, uint32_t count)
{
    if constexpr (std::is_same<T, int4b_t>::value) {
        t.template ReinterpretCast<uint8_t>().gocannCheck(count / 2, "Cast");
    } else {
        t.gocannCheck(count, "Cast");
    }
}

/* CastBlocks is the 32-byte blocks a repeat of T spans when W's 256 bytes
 * make the repeat. */
template <typename T, typename W>
constexpr uint8_t CastBlocks()
{
    return std::is_same<T, int4b_t>::value ? uint8_t(DEFAULT_BLK_NUM * PerRepeat<W>() / 2 / ONE_REPEAT_BYTE_SIZE)
                                           : uint8_t(DEFAULT_BLK_NUM * sizeof(T) / sizeof(W));
}

} // namespace gocann

/* Cast converts the first count elements of src into dst. */
template <typename T, typename U>
__aicore__ inline void Cast(const LocalTensor<T> &dst, const LocalTensor<U> &src, const RoundMode &roundMode,
                            const uint32_t count)
{
    gocann::CastCheck<T, U>(roundMode);
    if ((std::is_same<T, int4b_t>::value || std::is_same<U, int4b_t>::value) && count % 2 != 0) {
        gocann::Fail("Cast: count %u of int4b_t is odd: its elements go in pairs, a byte each", count);
    }
    gocann::CastHolds(dst, count);
    gocann::CastHolds(src, count);
    using W = gocann::CastWider<T, U>;
    gocann::Mask m = gocann::CounterMask(count);
    UnaryRepeatParams p(1, 1, gocann::CastBlocks<T, W>(), gocann::CastBlocks<U, W>());
    gocann::Cast0(dst, src, roundMode, m, 1, p);
    gocann::CountForm();
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Cast(const LocalTensor<T> &dst, const LocalTensor<U> &src, const RoundMode &roundMode,
                            const uint64_t mask, const uint8_t repeatTime, const UnaryRepeatParams &repeatParams)
{
    gocann::Cast0(dst, src, roundMode, gocann::ContinuousMask<gocann::CastWider<T, U>, isSetMask>(mask, "Cast"),
                  repeatTime, repeatParams);
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Cast(const LocalTensor<T> &dst, const LocalTensor<U> &src, const RoundMode &roundMode,
                            const uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams &repeatParams)
{
    gocann::Cast0(dst, src, roundMode, gocann::BitMask<gocann::CastWider<T, U>, isSetMask>(mask, "Cast"), repeatTime,
                  repeatParams);
}

/* SetDeqScale sets the scale an int32_t to half Cast multiplies by. */
__aicore__ inline void SetDeqScale(half scale) { gocann::DeqScale() = scale; }

/* The scalar conversions: float and bfloat16_t both ways (to nearest
 * even), float to half or int32_t by a round mode. */
__aicore__ inline bfloat16_t Cast(const float &fVal) { return bfloat16_t(fVal); }
__aicore__ inline float Cast(const bfloat16_t &bVal) { return float(bVal); }

template <typename T, typename U, RoundMode roundMode>
__aicore__ inline U Cast(T valueIn)
{
    static_assert(std::is_same<T, float>::value &&
                      ((std::is_same<U, half>::value && roundMode == RoundMode::CAST_ODD) ||
                       (std::is_same<U, int32_t>::value &&
                        (roundMode == RoundMode::CAST_ROUND || roundMode == RoundMode::CAST_CEIL ||
                         roundMode == RoundMode::CAST_FLOOR || roundMode == RoundMode::CAST_RINT))),
                  "Cast<T, U, roundMode>: float to half with CAST_ODD, or float to int32_t with CAST_ROUND, "
                  "CAST_CEIL, CAST_FLOOR or CAST_RINT");
    return gocann::ConvertTo<U, T>(valueIn, roundMode);
}

} // namespace AscendC

#endif /* GOCANN_ASCENDC_CAST_H_ */
