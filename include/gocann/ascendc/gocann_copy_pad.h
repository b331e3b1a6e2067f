/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * Part of kernel_operator.h: DataCopyPad, the copies of bursts of any
 * whole number of elements between global memory and the unified buffer,
 * and SetPadValue.
 *
 * From global memory, burst i of blockLen bytes is read from
 * i * (blockLen + srcStride) bytes in and written, with leftPadding
 * elements before it and rightPadding after, into the blocks that start
 * i * (its blocks + dstStride) blocks in; its blocks are the padded
 * burst rounded up to 32 bytes, the rest of them dummy. The padding is the
 * core's pad value: isPad sets it to paddingValue first, else it is what
 * SetPadValue (or an earlier isPad copy) left, 0 at first. The dummy
 * elements repeat the burst's first element when there is no padding, and
 * are the pad value when there is. To global memory, burst i is read from
 * i * (blockLen rounded up to 32 bytes + srcStride blocks) bytes in and
 * written i * (blockLen + dstStride) bytes in, without its dummy tail.
 * Include kernel_operator.h, not this.
 */
#ifndef GOCANN_ASCENDC_COPY_PAD_H_
#define GOCANN_ASCENDC_COPY_PAD_H_

#include "gocann_copy.h"

namespace AscendC {

namespace gocann {

constexpr uint32_t kMaxPadBlockLen = 2097151; // bytes of one DataCopyExtParams burst

/* PadValue is the core's pad value register, as bits: per block, so per
 * thread, as the mask registers are. */
inline uint64_t &PadValue()
{
    static thread_local uint64_t bits = 0;
    return bits;
}

template <typename T>
inline uint64_t Bits(T value)
{
    uint64_t bits = 0;
    memcpy(&bits, &value, sizeof(T));
    return bits;
}

/* Pad is one DataCopyPad: its bursts and its padding. */
struct Pad {
    uint32_t count;
    uint64_t len, srcStride, dstStride; // dstStride in blocks from global memory, bytes to it
    bool isPad = false;
    uint32_t left = 0, right = 0;
    uint64_t bits = 0;
};

/* PadCheck checks the bursts and says whether the copy does anything. */
template <typename T>
inline bool PadCheck(const Pad &p, uint64_t maxLen)
{
    if (p.count > kMaxBlockCount) {
        Fail("DataCopyPad: blockCount %u is out of range [0, %u]", p.count, kMaxBlockCount);
    }
    if (p.len > maxLen) {
        Fail("DataCopyPad: blockLen %llu is out of range [0, %llu]", (unsigned long long)p.len,
             (unsigned long long)maxLen);
    }
    if (p.len % sizeof(T) != 0) {
        Fail("DataCopyPad: blockLen %llu bytes is not a whole number of %zu-byte elements",
             (unsigned long long)p.len, sizeof(T));
    }
    return p.count != 0 && p.len != 0;
}

/* PadIn copies bursts from global memory into the unified buffer. */
template <typename T>
inline void PadIn(const LocalTensor<T> &dst, const GlobalTensor<T> &src, Pad p, uint64_t maxLen)
{
    if (!PadCheck<T>(p, maxLen)) {
        return;
    }
    if (uint64_t(p.left) * sizeof(T) > kBlockBytes || uint64_t(p.right) * sizeof(T) > kBlockBytes) {
        Fail("DataCopyPad: leftPadding %u and rightPadding %u elements of %zu bytes must each be at most %u bytes",
             p.left, p.right, sizeof(T), kBlockBytes);
    }
    if (p.isPad && sizeof(T) == 8 && p.bits != 0) {
        Fail("DataCopyPad: the paddingValue of 64-bit elements must be 0, not %#llx", (unsigned long long)p.bits);
    }
    if (p.isPad) {
        PadValue() = p.bits;
    }
    uint64_t blocks = RoundBlock((p.left + p.right) * sizeof(T) + p.len);
    uint64_t dstStep = blocks + p.dstStride * kBlockBytes, srcStep = p.len + p.srcStride;
    uint8_t *d = Local(dst, Span(p.count, blocks, dstStep), "DataCopyPad", "dst");
    const uint8_t *s = Global(src, Span(p.count, p.len, srcStep), false, "DataCopyPad", false);
    const uint64_t sz = sizeof(T), data = p.left * sz, tail = data + p.len, pads = tail + p.right * sz;
    for (uint32_t i = 0; i < p.count; i++) {
        uint8_t *out = d + i * dstStep;
        const uint8_t *in = s + i * srcStep;
        memmove(out + data, in, p.len);
        // Elements are moved as bytes: a copy keeps every bit pattern.
        const void *dummy = p.left == 0 && p.right == 0 ? static_cast<const void *>(out) : &PadValue();
        for (uint64_t at = 0; at < blocks; at += sz) {
            if (at < data || (at >= tail && at < pads)) {
                memcpy(out + at, &PadValue(), sz);
            } else if (at >= pads) {
                memcpy(out + at, dummy, sz);
            }
        }
    }
}

/* PadOut copies bursts from the unified buffer to global memory, through
 * StoreGM for the atomic mode. */
template <typename T>
inline void PadOut(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const Pad &p, uint64_t maxLen)
{
    if (!PadCheck<T>(p, maxLen)) {
        return;
    }
    uint64_t srcStep = RoundBlock(p.len) + p.srcStride * kBlockBytes, dstStep = p.len + p.dstStride;
    const uint8_t *s = Local(src, Span(p.count, p.len, srcStep), "DataCopyPad", "src");
    uint8_t *d = Global(dst, Span(p.count, p.len, dstStep), false, "DataCopyPad", true);
    for (uint32_t i = 0; i < p.count; i++) {
        StoreGM(d + i * dstStep, s + i * srcStep, p.len, "DataCopyPad");
    }
}

} // namespace gocann

/* SetPadValue sets the value DataCopyPad pads with when isPad is false. */
template <typename T, TPosition pos = TPosition::MAX>
__aicore__ inline void SetPadValue(T paddingValue)
{
    static_assert(pos == TPosition::VECIN || pos == TPosition::VECOUT || pos == TPosition::MAX,
                  "SetPadValue: pos must be VECIN, VECOUT or MAX");
    gocann::PadValue() = gocann::Bits(paddingValue);
}

/* DataCopyPad from global memory with byte lengths (DataCopyExtParams). */
template <typename T, PaddingMode mode = PaddingMode::Normal>
__aicore__ inline void DataCopyPad(const LocalTensor<T> &dst, const GlobalTensor<T> &src,
                                   const DataCopyExtParams &dataCopyParams, const DataCopyPadExtParams<T> &padParams)
{
    static_assert(mode == PaddingMode::Normal, "DataCopyPad: PaddingMode::Compact is not on Atlas A2");
    gocann::Pad p{dataCopyParams.blockCount, dataCopyParams.blockLen, dataCopyParams.srcStride,
                  dataCopyParams.dstStride};
    p.isPad = padParams.isPad;
    p.left = padParams.leftPadding;
    p.right = padParams.rightPadding;
    p.bits = gocann::Bits(padParams.paddingValue);
    gocann::PadIn(dst, src, p, gocann::kMaxPadBlockLen);
}

/* DataCopyPad from global memory with DataCopyParams, blockLen in bytes. */
template <typename T, PaddingMode mode = PaddingMode::Normal>
__aicore__ inline void DataCopyPad(const LocalTensor<T> &dst, const GlobalTensor<T> &src,
                                   const DataCopyParams &dataCopyParams, const DataCopyPadParams &padParams)
{
    static_assert(mode == PaddingMode::Normal, "DataCopyPad: PaddingMode::Compact is not on Atlas A2");
    gocann::Pad p{dataCopyParams.blockCount, dataCopyParams.blockLen, dataCopyParams.srcStride,
                  dataCopyParams.dstStride};
    p.isPad = padParams.isPad;
    p.left = padParams.leftPadding;
    p.right = padParams.rightPadding;
    p.bits = sizeof(T) == 8 ? padParams.paddingValue : padParams.paddingValue & ((uint64_t(1) << (8 * sizeof(T))) - 1);
    gocann::PadIn(dst, src, p, UINT16_MAX);
}

/* DataCopyPad to global memory. */
template <typename T, PaddingMode mode = PaddingMode::Normal>
__aicore__ inline void DataCopyPad(const GlobalTensor<T> &dst, const LocalTensor<T> &src,
                                   const DataCopyExtParams &dataCopyParams)
{
    static_assert(mode == PaddingMode::Normal, "DataCopyPad: PaddingMode::Compact is not on Atlas A2");
    gocann::Pad p{dataCopyParams.blockCount, dataCopyParams.blockLen, dataCopyParams.srcStride,
                  dataCopyParams.dstStride};
    gocann::PadOut(dst, src, p, gocann::kMaxPadBlockLen);
}

template <typename T, PaddingMode mode = PaddingMode::Normal>
__aicore__ inline void DataCopyPad(const GlobalTensor<T> &dst, const LocalTensor<T> &src,
                                   const DataCopyParams &dataCopyParams)
{
    static_assert(mode == PaddingMode::Normal, "DataCopyPad: PaddingMode::Compact is not on Atlas A2");
    gocann::Pad p{dataCopyParams.blockCount, dataCopyParams.blockLen, dataCopyParams.srcStride,
                  dataCopyParams.dstStride};
    gocann::PadOut(dst, src, p, UINT16_MAX);
}

} // namespace AscendC

#endif /* GOCANN_ASCENDC_COPY_PAD_H_ */
