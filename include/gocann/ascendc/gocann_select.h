/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * Part of kernel_operator.h: Select, which takes element i of src0 where
 * its selection bit is 1 and of src1 (a tensor or a scalar) where it is
 * 0, in the three modes of the instruction, each of which works through
 * the CMPMASK register (gocann_cmpsel.h):
 *   VSEL_CMPMASK_SPR         the register holds the bits; every repeat
 *                            uses the same 256 / sizeof(T) of them
 *   VSEL_TENSOR_SCALAR_MODE  the register holds the scalar src1; the bits
 *                            come from selMask, each repeat taking the
 *                            next 256 / sizeof(T)
 *   VSEL_TENSOR_TENSOR_MODE  the register holds selMask's address; the
 *                            bits come from there as in the scalar mode
 * The forms with a selMask or a scalar load the register first, as the
 * device's do; the forms without take it as SetCmpMask left it, and the
 * mask as SetVectorMask left it. Element i of a count form takes bit i.
 * Include kernel_operator.h, not this.
 */
#ifndef GOCANN_ASCENDC_SELECT_H_
#define GOCANN_ASCENDC_SELECT_H_

#include "gocann_cmpsel.h"

namespace AscendC {

enum class SELMODE : uint8_t {
    VSEL_CMPMASK_SPR = 0,
    VSEL_TENSOR_SCALAR_MODE,
    VSEL_TENSOR_TENSOR_MODE,
};

namespace gocann {

/* Loaders of the CMPMASK register: selection bits, a scalar repeated, or
 * the low 32 bits of selMask's address four times (what the device's
 * Select writes there). */
template <typename U>
inline void SelLoadBits(const LocalTensor<U> &sel, uint32_t bytes)
{
    CmpAligned(sel, ONE_BLK_SIZE, bytes, "Select", "selMask");
    std::memcpy(CmpMask().bytes, sel.GetPhyAddr(), 16);
}

template <typename T>
inline void SelLoadScalar(T s)
{
    for (uint32_t i = 0; i < 16; i += sizeof(T)) {
        std::memcpy(CmpMask().bytes + i, &s, sizeof(T));
    }
}

template <typename U>
inline void SelLoadAddress(const LocalTensor<U> &sel)
{
    CmpAligned(sel, ONE_BLK_SIZE, 0, "Select", "selMask");
    uint32_t low = uint32_t(reinterpret_cast<uintptr_t>(sel.GetPhyAddr()));
    for (uint32_t i = 0; i < 16; i += 4) {
        std::memcpy(CmpMask().bytes + i, &low, 4);
    }
}

/* SelAddress is where the register in VSEL_TENSOR_TENSOR_MODE points: a
 * pointer (a CPU-debug kernel stores one), its low 32 bits (what the
 * device's Select and an NPU kernel store) or an offset in the buffer. */
inline const uint8_t *SelAddress()
{
    uint64_t full;
    uint32_t low;
    std::memcpy(&full, CmpMask().bytes, 8);
    std::memcpy(&low, CmpMask().bytes, 4);
    const uint8_t *ub = UnifiedBuffer();
    uintptr_t base = reinterpret_cast<uintptr_t>(ub);
    if (full >= base && full - base < kUBSize) {
        return ub + (full - base);
    }
    if (uint32_t(low - uint32_t(base)) < kUBSize) {
        return ub + uint32_t(low - uint32_t(base));
    }
    if (low < kUBSize) {
        return ub + low;
    }
    Fail("Select: the CMPMASK register holds %#llx, not an address in the unified buffer (VSEL_TENSOR_TENSOR_MODE "
         "reads selMask through the address SetCmpMask put there)",
         (unsigned long long)full);
}

/* Sel runs one select instruction; sel and selBytes are the selection
 * bits of the scalar and tensor modes. */
template <typename T>
inline void Sel(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> *src1, SELMODE mode,
                const uint8_t *sel, uint64_t selBytes, const Mask &m, uint8_t repeatTime, const BinaryRepeatParams &p)
{
    static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value,
                  "Select: the operands are half or float on Atlas A2");
    constexpr uint32_t per = PerRepeat<T>();
    Walk<T> w(m, repeatTime);
    Strided<T> d = Operand(dst, p.dstBlkStride, p.dstRepStride, w, "Select", "dst");
    Strided<T> a = Operand(src0, p.src0BlkStride, p.src0RepStride, w, "Select", "src0");
    Strided<T> b = src1 ? Operand(*src1, p.src1BlkStride, p.src1RepStride, w, "Select", "src1") : a;
    uint8_t reg[16];
    std::memcpy(reg, CmpMask().bytes, 16);
    T scalar;
    std::memcpy(&scalar, reg, sizeof(T));
    if (mode != SELMODE::VSEL_CMPMASK_SPR && w.repeats != 0) {
        uint64_t need = (uint64_t(w.repeats - 1) * per + w.Lanes(w.repeats - 1) + 7) / 8;
        if (need > selBytes) {
            Fail("Select: %u repeats take %llu bytes of selection bits, past selMask's %llu", w.repeats,
                 (unsigned long long)need, (unsigned long long)selBytes);
        }
    }
    T out[128];
    for (uint32_t r = 0; r < w.repeats; r++) {
        uint32_t n = w.Lanes(r);
        const uint8_t *bits = mode == SELMODE::VSEL_CMPMASK_SPR ? reg : sel + uint64_t(r) * per / 8;
        for (uint32_t j = 0; j < n; j++) {
            if (w.On(j)) {
                bool take0 = bits[j / 8] >> (j % 8) & 1;
                out[j] = take0 ? *a.At(r, j) : mode == SELMODE::VSEL_TENSOR_SCALAR_MODE ? scalar : *b.At(r, j);
            }
        }
        for (uint32_t j = 0; j < n; j++) {
            if (w.On(j)) {
                *d.At(r, j) = out[j];
            }
        }
    }
}

/* SelTensors runs the forms with a selMask and a src1 tensor. */
template <typename T, typename U>
inline void SelTensors(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0,
                       const LocalTensor<T> &src1, SELMODE selMode, const Mask &m, uint8_t repeatTime,
                       const BinaryRepeatParams &p)
{
    static_assert(std::is_unsigned<U>::value, "Select: selMask is uint8_t, uint16_t, uint32_t or uint64_t");
    if (selMode == SELMODE::VSEL_CMPMASK_SPR) {
        SelLoadBits(selMask, PerRepeat<T>() / 8);
        Sel(dst, src0, &src1, selMode, nullptr, 0, m, repeatTime, p);
    } else if (selMode == SELMODE::VSEL_TENSOR_TENSOR_MODE) {
        SelLoadAddress(selMask);
        Sel(dst, src0, &src1, selMode, reinterpret_cast<const uint8_t *>(selMask.GetPhyAddr()),
            uint64_t(selMask.GetSize()) * sizeof(U), m, repeatTime, p);
    } else {
        Fail("Select: selMode %u with a src1 tensor is neither VSEL_CMPMASK_SPR nor VSEL_TENSOR_TENSOR_MODE",
             unsigned(selMode));
    }
}

/* SelScalar runs the forms with a selMask and a scalar src1. */
template <typename T, typename U>
inline void SelScalar(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0, T src1,
                      SELMODE selMode, const Mask &m, uint8_t repeatTime, const BinaryRepeatParams &p)
{
    static_assert(std::is_unsigned<U>::value, "Select: selMask is uint8_t, uint16_t, uint32_t or uint64_t");
    if (selMode != SELMODE::VSEL_TENSOR_SCALAR_MODE) {
        Fail("Select: a scalar src1 needs VSEL_TENSOR_SCALAR_MODE, not selMode %u", unsigned(selMode));
    }
    CmpAligned(selMask, ONE_BLK_SIZE, 0, "Select", "selMask");
    SelLoadScalar(src1);
    Sel(dst, src0, static_cast<const LocalTensor<T> *>(nullptr), selMode,
        reinterpret_cast<const uint8_t *>(selMask.GetPhyAddr()), uint64_t(selMask.GetSize()) * sizeof(U), m,
        repeatTime, p);
}


} // namespace gocann

/* The count forms: the first count elements. */
template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0,
                              T src1, SELMODE selMode, uint32_t count)
{
    dst.gocannCheck(count, "Select");
    src0.gocannCheck(count, "Select");
    gocann::SelScalar(dst, selMask, src0, src1, selMode, gocann::CounterMask(count), 1, BinaryRepeatParams());
    ResetMask();
    SetMaskNorm();
}

template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0,
                              const LocalTensor<T> &src1, SELMODE selMode, uint32_t count)
{
    dst.gocannCheck(count, "Select");
    src0.gocannCheck(count, "Select");
    src1.gocannCheck(count, "Select");
    gocann::SelTensors(dst, selMask, src0, src1, selMode, gocann::CounterMask(count), 1, BinaryRepeatParams());
    ResetMask();
    SetMaskNorm();
}

/* The level-0 forms: one instruction under a mask. */
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0,
                              T src1, SELMODE selMode, const uint64_t mask[], uint8_t repeatTime,
                              const BinaryRepeatParams &repeatParams)
{
    gocann::SelScalar(dst, selMask, src0, src1, selMode, gocann::BitMask<T, isSetMask>(mask, "Select"), repeatTime,
                   repeatParams);
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0,
                              T src1, SELMODE selMode, uint64_t mask, uint8_t repeatTime,
                              const BinaryRepeatParams &repeatParams)
{
    gocann::SelScalar(dst, selMask, src0, src1, selMode, gocann::ContinuousMask<T, isSetMask>(mask, "Select"),
                   repeatTime, repeatParams);
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0,
                              const LocalTensor<T> &src1, SELMODE selMode, const uint64_t mask[], uint8_t repeatTime,
                              const BinaryRepeatParams &repeatParams)
{
    gocann::SelTensors(dst, selMask, src0, src1, selMode, gocann::BitMask<T, isSetMask>(mask, "Select"), repeatTime,
                    repeatParams);
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0,
                              const LocalTensor<T> &src1, SELMODE selMode, uint64_t mask, uint8_t repeatTime,
                              const BinaryRepeatParams &repeatParams)
{
    gocann::SelTensors(dst, selMask, src0, src1, selMode, gocann::ContinuousMask<T, isSetMask>(mask, "Select"),
                    repeatTime, repeatParams);
}

/* The forms without a mask: the register as SetCmpMask left it (the
 * bits, or selMask's address), the mask as SetVectorMask left it. */
template <typename T, SELMODE selMode>
__aicore__ inline void Select(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,
                              uint8_t repeatTime, const BinaryRepeatParams &repeatParams)
{
    static_assert(selMode != SELMODE::VSEL_TENSOR_SCALAR_MODE,
                  "Select<T, selMode>(dst, src0, src1, ...): VSEL_CMPMASK_SPR or VSEL_TENSOR_TENSOR_MODE; the scalar "
                  "mode is Select(dst, selMask, src0, repeatTime, repeatParams)");
    gocann::Mask m = gocann::ContinuousMask<T, false>(MASK_PLACEHOLDER, "Select");
    const uint8_t *sel = nullptr;
    uint64_t bytes = 0;
    if (selMode == SELMODE::VSEL_TENSOR_TENSOR_MODE) {
        sel = gocann::SelAddress();
        bytes = uint64_t(gocann::UnifiedBuffer() + gocann::kUBSize - sel);
    }
    gocann::Sel(dst, src0, &src1, selMode, sel, bytes, m, repeatTime, repeatParams);
}

/* The scalar mode without a mask: the scalar is the register's first
 * element (SetCmpMask of a tensor holding it). */
template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0,
                              uint8_t repeatTime, const BinaryRepeatParams &repeatParams)
{
    gocann::CmpAligned(selMask, ONE_BLK_SIZE, 0, "Select", "selMask");
    gocann::Sel(dst, src0, static_cast<const LocalTensor<T> *>(nullptr), SELMODE::VSEL_TENSOR_SCALAR_MODE,
                reinterpret_cast<const uint8_t *>(selMask.GetPhyAddr()), uint64_t(selMask.GetSize()) * sizeof(U),
                gocann::ContinuousMask<T, false>(MASK_PLACEHOLDER, "Select"), repeatTime, repeatParams);
}

} // namespace AscendC

#endif /* GOCANN_ASCENDC_SELECT_H_ */
