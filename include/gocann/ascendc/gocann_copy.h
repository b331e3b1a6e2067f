/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * Part of kernel_operator.h: DataCopy between global memory and the
 * unified buffer and inside the unified buffer, on a count or in bursts
 * (DataCopyParams), and the parameter structs of the copy calls. The copy
 * engines move whole 32-byte blocks: a unified-buffer operand starts on a
 * block, and a count or burst is a whole number of blocks. A burst form
 * with blockCount or blockLen 0 does nothing, as on the device. Include
 * kernel_operator.h, not this.
 */
#ifndef GOCANN_ASCENDC_COPY_H_
#define GOCANN_ASCENDC_COPY_H_

#include <cstring>

#include "gocann_mask.h"
#include "../kernel.h"

namespace AscendC {

constexpr uint8_t DEFAULT_DATA_COPY_NBURST = 1;
constexpr uint8_t DEFAULT_DATA_COPY_STRIDE = 0;
constexpr int32_t K_MAX_DIM = 8; // dimensions of a slice copy

/* The bursts of a copy: blockCount bursts of blockLen 32-byte blocks,
 * srcGap and dstGap blocks between the end of one burst and the start of
 * the next (srcStride and dstStride are their older names). */
struct DataCopyParams {
    __aicore__ DataCopyParams() {}
    __aicore__ DataCopyParams(const uint16_t count, const uint16_t len, const uint16_t srcStrideIn,
                              const uint16_t dstStrideIn)
        : blockCount(count), blockLen(len), srcGap(srcStrideIn), dstGap(dstStrideIn)
    {
    }
    uint16_t blockCount = DEFAULT_DATA_COPY_NBURST;
    uint16_t blockLen = 0;
    union {
        uint16_t srcGap = 0;
        uint16_t srcStride;
    };
    union {
        uint16_t dstGap = 0;
        uint16_t dstStride;
    };
};

/* The bursts of DataCopyPad: blockLen in bytes; a stride on the global
 * memory side in bytes, on the unified buffer side in 32-byte blocks. */
struct DataCopyExtParams {
    __aicore__ DataCopyExtParams() {}
    __aicore__ DataCopyExtParams(const uint16_t count, const uint32_t len, const uint32_t srcStrideIn,
                                 const uint32_t dstStrideIn, const uint32_t rsvIn)
        : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn), rsv(rsvIn)
    {
    }
    uint16_t blockCount = DEFAULT_DATA_COPY_NBURST;
    uint32_t blockLen = 0;
    uint32_t srcStride = DEFAULT_DATA_COPY_STRIDE;
    uint32_t dstStride = DEFAULT_DATA_COPY_STRIDE;
    uint32_t rsv = 0;
};

/* The padding of DataCopyPad from global memory: leftPadding and
 * rightPadding elements around each burst, of paddingValue when isPad
 * (a bit pattern here, a T in DataCopyPadExtParams) or else of the value
 * SetPadValue left. */
struct DataCopyPadParams {
    __aicore__ DataCopyPadParams() {}
    __aicore__ DataCopyPadParams(const bool isPadValue, const uint8_t leftPadValue, const uint8_t rightPadValue,
                                 const uint64_t padValue)
        : isPad(isPadValue), leftPadding(leftPadValue), rightPadding(rightPadValue), paddingValue(padValue)
    {
    }
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    uint64_t paddingValue = 0;
};

template <typename T>
struct DataCopyPadExtParams {
    __aicore__ DataCopyPadExtParams() {}
    __aicore__ DataCopyPadExtParams(const bool isPadValue, const uint8_t leftPadValue, const uint8_t rightPadValue,
                                    T padValue)
        : isPad(isPadValue), leftPadding(leftPadValue), rightPadding(rightPadValue), paddingValue(padValue)
    {
    }
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    T paddingValue = 0;
};

/* DataCopyPad's layouts; Compact is not on Atlas A2. */
enum class PaddingMode : uint8_t {
    Normal = 0,
    Compact,
};

/* The two directions of SetLoopModePara, and its loops: declared for
 * every product, as in Ascend C, but the loop mode itself is Ascend 950's,
 * not Atlas A2's, so SetLoopModePara is not here. */
enum class DataCopyMVType : uint8_t {
    UB_TO_OUT = 0,
    OUT_TO_UB = 1,
};

struct LoopModeParams {
    __aicore__ LoopModeParams() {}
    __aicore__ LoopModeParams(const uint32_t loop1SizeIn, const uint32_t loop2SizeIn, const uint64_t loop1SrcStrideIn,
                              const uint64_t loop1DstStrideIn, const uint64_t loop2SrcStrideIn,
                              const uint64_t loop2DstStrideIn)
        : loop1Size(loop1SizeIn), loop2Size(loop2SizeIn), loop1SrcStride(loop1SrcStrideIn),
          loop1DstStride(loop1DstStrideIn), loop2SrcStride(loop2SrcStrideIn), loop2DstStride(loop2DstStrideIn)
    {
    }
    uint32_t loop1Size = 0;
    uint32_t loop2Size = 0;
    uint64_t loop1SrcStride = 0;
    uint64_t loop1DstStride = 0;
    uint64_t loop2SrcStride = 0;
    uint64_t loop2DstStride = 0;
};

/* One dimension of a slice copy (gocann_copy_slice.h). */
struct SliceInfo {
    __aicore__ SliceInfo() {}
    __aicore__ SliceInfo(const uint32_t startIndexIn, const uint32_t endIndexIn, const uint32_t strideIn,
                         const uint32_t burstLenIn, const uint32_t shapeValueIn = 0)
        : startIndex(startIndexIn), endIndex(endIndexIn), stride(strideIn), burstLen(burstLenIn),
          shapeValue(shapeValueIn)
    {
    }
    uint32_t startIndex = 0;
    uint32_t endIndex = ONE_BLK_SIZE - 1;
    uint32_t stride = 0;
    uint32_t burstLen = ONE_BLK_SIZE;
    uint32_t shapeValue = 0;
};

/* The strides of Copy, in 32-byte blocks (gocann_copy_ub.h). */
struct CopyRepeatParams {
    __aicore__ CopyRepeatParams() {}
    __aicore__ CopyRepeatParams(const uint16_t dstStrideIn, const uint16_t srcStrideIn, uint16_t dstRepeatSizeIn,
                                uint16_t srcRepeatSizeIn)
        : dstStride(dstStrideIn), srcStride(srcStrideIn), dstRepeatSize(dstRepeatSizeIn),
          srcRepeatSize(srcRepeatSizeIn)
    {
    }
    uint16_t dstStride = DEFAULT_DATA_COPY_STRIDE;
    uint16_t srcStride = DEFAULT_DATA_COPY_STRIDE;
    uint16_t dstRepeatSize = DEFAULT_REPEAT_STRIDE;
    uint16_t srcRepeatSize = DEFAULT_REPEAT_STRIDE;
};

namespace gocann {

constexpr uint32_t kMaxBlockCount = 4095; // bursts of one copy instruction

inline uint64_t RoundBlock(uint64_t bytes) { return (bytes + kBlockBytes - 1) / kBlockBytes * kBlockBytes; }

/* Local checks that a copy reaches bytes [0, bytes) of t: t starts on a
 * 32-byte block of the unified buffer (or of L1, where data may be staged)
 * and the bytes lie in t's blocks (the engines write whole blocks, so the
 * last one's tail counts) and in that buffer. */
template <typename T>
inline uint8_t *Local(const LocalTensor<T> &t, uint64_t bytes, const char *what, const char *name)
{
    if (t.GetPhyAddr() == nullptr) {
        Fail("%s: %s has no buffer (it was not allocated from a TQue, a TBuf or a LocalMemAllocator)", what, name);
    }
    uint8_t *p = reinterpret_cast<uint8_t *>(t.GetPhyAddr());
    const uint8_t *base = UnifiedBuffer();
    uint32_t size = kUBSize;
    const char *buffer = "unified buffer";
    if (p >= L1Buffer() && p < L1Buffer() + kL1Size) {
        base = L1Buffer(), size = kL1Size, buffer = "L1";
    }
    uint64_t at = uint64_t(p - base);
    if (p < base || at >= size || at % kBlockBytes != 0) {
        Fail("%s: %s starts at byte %lld of the %s, not on a 32-byte block inside it", what, name,
             (long long)(p - base), buffer);
    }
    uint64_t have = RoundBlock(uint64_t(t.GetSize()) * sizeof(T));
    if (bytes > have) {
        Fail("%s: %s is reached %llu bytes in, past the end of its %u elements (%llu bytes)", what, name,
             (unsigned long long)bytes, t.GetSize(), (unsigned long long)have);
    }
    if (at + bytes > size) {
        Fail("%s: %s reaches bytes [%llu, %llu), past the %u-byte %s", what, name, (unsigned long long)at,
             (unsigned long long)(at + bytes), size, buffer);
    }
    return p;
}

/* Global checks that a copy reaches bytes [0, bytes) of t, and that t
 * starts on an element when the call needs it to. */
template <typename T>
inline uint8_t *Global(const GlobalTensor<T> &t, uint64_t bytes, bool aligned, const char *what, bool to)
{
    uint64_t count = (bytes + sizeof(T) - 1) / sizeof(T);
    if (!t.gocannFits(count)) { // the message only when it fails: copies are hot
        char call[96];
        snprintf(call, sizeof call, "%s %s GlobalTensor", what, to ? "to" : "from");
        t.gocannCheck(count, call);
    }
    uintptr_t p = reinterpret_cast<uintptr_t>(t.GetPhyAddr());
    if (aligned && p % sizeof(T) != 0) {
        Fail("%s: the GlobalTensor at %#llx is not aligned to its %zu-byte elements", what, (unsigned long long)p,
             sizeof(T));
    }
    // What other cores wrote before they signalled (DataCacheCleanAndInvalid,
    // WriteGmByPassDCache) must be seen by this copy.
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    gocann_copy_bytes(bytes); // the kernel's memory traffic, for profiling
    return reinterpret_cast<uint8_t *>(p);
}

/* Whole checks a count copy: a whole number of 32-byte blocks. */
template <typename T>
inline uint64_t Whole(uint32_t count, const char *what)
{
    uint64_t bytes = uint64_t(count) * sizeof(T);
    if (bytes % kBlockBytes != 0) {
        Fail("%s: %u elements of %zu bytes are not a whole number of %u-byte blocks (DataCopyPad copies those)",
             what, count, sizeof(T), kBlockBytes);
    }
    return bytes;
}

/* Bursts moves p.blockCount bursts of p.blockLen blocks, each burst's
 * bytes at once, in order; memmove keeps a copy inside the unified
 * buffer defined when bursts overlap. Into global memory (toGM) they go
 * through StoreGM, for the atomic mode. */
inline void Bursts(uint8_t *dst, const uint8_t *src, const DataCopyParams &p, bool toGM)
{
    uint64_t len = uint64_t(p.blockLen) * kBlockBytes;
    uint64_t dstStep = len + uint64_t(p.dstGap) * kBlockBytes, srcStep = len + uint64_t(p.srcGap) * kBlockBytes;
    for (uint32_t i = 0; i < p.blockCount; i++) {
        if (toGM) {
            StoreGM(dst + i * dstStep, src + i * srcStep, len, "DataCopy");
        } else {
            memmove(dst + i * dstStep, src + i * srcStep, len);
        }
    }
}

/* Span is how many bytes bursts reach from their start. */
inline uint64_t Span(uint32_t count, uint64_t len, uint64_t step) { return count == 0 ? 0 : (count - 1) * step + len; }

/* Params checks a DataCopyParams and says whether the copy does
 * anything. */
inline bool Params(const DataCopyParams &p, const char *what)
{
    if (p.blockCount > kMaxBlockCount) {
        Fail("%s: blockCount %u is out of range [0, %u]", what, p.blockCount, kMaxBlockCount);
    }
    return p.blockCount != 0 && p.blockLen != 0;
}

inline uint64_t SrcSpan(const DataCopyParams &p)
{
    return Span(p.blockCount, uint64_t(p.blockLen) * kBlockBytes, uint64_t(p.blockLen + p.srcGap) * kBlockBytes);
}
inline uint64_t DstSpan(const DataCopyParams &p)
{
    return Span(p.blockCount, uint64_t(p.blockLen) * kBlockBytes, uint64_t(p.blockLen + p.dstGap) * kBlockBytes);
}

} // namespace gocann

/* DataCopy copies count elements, a whole number of 32-byte blocks. */
template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const uint32_t count)
{
    uint64_t n = gocann::Whole<T>(count, "DataCopy");
    uint8_t *d = gocann::Local(dst, n, "DataCopy", "dst");
    memcpy(d, gocann::Global(src, n, true, "DataCopy", false), n);
}

template <typename T>
__aicore__ inline void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t count)
{
    uint64_t n = gocann::Whole<T>(count, "DataCopy");
    const uint8_t *s = gocann::Local(src, n, "DataCopy", "src");
    gocann::StoreGM(gocann::Global(dst, n, true, "DataCopy", true), s, n, "DataCopy");
}

template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t count)
{
    uint64_t n = gocann::Whole<T>(count, "DataCopy");
    uint8_t *d = gocann::Local(dst, n, "DataCopy", "dst");
    memmove(d, gocann::Local(src, n, "DataCopy", "src"), n);
}

/* DataCopy in bursts of whole blocks (DataCopyParams). */
template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src,
                                const DataCopyParams &repeatParams)
{
    if (!gocann::Params(repeatParams, "DataCopy")) {
        return;
    }
    uint8_t *d = gocann::Local(dst, gocann::DstSpan(repeatParams), "DataCopy", "dst");
    gocann::Bursts(d, gocann::Global(src, gocann::SrcSpan(repeatParams), true, "DataCopy", false), repeatParams, false);
}

template <typename T>
__aicore__ inline void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src,
                                const DataCopyParams &repeatParams)
{
    if (!gocann::Params(repeatParams, "DataCopy")) {
        return;
    }
    const uint8_t *s = gocann::Local(src, gocann::SrcSpan(repeatParams), "DataCopy", "src");
    gocann::Bursts(gocann::Global(dst, gocann::DstSpan(repeatParams), true, "DataCopy", true), s, repeatParams, true);
}

template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                                const DataCopyParams &repeatParams)
{
    if (!gocann::Params(repeatParams, "DataCopy")) {
        return;
    }
    uint8_t *d = gocann::Local(dst, gocann::DstSpan(repeatParams), "DataCopy", "dst");
    gocann::Bursts(d, gocann::Local(src, gocann::SrcSpan(repeatParams), "DataCopy", "src"), repeatParams, false);
}

} // namespace AscendC

#endif /* GOCANN_ASCENDC_COPY_H_ */
