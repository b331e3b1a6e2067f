/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * Part of kernel_operator.h: how a level-0 vector instruction walks the
 * unified buffer. One instruction runs repeatTime repeats; a repeat covers
 * 8 blocks of 32 bytes (256 bytes: 64 floats, 128 halves); block b of
 * repeat r of an operand starts (r * repStride + b * blkStride) * 32 bytes
 * from the operand's start; the mask says which elements of a repeat take
 * part. In the normal mask mode a mask is a count (the first mask
 * elements of each repeat, at most a repeat's; 0 lets none through) or two 64-bit words of bits (bit i of word i / 64 for element i);
 * in the counter mode (SetMaskCount) it is the
 * number of elements of the whole instruction, in as many repeats as they
 * need, and repeatTime is ignored. SetVectorMask keeps a mask for the
 * calls whose isSetMask is false. Include kernel_operator.h, not this.
 */
#ifndef GOCANN_ASCENDC_MASK_H_
#define GOCANN_ASCENDC_MASK_H_

#include "gocann_pipe.h"

namespace AscendC {

constexpr uint32_t ONE_BLK_SIZE = 32;
constexpr uint32_t DEFAULT_BLK_NUM = 8;
constexpr uint32_t ONE_REPEAT_BYTE_SIZE = 256;
constexpr uint32_t DEFAULT_BLK_STRIDE = 1;
constexpr uint32_t DEFAULT_REPEAT_STRIDE = 8;
constexpr uint32_t MAX_REPEAT_TIMES = 255;
constexpr uint64_t FULL_MASK = 0xFFFFFFFFFFFFFFFFULL;
/* The mask argument of a call whose isSetMask is false: unused. */
constexpr uint64_t MASK_PLACEHOLDER = 0;
constexpr uint64_t MASK_PLACEHOLDER_LIST[2] = {0, 0};

enum class MaskMode : uint8_t { NORMAL = 0, COUNTER };

/* The strides of a two-source instruction, in 32-byte blocks. */
struct BinaryRepeatParams {
    __aicore__ BinaryRepeatParams() {}
    __aicore__ BinaryRepeatParams(uint8_t dstBlkStrideIn, uint8_t src0BlkStrideIn, uint8_t src1BlkStrideIn,
                                  uint8_t dstRepStrideIn, uint8_t src0RepStrideIn, uint8_t src1RepStrideIn)
        : dstBlkStride(dstBlkStrideIn), src0BlkStride(src0BlkStrideIn), src1BlkStride(src1BlkStrideIn),
          dstRepStride(dstRepStrideIn), src0RepStride(src0RepStrideIn), src1RepStride(src1RepStrideIn)
    {
    }
    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint8_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src0BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src1BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src0RepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src1RepStride = DEFAULT_REPEAT_STRIDE;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
};

/* The strides of a one-source instruction, in 32-byte blocks. */
struct UnaryRepeatParams {
    __aicore__ UnaryRepeatParams() {}
    __aicore__ UnaryRepeatParams(uint16_t dstBlkStrideIn, uint16_t srcBlkStrideIn, uint8_t dstRepStrideIn,
                                 uint8_t srcRepStrideIn)
        : dstBlkStride(dstBlkStrideIn), srcBlkStride(srcBlkStrideIn), dstRepStride(dstRepStrideIn),
          srcRepStride(srcRepStrideIn)
    {
    }
    __aicore__ UnaryRepeatParams(uint16_t dstBlkStrideIn, uint16_t srcBlkStrideIn, uint8_t dstRepStrideIn,
                                 uint8_t srcRepStrideIn, bool halfBlockIn)
        : dstBlkStride(dstBlkStrideIn), srcBlkStride(srcBlkStrideIn), dstRepStride(dstRepStrideIn),
          srcRepStride(srcRepStrideIn), halfBlock(halfBlockIn)
    {
    }
    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint16_t srcBlkStride = DEFAULT_BLK_STRIDE;
    uint8_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t srcRepStride = DEFAULT_REPEAT_STRIDE;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
    bool halfBlock = false;
};

namespace gocann {

/* VecState is the vector unit's mask register and mode: per block, so
 * per thread. In the counter mode the register's low word is the count. */
struct VecState {
    MaskMode mode = MaskMode::NORMAL;
    uint64_t bits[2] = {FULL_MASK, FULL_MASK};
};

inline VecState &Vec()
{
    static thread_local VecState state;
    return state;
}

/* Mask is what one instruction runs with: counter mode and its element
 * count, or the bits of a repeat. */
struct Mask {
    bool counter = false;
    uint64_t count = 0;
    uint64_t bits[2] = {0, 0};
};

/* PerRepeat is the elements of T in one 256-byte repeat. */
template <typename T>
constexpr uint32_t PerRepeat()
{
    return ONE_REPEAT_BYTE_SIZE / sizeof(T);
}

/* ContinuousMask is the mask of a call given mask as a count. */
template <typename T, bool isSetMask>
inline Mask ContinuousMask(uint64_t mask, const char *what)
{
    const VecState &v = Vec();
    Mask m;
    if (v.mode == MaskMode::COUNTER) {
        m.counter = true;
        m.count = isSetMask ? mask : v.bits[0];
        return m;
    }
    if (!isSetMask) {
        m.bits[0] = v.bits[0];
        m.bits[1] = v.bits[1];
        return m;
    }
    // A mask of 0 lets nothing through, as documented. One past a
    // repeat's elements would run the repeat whole on the device, which
    // does not support such masks: a caller asking for more gets less
    // without a word, so it stops the block.
    constexpr uint32_t per = PerRepeat<T>() > 128 ? 128 : PerRepeat<T>();
    if (mask > per) {
        Fail("%s: mask %llu is out of range: a count mask of %zu-byte elements is in [0, %u]", what,
             (unsigned long long)mask, sizeof(T), per);
    }
    m.bits[0] = mask >= 64 ? FULL_MASK : (uint64_t(1) << mask) - 1;
    m.bits[1] = mask <= 64 ? 0 : mask >= 128 ? FULL_MASK : (uint64_t(1) << (mask - 64)) - 1;
    return m;
}

/* BitMask is the mask of a call given mask as two words of bits. */
template <typename T, bool isSetMask>
inline Mask BitMask(const uint64_t mask[], const char *what)
{
    const VecState &v = Vec();
    Mask m;
    if (v.mode == MaskMode::COUNTER) {
        m.counter = true;
        m.count = isSetMask ? mask[0] : v.bits[0];
        return m;
    }
    if (!isSetMask) {
        m.bits[0] = v.bits[0];
        m.bits[1] = v.bits[1];
        return m;
    }
    m.bits[0] = mask[0];
    m.bits[1] = sizeof(T) >= 4 ? 0 : mask[1]; // 64 elements of 4 bytes need one word
    (void)what;
    return m;
}

/* CounterMask is the mask of a count-form call run as one instruction in
 * the counter mode: count elements, in as many repeats as they take. */
inline Mask CounterMask(uint64_t count)
{
    Mask m;
    m.counter = true;
    m.count = count;
    return m;
}

/* Walk runs an instruction's repeats: f(r, j) for each element j of
 * repeat r that the mask lets through. Repeats is how many run. */
template <typename T>
struct Walk {
    Mask mask;
    uint32_t repeats = 0;

    Walk(const Mask &m, uint8_t repeatTime) : mask(m)
    {
        repeats = m.counter ? uint32_t((m.count + PerRepeat<T>() - 1) / PerRepeat<T>()) : repeatTime;
    }

    /* Lanes is one past the last element repeat r may touch. */
    uint32_t Lanes(uint32_t r) const
    {
        if (mask.counter) {
            uint64_t left = mask.count - uint64_t(r) * PerRepeat<T>();
            return left < PerRepeat<T>() ? uint32_t(left) : PerRepeat<T>();
        }
        uint32_t n = PerRepeat<T>() < 128 ? PerRepeat<T>() : 128;
        return n;
    }

    bool On(uint32_t j) const { return mask.counter || (mask.bits[j >> 6] >> (j & 63) & 1); }

    /* Full is whether the mask lets all of the first n lanes through. */
    bool Full(uint32_t n) const
    {
        if (mask.counter) {
            return true;
        }
        auto low = [](uint32_t k) { return k >= 64 ? FULL_MASK : (uint64_t(1) << k) - 1; };
        uint64_t lo = low(n), hi = n > 64 ? low(n - 64) : 0;
        return (mask.bits[0] & lo) == lo && (mask.bits[1] & hi) == hi;
    }

    template <typename F>
    void Each(F f) const
    {
        for (uint32_t r = 0; r < repeats; r++) {
            uint32_t n = Lanes(r);
            for (uint32_t j = 0; j < n; j++) {
                if (On(j)) {
                    f(r, j);
                }
            }
        }
    }
};

/* Strided is one operand of an instruction: its start and strides. */
template <typename T>
struct Strided {
    T *base;
    uint32_t blk, rep;

    /* Run is repeat r's first element when its n elements are one run
     * of memory (block stride 1), else nullptr. */
    T *Run(uint32_t r) const { return blk == 1 ? At(r, 0) : nullptr; }

    /* At is element j of repeat r. */
    T *At(uint32_t r, uint32_t j) const
    {
        constexpr uint32_t perBlk = ONE_BLK_SIZE / sizeof(T);
        return reinterpret_cast<T *>(reinterpret_cast<uint8_t *>(base) +
                                     (uint64_t(r) * rep + uint64_t(j / perBlk) * blk) * ONE_BLK_SIZE) +
               j % perBlk;
    }
};

/* Operand checks that the elements an instruction reaches through tensor
 * t lie in the unified buffer, as the hardware requires (it would read or
 * write another core's memory, or fault, past it), and returns the
 * operand. */
template <typename T, typename W>
inline Strided<T> Operand(const LocalTensor<T> &t, uint32_t blk, uint32_t rep, const W &w, const char *what,
                          const char *name)
{
    if (t.GetPhyAddr() == nullptr) {
        Fail("%s: %s has no buffer (it was not allocated from a TQue, a TBuf or a LocalMemAllocator)", what, name);
    }
    Strided<T> s{t.GetPhyAddr(), blk, rep};
    if (w.repeats == 0) {
        return s;
    }
    uint32_t last = w.repeats - 1, lanes = w.Lanes(last);
    const uint8_t *ub = UnifiedBuffer();
    uint64_t start = uint64_t(reinterpret_cast<const uint8_t *>(s.base) - ub);
    uint64_t end = uint64_t(reinterpret_cast<const uint8_t *>(s.At(last, lanes - 1) + 1) - ub);
    // The farthest block is the last repeat's unless the repeat stride is
    // smaller than a repeat's span of blocks.
    uint64_t span = uint64_t(reinterpret_cast<const uint8_t *>(s.At(0, lanes - 1) + 1) - ub);
    if (span > end) {
        end = span;
    }
    if (reinterpret_cast<const uint8_t *>(s.base) < ub || start % ONE_BLK_SIZE != 0 || end > kUBSize) {
        Fail("%s: %s reaches bytes [%llu, %llu) of the %u-byte unified buffer with %u repeats, block stride %u and "
             "repeat stride %u (it must start on a 32-byte block and stay inside)",
             what, name, (unsigned long long)start, (unsigned long long)end, kUBSize, w.repeats, blk, rep);
    }
    return s;
}

/* CountForm is what a count-form (level-2) call leaves behind: the normal
 * mode and a full mask, as its SetMaskCount ... ResetMask sequence does on
 * the device. */
inline void CountForm()
{
    VecState &v = Vec();
    v.mode = MaskMode::NORMAL;
    v.bits[0] = v.bits[1] = FULL_MASK;
}

/* Apart is whether runs of n elements at a and b are the same or do not
 * overlap: an element-wise loop over them then reads each source element
 * before it writes the destination's, as the device's repeat does. */
template <typename T, typename U>
inline bool Apart(const T *a, const U *b, uint32_t n)
{
    auto x = reinterpret_cast<uintptr_t>(a), y = reinterpret_cast<uintptr_t>(b);
    return x == y || x + n * sizeof(T) <= y || y + n * sizeof(U) <= x;
}

} // namespace gocann

/* SetMaskCount and SetMaskNorm switch the mask mode; SetVectorMask sets
 * the mask of the calls whose isSetMask is false. */
__aicore__ inline void SetMaskCount() { gocann::Vec().mode = MaskMode::COUNTER; }
__aicore__ inline void SetMaskNorm() { gocann::Vec().mode = MaskMode::NORMAL; }

template <typename T, MaskMode mode = MaskMode::NORMAL>
__aicore__ static inline void SetVectorMask(const uint64_t maskHigh, const uint64_t maskLow)
{
    gocann::VecState &v = gocann::Vec();
    v.bits[0] = maskLow;
    v.bits[1] = maskHigh;
}

template <typename T, MaskMode mode = MaskMode::NORMAL>
__aicore__ static inline void SetVectorMask(int32_t len)
{
    gocann::VecState &v = gocann::Vec();
    if (mode == MaskMode::COUNTER || v.mode == MaskMode::COUNTER) {
        v.bits[0] = uint64_t(len);
        v.bits[1] = 0;
        return;
    }
    gocann::Mask m = gocann::ContinuousMask<T, true>(uint64_t(len), "SetVectorMask");
    v.bits[0] = m.bits[0];
    v.bits[1] = m.bits[1];
}

__aicore__ inline void ResetMask()
{
    gocann::VecState &v = gocann::Vec();
    v.bits[0] = v.bits[1] = FULL_MASK;
}

} // namespace AscendC

#endif /* GOCANN_ASCENDC_MASK_H_ */
