/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * Part of kernel_operator.h: LocalMemAllocator, the static-tensor way of
 * taking the unified buffer (instead of a TPipe's queues): each Alloc
 * takes the next tileSize elements from the buffer's start, 32-byte
 * aligned. Only the unified buffer is modelled. Include kernel_operator.h,
 * not this.
 */
#ifndef GOCANN_ASCENDC_ALLOC_H_
#define GOCANN_ASCENDC_ALLOC_H_

#include "gocann_pipe.h"

namespace AscendC {

namespace gocann {

inline uint8_t *UBAt(uint32_t addr, uint64_t bytes, const char *what)
{
    if (addr % kBlockBytes != 0 || bytes > kUBSize || addr > kUBSize - bytes) {
        Fail("%s: %llu bytes at byte %u are not inside the %u-byte unified buffer on a 32-byte boundary", what,
             (unsigned long long)bytes, addr, kUBSize);
    }
    return UnifiedBuffer() + addr;
}

} // namespace gocann

/* The physical buffers of an AI core. */
enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

template <Hardware hard = Hardware::UB>
class LocalMemAllocator {
    static_assert(hard == Hardware::UB, "LocalMemAllocator: only the unified buffer (Hardware::UB) is modelled");

public:
    __aicore__ inline LocalMemAllocator() = default;

    /* GetCurAddr is the next free byte of the buffer. */
    __aicore__ inline uint32_t GetCurAddr() const { return head_; }

    template <class T, uint32_t tileSize>
    __aicore__ inline LocalTensor<T> Alloc()
    {
        return Alloc<T>(tileSize);
    }

    template <TPosition pos, class T, uint32_t tileSize>
    __aicore__ inline LocalTensor<T> Alloc()
    {
        return Alloc<T>(tileSize);
    }

    template <TPosition pos, class T>
    __aicore__ inline LocalTensor<T> Alloc(uint32_t tileSize)
    {
        return Alloc<T>(tileSize);
    }

    template <class T>
    __aicore__ inline LocalTensor<T> Alloc(uint32_t tileSize)
    {
        uint64_t bytes = uint64_t(tileSize) * sizeof(T);
        uint64_t each = (bytes + gocann::kBlockBytes - 1) / gocann::kBlockBytes * gocann::kBlockBytes;
        if (tileSize == 0 || each > gocann::kUBSize - head_) {
            gocann::Fail("LocalMemAllocator::Alloc: %u elements of %zu bytes from byte %u do not fit in the %u-byte "
                         "unified buffer",
                         tileSize, sizeof(T), head_, gocann::kUBSize);
        }
        LocalTensor<T> t;
        t.gocannSet(reinterpret_cast<T *>(gocann::UnifiedBuffer() + head_), tileSize, this, -1, uint32_t(each));
        head_ += uint32_t(each);
        return t;
    }

private:
    uint32_t head_ = 0;
};

} // namespace AscendC

#endif /* GOCANN_ASCENDC_ALLOC_H_ */
