/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * Part of kernel_operator.h: ReduceSum, ReduceMax and ReduceMin, the
 * reductions of a whole tensor to one value (and an index), on the first
 * count elements or over the repeats of a mask, with a sharedTmpBuffer.
 * Their order of sums is Atlas A2's, as the documentation gives it: the
 * count form adds each repeat's tree sum to a running total, repeat after
 * repeat (the total is also what GetReduceRepeatSumSpr reads); the
 * mask/repeat form sums the repeats' sums as trees of up to a repeat's
 * lanes again. The sharedTmpBuffer must be as large as the documentation
 * says; what the device leaves in it is not modelled. Include
 * kernel_operator.h, not this.
 */
#ifndef GOCANN_ASCENDC_REDUCE_ALL_H_
#define GOCANN_ASCENDC_REDUCE_ALL_H_

#include <vector>

#include "gocann_reduce.h"

namespace AscendC {

namespace gocann {
namespace red {

/* Normal fails in the counter mode: ReduceMax, ReduceMin and the mask form
 * of ReduceSum set masks of the normal mode that it would misread. */
inline void Normal(const char *what)
{
    if (Vec().mode == MaskMode::COUNTER) {
        Fail("%s: the mask is in the counter mode (SetMaskCount), and this call needs the normal mode", what);
    }
}

inline uint64_t Up(uint64_t a, uint64_t b) { return (a + b - 1) / b * b; }

/* Scratch checks that sharedTmpBuffer starts on a 32-byte block of the
 * unified buffer and holds the need elements the documentation asks. */
template <typename T>
inline void Scratch(const LocalTensor<T> &tmp, uint64_t need, const char *what)
{
    const uint8_t *ub = UnifiedBuffer(), *t = reinterpret_cast<const uint8_t *>(tmp.GetPhyAddr());
    if (t == nullptr || t < ub || uint64_t(t - ub) % ONE_BLK_SIZE != 0) {
        Fail("%s: sharedTmpBuffer must be a buffer of the unified buffer starting on a 32-byte block", what);
    }
    if (tmp.GetSize() < need) {
        Fail("%s: sharedTmpBuffer holds %u elements and the call needs %llu", what, tmp.GetSize(),
             (unsigned long long)need);
    }
}

/* MaxMinNeed is the documentation's sharedTmpBuffer size, in elements, of
 * ReduceMax and ReduceMin whose first step runs repeats repeats: each step
 * writes a value and an index per repeat, rounded up to blocks, and with
 * calIndex every step keeps its own. */
template <typename T>
inline uint64_t MaxMinNeed(uint64_t repeats, bool calIndex)
{
    constexpr uint64_t perBlk = ONE_BLK_SIZE / sizeof(T), per = PerRepeat<T>();
    uint64_t out1 = repeats * 2, need = Up(out1, perBlk);
    if (!calIndex) {
        return need;
    }
    uint64_t out2 = (out1 + per - 1) / per * 2;
    need += Up(out2, perBlk);
    if (out2 > 2) {
        need += Up((out2 + per - 1) / per * 2, perBlk);
    }
    return need;
}

/* RepeatSums is the tree sum of each repeat of src that w walks. */
template <typename T>
inline std::vector<T> RepeatSums(const Walk<T> &w, const Strided<T> &s)
{
    constexpr uint32_t per = PerRepeat<T>();
    std::vector<T> sums(w.repeats);
    for (uint32_t r = 0; r < w.repeats; r++) {
        T v[per];
        for (uint32_t j = 0; j < per; j++) {
            v[j] = j < w.Lanes(r) && w.On(j) ? *s.At(r, j) : T(0);
        }
        sums[r] = Sum(v, per);
    }
    return sums;
}

/* Best is ReduceMax and ReduceMin: the first max or min of the lanes the
 * mask lets through, repeat by repeat, and its index, the element's offset
 * from src (repeats srcRepStride blocks apart, blocks contiguous). */
template <ReduceType kind, typename T>
inline void Best(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &tmp, const Mask &m,
                 uint32_t repeats, uint32_t srcRepStride, bool calIndex, uint64_t need, const char *what)
{
    Walk<T> w(m, 0);
    w.repeats = repeats;
    Strided<T> s = Operand(src, 1, srcRepStride, w, what, "src");
    Scratch(tmp, need, what);
    uint32_t unit = calIndex ? 2 * sizeof(T) : sizeof(T);
    uint8_t *d = Out(dst, unit, unit, what);
    bool found = false;
    T best = T(0);
    uint64_t at = 0;
    w.Each([&](uint32_t r, uint32_t j) {
        T x = *s.At(r, j);
        if (!found || Better<kind>(x, best)) {
            found = true;
            best = x;
            at = uint64_t(r) * srcRepStride * (ONE_BLK_SIZE / sizeof(T)) + j;
        }
    });
    if (calIndex && at > uint64_t(Index<T>(~0u))) {
        Fail("%s: the index %llu of the result does not fit the %zu bits an index of half has", what,
             (unsigned long long)at, 8 * sizeof(Index<T>));
    }
    Put(d, 0, best);
    if (calIndex) {
        Put(d, sizeof(T), Index<T>(at));
    }
    Reg().value = Bits(best);
    Reg().index = uint32_t(at);
}

template <ReduceType kind, typename T>
inline void BestCount(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &tmp, int32_t count,
                      bool calIndex, const char *what)
{
    Normal(what);
    uint32_t n = Param(count, kUBSize / sizeof(T), "count", what);
    if (n == 0) {
        return;
    }
    src.gocannCheck(n, what);
    dst.gocannCheck(calIndex ? 2 : 1, what);
    Best<kind>(dst, src, tmp, CounterMask(n), (n + PerRepeat<T>() - 1) / PerRepeat<T>(), DEFAULT_REPEAT_STRIDE,
               calIndex, MaxMinNeed<T>(n / PerRepeat<T>(), calIndex), what);
    CountForm();
}

template <ReduceType kind, typename T>
inline void BestMask(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &tmp, const Mask &m,
                     bool on, int32_t repeatTime, int32_t srcRepStride, bool calIndex, const char *what)
{
    uint32_t repeats = Param(repeatTime, INT32_MAX, "repeatTime", what);
    uint32_t rep = Param(srcRepStride, 65535, "srcRepStride", what);
    if (on && repeats != 0) {
        Best<kind>(dst, src, tmp, m, repeats, rep, calIndex, MaxMinNeed<T>(repeats, calIndex), what);
    }
}

/* SumMask is ReduceSum's mask form: the repeats' sums, then the sums of
 * each repeat's worth of them, then the sum of those, each a tree. */
template <typename T>
inline void SumMask(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &tmp, const Mask &m,
                    bool on, int32_t repeatTime, int32_t srcRepStride, const char *what)
{
    constexpr uint32_t per = PerRepeat<T>();
    uint32_t repeats = Param(repeatTime, INT32_MAX, "repeatTime", what);
    uint32_t rep = Param(srcRepStride, 65535, "srcRepStride", what);
    if (!on || repeats == 0) {
        return;
    }
    if (repeats > per * per) { // the device's last step adds a repeat's worth of sums of a repeat's worth
        Fail("%s: %u repeats are more than the %u whose sums it adds (a repeat's lanes, squared)", what, repeats,
             per * per);
    }
    Walk<T> w(m, 0);
    w.repeats = repeats;
    Strided<T> s = Operand(src, 1, rep, w, what, "src");
    Scratch(tmp, Up(repeats, ONE_BLK_SIZE / sizeof(T)), what);
    uint8_t *d = Out(dst, sizeof(T), sizeof(T), what);
    std::vector<T> sums = RepeatSums(w, s);
    if (repeats > 1) {
        uint32_t groups = (repeats + per - 1) / per;
        for (uint32_t g = 0; g < groups; g++) {
            T v[per];
            for (uint32_t i = 0; i < per; i++) {
                v[i] = g * per + i < repeats ? sums[g * per + i] : T(0);
            }
            sums[g] = Sum(v, per);
        }
        if (groups > 1) {
            T v[per];
            for (uint32_t i = 0; i < per; i++) {
                v[i] = i < groups ? sums[i] : T(0);
            }
            sums[0] = Sum(v, per);
        }
    }
    Put(d, 0, sums[0]);
}

} // namespace red
} // namespace gocann

/* ReduceSum on the first count elements: the running total of the repeats'
 * sums, which GetReduceRepeatSumSpr reads too. With isSetMask false it
 * takes the mask registers as they are (a count in the counter mode, one
 * repeat's bits in the normal mode) and count is ignored. */
template <typename T, bool isSetMask = true>
__aicore__ inline void ReduceSum(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                                 const LocalTensor<T> &sharedTmpBuffer, const int32_t count)
{
    static_assert(gocann::red::Supported<T>(), "ReduceSum: Atlas A2 reduces half or float");
    namespace red = gocann::red;
    const char *what = "ReduceSum";
    (void)sharedTmpBuffer; // Atlas A2 sums the first count elements without it
    gocann::Mask m;
    if (isSetMask) {
        m.counter = true;
        m.count = red::Param(count, gocann::kUBSize / sizeof(T), "count", what);
        src.gocannCheck(m.count, what);
        dst.gocannCheck(m.count != 0, what);
    } else {
        m = gocann::ContinuousMask<T, false>(0, what);
    }
    if (!red::Any<T>(m)) {
        return;
    }
    gocann::Walk<T> w(m, 1);
    gocann::Strided<T> s = gocann::Operand(src, 1, DEFAULT_REPEAT_STRIDE, w, what, "src");
    uint8_t *d = red::Out(dst, sizeof(T), sizeof(T), what);
    std::vector<T> sums = red::RepeatSums(w, s);
    using A = typename gocann::Arith<T>::type;
    T total = sums[0];
    for (uint32_t r = 1; r < w.repeats; r++) {
        total = T(A(total) + A(sums[r]));
    }
    red::Put(d, 0, total);
    red::Reg().acc = red::Bits(total);
    if (isSetMask) {
        gocann::CountForm();
    }
}

template <typename T>
__aicore__ inline void ReduceSum(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                                 const LocalTensor<T> &sharedTmpBuffer, const int32_t mask, const int32_t repeatTime,
                                 const int32_t srcRepStride)
{
    static_assert(gocann::red::Supported<T>(), "ReduceSum: Atlas A2 reduces half or float");
    gocann::red::Normal("ReduceSum");
    gocann::Mask m;
    bool on = gocann::red::CountMask<T, true>(mask, m, "ReduceSum");
    gocann::red::SumMask(dst, src, sharedTmpBuffer, m, on, repeatTime, srcRepStride, "ReduceSum");
}

template <typename T>
__aicore__ inline void ReduceSum(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                                 const LocalTensor<T> &sharedTmpBuffer, const uint64_t mask[],
                                 const int32_t repeatTime, const int32_t srcRepStride)
{
    static_assert(gocann::red::Supported<T>(), "ReduceSum: Atlas A2 reduces half or float");
    gocann::red::Normal("ReduceSum");
    gocann::Mask m;
    bool on = gocann::red::BitsMask<T, true>(mask, m, "ReduceSum");
    gocann::red::SumMask(dst, src, sharedTmpBuffer, m, on, repeatTime, srcRepStride, "ReduceSum");
}

/* ReduceMax and ReduceMin write the first max or min to dst[0] and, with
 * calIndex, its index (bits of a uint16_t for half, of a uint32_t for
 * float) to dst[1]. */
#define GOCANN_ASCENDC_REDUCE_BEST(name, kind)                                                                       \
    template <typename T>                                                                                            \
    __aicore__ inline void name(const LocalTensor<T> &dst, const LocalTensor<T> &src,                                \
                                const LocalTensor<T> &sharedTmpBuffer, const int32_t count, bool calIndex = false)    \
    {                                                                                                                \
        static_assert(gocann::red::Supported<T>(), #name ": Atlas A2 reduces half or float");                       \
        gocann::red::BestCount<kind>(dst, src, sharedTmpBuffer, count, calIndex, #name);                             \
    }                                                                                                                \
    template <typename T>                                                                                            \
    __aicore__ inline void name(const LocalTensor<T> &dst, const LocalTensor<T> &src,                                \
                                const LocalTensor<T> &sharedTmpBuffer, const int32_t mask, const int32_t repeatTime, \
                                const int32_t srcRepStride, bool calIndex = false)                                   \
    {                                                                                                                \
        static_assert(gocann::red::Supported<T>(), #name ": Atlas A2 reduces half or float");                       \
        gocann::red::Normal(#name);                                                                                  \
        gocann::Mask m;                                                                                              \
        bool on = gocann::red::CountMask<T, true>(mask, m, #name);                                                   \
        gocann::red::BestMask<kind>(dst, src, sharedTmpBuffer, m, on, repeatTime, srcRepStride, calIndex, #name);    \
    }                                                                                                                \
    template <typename T>                                                                                            \
    __aicore__ inline void name(const LocalTensor<T> &dst, const LocalTensor<T> &src,                                \
                                const LocalTensor<T> &sharedTmpBuffer, const uint64_t mask[],                        \
                                const int32_t repeatTime, const int32_t srcRepStride, bool calIndex = false)         \
    {                                                                                                                \
        static_assert(gocann::red::Supported<T>(), #name ": Atlas A2 reduces half or float");                       \
        gocann::red::Normal(#name);                                                                                  \
        gocann::Mask m;                                                                                              \
        bool on = gocann::red::BitsMask<T, true>(mask, m, #name);                                                    \
        gocann::red::BestMask<kind>(dst, src, sharedTmpBuffer, m, on, repeatTime, srcRepStride, calIndex, #name);    \
    }
GOCANN_ASCENDC_REDUCE_BEST(ReduceMax, ReduceType::MAX)
GOCANN_ASCENDC_REDUCE_BEST(ReduceMin, ReduceType::MIN)
#undef GOCANN_ASCENDC_REDUCE_BEST

} // namespace AscendC

#endif /* GOCANN_ASCENDC_REDUCE_ALL_H_ */
