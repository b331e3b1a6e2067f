/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * Part of kernel_operator.h: Copy, the vector unit's copy inside the
 * unified buffer: one level-0 instruction (gocann_mask.h) with a mask,
 * repeatTime repeats and block and repeat strides (CopyRepeatParams, in
 * 32-byte blocks, repeat strides at most 4095). Unlike the other level-0
 * calls, Copy in the counter mode (SetMaskCount) takes the mask as the
 * elements of each repeat, in as many blocks as they need, and runs
 * repeatTime repeats. Include kernel_operator.h, not this.
 */
#ifndef GOCANN_ASCENDC_COPY_UB_H_
#define GOCANN_ASCENDC_COPY_UB_H_

#include "gocann_copy.h"

namespace AscendC {

namespace gocann {

constexpr uint32_t kMaxCopyRepeatSize = 4095;

/* CopyWalk is Copy's walk of an instruction, for Operand: every repeat
 * has the same lanes, the mask's count in the counter mode. */
template <typename T>
struct CopyWalk {
    Mask mask;
    uint32_t repeats, lanes;

    CopyWalk(const Mask &m, uint8_t repeatTime) : mask(m), repeats(repeatTime)
    {
        constexpr uint32_t per = PerRepeat<T>() < 128 ? PerRepeat<T>() : 128;
        uint64_t most = kUBSize / sizeof(T) + 1; // more reaches past the unified buffer anyway
        lanes = m.counter ? uint32_t(m.count < most ? m.count : most) : per;
        if (lanes == 0) {
            repeats = 0;
        }
    }
    uint32_t Lanes(uint32_t) const { return lanes; }
    bool On(uint32_t j) const { return mask.counter || (mask.bits[j >> 6] >> (j & 63) & 1); }
};

/* CopyRun reads each repeat's elements before it writes them, as the
 * vector unit does, moving bytes so that every bit pattern survives. */
template <typename T>
inline void CopyRun(const LocalTensor<T> &dst, const LocalTensor<T> &src, const Mask &m, uint8_t repeatTime,
                    const CopyRepeatParams &p)
{
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Copy: the elements must be of 2 or 4 bytes");
    if (p.dstRepeatSize > kMaxCopyRepeatSize || p.srcRepeatSize > kMaxCopyRepeatSize) {
        Fail("Copy: dstRepeatSize %u and srcRepeatSize %u must be in [0, %u]", p.dstRepeatSize, p.srcRepeatSize,
             kMaxCopyRepeatSize);
    }
    CopyWalk<T> w(m, repeatTime);
    Strided<T> d = Operand(dst, p.dstStride, p.dstRepeatSize, w, "Copy", "dst");
    Strided<T> s = Operand(src, p.srcStride, p.srcRepeatSize, w, "Copy", "src");
    alignas(64) static thread_local uint8_t out[kUBSize];
    for (uint32_t r = 0; r < w.repeats; r++) {
        for (uint32_t j = 0; j < w.lanes; j++) {
            if (w.On(j)) {
                memcpy(out + uint64_t(j) * sizeof(T), s.At(r, j), sizeof(T));
            }
        }
        for (uint32_t j = 0; j < w.lanes; j++) {
            if (w.On(j)) {
                memcpy(d.At(r, j), out + uint64_t(j) * sizeof(T), sizeof(T));
            }
        }
    }
}

} // namespace gocann

template <typename T, bool isSetMask = true>
__aicore__ inline void Copy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint64_t mask[],
                            const uint8_t repeatTime, const CopyRepeatParams &repeatParams)
{
    gocann::CopyRun(dst, src, gocann::BitMask<T, isSetMask>(mask, "Copy"), repeatTime, repeatParams);
}

template <typename T, bool isSetMask = true>
__aicore__ inline void Copy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint64_t mask,
                            const uint8_t repeatTime, const CopyRepeatParams &repeatParams)
{
    gocann::CopyRun(dst, src, gocann::ContinuousMask<T, isSetMask>(mask, "Copy"), repeatTime, repeatParams);
}

} // namespace AscendC

#endif /* GOCANN_ASCENDC_COPY_UB_H_ */
