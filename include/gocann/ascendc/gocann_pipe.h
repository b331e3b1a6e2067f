/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * Part of kernel_operator.h: the unified buffer of a block (TPipe), the
 * queues that hand its tensors between the copy and compute stages (TQue)
 * and plain working buffers (TBuf). Include kernel_operator.h, not this.
 */
#ifndef GOCANN_ASCENDC_PIPE_H_
#define GOCANN_ASCENDC_PIPE_H_

#include "gocann_atomic.h"
#include "gocann_event.h"
#include "gocann_tensor.h"

#ifndef GOCANN_ASCENDC_UB_SIZE
/* Bytes of unified buffer per block: an Atlas A2 vector core's. */
#define GOCANN_ASCENDC_UB_SIZE (192 * 1024)
#endif

namespace AscendC {

/* TBufHandle names a buffer slot of a buffer pool (gocann_bufpool.h). */
using TBufHandle = uint8_t *;

class TPipe;
/* InitSocState (gocann_soc.h) needs every part with core state; a
 * template, so that a TPipe may call it before its definition. */
template <int = 0>
__aicore__ void InitSocState();

namespace gocann {

constexpr uint32_t kUBSize = GOCANN_ASCENDC_UB_SIZE;
constexpr uint32_t kBlockBytes = 32;   // buffers and copies come in 32-byte blocks
constexpr uint32_t kMaxQueBuffers = 64; // buffers one TQue keeps

/* UnifiedBuffer is the calling thread's unified buffer: a block runs on
 * one thread from start to end, and a thread runs one block at a time. */
inline uint8_t *UnifiedBuffer()
{
    alignas(64) static thread_local uint8_t ub[kUBSize];
    return ub;
}

/* RoundBlock is len rounded up to whole 32-byte blocks. */
inline uint32_t RoundBlock(uint32_t len) { return (len + kBlockBytes - 1) / kBlockBytes * kBlockBytes; }

/* CurrentPipe is the block's live TPipe, for GetTPipePtr. */
inline TPipe *&CurrentPipe()
{
    static thread_local TPipe *pipe = nullptr;
    return pipe;
}

} // namespace gocann

template <TPosition pos>
class TBuf;

/* TPipe hands out the unified buffer to the queues, buffers and buffer
 * pools of a kernel. InitBuffer rounds each buffer up to 32 bytes and
 * fails the block once the buffers outgrow the unified buffer. Making one
 * resets the core's state (InitSocState), as on the device. */
class TPipe {
public:
    __aicore__ inline TPipe()
    {
        InitSocState();
        gocann::CurrentPipe() = this;
    }
    __aicore__ inline ~TPipe() { Destroy(); }

    template <class Que>
    __aicore__ inline bool InitBuffer(Que &que, uint8_t num, uint32_t len)
    {
        if (num == 0 || num > gocann::kMaxQueBuffers || len == 0) {
            gocann::Fail("TPipe::InitBuffer(que, %u, %u): num must be in [1, %u] and len above 0", num, len,
                         gocann::kMaxQueBuffers);
        }
        uint32_t each = gocann::RoundBlock(len);
        que.gocannInit(Take(uint64_t(each) * num, "TPipe::InitBuffer(que)"), num, each);
        return true;
    }

    template <TPosition pos>
    __aicore__ inline bool InitBuffer(TBuf<pos> &buf, uint32_t len)
    {
        if (len == 0) {
            gocann::Fail("TPipe::InitBuffer(buf, 0): len must be above 0");
        }
        uint32_t each = gocann::RoundBlock(len);
        buf.gocannInit(Take(each, "TPipe::InitBuffer(buf)"), each);
        return true;
    }

    /* InitBufPool takes len bytes for a buffer pool (gocann_bufpool.h), or
     * gives it the start and length of shareBuf. */
    template <class T>
    __aicore__ inline bool InitBufPool(T &bufPool, uint32_t len)
    {
        if (len == 0) {
            gocann::Fail("TPipe::InitBufPool(pool, 0): len must be above 0");
        }
        uint8_t *p = Take(gocann::RoundBlock(len), "TPipe::InitBufPool");
        bufPool.gocannPool_.Init(uint32_t(p - gocann::UnifiedBuffer()), gocann::RoundBlock(len));
        return true;
    }
    template <class T, class U>
    __aicore__ inline bool InitBufPool(T &bufPool, uint32_t len, U &shareBuf)
    {
        bufPool.gocannPool_.Share(shareBuf.gocannPool_, gocann::RoundBlock(len), "TPipe::InitBufPool");
        return true;
    }

    /* Reset gives the whole unified buffer back and resets the core's
     * state; the queues and buffers set up before must not be used after.
     * Destroy gives it back for good: another TPipe may follow. */
    __aicore__ inline void Reset()
    {
        used_ = 0;
        InitSocState();
    }
    __aicore__ inline void Destroy()
    {
        used_ = 0;
        if (gocann::CurrentPipe() == this) {
            gocann::CurrentPipe() = nullptr;
        }
    }

    /* The bytes the queues and buffers took (PopStackBuffer). */
    __aicore__ inline uint32_t gocannUsed() const { return used_; }

    /* AllocEventID takes one of evt's eight ids until ReleaseEventID gives
     * it back; FetchEventID names a free one without taking it. Running
     * out is an error the device would hang on. */
    template <HardEvent evt>
    __aicore__ inline TEventID AllocEventID()
    {
        TEventID id = FetchEventID(evt);
        ids_[uint32_t(evt)] |= uint8_t(1u << id);
        return id;
    }
    template <HardEvent evt>
    __aicore__ inline void ReleaseEventID(TEventID id)
    {
        if (id < 0 || id > 7 || !(ids_[uint32_t(evt)] >> id & 1)) {
            gocann::Fail("TPipe::ReleaseEventID: event id %d of hardware event %u was not allocated", int(id),
                         unsigned(evt));
        }
        ids_[uint32_t(evt)] &= uint8_t(~(1u << id));
    }
    template <HardEvent evt>
    __aicore__ inline TEventID FetchEventID()
    {
        return FetchEventID(evt);
    }
    __aicore__ inline TEventID FetchEventID(HardEvent evt)
    {
        if (uint32_t(evt) >= uint32_t(HardEvent::MAX)) {
            gocann::Fail("TPipe::FetchEventID: hardware event %u is not one", unsigned(evt));
        }
        for (int id = 0; id < 8; id++) {
            if (!(ids_[uint32_t(evt)] >> id & 1)) {
                return TEventID(id);
            }
        }
        gocann::Fail("TPipe: all 8 event ids of hardware event %u are allocated (ReleaseEventID gives one back)",
                     unsigned(evt));
    }

private:
    uint8_t *Take(uint64_t bytes, const char *what)
    {
        if (bytes > gocann::kUBSize - used_) {
            gocann::Fail("%s: %llu more bytes, but %u of the %u-byte unified buffer are already taken", what,
                         (unsigned long long)bytes, used_, gocann::kUBSize);
        }
        uint8_t *p = gocann::UnifiedBuffer() + used_;
        used_ += uint32_t(bytes);
        return p;
    }

    uint32_t used_ = 0;
    uint8_t ids_[uint32_t(HardEvent::MAX)] = {}; // allocated event ids, a bit each
};

/* TQue keeps num buffers of the unified buffer: AllocTensor takes a free
 * one, EnQue puts it in the queue (at most depth at a time), DeQue takes
 * the oldest out, FreeTensor makes it free again. */
template <TPosition pos, int32_t depth, auto mask = 0>
class TQue {
public:
    __aicore__ inline TQue() = default;

    template <typename T>
    __aicore__ inline LocalTensor<T> AllocTensor()
    {
        LocalTensor<T> t;
        AllocTensor(t);
        return t;
    }

    template <typename T>
    __aicore__ inline void AllocTensor(LocalTensor<T> &tensor)
    {
        Ready("TQue::AllocTensor");
        for (uint32_t i = 0; i < num_; i++) {
            if (state_[i] == kFree) {
                state_[i] = kAllocated;
                tensor.gocannSet(reinterpret_cast<T *>(Buffer(i)), len_ / sizeof(T), this, int32_t(i), len_);
                return;
            }
        }
        gocann::Fail("TQue::AllocTensor: all %u buffers of the queue are in use (FreeTensor returns one)", num_);
    }

    template <typename T>
    __aicore__ inline bool EnQue(const LocalTensor<T> &tensor)
    {
        uint32_t i = Own(tensor, "TQue::EnQue");
        if (state_[i] != kAllocated) {
            gocann::Fail("TQue::EnQue: the tensor is %s, not allocated", Name(state_[i]));
        }
        if (depth > 0 && count_ >= uint32_t(depth)) {
            return false; // the queue is full
        }
        state_[i] = kQueued;
        fifo_[(head_ + count_) % num_] = uint8_t(i);
        count_++;
        return true;
    }

    template <typename T>
    __aicore__ inline LocalTensor<T> DeQue()
    {
        LocalTensor<T> t;
        DeQue(t);
        return t;
    }

    template <typename T>
    __aicore__ inline void DeQue(LocalTensor<T> &tensor)
    {
        Ready("TQue::DeQue");
        if (count_ == 0) {
            gocann::Fail("TQue::DeQue: the queue is empty (EnQue a tensor first)");
        }
        uint32_t i = fifo_[head_];
        head_ = (head_ + 1) % num_;
        count_--;
        state_[i] = kAllocated;
        tensor.gocannSet(reinterpret_cast<T *>(Buffer(i)), len_ / sizeof(T), this, int32_t(i), len_);
    }

    template <typename T>
    __aicore__ inline void FreeTensor(LocalTensor<T> &tensor)
    {
        uint32_t i = Own(tensor, "TQue::FreeTensor");
        if (state_[i] != kAllocated) {
            gocann::Fail("TQue::FreeTensor: the tensor is %s, not allocated", Name(state_[i]));
        }
        state_[i] = kFree;
    }

    __aicore__ inline bool VacantInQue() const { return depth <= 0 || count_ < uint32_t(depth); }
    __aicore__ inline bool HasTensorInQue() const { return count_ > 0; }
    __aicore__ inline int32_t GetTensorCountInQue() const { return int32_t(count_); }
    __aicore__ inline bool HasIdleBuffer() const
    {
        for (uint32_t i = 0; i < num_; i++) {
            if (state_[i] == kFree) {
                return true;
            }
        }
        return false;
    }
    __aicore__ inline void FreeAllEvent() {}

    /* What a custom buffer pool calls (gocann_bufpool.h): InitStartBufHandle
     * says how many buffers of len bytes, InitBufHandle where each is. */
    __aicore__ inline void InitStartBufHandle(TBufHandle startBufhandle, uint8_t num, uint32_t len)
    {
        (void)startBufhandle;
        if (num == 0 || num > gocann::kMaxQueBuffers || len == 0) {
            gocann::Fail("TQue::InitStartBufHandle(%u, %u): num must be in [1, %u] and len above 0", num, len,
                         gocann::kMaxQueBuffers);
        }
        gocannInit(nullptr, num, gocann::RoundBlock(len));
    }

    template <class P>
    __aicore__ inline void InitBufHandle(P *bufPool, uint32_t index, TBufHandle bufhandle, uint32_t curPoolAddr,
                                         uint32_t len)
    {
        uint32_t each = gocann::RoundBlock(len);
        if (num_ == 0 || index >= num_ || each != len_) {
            gocann::Fail("TQue::InitBufHandle(index %u, len %u): the queue has %u buffers of %u bytes "
                         "(InitStartBufHandle says how many)",
                         index, len, num_, len_);
        }
        addr_[index] = bufPool->gocannPool_.Place(bufhandle, curPoolAddr, each, "TQue::InitBufHandle");
    }

    /* What TPipe::InitBuffer calls: num buffers of len bytes from base, or
     * each placed by InitBufHandle when base is null. */
    __aicore__ inline void gocannInit(uint8_t *base, uint32_t num, uint32_t len)
    {
        num_ = num;
        len_ = len;
        head_ = count_ = 0;
        for (uint32_t i = 0; i < num; i++) {
            state_[i] = kFree;
            addr_[i] = base == nullptr ? nullptr : base + uint64_t(i) * len;
        }
    }

private:
    enum : uint8_t { kFree, kAllocated, kQueued };

    static const char *Name(uint8_t s) { return s == kFree ? "free" : s == kQueued ? "in the queue" : "allocated"; }

    uint8_t *Buffer(uint32_t i) const { return addr_[i]; }

    void Ready(const char *what) const
    {
        if (num_ == 0) {
            gocann::Fail("%s: the queue has no buffers (TPipe::InitBuffer was not called for it)", what);
        }
        for (uint32_t i = 0; i < num_; i++) {
            if (addr_[i] == nullptr) {
                gocann::Fail("%s: buffer %u of the queue has no memory (InitBufHandle was not called for it)", what,
                             i);
            }
        }
    }

    template <typename T>
    uint32_t Own(const LocalTensor<T> &tensor, const char *what) const
    {
        Ready(what);
        int32_t i = tensor.gocannBuf();
        if (tensor.gocannOwner() != this || i < 0 || uint32_t(i) >= num_ || tensor.gocannBase() != Buffer(i)) {
            gocann::Fail("%s: the tensor was not allocated from this queue (or is a view into one)", what);
        }
        return uint32_t(i);
    }

    uint8_t *addr_[gocann::kMaxQueBuffers] = {};
    uint32_t num_ = 0, len_ = 0, head_ = 0, count_ = 0;
    uint8_t state_[gocann::kMaxQueBuffers] = {};
    uint8_t fifo_[gocann::kMaxQueBuffers] = {};
};

/* TBuf is one working buffer of the unified buffer, outside any queue. */
template <TPosition pos = TPosition::VECCALC>
class TBuf {
public:
    __aicore__ inline TBuf() = default;

    /* Get views the whole buffer, Get(len) its first len elements. */
    template <typename T>
    __aicore__ inline LocalTensor<T> Get()
    {
        return Get<T>(len_ / sizeof(T));
    }

    template <typename T>
    __aicore__ inline LocalTensor<T> Get(uint32_t len)
    {
        return GetWithOffset<T>(len, 0);
    }

    /* GetWithOffset views size elements from bufOffset bytes in. */
    template <typename T>
    __aicore__ inline LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset)
    {
        if (base_ == nullptr) {
            gocann::Fail("TBuf::Get: the buffer has no memory (TPipe::InitBuffer was not called for it)");
        }
        if (uint64_t(bufOffset) + uint64_t(size) * sizeof(T) > len_) {
            gocann::Fail("TBuf::Get: %u elements of %zu bytes from byte %u are more than the buffer's %u bytes", size,
                         sizeof(T), bufOffset, len_);
        }
        LocalTensor<T> t;
        t.gocannSet(reinterpret_cast<T *>(base_ + bufOffset), size, this, -1, len_ - bufOffset);
        return t;
    }

    __aicore__ inline uint32_t GetBufLen() const { return len_; }

    /* What a custom buffer pool calls (gocann_bufpool.h); a TBuf is one
     * buffer. */
    __aicore__ inline void InitStartBufHandle(TBufHandle startBufhandle, uint8_t num, uint32_t len)
    {
        (void)startBufhandle;
        if (num != 1 || len == 0) {
            gocann::Fail("TBuf::InitStartBufHandle(%u, %u): a TBuf is one buffer (num 1) of len above 0", num, len);
        }
        gocannInit(nullptr, gocann::RoundBlock(len));
    }

    template <class P>
    __aicore__ inline void InitBufHandle(P *bufPool, uint32_t index, TBufHandle bufhandle, uint32_t curPoolAddr,
                                         uint32_t len)
    {
        uint32_t each = gocann::RoundBlock(len);
        if (index != 0 || len == 0) {
            gocann::Fail("TBuf::InitBufHandle(index %u, len %u): a TBuf is buffer 0 of len above 0", index, len);
        }
        gocannInit(bufPool->gocannPool_.Place(bufhandle, curPoolAddr, each, "TBuf::InitBufHandle"), each);
    }

    /* What TPipe::InitBuffer calls. */
    __aicore__ inline void gocannInit(uint8_t *base, uint32_t len)
    {
        base_ = base;
        len_ = len;
    }

private:
    uint8_t *base_ = nullptr;
    uint32_t len_ = 0;
};

} // namespace AscendC

#endif /* GOCANN_ASCENDC_PIPE_H_ */
