/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * Part of kernel_operator.h: copies between global memory and the unified
 * buffer, the vector operations on the first count elements of local
 * tensors, and the pipeline synchronization calls. Include
 * kernel_operator.h, not this.
 */
#ifndef GOCANN_ASCENDC_VECTOR_H_
#define GOCANN_ASCENDC_VECTOR_H_

#include <cmath>
#include <cstring>

#include "gocann_builtin.h"
#include "gocann_pipe.h"

namespace AscendC {

/* The events between pipes, for SetFlag and WaitFlag. */
enum class HardEvent : uint8_t {
    MTE2_MTE1,
    MTE1_MTE2,
    MTE1_M,
    M_MTE1,
    MTE2_V,
    V_MTE2,
    MTE3_V,
    V_MTE3,
    M_V,
    V_M,
    V_V,
    MTE3_MTE1,
    MTE1_MTE3,
    MTE1_V,
    MTE2_M,
    M_MTE2,
    V_MTE1,
    M_FIX,
    FIX_M,
    MTE3_MTE2,
    MTE2_MTE3,
    S_V,
    V_S,
    S_MTE2,
    MTE2_S,
    S_MTE3,
    MTE3_S,
    MTE2_FIX,
    FIX_MTE2,
    FIX_S,
    M_S,
    FIX_MTE3,
    MTE1_FIX,
    FIX_MTE1,
    FIX_FIX,
    MAX,
};

/* Every operation is finished when its call returns, so there is nothing
 * to wait for between pipes. */
template <pipe_t pipe>
__aicore__ inline void PipeBarrier()
{
}

/* InitSocState resets the core's global state (atomic accumulation, mask
 * mode, ...) at a kernel's entry; a block here starts from nothing. */
__aicore__ inline void InitSocState() {}

/* SetNextTaskStart and WaitPreTaskEnd let neighbouring sub-kernels of a
 * SuperKernel overlap; outside one, as here, they do nothing. */
template <pipe_t AIV_PIPE = PIPE_MTE3, pipe_t AIC_PIPE = PIPE_FIX, bool FORCE = false>
__aicore__ inline void SetNextTaskStart()
{
}
template <bool FORCE = false>
__aicore__ inline void WaitPreTaskEnd()
{
}
template <HardEvent event>
__aicore__ inline void SetFlag(int32_t)
{
}
template <HardEvent event>
__aicore__ inline void WaitFlag(int32_t)
{
}

namespace gocann {

/* CopyCount checks a DataCopy of count elements of T: a whole number of
 * 32-byte blocks, as the copy engines move them. */
template <typename T>
inline void CopyCount(uint32_t count)
{
    if (uint64_t(count) * sizeof(T) % kBlockBytes != 0) {
        Fail("DataCopy: %u elements of %zu bytes are not a whole number of %u-byte blocks (DataCopyPad copies "
             "those on Ascend C)",
             count, sizeof(T), kBlockBytes);
    }
}

template <typename T>
inline uint32_t Count(int32_t count, const char *what)
{
    if (count < 0) {
        Fail("%s: count %d is negative", what, count);
    }
    return uint32_t(count);
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
    for (uint32_t i = 0; i < n; i++) {
        d[i] = T(f(A(x[i]), A(y[i])));
    }
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
    for (uint32_t i = 0; i < n; i++) {
        d[i] = T(f(A(x[i])));
    }
}

} // namespace gocann

/* DataCopy copies count elements, a whole number of 32-byte blocks. */
template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, uint32_t count)
{
    gocann::CopyCount<T>(count);
    dst.gocannCheck(count, "DataCopy to LocalTensor");
    src.gocannCheck(count, "DataCopy from GlobalTensor");
    memcpy(dst.GetPhyAddr(), src.GetPhyAddr(), size_t(count) * sizeof(T));
}

template <typename T>
__aicore__ inline void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src, uint32_t count)
{
    gocann::CopyCount<T>(count);
    dst.gocannCheck(count, "DataCopy to GlobalTensor");
    src.gocannCheck(count, "DataCopy from LocalTensor");
    memcpy(dst.GetPhyAddr(), src.GetPhyAddr(), size_t(count) * sizeof(T));
}

template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src, uint32_t count)
{
    gocann::CopyCount<T>(count);
    dst.gocannCheck(count, "DataCopy to LocalTensor");
    src.gocannCheck(count, "DataCopy from LocalTensor");
    memmove(dst.GetPhyAddr(), src.GetPhyAddr(), size_t(count) * sizeof(T));
}

#define GOCANN_ASCENDC_BINARY(name, expr)                                                                     \
    template <typename T>                                                                                     \
    __aicore__ inline void name(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1, \
                                const int32_t &count)                                                         \
    {                                                                                                         \
        gocann::Binary(dst, src0, src1, count, #name, [](auto x, auto y) { return expr; });                   \
    }
GOCANN_ASCENDC_BINARY(Add, x + y)
GOCANN_ASCENDC_BINARY(Sub, x - y)
GOCANN_ASCENDC_BINARY(Mul, x *y)
GOCANN_ASCENDC_BINARY(Div, x / y)
GOCANN_ASCENDC_BINARY(Max, x > y ? x : y)
GOCANN_ASCENDC_BINARY(Min, x < y ? x : y)
#undef GOCANN_ASCENDC_BINARY

/* The scalar forms: src op scalarValue for each element. */
#define GOCANN_ASCENDC_SCALAR(name, expr)                                                                     \
    template <typename T>                                                                                     \
    __aicore__ inline void name(const LocalTensor<T> &dst, const LocalTensor<T> &src, const T &scalarValue,  \
                                const int32_t &count)                                                         \
    {                                                                                                         \
        using A = typename gocann::Arith<T>::type;                                                            \
        A s = A(scalarValue);                                                                                 \
        gocann::Unary(dst, src, count, #name, [s](auto x) { return expr; });                                  \
    }
GOCANN_ASCENDC_SCALAR(Adds, x + s)
GOCANN_ASCENDC_SCALAR(Muls, x *s)
GOCANN_ASCENDC_SCALAR(Maxs, x > s ? x : s)
GOCANN_ASCENDC_SCALAR(Mins, x < s ? x : s)
#undef GOCANN_ASCENDC_SCALAR

#define GOCANN_ASCENDC_UNARY(name, expr)                                                                      \
    template <typename T>                                                                                     \
    __aicore__ inline void name(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t &count)   \
    {                                                                                                         \
        using A = typename gocann::Arith<T>::type;                                                            \
        gocann::Unary(dst, src, count, #name, [](A x) { return expr; });                                      \
    }
GOCANN_ASCENDC_UNARY(Abs, x < A(0) ? -x : x)
GOCANN_ASCENDC_UNARY(Exp, A(std::exp(x)))
GOCANN_ASCENDC_UNARY(Ln, A(std::log(x)))
GOCANN_ASCENDC_UNARY(Sqrt, A(std::sqrt(x)))
GOCANN_ASCENDC_UNARY(Rsqrt, A(A(1) / std::sqrt(x)))
GOCANN_ASCENDC_UNARY(Reciprocal, A(A(1) / x))
GOCANN_ASCENDC_UNARY(Relu, x > A(0) ? x : A(0))
#undef GOCANN_ASCENDC_UNARY

/* Duplicate sets the first count elements of dst to scalarValue. */
template <typename T>
__aicore__ inline void Duplicate(const LocalTensor<T> &dst, const T &scalarValue, const int32_t &count)
{
    uint32_t n = gocann::Count<T>(count, "Duplicate");
    dst.gocannCheck(n, "Duplicate");
    T *d = dst.GetPhyAddr();
    for (uint32_t i = 0; i < n; i++) {
        d[i] = scalarValue;
    }
}

} // namespace AscendC

#endif /* GOCANN_ASCENDC_VECTOR_H_ */
