/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * Part of kernel_operator.h: the reductions within a repeat's 32-byte
 * blocks (ReduceDataBlock, BlockReduceSum/Max/Min) and of neighbouring
 * pairs (ReducePairElem, PairReduceSum). A block or pair the mask leaves
 * out entirely keeps its result unwritten, as on Atlas A2. Include
 * kernel_operator.h, not this.
 */
#ifndef GOCANN_ASCENDC_REDUCE_BLOCK_H_
#define GOCANN_ASCENDC_REDUCE_BLOCK_H_

#include "gocann_reduce.h"

namespace AscendC {

namespace gocann {
namespace red {

/* Group is a reduction of each group of size lanes of a repeat to one
 * result: the 8 blocks of a repeat (vcgadd, vcgmax, vcgmin) or its pairs
 * (vcpadd). Results are T; repeat r's go dstRepStride times a repeat's
 * results (per / size) apart, and dst must start on an align-byte
 * boundary. */
template <ReduceType kind, uint32_t size, typename T>
inline void Group(const LocalTensor<T> &dst, const LocalTensor<T> &src, const Mask &m, bool on, int32_t repeatTime,
                  int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride, uint32_t align, const char *what)
{
    static_assert(kind != ReduceType::NONE, "a reduction needs ReduceType SUM, MAX or MIN");
    Strides p = CheckStrides(repeatTime, dstRepStride, srcBlkStride, srcRepStride, what);
    Walk<T> w(m, uint8_t(p.repeats));
    if (!on || w.repeats == 0) {
        return;
    }
    Strided<T> s = Operand(src, p.blk, p.rep, w, what, "src");
    constexpr uint32_t per = PerRepeat<T>(), groups = per / size;
    // A group is written when the mask lets one of its lanes through.
    auto has = [&w](uint32_t r, uint32_t g) {
        for (uint32_t j = g * size; j < (g + 1) * size && j < w.Lanes(r); j++) {
            if (w.On(j)) {
                return true;
            }
        }
        return false;
    };
    uint64_t end = 0;
    for (uint32_t r = 0; r < w.repeats; r++) {
        for (uint32_t g = groups; g-- > 0;) {
            if (has(r, g)) {
                uint64_t e = (uint64_t(r) * p.dst * groups + g + 1) * sizeof(T);
                end = e > end ? e : end;
                break;
            }
        }
    }
    uint8_t *d = Out(dst, end, align, what);
    for (uint32_t r = 0; r < w.repeats; r++) {
        uint32_t n = w.Lanes(r);
        T out[groups];
        bool written[groups];
        for (uint32_t g = 0; g < groups; g++) {
            written[g] = has(r, g);
            T v[size];
            for (uint32_t i = 0; i < size; i++) {
                uint32_t j = g * size + i;
                v[i] = j < n && w.On(j) ? *s.At(r, j) : T(0);
            }
            if constexpr (kind == ReduceType::SUM) {
                out[g] = Sum(v, size);
            } else {
                bool found = false;
                for (uint32_t i = 0; i < size; i++) {
                    uint32_t j = g * size + i;
                    if (j < n && w.On(j) && (!found || Better<kind>(v[i], out[g]))) {
                        found = true;
                        out[g] = v[i];
                    }
                }
            }
        }
        for (uint32_t g = 0; g < groups; g++) {
            if (written[g]) {
                Put(d, (uint64_t(r) * p.dst * groups + g) * sizeof(T), out[g]);
            }
        }
    }
}

/* A block reduction's dst starts on 8 results (16 bytes of half, 32 of
 * float); a pair reduction's on a 32-byte block. */
template <ReduceType kind, typename T>
inline void Block(const LocalTensor<T> &dst, const LocalTensor<T> &src, const Mask &m, bool on, int32_t repeatTime,
                  int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride, const char *what)
{
    Group<kind, ONE_BLK_SIZE / sizeof(T)>(dst, src, m, on, repeatTime, dstRepStride, srcBlkStride, srcRepStride,
                                          DEFAULT_BLK_NUM * sizeof(T), what);
}

template <typename T>
inline void Pair(const LocalTensor<T> &dst, const LocalTensor<T> &src, const Mask &m, bool on, int32_t repeatTime,
                 int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride, const char *what)
{
    Group<ReduceType::SUM, 2>(dst, src, m, on, repeatTime, dstRepStride, srcBlkStride, srcRepStride, ONE_BLK_SIZE,
                              what);
}

} // namespace red
} // namespace gocann

/* ReduceDataBlock reduces each 32-byte block of a repeat to one result;
 * a repeat's 8 results go dstRepStride times 8 results apart. */
template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
__aicore__ inline void ReduceDataBlock(const LocalTensor<T> &dst, const LocalTensor<U> &src, const int32_t mask,
                                       const int32_t repeatTime, const int32_t dstRepStride,
                                       const int32_t srcBlkStride, const int32_t srcRepStride)
{
    static_assert(gocann::red::Supported<T, U>(), "ReduceDataBlock: Atlas A2 reduces half or float, dst and src alike");
    gocann::Mask m;
    bool on = gocann::red::CountMask<T, isSetMask>(mask, m, "ReduceDataBlock");
    gocann::red::Block<reduceType>(dst, src, m, on, repeatTime, dstRepStride, srcBlkStride, srcRepStride,
                                   "ReduceDataBlock");
}

template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
__aicore__ inline void ReduceDataBlock(const LocalTensor<T> &dst, const LocalTensor<U> &src, const uint64_t mask[],
                                       const int32_t repeatTime, const int32_t dstRepStride,
                                       const int32_t srcBlkStride, const int32_t srcRepStride)
{
    static_assert(gocann::red::Supported<T, U>(), "ReduceDataBlock: Atlas A2 reduces half or float, dst and src alike");
    gocann::Mask m;
    bool on = gocann::red::BitsMask<T, isSetMask>(mask, m, "ReduceDataBlock");
    gocann::red::Block<reduceType>(dst, src, m, on, repeatTime, dstRepStride, srcBlkStride, srcRepStride,
                                   "ReduceDataBlock");
}

/* ReducePairElem adds neighbouring elements, 0 + 1, 2 + 3, ...; a
 * repeat's results go dstRepStride times half a repeat apart. */
template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
__aicore__ inline void ReducePairElem(const LocalTensor<T> &dst, const LocalTensor<U> &src, const int32_t mask,
                                      const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                                      const int32_t srcRepStride)
{
    static_assert(gocann::red::Supported<T, U>(), "ReducePairElem: Atlas A2 reduces half or float, dst and src alike");
    static_assert(reduceType == ReduceType::SUM, "ReducePairElem: only ReduceType::SUM");
    gocann::Mask m;
    bool on = gocann::red::CountMask<T, isSetMask>(mask, m, "ReducePairElem");
    gocann::red::Pair(dst, src, m, on, repeatTime, dstRepStride, srcBlkStride, srcRepStride, "ReducePairElem");
}

template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
__aicore__ inline void ReducePairElem(const LocalTensor<T> &dst, const LocalTensor<U> &src, const uint64_t mask[],
                                      const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                                      const int32_t srcRepStride)
{
    static_assert(gocann::red::Supported<T, U>(), "ReducePairElem: Atlas A2 reduces half or float, dst and src alike");
    static_assert(reduceType == ReduceType::SUM, "ReducePairElem: only ReduceType::SUM");
    gocann::Mask m;
    bool on = gocann::red::BitsMask<T, isSetMask>(mask, m, "ReducePairElem");
    gocann::red::Pair(dst, src, m, on, repeatTime, dstRepStride, srcBlkStride, srcRepStride, "ReducePairElem");
}

/* The names ReduceDataBlock and ReducePairElem replaced: repeatTime comes
 * before the mask. */
#define GOCANN_ASCENDC_BLOCK_REDUCE(name, call)                                                                      \
    template <typename T, bool isSetMask = true>                                                                     \
    __aicore__ inline void name(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t repeatTime,      \
                                const int32_t mask, const int32_t dstRepStride, const int32_t srcBlkStride,          \
                                const int32_t srcRepStride)                                                          \
    {                                                                                                                \
        static_assert(gocann::red::Supported<T>(), #name ": Atlas A2 reduces half or float");                       \
        gocann::Mask m;                                                                                              \
        bool on = gocann::red::CountMask<T, isSetMask>(mask, m, #name);                                              \
        gocann::red::call(dst, src, m, on, repeatTime, dstRepStride, srcBlkStride, srcRepStride, #name);             \
    }                                                                                                                \
    template <typename T, bool isSetMask = true>                                                                     \
    __aicore__ inline void name(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t repeatTime,      \
                                const uint64_t mask[], const int32_t dstRepStride, const int32_t srcBlkStride,       \
                                const int32_t srcRepStride)                                                          \
    {                                                                                                                \
        static_assert(gocann::red::Supported<T>(), #name ": Atlas A2 reduces half or float");                       \
        gocann::Mask m;                                                                                              \
        bool on = gocann::red::BitsMask<T, isSetMask>(mask, m, #name);                                               \
        gocann::red::call(dst, src, m, on, repeatTime, dstRepStride, srcBlkStride, srcRepStride, #name);             \
    }
GOCANN_ASCENDC_BLOCK_REDUCE(BlockReduceSum, Block<ReduceType::SUM>)
GOCANN_ASCENDC_BLOCK_REDUCE(BlockReduceMax, Block<ReduceType::MAX>)
GOCANN_ASCENDC_BLOCK_REDUCE(BlockReduceMin, Block<ReduceType::MIN>)
GOCANN_ASCENDC_BLOCK_REDUCE(PairReduceSum, Pair)
#undef GOCANN_ASCENDC_BLOCK_REDUCE

} // namespace AscendC

#endif /* GOCANN_ASCENDC_REDUCE_BLOCK_H_ */
