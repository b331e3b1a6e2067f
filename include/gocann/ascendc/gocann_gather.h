/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * Part of kernel_operator.h: gathering elements by byte offsets (Gather),
 * 32-byte blocks by byte offsets (Gatherb) and elements by a bit pattern
 * (GatherMask), and scattering them (Scatter, which Atlas A2 lacks). An
 * offset is in bytes from the source's start, as on the device, and what
 * an instruction reads or writes must lie in the unified buffer. Include
 * kernel_operator.h, not this.
 */
#ifndef GOCANN_ASCENDC_GATHER_H_
#define GOCANN_ASCENDC_GATHER_H_

#include <cstring>
#include <type_traits>
#include <vector>

#include "gocann_mask.h"

namespace AscendC {

/* The strides of Gatherb: only dstBlkStride and dstRepStride count. */
struct GatherRepeatParams {
    __aicore__ GatherRepeatParams() {}
    __aicore__ GatherRepeatParams(const uint8_t dstBlkStrideIn, const uint8_t dstRepStrideIn)
        : dstRepStride(dstRepStrideIn), dstBlkStride(dstBlkStrideIn)
    {
    }
    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint16_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src0BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src1BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src0RepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src1RepStride = DEFAULT_REPEAT_STRIDE;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
};

enum class GatherMaskMode : uint8_t { VERSION_V1 = 0, VERSION_V2 = 1 };
constexpr GatherMaskMode defaultGatherMaskMode = GatherMaskMode::VERSION_V2;
constexpr GatherMaskMode defaultGahterMaskMode = defaultGatherMaskMode; // the devkit's spelling too

/* The strides and repeats of GatherMask, in 32-byte blocks. */
struct GatherMaskParams {
    __aicore__ GatherMaskParams() {}
    __aicore__ GatherMaskParams(const uint8_t src0BlockStrideIn, const uint16_t repeatTimesIn,
                                const uint16_t src0RepeatStrideIn, const uint8_t src1RepeatStrideIn)
        : src0BlockStride(src0BlockStrideIn), repeatTimes(repeatTimesIn), src0RepeatStride(src0RepeatStrideIn),
          src1RepeatStride(src1RepeatStrideIn)
    {
    }
    uint8_t src0BlockStride = DEFAULT_BLK_STRIDE;
    uint16_t repeatTimes = 0;
    uint16_t src0RepeatStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src1RepeatStride = DEFAULT_REPEAT_STRIDE;
};

namespace gocann {

/* InUB fails unless the bytes [p, p + bytes) lie in the unified buffer
 * and p is a multiple of align bytes into it; it returns p's offset. */
inline uint64_t InUB(const void *p, uint64_t bytes, uint32_t align, const char *what, const char *name)
{
    if (p == nullptr) {
        Fail("%s: %s has no buffer (it was not allocated from a TQue, a TBuf or a LocalMemAllocator)", what, name);
    }
    int64_t at = int64_t(reinterpret_cast<uintptr_t>(p) - reinterpret_cast<uintptr_t>(UnifiedBuffer()));
    if (at < 0 || uint64_t(at) + bytes > kUBSize || uint64_t(at) % align != 0) {
        Fail("%s: %s reaches bytes [%lld, %llu) of the %u-byte unified buffer (it must start on a multiple of %u "
             "bytes and stay inside)",
             what, name, (long long)at, (unsigned long long)(at + int64_t(bytes)), kUBSize, align);
    }
    return uint64_t(at);
}

/* Overlaps tells whether the byte ranges [a, a + an) and [b, b + bn) meet. */
inline bool Overlaps(const void *a, uint64_t an, const void *b, uint64_t bn)
{
    uintptr_t x = reinterpret_cast<uintptr_t>(a), y = reinterpret_cast<uintptr_t>(b);
    return an != 0 && bn != 0 && x < y + bn && y < x + an;
}

/* Reach is one past the last byte, from s.base, that repeats repeats of
 * lanes elements reach through s (lanes may pass a repeat's 8 blocks). */
template <typename T>
inline uint64_t Reach(const Strided<T> &s, uint32_t repeats, uint64_t lanes)
{
    if (repeats == 0 || lanes == 0) {
        return 0;
    }
    constexpr uint64_t perBlk = ONE_BLK_SIZE / sizeof(T);
    uint64_t j = lanes - 1;
    return (uint64_t(repeats - 1) * s.rep + j / perBlk * s.blk) * ONE_BLK_SIZE + (j % perBlk + 1) * sizeof(T);
}

/* Gather0 is Gather's instruction: element j of repeat r comes from byte
 * srcOffset[r * per + j] + base of src and goes to dst's repeat r, the
 * repeats dstRepStride blocks apart. */
template <typename T>
inline void Gather0(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint32_t> &srcOffset,
                    uint32_t base, const Mask &m, uint8_t repeatTime, uint16_t dstRepStride)
{
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Gather: Atlas A2 gathers 2- and 4-byte elements");
    const char *what = "Gather";
    Walk<T> w(m, repeatTime);
    Strided<T> d = Operand(dst, 1, dstRepStride, w, what, "dst");
    uint64_t at = InUB(src.GetPhyAddr(), 0, ONE_BLK_SIZE, what, "src");
    if (base % sizeof(T) != 0) {
        Fail("%s: srcBaseAddr %u is not a multiple of the %zu-byte elements", what, base, sizeof(T));
    }
    if (dst.GetPhyAddr() == src.GetPhyAddr()) {
        Fail("%s: dst and src are the same memory, which the device does not support", what);
    }
    if (w.repeats == 0) {
        return;
    }
    constexpr uint32_t per = PerRepeat<T>();
    const uint32_t *off = srcOffset.GetPhyAddr();
    InUB(off, (uint64_t(w.repeats - 1) * per + w.Lanes(w.repeats - 1)) * sizeof(uint32_t), ONE_BLK_SIZE, what,
         "srcOffset");
    const uint8_t *ub = UnifiedBuffer();
    T out[128];
    for (uint32_t r = 0; r < w.repeats; r++) {
        uint32_t n = w.Lanes(r);
        for (uint32_t j = 0; j < n; j++) {
            if (!w.On(j)) {
                continue;
            }
            uint64_t i = uint64_t(r) * per + j, from = at + base + off[i];
            if (from % sizeof(T) != 0 || from + sizeof(T) > kUBSize) {
                Fail("%s: srcOffset[%llu] = %u from srcBaseAddr %u reaches byte %llu of the %u-byte unified buffer "
                     "(it must be a multiple of %zu inside)",
                     what, (unsigned long long)i, off[i], base, (unsigned long long)from, kUBSize, sizeof(T));
            }
            std::memcpy(&out[j], ub + from, sizeof(T));
        }
        for (uint32_t j = 0; j < n; j++) {
            if (w.On(j)) {
                *d.At(r, j) = out[j];
            }
        }
    }
}

/* PatternBit is bit j of a GatherMask pattern: one of the fixed patterns
 * 1 to 7, or bit j of the bytes at bits. */
inline bool PatternBit(uint8_t fixed, const uint8_t *bits, uint64_t j)
{
    switch (fixed) {
    case 0: return bits[j / 8] >> (j % 8) & 1;
    case 1: return j % 2 == 0;
    case 2: return j % 2 == 1;
    case 7: return true;
    default: return j % 4 == uint64_t(fixed - 3); // 3 to 6: one element of each four
    }
}

/* GatherMask0 runs GatherMask on elements of W, the pattern's width: the
 * elements whose pattern bit is set, repeat by repeat, packed into dst. */
template <typename W, typename T>
inline uint64_t GatherMask0(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const uint8_t *bits,
                            uint8_t fixed, bool reduceMode, uint32_t mask, const GatherMaskParams &p)
{
    const char *what = "GatherMask";
    if (p.repeatTimes > MAX_REPEAT_TIMES) {
        Fail("%s: repeatTimes %u is more than %u", what, p.repeatTimes, MAX_REPEAT_TIMES);
    }
    if (reduceMode && mask == 0) {
        Fail("%s: mask 0 in the counter mode (reduceMode true): it must be in [1, 2^32 - 1]", what);
    }
    uint32_t repeats = p.repeatTimes;
    uint64_t lanes = reduceMode ? mask : PerRepeat<W>(); // the counter mode takes mask elements a repeat
    Strided<W> s{reinterpret_cast<W *>(src0.GetPhyAddr()), p.src0BlockStride, p.src0RepeatStride};
    InUB(s.base, Reach(s, repeats, lanes), ONE_BLK_SIZE, what, "src0");
    uint64_t out = InUB(dst.GetPhyAddr(), 0, ONE_BLK_SIZE, what, "dst");
    if (fixed == 0 && repeats > 0) {
        uint64_t span = (lanes + 7) / 8, last = uint64_t(repeats - 1) * p.src1RepeatStride * ONE_BLK_SIZE + span;
        InUB(bits, last > span ? last : span, ONE_BLK_SIZE, what, "src1Pattern");
    }
    uint8_t *ub = UnifiedBuffer();
    uint64_t kept = 0;
    std::vector<W> picked;
    for (uint32_t r = 0; r < repeats; r++) {
        const uint8_t *rb = fixed == 0 ? bits + uint64_t(r) * p.src1RepeatStride * ONE_BLK_SIZE : nullptr;
        picked.clear();
        for (uint64_t j = 0; j < lanes; j++) {
            if (PatternBit(fixed, rb, j)) {
                picked.push_back(*s.At(r, uint32_t(j)));
            }
        }
        if (out + (kept + picked.size()) * sizeof(W) > kUBSize) {
            Fail("%s: the %llu elements kept run dst past the %u-byte unified buffer", what,
                 (unsigned long long)(kept + picked.size()), kUBSize);
        }
        if (!picked.empty()) {
            std::memcpy(ub + out + kept * sizeof(W), picked.data(), picked.size() * sizeof(W));
        }
        kept += picked.size();
    }
    // The device leaves the normal mode and mask as the mask register.
    VecState &v = Vec();
    v.mode = MaskMode::NORMAL;
    v.bits[0] = mask;
    v.bits[1] = 0;
    return kept;
}

} // namespace gocann

/* Gather: dst[i] = the element at byte srcBaseAddr + srcOffset[i] of src,
 * for the first count elements or as one instruction of dstRepStride
 * apart repeats. */
template <typename T>
__aicore__ inline void Gather(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                              const LocalTensor<uint32_t> &srcOffset, const uint32_t srcBaseAddr, const uint32_t count)
{
    constexpr uint32_t per = gocann::PerRepeat<T>();
    if (gocann::Vec().mode == MaskMode::COUNTER) {
        // The device's count form is two normal-mode instructions.
        gocann::Fail("Gather: the count form of %u elements needs the normal mask mode (SetMaskNorm first)", count);
    }
    if (count / per > MAX_REPEAT_TIMES) {
        gocann::Fail("Gather: count %u needs %u full repeats, more than the %u of one instruction", count,
                     count / per, MAX_REPEAT_TIMES);
    }
    dst.gocannCheck(count, "Gather");
    srcOffset.gocannCheck(count, "Gather");
    // the instruction's repeats, then its tail, in a row
    gocann::Gather0(dst, src, srcOffset, srcBaseAddr, gocann::CounterMask(count), 0, DEFAULT_REPEAT_STRIDE);
    gocann::CountForm();
}

template <typename T>
__aicore__ inline void Gather(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                              const LocalTensor<uint32_t> &srcOffset, const uint32_t srcBaseAddr, const uint64_t mask,
                              const uint8_t repeatTime, const uint16_t dstRepStride)
{
    gocann::Gather0(dst, src, srcOffset, srcBaseAddr, gocann::ContinuousMask<T, true>(mask, "Gather"), repeatTime,
                    dstRepStride);
}

template <typename T>
__aicore__ inline void Gather(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                              const LocalTensor<uint32_t> &srcOffset, const uint32_t srcBaseAddr,
                              const uint64_t mask[], const uint8_t repeatTime, const uint16_t dstRepStride)
{
    gocann::Gather0(dst, src, srcOffset, srcBaseAddr, gocann::BitMask<T, true>(mask, "Gather"), repeatTime,
                    dstRepStride);
}

/* Gatherb copies 32-byte blocks: block j of repeat r from byte
 * offset[r * 8 + j] of src, to dst's block j of repeat r. The documented
 * types are uint16_t and uint32_t; blocks of any 2- or 4-byte type copy
 * the same. */
template <typename T>
__aicore__ inline void Gatherb(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                               const LocalTensor<uint32_t> &offset, const uint8_t repeatTime,
                               const GatherRepeatParams &repeatParams)
{
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Gatherb: Atlas A2 gathers blocks of 2- or 4-byte elements");
    const char *what = "Gatherb";
    ResetMask(); // as the device does before the instruction
    uint32_t blk = repeatParams.dstBlkStride == 0 ? 1 : repeatParams.dstBlkStride; // 0 counts as 1
    gocann::Mask all;
    all.bits[0] = all.bits[1] = FULL_MASK;
    gocann::Walk<T> w(all, repeatTime);
    gocann::Strided<T> d = gocann::Operand(dst, blk, repeatParams.dstRepStride, w, what, "dst");
    uint64_t at = gocann::InUB(src.GetPhyAddr(), 0, ONE_BLK_SIZE, what, "src");
    if (dst.GetPhyAddr() == src.GetPhyAddr()) {
        gocann::Fail("%s: dst and src are the same memory, which the device does not support", what);
    }
    const uint32_t *off = offset.GetPhyAddr();
    gocann::InUB(off, uint64_t(repeatTime) * DEFAULT_BLK_NUM * sizeof(uint32_t), ONE_BLK_SIZE, what, "offset");
    constexpr uint32_t perBlk = ONE_BLK_SIZE / sizeof(T);
    const uint8_t *ub = gocann::UnifiedBuffer();
    uint8_t blocks[DEFAULT_BLK_NUM][ONE_BLK_SIZE];
    for (uint32_t r = 0; r < repeatTime; r++) {
        for (uint32_t j = 0; j < DEFAULT_BLK_NUM; j++) {
            uint32_t i = r * DEFAULT_BLK_NUM + j;
            uint64_t from = at + off[i];
            if (from % ONE_BLK_SIZE != 0 || from + ONE_BLK_SIZE > gocann::kUBSize) {
                gocann::Fail("%s: offset[%u] = %u reaches byte %llu of the %u-byte unified buffer (it must be a "
                             "multiple of 32 inside)",
                             what, i, off[i], (unsigned long long)from, gocann::kUBSize);
            }
            std::memcpy(blocks[j], ub + from, ONE_BLK_SIZE);
        }
        for (uint32_t j = 0; j < DEFAULT_BLK_NUM; j++) {
            std::memcpy(d.At(r, j * perBlk), blocks[j], ONE_BLK_SIZE);
        }
    }
}

/* GatherMask packs into dst the elements of src0 whose bit in the pattern
 * is set: a tensor of uint16_t (2-byte elements) or uint32_t (4-byte
 * elements) read repeat by repeat, src1RepeatStride blocks apart, or one of
 * the fixed patterns 1 to 7. rsvdCnt is how many it kept. In the normal
 * mode (reduceMode false) a repeat is 256 bytes; in the counter mode it is
 * mask elements. The call leaves the normal mode behind. */
template <typename T, typename U, GatherMaskMode mode = defaultGatherMaskMode>
__aicore__ inline void GatherMask(const LocalTensor<T> &dst, const LocalTensor<T> &src0,
                                  const LocalTensor<U> &src1Pattern, const bool reduceMode, const uint32_t mask,
                                  const GatherMaskParams &gatherMaskParams, uint64_t &rsvdCnt)
{
    static_assert(std::is_same<U, uint16_t>::value || std::is_same<U, uint32_t>::value,
                  "GatherMask: the pattern is a tensor of uint16_t or uint32_t");
    if (sizeof(T) != sizeof(U)) {
        gocann::Fail("GatherMask: a %zu-byte pattern element for %zu-byte elements: the instruction would work on "
                     "%zu-byte elements",
                     sizeof(U), sizeof(T), sizeof(U));
    }
    rsvdCnt = gocann::GatherMask0<U>(dst, src0, reinterpret_cast<const uint8_t *>(src1Pattern.GetPhyAddr()), 0,
                                     reduceMode, mask, gatherMaskParams);
}

template <typename T, GatherMaskMode mode = defaultGatherMaskMode>
__aicore__ inline void GatherMask(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const uint8_t src1Pattern,
                                  const bool reduceMode, const uint32_t mask, const GatherMaskParams &gatherMaskParams,
                                  uint64_t &rsvdCnt)
{
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "GatherMask: Atlas A2 works on 2- and 4-byte elements");
    if (src1Pattern < 1 || src1Pattern > 7) {
        gocann::Fail("GatherMask: src1Pattern %u is not one of the fixed patterns 1 to 7", src1Pattern);
    }
    using W = typename std::conditional<sizeof(T) == 2, uint16_t, uint32_t>::type;
    rsvdCnt = gocann::GatherMask0<W>(dst, src0, nullptr, src1Pattern, reduceMode, mask, gatherMaskParams);
}

namespace gocann {

/* Scatter0 is Scatter's instruction: element j of repeat r of src, the
 * repeats srcRepStride blocks apart, goes to byte dstOffset[r * per + j] +
 * base of dst. Atlas A2 and A3 have no such instruction. */
template <typename T>
inline void Scatter0(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint32_t> &dstOffset,
                     uint32_t base, const Mask &m, uint8_t repeatTime, uint16_t srcRepStride)
{
    const char *what = "Scatter";
#if !defined(__NPU_ARCH__) || __NPU_ARCH__ == 2201 || __NPU_ARCH__ == 1001
    Fail("%s: this NPU has no scatter instruction (Atlas A2 and A3 do not support Scatter): scatter the elements "
         "one by one with GetValue and SetValue",
         what);
#endif
    Walk<T> w(m, repeatTime);
    Strided<T> s = Operand(src, 1, srcRepStride, w, what, "src");
    uint64_t at = InUB(dst.GetPhyAddr(), 0, ONE_BLK_SIZE, what, "dst");
    if (base % sizeof(T) != 0) {
        Fail("%s: dstBaseAddr %u is not a multiple of the %zu-byte elements", what, base, sizeof(T));
    }
    if (w.repeats == 0) {
        return;
    }
    constexpr uint32_t per = PerRepeat<T>();
    const uint32_t *off = dstOffset.GetPhyAddr();
    InUB(off, (uint64_t(w.repeats - 1) * per + w.Lanes(w.repeats - 1)) * sizeof(uint32_t), ONE_BLK_SIZE, what,
         "dstOffset");
    std::vector<uint64_t> seen;
    uint8_t *ub = UnifiedBuffer();
    w.Each([&](uint32_t r, uint32_t j) {
        uint64_t i = uint64_t(r) * per + j, to = at + base + off[i];
        if (to % sizeof(T) != 0 || to + sizeof(T) > kUBSize) {
            Fail("%s: dstOffset[%llu] = %u from dstBaseAddr %u reaches byte %llu of the %u-byte unified buffer (it "
                 "must be a multiple of %zu inside)",
                 what, (unsigned long long)i, off[i], base, (unsigned long long)to, kUBSize, sizeof(T));
        }
        for (uint64_t k : seen) {
            if (k == to) {
                Fail("%s: dstOffset[%llu] = %u repeats an offset, whose result the device leaves undefined", what,
                     (unsigned long long)i, off[i]);
            }
        }
        seen.push_back(to);
        std::memcpy(ub + to, s.At(r, j), sizeof(T));
    });
}

} // namespace gocann

/* Scatter: the element at byte dstBaseAddr + dstOffset[i] of dst = src[i],
 * in the count and mask forms. It traps on Atlas A2 and A3, which have no
 * such instruction. */
template <typename T>
__aicore__ inline void Scatter(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                               const LocalTensor<uint32_t> &dstOffset, const uint32_t dstBaseAddr,
                               const uint32_t count)
{
    src.gocannCheck(count, "Scatter");
    dstOffset.gocannCheck(count, "Scatter");
    gocann::Scatter0(dst, src, dstOffset, dstBaseAddr, gocann::CounterMask(count), 0, DEFAULT_REPEAT_STRIDE);
    gocann::CountForm();
}

template <typename T>
__aicore__ inline void Scatter(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                               const LocalTensor<uint32_t> &dstOffset, const uint32_t dstBaseAddr, const uint64_t mask,
                               const uint8_t repeatTime, const uint8_t srcRepStride)
{
    gocann::Scatter0(dst, src, dstOffset, dstBaseAddr, gocann::ContinuousMask<T, true>(mask, "Scatter"), repeatTime,
                     srcRepStride);
}

template <typename T>
__aicore__ inline void Scatter(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                               const LocalTensor<uint32_t> &dstOffset, const uint32_t dstBaseAddr,
                               const uint64_t mask[], const uint8_t repeatTime, const uint8_t srcRepStride)
{
    gocann::Scatter0(dst, src, dstOffset, dstBaseAddr, gocann::BitMask<T, true>(mask, "Scatter"), repeatTime,
                     srcRepStride);
}

} // namespace AscendC

#endif /* GOCANN_ASCENDC_GATHER_H_ */
