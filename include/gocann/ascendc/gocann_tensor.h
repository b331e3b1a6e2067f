/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * Part of kernel_operator.h: the data types, the buffer positions and the
 * two tensor views, GlobalTensor over device memory and LocalTensor over
 * the block's unified buffer. Include kernel_operator.h, not this.
 */
#ifndef GOCANN_ASCENDC_TENSOR_H_
#define GOCANN_ASCENDC_TENSOR_H_

#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>

#include "../kernel.h"
#include "gocann_builtin.h"
#include "gocann_cache.h"
#include "gocann_print.h"

#if !defined(__FLT16_MAX__)
#error "kernel_operator.h needs a compiler with _Float16 for half (GCC 12, Clang 15 or later)"
#endif
/* Ascend C's half: IEEE binary16. */
using half = _Float16;

namespace AscendC {

enum class TPosition : uint8_t {
    GM,
    A1,
    A2,
    B1,
    B2,
    C1,
    C2,
    CO1,
    CO2,
    VECIN,
    VECOUT,
    VECCALC,
    LCM = VECCALC,
    SPM,
    SHM = SPM,
    TSCM,
    C2PIPE2GM,
    C2PIPE2LOCAL,
    MAX,
};
using QuePosition = TPosition;

namespace gocann {

/* Fail stops the block with an AI core trap carrying the formatted
 * message. */
[[noreturn]] __attribute__((format(printf, 1, 2))) inline void Fail(const char *format, ...)
{
    char text[256];
    va_list ap;
    va_start(ap, format);
    vsnprintf(text, sizeof text, format, ap);
    va_end(ap);
    gocann_trap(text);
}

/* Arith is the type an element is computed in: half widens to float, as
 * the vector unit rounds each result once. */
template <typename T>
struct Arith {
    using type = T;
};
template <>
struct Arith<half> {
    using type = float;
};

/* Place is byte addr of the buffer of position pos, for a tensor of bytes
 * placed there by address (gocann_alloc.h). */
uint8_t *Place(TPosition pos, uint32_t addr, uint64_t bytes, const char *what);

} // namespace gocann

/* GlobalTensor is a view of count elements of global memory. A view set
 * without a size is not bounds-checked. */
template <typename T>
class GlobalTensor {
public:
    using PrimType = T;

    __aicore__ inline GlobalTensor() = default;

    __aicore__ inline void SetGlobalBuffer(__gm__ T *buffer, uint64_t bufferSize)
    {
        addr_ = buffer;
        size_ = bufferSize;
        sized_ = true;
    }
    __aicore__ inline void SetGlobalBuffer(__gm__ T *buffer)
    {
        addr_ = buffer;
        size_ = 0;
        sized_ = false;
    }

    __aicore__ inline GlobalTensor operator[](uint64_t offset) const
    {
        if (sized_ && offset > size_) {
            gocann::Fail("GlobalTensor[%llu]: past the end of its %llu elements", (unsigned long long)offset,
                         (unsigned long long)size_);
        }
        GlobalTensor t;
        t.addr_ = addr_ + offset;
        t.size_ = sized_ ? size_ - offset : 0;
        t.sized_ = sized_;
        return t;
    }

    __aicore__ inline T GetValue(uint64_t offset) const { return *At(offset, "GetValue"); }
    __aicore__ inline void SetValue(uint64_t offset, T value) { *At(offset, "SetValue") = value; }
    __aicore__ inline T &operator()(uint64_t offset) { return *At(offset, "operator()"); }

    __aicore__ inline __gm__ T *GetPhyAddr() const { return addr_; }
    __aicore__ inline __gm__ T *GetPhyAddr(uint64_t offset) const { return addr_ + offset; }

    /* SetL2CacheHint says how the L2 cache should keep this tensor's
     * lines: on the device it changes only timing, here nothing. */
    template <CacheRwMode rwMode = CacheRwMode::RW>
    __aicore__ inline void SetL2CacheHint(CacheMode mode)
    {
        (void)mode;
    }
    __aicore__ inline uint64_t GetSize() const { return size_; }

    /* gocannFits is whether count elements from the start are in the
     * view; gocannCheck fails unless they are, what naming the calling
     * operation. */
    __aicore__ inline bool gocannFits(uint64_t count) const { return addr_ != nullptr && (!sized_ || count <= size_); }

    __aicore__ inline void gocannCheck(uint64_t count, const char *what) const
    {
        if (addr_ == nullptr) {
            gocann::Fail("%s: the GlobalTensor has no buffer (SetGlobalBuffer was not called)", what);
        }
        if (sized_ && count > size_) {
            gocann::Fail("%s: %llu elements past the end of the GlobalTensor's %llu", what, (unsigned long long)count,
                         (unsigned long long)size_);
        }
    }

private:
    __aicore__ inline T *At(uint64_t offset, const char *what) const
    {
        gocannCheck(offset + 1, what);
        return addr_ + offset;
    }

    T *addr_ = nullptr;
    uint64_t size_ = 0;
    bool sized_ = false;
};

/* LocalTensor is a view of elements of the block's unified buffer, handed
 * out by a TQue or a TBuf. It remembers the buffer it came from, so a
 * queue can tell its own tensors. */
template <typename T>
class LocalTensor {
public:
    using PrimType = T;

    __aicore__ inline LocalTensor() = default;

    /* A static tensor: tileSize elements at byte addr of the unified
     * buffer (or of L1), as LocalMemAllocator hands them out. */
    __aicore__ inline LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize)
    {
        uint64_t bytes = uint64_t(tileSize) * sizeof(T);
        gocannSet(reinterpret_cast<T *>(gocann::Place(pos, addr, bytes, "LocalTensor(pos, addr, tileSize)")),
                  tileSize, nullptr, -1, uint32_t(bytes));
    }

    __aicore__ inline LocalTensor operator[](uint32_t offset) const
    {
        if (offset > size_) {
            gocann::Fail("LocalTensor[%u]: past the end of its %u elements", offset, size_);
        }
        LocalTensor t = *this;
        t.addr_ = addr_ + offset;
        t.size_ = size_ - offset;
        return t;
    }

    __aicore__ inline T GetValue(uint32_t offset) const { return *At(offset, "GetValue"); }
    __aicore__ inline void SetValue(uint32_t offset, T value) { *At(offset, "SetValue") = value; }
    __aicore__ inline T &operator()(uint32_t offset) { return *At(offset, "operator()"); }

    __aicore__ inline T *GetPhyAddr() const { return addr_; }
    __aicore__ inline uint32_t GetSize() const { return size_; }
    __aicore__ inline uint32_t GetLength() const { return size_ * sizeof(T); }
    __aicore__ inline void SetSize(uint32_t size)
    {
        if (uint64_t(size) * sizeof(T) > capacity_) {
            gocann::Fail("LocalTensor::SetSize(%u): more than its buffer's %u bytes", size, capacity_);
        }
        size_ = size;
    }

    template <typename U>
    __aicore__ inline LocalTensor<U> ReinterpretCast() const
    {
        LocalTensor<U> t;
        t.gocannSet(reinterpret_cast<U *>(addr_), uint32_t(uint64_t(size_) * sizeof(T) / sizeof(U)), owner_, buf_,
                    capacity_);
        return t;
    }

    /* gocannCheck fails unless count elements from the start are in the
     * view. */
    __aicore__ inline void gocannCheck(uint64_t count, const char *what) const
    {
        if (addr_ == nullptr) {
            gocann::Fail("%s: the LocalTensor has no buffer (it was not allocated from a TQue or a TBuf)", what);
        }
        if (count > size_) {
            gocann::Fail("%s: %llu elements past the end of the LocalTensor's %u", what, (unsigned long long)count,
                         size_);
        }
    }

    /* What TQue and TBuf set and read. */
    __aicore__ inline void gocannSet(T *addr, uint32_t size, const void *owner, int32_t buf, uint32_t capacity)
    {
        addr_ = addr;
        size_ = size;
        owner_ = owner;
        buf_ = buf;
        capacity_ = capacity;
    }
    __aicore__ inline const void *gocannOwner() const { return owner_; }
    __aicore__ inline int32_t gocannBuf() const { return buf_; }
    __aicore__ inline void *gocannBase() const { return addr_; }

private:
    __aicore__ inline T *At(uint32_t offset, const char *what) const
    {
        gocannCheck(uint64_t(offset) + 1, what);
        return addr_ + offset;
    }

    T *addr_ = nullptr;
    uint32_t size_ = 0;
    const void *owner_ = nullptr;
    int32_t buf_ = -1;
    uint32_t capacity_ = 0;
};

} // namespace AscendC

#endif /* GOCANN_ASCENDC_TENSOR_H_ */
