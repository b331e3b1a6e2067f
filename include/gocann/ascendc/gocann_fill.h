/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * Part of kernel_operator.h: filling by broadcast (Brcb: each element
 * fills a 32-byte block) and by index (CreateVecIndex: firstValue,
 * firstValue + 1, ...). Include kernel_operator.h, not this.
 */
#ifndef GOCANN_ASCENDC_FILL_H_
#define GOCANN_ASCENDC_FILL_H_

#include <type_traits>

#include "gocann_gather.h"

namespace AscendC {

/* The strides of Brcb's destination: only dstBlkStride and dstRepStride
 * count. */
struct BrcbRepeatParams {
    __aicore__ BrcbRepeatParams() {}
    __aicore__ BrcbRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t dstRepStrideIn)
        : dstRepStride(dstRepStrideIn), dstBlkStride(dstBlkStrideIn)
    {
    }
    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint16_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src0BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src1BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src0RepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src1RepStride = DEFAULT_REPEAT_STRIDE;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
};

/* Brcb fills block j of dst's repeat r with src[r * 8 + j]; src is read
 * contiguously. */
template <typename T>
__aicore__ inline void Brcb(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint8_t repeatTime,
                            const BrcbRepeatParams &repeatParams)
{
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Brcb: Atlas A2 broadcasts 2- and 4-byte elements");
    const char *what = "Brcb";
    ResetMask(); // as the device does before the instruction
    if (repeatParams.dstBlkStride == 0) {
        gocann::Fail("%s: dstBlkStride 0, whose result the device leaves undefined (it must be at least 1)", what);
    }
    gocann::Mask all;
    all.bits[0] = all.bits[1] = FULL_MASK;
    gocann::Walk<T> w(all, repeatTime);
    gocann::Strided<T> d = gocann::Operand(dst, repeatParams.dstBlkStride, repeatParams.dstRepStride, w, what, "dst");
    gocann::InUB(src.GetPhyAddr(), uint64_t(repeatTime) * DEFAULT_BLK_NUM * sizeof(T), ONE_BLK_SIZE, what, "src");
    if (dst.GetPhyAddr() == src.GetPhyAddr()) {
        gocann::Fail("%s: dst and src are the same memory, which the device does not support", what);
    }
    constexpr uint32_t perBlk = ONE_BLK_SIZE / sizeof(T);
    const T *x = src.GetPhyAddr();
    for (uint32_t r = 0; r < repeatTime; r++) {
        T v[DEFAULT_BLK_NUM];
        std::memcpy(v, x + r * DEFAULT_BLK_NUM, sizeof v);
        for (uint32_t j = 0; j < DEFAULT_BLK_NUM; j++) {
            T *b = d.At(r, j * perBlk);
            for (uint32_t k = 0; k < perBlk; k++) {
                b[k] = v[j];
            }
        }
    }
}

namespace gocann {

/* IndexValue is firstValue + i as the scalar unit computes it: in 64-bit
 * integers (wrapping to T) or in float, rounded once to T. */
template <typename T>
inline T IndexValue(T first, uint32_t i)
{
    if constexpr (std::is_integral<T>::value) {
        return T(int64_t(first) + int64_t(i));
    } else {
        return T(float(first) + float(i));
    }
}

/* IndexStep is x + step as the vector unit's Adds computes it. */
template <typename T>
inline T IndexStep(T x, uint32_t step)
{
    using A = typename Arith<T>::type;
    return T(A(x) + A(step));
}

template <typename T>
inline void IndexCheck()
{
    static_assert(std::is_same<T, int16_t>::value || std::is_same<T, half>::value ||
                      std::is_same<T, int32_t>::value || std::is_same<T, float>::value,
                  "CreateVecIndex: Atlas A2 makes indices of int16_t, half, int32_t and float");
}

/* IndexRepeats runs the repeats after the first as the device does: each
 * an Adds of one repeat's worth of elements to the repeat before, reading
 * dst as it stands. */
template <typename T>
inline void IndexRepeats(const Strided<T> &d, uint8_t repeatTime, uint32_t lanes, const uint64_t bits[2])
{
    constexpr uint32_t per = PerRepeat<T>();
    T out[128];
    for (uint32_t r = 1; r < repeatTime; r++) {
        for (uint32_t j = 0; j < lanes; j++) {
            if (bits == nullptr || (bits[j >> 6] >> (j & 63) & 1)) {
                out[j] = IndexStep(*d.At(r - 1, j), per);
            }
        }
        for (uint32_t j = 0; j < lanes; j++) {
            if (bits == nullptr || (bits[j >> 6] >> (j & 63) & 1)) {
                *d.At(r, j) = out[j];
            }
        }
    }
}

} // namespace gocann

/* CreateVecIndex writes firstValue, firstValue + 1, ... as the device
 * builds them: the first block by the scalar unit, each later block of the
 * first repeat as the block before plus a block's elements, each later
 * repeat as the repeat before plus a repeat's elements, rounding in T at
 * each step. */
template <typename T>
__aicore__ inline void CreateVecIndex(LocalTensor<T> dst, const T &firstValue, uint32_t count)
{
    gocann::IndexCheck<T>();
    dst.gocannCheck(count, "CreateVecIndex");
    constexpr uint32_t perBlk = ONE_BLK_SIZE / sizeof(T), per = gocann::PerRepeat<T>();
    T *d = dst.GetPhyAddr();
    for (uint32_t i = 0; i < count; i++) {
        d[i] = i < perBlk ? gocann::IndexValue(firstValue, i) : gocann::IndexStep(d[i - (i < per ? perBlk : per)],
                                                                                  i < per ? perBlk : per);
    }
    gocann::CountForm();
}

template <typename T>
__aicore__ inline void CreateVecIndex(const LocalTensor<T> &dst, const T &firstValue, uint64_t mask,
                                      uint8_t repeatTime, uint16_t dstBlkStride, uint8_t dstRepStride)
{
    gocann::IndexCheck<T>();
    const char *what = "CreateVecIndex";
    constexpr uint32_t perBlk = ONE_BLK_SIZE / sizeof(T), per = gocann::PerRepeat<T>();
    if (mask < perBlk || mask > per) {
        gocann::Fail("%s: mask %llu: the device builds a mask of %zu-byte elements in [%u, %u] right (below a block "
                     "it adds to the block before dst)",
                     what, (unsigned long long)mask, sizeof(T), perBlk, per);
    }
    if (repeatTime == 0) {
        gocann::Fail("%s: repeatTime 0: the device writes the first repeat, though documented as doing nothing", what);
    }
    gocann::Strided<T> d{dst.GetPhyAddr(), dstBlkStride, dstRepStride};
    gocann::InUB(d.base, gocann::Reach(d, repeatTime, mask), ONE_BLK_SIZE, what, "dst");
    uint32_t n = uint32_t(mask);
    for (uint32_t j = 0; j < perBlk; j++) {
        *d.At(0, j) = gocann::IndexValue(firstValue, j);
    }
    for (uint32_t b = 1; b * perBlk < n; b++) { // each block from the one before, as it stands
        T out[32];
        uint32_t lanes = n - b * perBlk < perBlk ? n - b * perBlk : perBlk;
        for (uint32_t k = 0; k < lanes; k++) {
            out[k] = gocann::IndexStep(*d.At(0, (b - 1) * perBlk + k), perBlk);
        }
        for (uint32_t k = 0; k < lanes; k++) {
            *d.At(0, b * perBlk + k) = out[k];
        }
    }
    gocann::IndexRepeats(d, repeatTime, n, nullptr);
}

template <typename T>
__aicore__ inline void CreateVecIndex(const LocalTensor<T> &dst, const T &firstValue, uint64_t mask[],
                                      uint8_t repeatTime, uint16_t dstBlkStride, uint8_t dstRepStride)
{
    gocann::IndexCheck<T>();
    const char *what = "CreateVecIndex";
    constexpr uint32_t per = gocann::PerRepeat<T>();
    uint64_t bits[2] = {mask[0], sizeof(T) == 2 ? mask[1] : 0};
    if (bits[0] == 0 && bits[1] == 0) {
        gocann::Fail("%s: the mask has no bit set", what);
    }
    if (gocann::Vec().mode == MaskMode::COUNTER) {
        gocann::Fail("%s: a bit mask needs the normal mask mode (SetMaskNorm first)", what);
    }
    if (repeatTime == 0) {
        gocann::Fail("%s: repeatTime 0: the device writes the first repeat, though documented as doing nothing", what);
    }
    uint32_t top = bits[1] != 0 ? 128 - __builtin_clzll(bits[1]) : 64 - __builtin_clzll(bits[0]);
    gocann::Strided<T> d{dst.GetPhyAddr(), dstBlkStride, dstRepStride};
    gocann::InUB(d.base, gocann::Reach(d, repeatTime, top), ONE_BLK_SIZE, what, "dst");
    for (uint32_t j = 0; j < per && j < 128; j++) {
        if (bits[j >> 6] >> (j & 63) & 1) {
            *d.At(0, j) = gocann::IndexValue(firstValue, j);
        }
    }
    gocann::IndexRepeats(d, repeatTime, top, bits);
}

} // namespace AscendC

#endif /* GOCANN_ASCENDC_FILL_H_ */
