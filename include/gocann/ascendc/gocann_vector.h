/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * Part of kernel_operator.h: the element-wise vector operations, each in
 * its two forms: on the first count elements of local tensors (level 2)
 * and as one instruction with a mask, repeat times and strides (level 0,
 * gocann_mask.h). Include kernel_operator.h, not this.
 */
#ifndef GOCANN_ASCENDC_VECTOR_H_
#define GOCANN_ASCENDC_VECTOR_H_

#include <cmath>

#include "gocann_mask.h"

namespace AscendC {

namespace gocann {

template <typename T>
inline uint32_t Count(int32_t count, const char *what)
{
    if (count < 0) {
        Fail("%s: count %d is negative", what, count);
    }
    return uint32_t(count);
}

/* Independent marks a loop whose iterations the host compiler may run in
 * any order, so that it vectorizes it. */
#if defined(__clang__)
#define GOCANN_ASCENDC_INDEPENDENT _Pragma("clang loop vectorize(assume_safety)")
#else
#define GOCANN_ASCENDC_INDEPENDENT _Pragma("GCC ivdep")
#endif

/* Elements runs body(i) for each i below n, the count form's loop: a
 * repeat (256 bytes) at a time in a loop of fixed length, which the host
 * compiler vectorizes at -O2 (a loop of unknown length stays scalar
 * there), then the elements left. The iterations are independent: the
 * operands of a count-form call are the same elements or apart, as the
 * device requires (it supports no partial overlap). */
template <typename T, typename F>
inline void Elements(uint32_t n, F body)
{
    constexpr uint32_t per = PerRepeat<T>();
    size_t i = 0;
    for (; n - i >= per; i += per) {
        GOCANN_ASCENDC_INDEPENDENT
        for (uint32_t j = 0; j < per; j++) {
            body(i + j);
        }
    }
    for (; i < n; i++) {
        body(i);
    }
}

template <typename T, typename F>
inline void Binary(const LocalTensor<T> &dst, const LocalTensor<T> &a, const LocalTensor<T> &b, int32_t count,
                   const char *what, F f)
{
    uint32_t n = Count<T>(count, what);
    dst.gocannCheck(n, what);
    a.gocannCheck(n, what);
    b.gocannCheck(n, what);
    T *d = dst.GetPhyAddr();
    const T *x = a.GetPhyAddr(), *y = b.GetPhyAddr();
    using A = typename Arith<T>::type;
    Elements<T>(n, [&](size_t i) { d[i] = T(f(A(x[i]), A(y[i]))); });
    CountForm();
}

template <typename T, typename F>
inline void Unary(const LocalTensor<T> &dst, const LocalTensor<T> &src, int32_t count, const char *what, F f)
{
    uint32_t n = Count<T>(count, what);
    dst.gocannCheck(n, what);
    src.gocannCheck(n, what);
    T *d = dst.GetPhyAddr();
    const T *x = src.GetPhyAddr();
    using A = typename Arith<T>::type;
    Elements<T>(n, [&](size_t i) { d[i] = T(f(A(x[i]))); });
    CountForm();
}

/* Binary0 is a two-source instruction: each repeat reads its elements,
 * then writes its results, as the vector unit does. */
template <typename T, typename F>
inline void Binary0(const LocalTensor<T> &dst, const LocalTensor<T> &a, const LocalTensor<T> &b, const Mask &m,
                    uint8_t repeatTime, const BinaryRepeatParams &p, const char *what, F f)
{
    Walk<T> w(m, repeatTime);
    Strided<T> d = Operand(dst, p.dstBlkStride, p.dstRepStride, w, what, "dst");
    Strided<T> x = Operand(a, p.src0BlkStride, p.src0RepStride, w, what, "src0");
    Strided<T> y = Operand(b, p.src1BlkStride, p.src1RepStride, w, what, "src1");
    using A = typename Arith<T>::type;
    T out[128];
    for (uint32_t r = 0; r < w.repeats; r++) {
        uint32_t n = w.Lanes(r);
        T *dr = d.Run(r);
        const T *xr = x.Run(r), *yr = y.Run(r);
        if (dr && xr && yr && w.Full(n) && Apart(dr, xr, n) && Apart(dr, yr, n)) {
            // A whole repeat of runs: the loop of the count form.
            GOCANN_ASCENDC_INDEPENDENT
            for (uint32_t j = 0; j < n; j++) {
                dr[j] = T(f(A(xr[j]), A(yr[j])));
            }
            continue;
        }
        for (uint32_t j = 0; j < n; j++) {
            if (w.On(j)) {
                out[j] = T(f(A(*x.At(r, j)), A(*y.At(r, j))));
            }
        }
        for (uint32_t j = 0; j < n; j++) {
            if (w.On(j)) {
                *d.At(r, j) = out[j];
            }
        }
    }
}

/* Unary0 is a one-source instruction, f mapping each element. */
template <typename T, typename F>
inline void Unary0(const LocalTensor<T> &dst, const LocalTensor<T> &src, const Mask &m, uint8_t repeatTime,
                   const UnaryRepeatParams &p, const char *what, F f)
{
    Walk<T> w(m, repeatTime);
    Strided<T> d = Operand(dst, p.dstBlkStride, p.dstRepStride, w, what, "dst");
    Strided<T> x = Operand(src, p.srcBlkStride, p.srcRepStride, w, what, "src");
    using A = typename Arith<T>::type;
    T out[128];
    for (uint32_t r = 0; r < w.repeats; r++) {
        uint32_t n = w.Lanes(r);
        T *dr = d.Run(r);
        const T *xr = x.Run(r);
        if (dr && xr && w.Full(n) && Apart(dr, xr, n)) {
            GOCANN_ASCENDC_INDEPENDENT
            for (uint32_t j = 0; j < n; j++) {
                dr[j] = T(f(A(xr[j])));
            }
            continue;
        }
        for (uint32_t j = 0; j < n; j++) {
            if (w.On(j)) {
                out[j] = T(f(A(*x.At(r, j))));
            }
        }
        for (uint32_t j = 0; j < n; j++) {
            if (w.On(j)) {
                *d.At(r, j) = out[j];
            }
        }
    }
}

} // namespace gocann

/* The two-source operations: dst = src0 op src1. */
#define GOCANN_ASCENDC_BINARY(name, expr)                                                                          \
    template <typename T>                                                                                          \
    __aicore__ inline void name(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1, \
                                const int32_t &count)                                                              \
    {                                                                                                              \
        gocann::Binary(dst, src0, src1, count, #name, [](auto x, auto y) { return expr; });                        \
    }                                                                                                              \
    template <typename T, bool isSetMask = true>                                                                   \
    __aicore__ inline void name(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1, \
                                uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams &repeatParams)   \
    {                                                                                                              \
        gocann::Binary0(dst, src0, src1, gocann::ContinuousMask<T, isSetMask>(mask, #name), repeatTime,           \
                        repeatParams, #name, [](auto x, auto y) { return expr; });                                 \
    }                                                                                                              \
    template <typename T, bool isSetMask = true>                                                                   \
    __aicore__ inline void name(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1, \
                                const uint64_t mask[], const uint8_t repeatTime,                                   \
                                const BinaryRepeatParams &repeatParams)                                            \
    {                                                                                                              \
        gocann::Binary0(dst, src0, src1, gocann::BitMask<T, isSetMask>(mask, #name), repeatTime, repeatParams,    \
                        #name, [](auto x, auto y) { return expr; });                                               \
    }
GOCANN_ASCENDC_BINARY(Add, x + y)
GOCANN_ASCENDC_BINARY(Sub, x - y)
GOCANN_ASCENDC_BINARY(Mul, x *y)
GOCANN_ASCENDC_BINARY(Div, x / y)
GOCANN_ASCENDC_BINARY(Max, x > y ? x : y)
GOCANN_ASCENDC_BINARY(Min, x < y ? x : y)
GOCANN_ASCENDC_BINARY(And, x &y)
GOCANN_ASCENDC_BINARY(Or, x | y)
GOCANN_ASCENDC_BINARY(AddRelu, x + y > decltype(x)(0) ? x + y : decltype(x)(0))
GOCANN_ASCENDC_BINARY(SubRelu, x - y > decltype(x)(0) ? x - y : decltype(x)(0))
#undef GOCANN_ASCENDC_BINARY

/* The scalar forms: dst = src op scalarValue. */
#define GOCANN_ASCENDC_SCALAR(name, expr)                                                                         \
    template <typename T, bool isSetMask = true>                                                                  \
    __aicore__ inline void name(const LocalTensor<T> &dst, const LocalTensor<T> &src, const T &scalarValue,      \
                                const int32_t &count)                                                             \
    {                                                                                                             \
        using A = typename gocann::Arith<T>::type;                                                                \
        A s = A(scalarValue);                                                                                     \
        gocann::Unary(dst, src, count, #name, [s](auto x) { return expr; });                                      \
    }                                                                                                             \
    template <typename T, bool isSetMask = true>                                                                  \
    __aicore__ inline void name(const LocalTensor<T> &dst, const LocalTensor<T> &src, const T &scalarValue,      \
                                uint64_t mask, const uint8_t repeatTime, const UnaryRepeatParams &repeatParams)   \
    {                                                                                                             \
        using A = typename gocann::Arith<T>::type;                                                                \
        A s = A(scalarValue);                                                                                     \
        gocann::Unary0(dst, src, gocann::ContinuousMask<T, isSetMask>(mask, #name), repeatTime, repeatParams,    \
                       #name, [s](auto x) { return expr; });                                                      \
    }                                                                                                             \
    template <typename T, bool isSetMask = true>                                                                  \
    __aicore__ inline void name(const LocalTensor<T> &dst, const LocalTensor<T> &src, const T &scalarValue,      \
                                const uint64_t mask[], const uint8_t repeatTime,                                  \
                                const UnaryRepeatParams &repeatParams)                                            \
    {                                                                                                             \
        using A = typename gocann::Arith<T>::type;                                                                \
        A s = A(scalarValue);                                                                                     \
        gocann::Unary0(dst, src, gocann::BitMask<T, isSetMask>(mask, #name), repeatTime, repeatParams, #name,    \
                       [s](auto x) { return expr; });                                                             \
    }
GOCANN_ASCENDC_SCALAR(Adds, x + s)
GOCANN_ASCENDC_SCALAR(Muls, x *s)
GOCANN_ASCENDC_SCALAR(Maxs, x > s ? x : s)
GOCANN_ASCENDC_SCALAR(Mins, x < s ? x : s)
GOCANN_ASCENDC_SCALAR(LeakyRelu, x >= A(0) ? x : x * s)
#undef GOCANN_ASCENDC_SCALAR

/* The one-source operations: dst = op(src). */
#define GOCANN_ASCENDC_UNARY(name, expr)                                                                         \
    template <typename T, bool isSetMask = true>                                                                 \
    __aicore__ inline void name(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t &count)      \
    {                                                                                                            \
        using A = typename gocann::Arith<T>::type;                                                               \
        gocann::Unary(dst, src, count, #name, [](A x) { return expr; });                                         \
    }                                                                                                            \
    template <typename T, bool isSetMask = true>                                                                 \
    __aicore__ inline void name(const LocalTensor<T> &dst, const LocalTensor<T> &src, uint64_t mask,             \
                                const uint8_t repeatTime, const UnaryRepeatParams &repeatParams)                 \
    {                                                                                                            \
        using A = typename gocann::Arith<T>::type;                                                               \
        gocann::Unary0(dst, src, gocann::ContinuousMask<T, isSetMask>(mask, #name), repeatTime, repeatParams,   \
                       #name, [](A x) { return expr; });                                                         \
    }                                                                                                            \
    template <typename T, bool isSetMask = true>                                                                 \
    __aicore__ inline void name(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint64_t mask[],     \
                                const uint8_t repeatTime, const UnaryRepeatParams &repeatParams)                 \
    {                                                                                                            \
        using A = typename gocann::Arith<T>::type;                                                               \
        gocann::Unary0(dst, src, gocann::BitMask<T, isSetMask>(mask, #name), repeatTime, repeatParams, #name,   \
                       [](A x) { return expr; });                                                                \
    }
GOCANN_ASCENDC_UNARY(Abs, x < A(0) ? -x : x)
GOCANN_ASCENDC_UNARY(Exp, A(std::exp(x)))
GOCANN_ASCENDC_UNARY(Ln, A(std::log(x)))
GOCANN_ASCENDC_UNARY(Sqrt, A(std::sqrt(x)))
GOCANN_ASCENDC_UNARY(Rsqrt, A(A(1) / std::sqrt(x)))
GOCANN_ASCENDC_UNARY(Reciprocal, A(A(1) / x))
GOCANN_ASCENDC_UNARY(Relu, x > A(0) ? x : A(0))
GOCANN_ASCENDC_UNARY(Not, A(~x))
#undef GOCANN_ASCENDC_UNARY

/* Duplicate sets elements of dst to scalarValue: the first count, or
 * those an instruction's mask lets through. */
template <typename T>
__aicore__ inline void Duplicate(const LocalTensor<T> &dst, const T &scalarValue, const int32_t &count)
{
    uint32_t n = gocann::Count<T>(count, "Duplicate");
    dst.gocannCheck(n, "Duplicate");
    T *d = dst.GetPhyAddr();
    T v = scalarValue;
    gocann::Elements<T>(n, [&](size_t i) { d[i] = v; });
    gocann::CountForm();
}

template <typename T, bool isSetMask = true>
__aicore__ inline void Duplicate(const LocalTensor<T> &dst, const T &scalarValue, uint64_t mask,
                                 const uint8_t repeatTime, const uint16_t dstBlockStride, const uint8_t dstRepeatStride)
{
    UnaryRepeatParams p(dstBlockStride, dstBlockStride, dstRepeatStride, dstRepeatStride);
    gocann::Unary0(dst, dst, gocann::ContinuousMask<T, isSetMask>(mask, "Duplicate"), repeatTime, p, "Duplicate",
                   [scalarValue](auto) { return scalarValue; });
}

template <typename T, bool isSetMask = true>
__aicore__ inline void Duplicate(const LocalTensor<T> &dst, const T &scalarValue, const uint64_t mask[],
                                 const uint8_t repeatTime, const uint16_t dstBlockStride, const uint8_t dstRepeatStride)
{
    UnaryRepeatParams p(dstBlockStride, dstBlockStride, dstRepeatStride, dstRepeatStride);
    gocann::Unary0(dst, dst, gocann::BitMask<T, isSetMask>(mask, "Duplicate"), repeatTime, p, "Duplicate",
                   [scalarValue](auto) { return scalarValue; });
}

} // namespace AscendC

#endif /* GOCANN_ASCENDC_VECTOR_H_ */
