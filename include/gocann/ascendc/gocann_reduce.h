/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * Part of kernel_operator.h: the reductions. This file holds what they
 * share and the repeat reductions (ReduceRepeat, WholeReduceSum/Max/Min,
 * RepeatReduceSum): one result per repeat, a sum or a max or min with its
 * index in the repeat. gocann_reduce_block.h has the block and pair
 * reductions, gocann_reduce_all.h ReduceSum, ReduceMax and ReduceMin.
 *
 * Sums follow the order the documentation gives: a binary tree over the
 * lanes of a repeat (or of a block), neighbours first, each sum rounded to
 * the operand type; a lane the mask leaves out adds +0. A max or min keeps
 * the first of equal elements. On Atlas A2 a mask or repeat count of 0
 * makes a reduction write nothing. Include kernel_operator.h, not this.
 */
#ifndef GOCANN_ASCENDC_REDUCE_H_
#define GOCANN_ASCENDC_REDUCE_H_

#include <cstring>
#include <type_traits>

#include "gocann_mask.h"

namespace AscendC {

enum class ReduceType {
    NONE = -1,
    SUM = 0,
    MAX,
    MIN,
};

/* Where a max or min and its index go in a repeat reduction's result. */
enum class ReduceOrder : uint8_t {
    ORDER_VALUE_INDEX = 0,
    ORDER_INDEX_VALUE,
    ORDER_ONLY_VALUE,
    ORDER_ONLY_INDEX,
};

namespace gocann {
namespace red {

/* Regs is the vector unit's reduction registers: the sum the last count
 * form ReduceSum accumulated, and the max or min of all repeats of the
 * last repeat max or min with its index, as bits of the operand type. */
struct Regs {
    uint64_t acc = 0;
    uint64_t value = 0;
    uint32_t index = 0;
};

inline Regs &Reg()
{
    static thread_local Regs regs;
    return regs;
}

/* Atlas A2 reduces half and float, dst and src of one type. */
template <typename T, typename U = T>
constexpr bool Supported()
{
    return std::is_same<T, U>::value && (std::is_same<T, half>::value || std::is_same<T, float>::value);
}

/* Index is how a result's index is stored next to a value of type T. */
template <typename T>
using Index = typename std::conditional<sizeof(T) == 2, uint16_t, uint32_t>::type;

template <typename T>
inline uint64_t Bits(T v)
{
    uint64_t b = 0;
    std::memcpy(&b, &v, sizeof v);
    return b;
}

template <typename T>
inline T FromBits(uint64_t b)
{
    T v;
    std::memcpy(&v, &b, sizeof v);
    return v;
}

template <typename V>
inline void Put(uint8_t *base, uint64_t offset, V v)
{
    std::memcpy(base + offset, &v, sizeof v);
}

/* Sum adds n values (a power of two) as a binary tree, neighbours first,
 * each sum rounded to T. It overwrites v. */
template <typename T>
inline T Sum(T *v, uint32_t n)
{
    using A = typename Arith<T>::type;
    for (; n > 1; n /= 2) {
        for (uint32_t i = 0; i < n / 2; i++) {
            v[i] = T(A(v[2 * i]) + A(v[2 * i + 1]));
        }
    }
    return v[0];
}

/* Better says x takes best's place: strictly above it for MAX, below for
 * MIN, so that of equal elements the first stays. */
template <ReduceType kind, typename T>
inline bool Better(T x, T best)
{
    using A = typename Arith<T>::type;
    return kind == ReduceType::MAX ? A(x) > A(best) : A(x) < A(best);
}

inline uint32_t Param(int64_t v, int64_t max, const char *name, const char *what)
{
    if (v < 0 || v > max) {
        Fail("%s: %s %lld is out of range [0, %lld]", what, name, (long long)v, (long long)max);
    }
    return uint32_t(v);
}

/* Any says whether a mask lets any lane through. */
template <typename T>
inline bool Any(const Mask &m)
{
    return m.counter ? m.count != 0 : m.bits[0] != 0 || (sizeof(T) == 2 && m.bits[1] != 0);
}

/* CountMask and BitsMask make the mask of a reduction; they return false
 * when it lets nothing through, which makes the call do nothing. A count
 * mask past a repeat's lanes stops the block, as for every vector call
 * (gocann_mask.h); a negative one is undefined in the documentation. */
template <typename T, bool isSetMask>
inline bool CountMask(int32_t mask, Mask &m, const char *what)
{
    if (isSetMask && mask < 0) {
        Fail("%s: mask %d is negative", what, mask);
    }
    if (isSetMask && mask == 0) {
        return false;
    }
    m = ContinuousMask<T, isSetMask>(uint64_t(mask), what);
    return Any<T>(m);
}

template <typename T, bool isSetMask>
inline bool BitsMask(const uint64_t mask[], Mask &m, const char *what)
{
    if (isSetMask && Vec().mode == MaskMode::NORMAL && mask[0] == 0 && (sizeof(T) == 4 || mask[1] == 0)) {
        return false;
    }
    m = BitMask<T, isSetMask>(mask, what);
    return Any<T>(m);
}

/* Out checks the bytes [0, end) from dst's start that a reduction writes:
 * dst must start on an align-byte boundary and they must lie in the
 * unified buffer. It returns dst's first byte. */
template <typename T>
inline uint8_t *Out(const LocalTensor<T> &dst, uint64_t end, uint32_t align, const char *what)
{
    if (dst.GetPhyAddr() == nullptr) {
        Fail("%s: dst has no buffer (it was not allocated from a TQue, a TBuf or a LocalMemAllocator)", what);
    }
    const uint8_t *ub = UnifiedBuffer();
    uint8_t *d = reinterpret_cast<uint8_t *>(dst.GetPhyAddr());
    uint64_t start = uint64_t(d - ub);
    if (d < ub || start % align != 0 || start + end > kUBSize) {
        Fail("%s: dst reaches bytes [%llu, %llu) of the %u-byte unified buffer (it must start on a %u-byte boundary "
             "and stay inside)",
             what, (unsigned long long)start, (unsigned long long)(start + end), kUBSize, align);
    }
    return d;
}

/* Strides are the strides of a block, pair or repeat reduction. */
struct Strides {
    uint32_t repeats, dst, blk, rep;
};

inline Strides CheckStrides(int32_t repeatTime, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride,
                            const char *what)
{
    return Strides{Param(repeatTime, MAX_REPEAT_TIMES, "repeatTime", what),
                   Param(dstRepStride, 65535, "dstRepStride", what), Param(srcBlkStride, 65535, "srcBlkStride", what),
                   Param(srcRepStride, 65535, "srcRepStride", what)};
}

/* Repeat is a repeat reduction (the vector unit's vcadd, vcmax, vcmin):
 * per repeat the sum of the lanes the mask lets through, or their first
 * max or min and its lane, written dstRepStride results apart. A max or
 * min also sets the register GetReduceRepeatMaxMinSpr reads: the best of
 * all repeats and its lane counted from the first repeat's. */
template <ReduceType kind, typename T>
inline void Repeat(const LocalTensor<T> &dst, const LocalTensor<T> &src, const Mask &m, bool on, int32_t repeatTime,
                   int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride, ReduceOrder order,
                   const char *what)
{
    static_assert(kind != ReduceType::NONE, "a reduction needs ReduceType SUM, MAX or MIN");
    Strides p = CheckStrides(repeatTime, dstRepStride, srcBlkStride, srcRepStride, what);
    if (uint8_t(order) > uint8_t(ReduceOrder::ORDER_ONLY_INDEX)) {
        Fail("%s: ReduceOrder %u is not one of the four orders", what, unsigned(order));
    }
    Walk<T> w(m, uint8_t(p.repeats));
    if (!on || w.repeats == 0) {
        return;
    }
    Strided<T> s = Operand(src, p.blk, p.rep, w, what, "src");
    bool pair = kind != ReduceType::SUM &&
                (order == ReduceOrder::ORDER_VALUE_INDEX || order == ReduceOrder::ORDER_INDEX_VALUE);
    bool onlyIndex = kind != ReduceType::SUM && order == ReduceOrder::ORDER_ONLY_INDEX;
    uint32_t unit = pair ? 2 * sizeof(T) : onlyIndex ? 4 : sizeof(T); // an index alone is a uint32_t
    uint8_t *d = Out(dst, (uint64_t(w.repeats - 1) * p.dst + 1) * unit, unit, what);
    constexpr uint32_t per = PerRepeat<T>();
    bool found = false;
    T best = T(0);
    uint32_t bestAt = 0;
    for (uint32_t r = 0; r < w.repeats; r++) {
        uint32_t n = w.Lanes(r);
        uint64_t at = uint64_t(r) * p.dst * unit;
        if constexpr (kind == ReduceType::SUM) {
            T v[per];
            for (uint32_t j = 0; j < per; j++) {
                v[j] = j < n && w.On(j) ? *s.At(r, j) : T(0);
            }
            Put(d, at, Sum(v, per));
        } else {
            int32_t lane = -1;
            T x = T(0);
            for (uint32_t j = 0; j < n; j++) {
                if (w.On(j) && (lane < 0 || Better<kind>(*s.At(r, j), x))) {
                    lane = int32_t(j);
                    x = *s.At(r, j);
                }
            }
            if (lane < 0) {
                continue;
            }
            if (order == ReduceOrder::ORDER_VALUE_INDEX) {
                Put(d, at, x);
                Put(d, at + sizeof(T), Index<T>(lane));
            } else if (order == ReduceOrder::ORDER_INDEX_VALUE) {
                Put(d, at, Index<T>(lane));
                Put(d, at + sizeof(T), x);
            } else if (order == ReduceOrder::ORDER_ONLY_VALUE) {
                Put(d, at, x);
            } else {
                Put(d, at, uint32_t(lane));
            }
            if (!found || Better<kind>(x, best)) {
                found = true;
                best = x;
                bestAt = r * per + uint32_t(lane);
            }
        }
    }
    if (found) {
        Reg().value = Bits(best);
        Reg().index = bestAt;
    }
}

} // namespace red
} // namespace gocann

/* ReduceRepeat reduces each repeat to one result: dstRepStride counts
 * results (a value, an index, or both as the order says). */
template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
__aicore__ inline void ReduceRepeat(const LocalTensor<T> &dst, const LocalTensor<U> &src, const int32_t mask,
                                    const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                                    const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX)
{
    static_assert(gocann::red::Supported<T, U>(), "ReduceRepeat: Atlas A2 reduces half or float, dst and src alike");
    gocann::Mask m;
    bool on = gocann::red::CountMask<T, isSetMask>(mask, m, "ReduceRepeat");
    gocann::red::Repeat<reduceType>(dst, src, m, on, repeatTime, dstRepStride, srcBlkStride, srcRepStride, order,
                                    "ReduceRepeat");
}

template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
__aicore__ inline void ReduceRepeat(const LocalTensor<T> &dst, const LocalTensor<U> &src, const uint64_t mask[],
                                    const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                                    const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX)
{
    static_assert(gocann::red::Supported<T, U>(), "ReduceRepeat: Atlas A2 reduces half or float, dst and src alike");
    gocann::Mask m;
    bool on = gocann::red::BitsMask<T, isSetMask>(mask, m, "ReduceRepeat");
    gocann::red::Repeat<reduceType>(dst, src, m, on, repeatTime, dstRepStride, srcBlkStride, srcRepStride, order,
                                    "ReduceRepeat");
}

/* The names ReduceRepeat replaced, with their own argument orders:
 * WholeReduceSum/Max/Min take the mask before repeatTime, RepeatReduceSum
 * repeatTime first and a dstBlkStride it ignores. */
#define GOCANN_ASCENDC_WHOLE_REDUCE(name, kind, orderParam, orderArg)                                                \
    template <typename T, bool isSetMask = true>                                                                     \
    __aicore__ inline void name(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t mask,            \
                                const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,    \
                                const int32_t srcRepStride orderParam)                                               \
    {                                                                                                                \
        static_assert(gocann::red::Supported<T>(), #name ": Atlas A2 reduces half or float");                       \
        gocann::Mask m;                                                                                              \
        bool on = gocann::red::CountMask<T, isSetMask>(mask, m, #name);                                              \
        gocann::red::Repeat<kind>(dst, src, m, on, repeatTime, dstRepStride, srcBlkStride, srcRepStride, orderArg,   \
                                  #name);                                                                            \
    }                                                                                                                \
    template <typename T, bool isSetMask = true>                                                                     \
    __aicore__ inline void name(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint64_t mask[],         \
                                const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,    \
                                const int32_t srcRepStride orderParam)                                               \
    {                                                                                                                \
        static_assert(gocann::red::Supported<T>(), #name ": Atlas A2 reduces half or float");                       \
        gocann::Mask m;                                                                                              \
        bool on = gocann::red::BitsMask<T, isSetMask>(mask, m, #name);                                               \
        gocann::red::Repeat<kind>(dst, src, m, on, repeatTime, dstRepStride, srcBlkStride, srcRepStride, orderArg,   \
                                  #name);                                                                            \
    }
#define GOCANN_ASCENDC_ORDER_PARAM , ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX
GOCANN_ASCENDC_WHOLE_REDUCE(WholeReduceSum, ReduceType::SUM, , ReduceOrder::ORDER_ONLY_VALUE)
GOCANN_ASCENDC_WHOLE_REDUCE(WholeReduceMax, ReduceType::MAX, GOCANN_ASCENDC_ORDER_PARAM, order)
GOCANN_ASCENDC_WHOLE_REDUCE(WholeReduceMin, ReduceType::MIN, GOCANN_ASCENDC_ORDER_PARAM, order)
#undef GOCANN_ASCENDC_ORDER_PARAM
#undef GOCANN_ASCENDC_WHOLE_REDUCE

template <typename T, bool isSetMask = true>
__aicore__ inline void RepeatReduceSum(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t repeatTime,
                                       const int32_t mask, const int32_t dstBlkStride, const int32_t srcBlkStride,
                                       const int32_t dstRepStride, const int32_t srcRepStride)
{
    static_assert(gocann::red::Supported<T>(), "RepeatReduceSum: Atlas A2 reduces half or float");
    (void)dstBlkStride;
    gocann::Mask m;
    bool on = gocann::red::CountMask<T, isSetMask>(mask, m, "RepeatReduceSum");
    gocann::red::Repeat<ReduceType::SUM>(dst, src, m, on, repeatTime, dstRepStride, srcBlkStride, srcRepStride,
                                         ReduceOrder::ORDER_ONLY_VALUE, "RepeatReduceSum");
}

/* GetReduceRepeatMaxMinSpr reads the max or min of all repeats of the
 * last repeat max or min, and its index (as bits of T: a uint16_t for
 * half, a uint32_t for float), counted as if the repeats were contiguous.
 * After ReduceMax or ReduceMin it holds their result. */
template <typename T>
__aicore__ inline void GetReduceRepeatMaxMinSpr(T &maxMinValue, T &maxMinIndex)
{
    static_assert(gocann::red::Supported<T>(), "GetReduceRepeatMaxMinSpr: Atlas A2 reduces half or float");
    maxMinValue = gocann::red::FromBits<T>(gocann::red::Reg().value);
    maxMinIndex = gocann::red::FromBits<T>(gocann::red::Reg().index);
}

template <typename T>
__aicore__ inline void GetReduceRepeatMaxMinSpr(T &maxMinValue)
{
    static_assert(sizeof(T) == 0, "GetReduceRepeatMaxMinSpr(value) is the Atlas inference AI Core's; Atlas A2 reads "
                                  "the value and the index together");
}

template <typename T>
__aicore__ inline void GetReduceMaxMinCount(T &maxMinValue, T &maxMinIndex)
{
    GetReduceRepeatMaxMinSpr(maxMinValue, maxMinIndex);
}

template <typename T>
__aicore__ inline void GetReduceMaxMinCount(T &maxMinValue)
{
    static_assert(sizeof(T) == 0, "GetReduceMaxMinCount(value) is the Atlas inference AI Core's; Atlas A2 reads the "
                                  "value and the index together");
}

/* GetReduceRepeatSumSpr reads the sum the last count form ReduceSum left. */
template <typename T>
__aicore__ inline T GetReduceRepeatSumSpr()
{
    static_assert(gocann::red::Supported<T>(), "GetReduceRepeatSumSpr: Atlas A2 reduces half or float");
    return gocann::red::FromBits<T>(gocann::red::Reg().acc);
}

template <typename T>
__aicore__ inline T GetAccVal()
{
    return GetReduceRepeatSumSpr<T>();
}

} // namespace AscendC

#endif /* GOCANN_ASCENDC_REDUCE_H_ */
