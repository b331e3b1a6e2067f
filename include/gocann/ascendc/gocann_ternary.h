/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * Part of kernel_operator.h: the compound operations that read their
 * destination (Axpy, MulAddDst, FusedMulAdd, MulAddRelu) and the shifts by
 * a scalar, in the count and the mask/repeat forms. The multiply-adds
 * named Fused round once (a fused multiply-add); Axpy and MulAddDst round
 * the product and then the sum, as two vector instructions would. Half
 * computes in float and rounds to half once per step. Include
 * kernel_operator.h, not this.
 */
#ifndef GOCANN_ASCENDC_TERNARY_H_
#define GOCANN_ASCENDC_TERNARY_H_

#include <cmath>
#include <type_traits>

#include "gocann_vector.h"

namespace AscendC {

namespace gocann {

/* Ternary runs dst = f(dst, a, b) over the first count elements; dst may
 * be wider than the sources (half sources into a float dst). */
template <typename T, typename U, typename F>
inline void Ternary(const LocalTensor<T> &dst, const LocalTensor<U> &a, const LocalTensor<U> &b, int32_t count,
                    const char *what, F f)
{
    uint32_t n = Count<T>(count, what);
    dst.gocannCheck(n, what);
    a.gocannCheck(n, what);
    b.gocannCheck(n, what);
    T *d = dst.GetPhyAddr();
    const U *x = a.GetPhyAddr(), *y = b.GetPhyAddr();
    Elements<T>(n, [&](size_t i) { d[i] = f(d[i], x[i], y[i]); });
    CountForm();
}

/* Ternary0 is the instruction form: a repeat covers 256 bytes of the
 * wider type, each operand walking its own elements. */
template <typename T, typename U, typename F>
inline void Ternary0(const LocalTensor<T> &dst, const LocalTensor<U> &a, const LocalTensor<U> &b, const Mask &m,
                     uint8_t repeatTime, uint32_t aBlk, uint32_t aRep, uint32_t bBlk, uint32_t bRep, uint32_t dBlk,
                     uint32_t dRep, const char *what, F f)
{
    using W = typename std::conditional<(sizeof(T) >= sizeof(U)), T, U>::type;
    Walk<W> w(m, repeatTime);
    Strided<T> d = Operand(dst, dBlk, dRep, w, what, "dst");
    Strided<U> x = Operand(a, aBlk, aRep, w, what, "src0");
    Strided<U> y = Operand(b, bBlk, bRep, w, what, "src1");
    T out[128];
    for (uint32_t r = 0; r < w.repeats; r++) {
        uint32_t n = w.Lanes(r);
        for (uint32_t j = 0; j < n; j++) {
            if (w.On(j)) {
                out[j] = f(*d.At(r, j), *x.At(r, j), *y.At(r, j));
            }
        }
        for (uint32_t j = 0; j < n; j++) {
            if (w.On(j)) {
                *d.At(r, j) = out[j];
            }
        }
    }
}

/* Round is v in T's precision: a half result goes through float. */
template <typename T>
inline T Round(float v)
{
    return T(v);
}

template <typename T>
inline void CheckShift(const char *what)
{
    static_assert(std::is_integral<T>::value && (sizeof(T) == 2 || sizeof(T) == 4),
                  "ShiftLeft/ShiftRight: Atlas A2 shifts int16_t, uint16_t, int32_t and uint32_t");
    (void)what;
}

template <typename T>
inline T ShiftBy(T scalarValue, const char *what)
{
    CheckShift<T>(what);
    int64_t s = int64_t(scalarValue);
    if (s < 0 || s > int64_t(sizeof(T) * 8)) {
        Fail("%s: shift %lld is out of range: %zu-byte elements shift by [0, %zu]", what, (long long)s, sizeof(T),
             sizeof(T) * 8);
    }
    return T(s);
}

/* Shr is an arithmetic shift for signed types and a logical one for
 * unsigned, rounding up when roundEn and the last bit shifted out is 1. */
template <typename T>
inline T Shr(T x, uint32_t s, bool roundEn)
{
    using W = typename std::conditional<std::is_signed<T>::value, int64_t, uint64_t>::type;
    W v = W(x);
    W out = s >= 64 ? W(0) : v >> s;
    if (roundEn && std::is_signed<T>::value && s > 0 && (v >> (s - 1) & 1)) {
        out += 1;
    }
    return T(out);
}

template <typename T>
inline T Shl(T x, uint32_t s)
{
    using UT = typename std::make_unsigned<T>::type;
    return s >= sizeof(T) * 8 ? T(0) : T(UT(UT(x) << s));
}

} // namespace gocann

/* Axpy: dst = scalarValue * src + dst, half into half or float, float into
 * float. */
template <typename T, typename U>
__aicore__ inline void Axpy(const LocalTensor<T> &dst, const LocalTensor<U> &src, const U &scalarValue,
                            const int32_t &count)
{
    float s = float(scalarValue);
    gocann::Ternary(dst, src, src, count, "Axpy", [s](T d, U x, U) {
        return gocann::Round<T>(float(gocann::Round<U>(s * float(x))) + float(d));
    });
}

#define GOCANN_ASCENDC_AXPY(maskType, maskOf)                                                                      \
    template <typename T, typename U, bool isSetMask = true>                                                       \
    __aicore__ inline void Axpy(const LocalTensor<T> &dst, const LocalTensor<U> &src, const U &scalarValue,        \
                                maskType mask, const uint8_t repeatTime, const UnaryRepeatParams &p)               \
    {                                                                                                              \
        using W = typename std::conditional<(sizeof(T) >= sizeof(U)), T, U>::type;                                 \
        float s = float(scalarValue);                                                                              \
        gocann::Ternary0(dst, src, src, gocann::maskOf<W, isSetMask>(mask, "Axpy"), repeatTime, p.srcBlkStride,    \
                         p.srcRepStride, p.srcBlkStride, p.srcRepStride, p.dstBlkStride, p.dstRepStride, "Axpy",  \
                         [s](T d, U x, U) { return gocann::Round<T>(float(gocann::Round<U>(s * float(x))) + float(d)); }); \
    }
GOCANN_ASCENDC_AXPY(uint64_t, ContinuousMask)
GOCANN_ASCENDC_AXPY(const uint64_t *, BitMask)
#undef GOCANN_ASCENDC_AXPY

/* The multiply-adds over two sources and dst. MulAddDst may widen half
 * sources into a float dst; the others keep one type. */
#define GOCANN_ASCENDC_MULADD(name, U_, expr)                                                                       \
    template <typename T, typename U = U_>                                                                         \
    __aicore__ inline void name(const LocalTensor<T> &dst, const LocalTensor<U> &src0, const LocalTensor<U> &src1, \
                                const int32_t &count)                                                              \
    {                                                                                                              \
        gocann::Ternary(dst, src0, src1, count, #name, [](T d, U a, U b) { return expr; });                        \
    }                                                                                                              \
    template <typename T, typename U = U_, bool isSetMask = true>                                                  \
    __aicore__ inline void name(const LocalTensor<T> &dst, const LocalTensor<U> &src0, const LocalTensor<U> &src1, \
                                uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams &p)              \
    {                                                                                                              \
        using W = typename std::conditional<(sizeof(T) >= sizeof(U)), T, U>::type;                                 \
        gocann::Ternary0(dst, src0, src1, gocann::ContinuousMask<W, isSetMask>(mask, #name), repeatTime,          \
                         p.src0BlkStride, p.src0RepStride, p.src1BlkStride, p.src1RepStride, p.dstBlkStride,       \
                         p.dstRepStride, #name, [](T d, U a, U b) { return expr; });                               \
    }                                                                                                              \
    template <typename T, typename U = U_, bool isSetMask = true>                                                  \
    __aicore__ inline void name(const LocalTensor<T> &dst, const LocalTensor<U> &src0, const LocalTensor<U> &src1, \
                                const uint64_t mask[], const uint8_t repeatTime, const BinaryRepeatParams &p)      \
    {                                                                                                              \
        using W = typename std::conditional<(sizeof(T) >= sizeof(U)), T, U>::type;                                 \
        gocann::Ternary0(dst, src0, src1, gocann::BitMask<W, isSetMask>(mask, #name), repeatTime, p.src0BlkStride, \
                         p.src0RepStride, p.src1BlkStride, p.src1RepStride, p.dstBlkStride, p.dstRepStride, #name, \
                         [](T d, U a, U b) { return expr; });                                                      \
    }
GOCANN_ASCENDC_MULADD(MulAddDst, T, gocann::Round<T>(float(gocann::Round<U>(float(a) * float(b))) + float(d)))
GOCANN_ASCENDC_MULADD(FusedMulAdd, T, gocann::Round<T>(std::fma(float(a), float(d), float(b))))
GOCANN_ASCENDC_MULADD(MulAddRelu, T, gocann::Round<T>(std::fmax(std::fma(float(a), float(d), float(b)), 0.0f)))
GOCANN_ASCENDC_MULADD(FusedMulAddRelu, T, gocann::Round<T>(std::fmax(std::fma(float(a), float(d), float(b)), 0.0f)))
#undef GOCANN_ASCENDC_MULADD

/* ShiftLeft and ShiftRight by a scalar, on 2- and 4-byte integers. */
template <typename T, bool isSetMask = true>
__aicore__ inline void ShiftLeft(const LocalTensor<T> &dst, const LocalTensor<T> &src, const T &scalarValue,
                                 const int32_t &count)
{
    uint32_t s = uint32_t(gocann::ShiftBy(scalarValue, "ShiftLeft"));
    gocann::Unary(dst, src, count, "ShiftLeft", [s](T x) { return gocann::Shl(x, s); });
}

template <typename T, bool isSetMask = true>
__aicore__ inline void ShiftRight(const LocalTensor<T> &dst, const LocalTensor<T> &src, const T &scalarValue,
                                  const int32_t &count)
{
    uint32_t s = uint32_t(gocann::ShiftBy(scalarValue, "ShiftRight"));
    gocann::Unary(dst, src, count, "ShiftRight", [s](T x) { return gocann::Shr(x, s, false); });
}

#define GOCANN_ASCENDC_SHIFTS(maskType, maskOf)                                                                   \
    template <typename T, bool isSetMask = true>                                                                  \
    __aicore__ inline void ShiftLeft(const LocalTensor<T> &dst, const LocalTensor<T> &src, const T &scalarValue, \
                                     maskType mask, const uint8_t repeatTime, const UnaryRepeatParams &p)         \
    {                                                                                                             \
        uint32_t s = uint32_t(gocann::ShiftBy(scalarValue, "ShiftLeft"));                                         \
        gocann::Unary0(dst, src, gocann::maskOf<T, isSetMask>(mask, "ShiftLeft"), repeatTime, p, "ShiftLeft",    \
                       [s](T x) { return gocann::Shl(x, s); });                                                   \
    }                                                                                                             \
    template <typename T, bool isSetMask = true>                                                                  \
    __aicore__ inline void ShiftRight(const LocalTensor<T> &dst, const LocalTensor<T> &src, const T &scalarValue, \
                                      maskType mask, const uint8_t repeatTime, const UnaryRepeatParams &p,        \
                                      bool roundEn = false)                                                       \
    {                                                                                                             \
        uint32_t s = uint32_t(gocann::ShiftBy(scalarValue, "ShiftRight"));                                        \
        gocann::Unary0(dst, src, gocann::maskOf<T, isSetMask>(mask, "ShiftRight"), repeatTime, p, "ShiftRight", \
                       [s, roundEn](T x) { return gocann::Shr(x, s, roundEn); });                                 \
    }
GOCANN_ASCENDC_SHIFTS(uint64_t, ContinuousMask)
GOCANN_ASCENDC_SHIFTS(const uint64_t *, BitMask)
#undef GOCANN_ASCENDC_SHIFTS

} // namespace AscendC

#endif /* GOCANN_ASCENDC_TERNARY_H_ */
