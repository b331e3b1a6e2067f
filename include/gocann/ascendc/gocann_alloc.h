/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * Part of kernel_operator.h: LocalMemAllocator, the static-tensor way of
 * taking a core's buffers (instead of a TPipe's queues): each Alloc takes
 * the next tileSize elements from the buffer's start, 32-byte aligned.
 * The unified buffer is modelled, and L1 as a place copies go through
 * (GM -> L1 -> GM, as some kernels stage data there); the vector unit
 * cannot reach L1, and the L0 buffers, which only the cube unit uses, are
 * not there. Include kernel_operator.h, not this.
 */
#ifndef GOCANN_ASCENDC_ALLOC_H_
#define GOCANN_ASCENDC_ALLOC_H_

#include "gocann_pipe.h"

namespace AscendC {

#ifndef GOCANN_ASCENDC_L1_SIZE
/* Bytes of L1 per core: an Atlas A2 AI core's. */
#define GOCANN_ASCENDC_L1_SIZE (512 * 1024)
#endif

namespace gocann {

constexpr uint32_t kL1Size = GOCANN_ASCENDC_L1_SIZE;

/* L1Buffer is the calling thread's L1, as UnifiedBuffer is its unified
 * buffer. */
inline uint8_t *L1Buffer()
{
    alignas(64) static thread_local uint8_t l1[kL1Size];
    return l1;
}

/* Place is bytes at byte addr of the buffer of a position: the unified
 * buffer's (VECIN, VECOUT, VECCALC) or L1's (A1, B1, C1). */
inline uint8_t *Place(TPosition pos, uint32_t addr, uint64_t bytes, const char *what)
{
    bool l1 = pos == TPosition::A1 || pos == TPosition::B1 || pos == TPosition::C1;
    if (!l1 && pos != TPosition::VECIN && pos != TPosition::VECOUT && pos != TPosition::VECCALC) {
        Fail("%s: TPosition %u is not modelled: only the unified buffer (VECIN, VECOUT, VECCALC) and L1 (A1, B1, "
             "C1); L0 belongs to the cube unit, which the simulated NPU does not have",
             what, unsigned(pos));
    }
    uint32_t size = l1 ? kL1Size : kUBSize;
    if (addr % kBlockBytes != 0 || bytes > size || addr > size - bytes) {
        Fail("%s: %llu bytes at byte %u are not inside the %u-byte %s on a 32-byte boundary", what,
             (unsigned long long)bytes, addr, size, l1 ? "L1" : "unified buffer");
    }
    return (l1 ? L1Buffer() : UnifiedBuffer()) + addr;
}

} // namespace gocann

/* The physical buffers of an AI core. */
enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

template <Hardware hard = Hardware::UB>
class LocalMemAllocator {
    static_assert(hard == Hardware::UB || hard == Hardware::L1,
                  "LocalMemAllocator: the L0 buffers and the cube unit's others are not available on the simulated "
                  "NPU; only the unified buffer (Hardware::UB) and L1 are modelled");
    static constexpr uint32_t kSize = hard == Hardware::UB ? gocann::kUBSize : gocann::kL1Size;

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
        if (tileSize == 0 || each > kSize - head_) {
            gocann::Fail("LocalMemAllocator::Alloc: %u elements of %zu bytes from byte %u do not fit in the %u-byte "
                         "%s",
                         tileSize, sizeof(T), head_, kSize, hard == Hardware::UB ? "unified buffer" : "L1");
        }
        uint8_t *base = hard == Hardware::UB ? gocann::UnifiedBuffer() : gocann::L1Buffer();
        LocalTensor<T> t;
        t.gocannSet(reinterpret_cast<T *>(base + head_), tileSize, this, -1, uint32_t(each));
        head_ += uint32_t(each);
        return t;
    }

private:
    uint32_t head_ = 0;
};

} // namespace AscendC

#endif /* GOCANN_ASCENDC_ALLOC_H_ */
