/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * Part of kernel_operator.h: Compare and Compares, element by element,
 * into bits (bit i of byte i / 8 for element i, 1 where the comparison
 * holds), and the 128-bit CMPMASK register that Compare without a dst
 * fills, GetCmpMask reads, SetCmpMask sets and Select (gocann_select.h)
 * reads. On Atlas A2 a Compare or Compares into a tensor compares whole
 * repeats: its mask is a reserved argument without effect, and its count
 * form takes a count that fills whole 256-byte repeats. The bits of repeat
 * r start r * (elements per repeat / 8) bytes into dst, packed as the
 * count form lays them out; dst's strides play no part. NE of a NaN is
 * false on the device (unlike IEEE 754), as every other mode is.
 * Include kernel_operator.h, not this.
 */
#ifndef GOCANN_ASCENDC_CMPSEL_H_
#define GOCANN_ASCENDC_CMPSEL_H_

#include "gocann_mask.h"

namespace AscendC {

enum class CMPMODE : uint8_t { LT = 0, GT, EQ, LE, GE, NE };

namespace gocann {

/* CmpMask is the CMPMASK register: per block, so per thread. */
struct CmpMaskReg {
    uint8_t bytes[16];
};
inline CmpMaskReg &CmpMask()
{
    static thread_local CmpMaskReg reg{};
    return reg;
}

template <typename T>
inline bool CmpHolds(CMPMODE mode, T x, T y)
{
    using A = typename Arith<T>::type;
    A a = A(x), b = A(y);
    switch (mode) {
    case CMPMODE::LT: return a < b;
    case CMPMODE::GT: return a > b;
    case CMPMODE::EQ: return a == b;
    case CMPMODE::LE: return a <= b;
    case CMPMODE::GE: return a >= b;
    default: return a < b || a > b; // NE
    }
}

/* CmpCheck fails for a mode the device lacks for T. */
template <typename T>
inline void CmpCheck(CMPMODE mode, const char *what)
{
    static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value || std::is_same<T, int32_t>::value,
                  "Compare, Compares: the sources are half, float or int32_t on Atlas A2");
    if (uint8_t(mode) > uint8_t(CMPMODE::NE)) {
        Fail("%s: cmpMode %u is not a CMPMODE", what, unsigned(mode));
    }
    if (std::is_same<T, int32_t>::value && mode != CMPMODE::EQ) {
        Fail("%s: int32_t compares only for CMPMODE::EQ on Atlas A2, not mode %u", what, unsigned(mode));
    }
}

/* CmpAligned fails unless t starts on an align-byte boundary of the
 * unified buffer and holds bytes bytes. */
template <typename T>
inline void CmpAligned(const LocalTensor<T> &t, uint32_t align, uint64_t bytes, const char *what, const char *name)
{
    if (t.GetPhyAddr() == nullptr) {
        Fail("%s: %s has no buffer (it was not allocated from a TQue, a TBuf or a LocalMemAllocator)", what, name);
    }
    uint64_t at = uint64_t(reinterpret_cast<const uint8_t *>(t.GetPhyAddr()) - UnifiedBuffer());
    if (at % align != 0) {
        Fail("%s: %s starts at byte %llu of the unified buffer, not on a %u-byte boundary", what, name,
             (unsigned long long)at, align);
    }
    if (bytes > uint64_t(t.GetSize()) * sizeof(T)) {
        Fail("%s: %s holds %llu bytes, not the %llu it needs", what, name,
             (unsigned long long)(uint64_t(t.GetSize()) * sizeof(T)), (unsigned long long)bytes);
    }
}

/* CmpBits runs a comparison into dst over whole repeats; y(r, j) is the
 * second operand of element j of repeat r. */
template <typename T, typename U, typename Y>
inline void CmpBits(const LocalTensor<U> &dst, const LocalTensor<T> &src0, CMPMODE mode, uint32_t repeats,
                    uint32_t blk, uint32_t rep, const char *what, Y y)
{
    static_assert(std::is_same<U, uint8_t>::value || std::is_same<U, int8_t>::value,
                  "Compare, Compares: dst is uint8_t or int8_t");
    CmpCheck<T>(mode, what);
    constexpr uint32_t per = PerRepeat<T>();
    CmpAligned(dst, ONE_BLK_SIZE, uint64_t(repeats) * per / 8, what, "dst");
    Mask all;
    all.bits[0] = all.bits[1] = FULL_MASK;
    Walk<T> w(all, 0);
    w.repeats = repeats;
    Strided<T> a = Operand(src0, blk, rep, w, what, "src0");
    uint8_t *d = reinterpret_cast<uint8_t *>(dst.GetPhyAddr());
    for (uint32_t r = 0; r < repeats; r++) {
        uint8_t out[per / 8] = {};
        for (uint32_t j = 0; j < per; j++) {
            out[j / 8] |= uint8_t(CmpHolds<T>(mode, *a.At(r, j), y(r, j)) << (j % 8));
        }
        std::memcpy(d + uint64_t(r) * (per / 8), out, per / 8);
    }
}

/* CmpRegister runs a comparison of one repeat into the CMPMASK register:
 * the bits the mask leaves out keep their values. */
template <typename T, typename Y>
inline void CmpRegister(const LocalTensor<T> &src0, CMPMODE mode, const Mask &m, uint32_t blk, uint32_t rep, Y y)
{
    static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value,
                  "Compare into the CMPMASK register: the sources are half or float");
    CmpCheck<T>(mode, "Compare");
    Walk<T> w(m, 1);
    w.repeats = w.repeats > 1 ? 1 : w.repeats; // 256 bytes, whatever the mask mode
    Strided<T> a = Operand(src0, blk, rep, w, "Compare", "src0");
    uint8_t *reg = CmpMask().bytes;
    for (uint32_t j = 0; w.repeats != 0 && j < w.Lanes(0); j++) {
        if (w.On(j)) {
            unsigned on = CmpHolds<T>(mode, *a.At(0, j), y(j));
            reg[j / 8] = uint8_t((reg[j / 8] & ~(1u << (j % 8))) | on << (j % 8));
        }
    }
}

/* CmpWhole fails unless count elements of T fill whole repeats. */
template <typename T>
inline uint32_t CmpWhole(uint32_t count, const char *what)
{
    if (uint64_t(count) * sizeof(T) % ONE_REPEAT_BYTE_SIZE != 0) {
        Fail("%s: count %u of %zu-byte elements is not a whole number of 256-byte repeats (the device would leave "
             "the last %u out)",
             what, count, sizeof(T), count % PerRepeat<T>());
    }
    return uint32_t(uint64_t(count) * sizeof(T) / ONE_REPEAT_BYTE_SIZE);
}

} // namespace gocann

/* Compare sets bit i of dst where src0[i] cmpMode src1[i] holds: for the
 * first count elements, or for repeatTime whole repeats. */
template <typename T, typename U>
__aicore__ inline void Compare(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,
                               CMPMODE cmpMode, uint32_t count)
{
    uint32_t repeats = gocann::CmpWhole<T>(count, "Compare");
    src0.gocannCheck(count, "Compare");
    src1.gocannCheck(count, "Compare");
    gocann::Walk<T> w(gocann::Mask{}, 0);
    w.repeats = repeats;
    gocann::Strided<T> b = gocann::Operand(src1, 1, DEFAULT_REPEAT_STRIDE, w, "Compare", "src1");
    gocann::CmpBits(dst, src0, cmpMode, repeats, 1, DEFAULT_REPEAT_STRIDE, "Compare",
                 [b](uint32_t r, uint32_t j) { return *b.At(r, j); });
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Compare(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,
                               CMPMODE cmpMode, const uint64_t mask[], uint8_t repeatTime,
                               const BinaryRepeatParams &repeatParams)
{
    (void)mask; // reserved on Atlas A2
    gocann::Walk<T> w(gocann::Mask{}, 0);
    w.repeats = repeatTime;
    gocann::Strided<T> b =
        gocann::Operand(src1, repeatParams.src1BlkStride, repeatParams.src1RepStride, w, "Compare", "src1");
    gocann::CmpBits(dst, src0, cmpMode, repeatTime, repeatParams.src0BlkStride, repeatParams.src0RepStride, "Compare",
                 [b](uint32_t r, uint32_t j) { return *b.At(r, j); });
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Compare(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,
                               CMPMODE cmpMode, const uint64_t mask, uint8_t repeatTime,
                               const BinaryRepeatParams &repeatParams)
{
    const uint64_t bits[2] = {mask, 0};
    Compare<T, U, isSetMask>(dst, src0, src1, cmpMode, bits, repeatTime, repeatParams);
}

/* Compare without a dst compares one repeat under the mask into the
 * CMPMASK register. */
template <typename T, bool isSetMask = true>
__aicore__ inline void Compare(const LocalTensor<T> &src0, const LocalTensor<T> &src1, CMPMODE cmpMode,
                               const uint64_t mask[], const BinaryRepeatParams &repeatParams)
{
    gocann::Mask m = gocann::BitMask<T, isSetMask>(mask, "Compare");
    gocann::Walk<T> w(m, 1);
    w.repeats = w.repeats > 1 ? 1 : w.repeats;
    gocann::Strided<T> b =
        gocann::Operand(src1, repeatParams.src1BlkStride, repeatParams.src1RepStride, w, "Compare", "src1");
    gocann::CmpRegister(src0, cmpMode, m, repeatParams.src0BlkStride, repeatParams.src0RepStride,
                     [b](uint32_t j) { return *b.At(0, j); });
}

template <typename T, bool isSetMask = true>
__aicore__ inline void Compare(const LocalTensor<T> &src0, const LocalTensor<T> &src1, CMPMODE cmpMode,
                               const uint64_t mask, const BinaryRepeatParams &repeatParams)
{
    gocann::Mask m = gocann::ContinuousMask<T, isSetMask>(mask, "Compare");
    gocann::Walk<T> w(m, 1);
    w.repeats = w.repeats > 1 ? 1 : w.repeats;
    gocann::Strided<T> b =
        gocann::Operand(src1, repeatParams.src1BlkStride, repeatParams.src1RepStride, w, "Compare", "src1");
    gocann::CmpRegister(src0, cmpMode, m, repeatParams.src0BlkStride, repeatParams.src0RepStride,
                     [b](uint32_t j) { return *b.At(0, j); });
}

/* Compares compares src0 with a scalar: for the first count elements, or
 * for repeatTime whole repeats. */
template <typename T, typename U>
__aicore__ inline void Compares(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const T src1Scalar,
                                CMPMODE cmpMode, uint32_t count)
{
    static_assert(std::is_same<U, uint8_t>::value, "Compares: dst is uint8_t on Atlas A2");
    uint32_t repeats = gocann::CmpWhole<T>(count, "Compares");
    src0.gocannCheck(count, "Compares");
    gocann::CmpBits(dst, src0, cmpMode, repeats, 1, DEFAULT_REPEAT_STRIDE, "Compares",
                 [src1Scalar](uint32_t, uint32_t) { return src1Scalar; });
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Compares(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const T src1Scalar,
                                CMPMODE cmpMode, const uint64_t mask[], uint8_t repeatTime,
                                const UnaryRepeatParams &repeatParams)
{
    static_assert(std::is_same<U, uint8_t>::value, "Compares: dst is uint8_t on Atlas A2");
    (void)mask; // reserved on Atlas A2
    gocann::CmpBits(dst, src0, cmpMode, repeatTime, repeatParams.srcBlkStride, repeatParams.srcRepStride, "Compares",
                 [src1Scalar](uint32_t, uint32_t) { return src1Scalar; });
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Compares(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const T src1Scalar,
                                CMPMODE cmpMode, const uint64_t mask, uint8_t repeatTime,
                                const UnaryRepeatParams &repeatParams)
{
    const uint64_t bits[2] = {mask, 0};
    Compares<T, U, isSetMask>(dst, src0, src1Scalar, cmpMode, bits, repeatTime, repeatParams);
}

/* GetCmpMask writes the CMPMASK register's 16 bytes to dst; SetCmpMask
 * loads it from src's first 16 bytes. */
template <typename T>
__aicore__ inline void GetCmpMask(const LocalTensor<T> &dst)
{
    gocann::CmpAligned(dst, 16, 16, "GetCmpMask", "dst");
    std::memcpy(dst.GetPhyAddr(), gocann::CmpMask().bytes, 16);
}

template <typename T>
__aicore__ inline void SetCmpMask(const LocalTensor<T> &src)
{
    // The register reads 16 bytes whatever src's size: a tensor of 8 bytes of selection bits is common.
    gocann::CmpAligned(src, 16, 0, "SetCmpMask", "src");
    const uint8_t *p = reinterpret_cast<const uint8_t *>(src.GetPhyAddr());
    if (p + 16 > gocann::UnifiedBuffer() + gocann::kUBSize) {
        gocann::Fail("SetCmpMask: src's 16 bytes run past the unified buffer");
    }
    std::memcpy(gocann::CmpMask().bytes, p, 16);
}

} // namespace AscendC

#include "gocann_select.h"

#endif /* GOCANN_ASCENDC_CMPSEL_H_ */
