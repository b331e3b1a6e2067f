/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * Part of kernel_operator.h: buffer pools (TBufPool), which split a part
 * of the unified buffer a TPipe gave them among queues, buffers and
 * smaller pools, or share another pool's memory for a later stage; the
 * custom pools of EXTERN_IMPL_BUFPOOL, which place each buffer of a queue
 * themselves; GetTPipePtr and PopStackBuffer. Addresses are byte offsets
 * into the block's unified buffer, as on the device. A buffer placed
 * outside its pool, a pool split past its end or into more buffers than
 * it has slots for, and a pool used after Reset fail the block. Include
 * kernel_operator.h, not this.
 */
#ifndef GOCANN_ASCENDC_BUFPOOL_H_
#define GOCANN_ASCENDC_BUFPOOL_H_

#include "gocann_mask.h"

namespace AscendC {

namespace gocann {

/* PoolSlot is what a pool records of one buffer it placed. */
struct PoolSlot {
    uint32_t addr = 0;
    uint32_t len = 0;
};

/* PoolCore is a pool's state: its bytes [start, start + len) of the unified
 * buffer, the next free byte cur, and the buffers it placed (at most N, and
 * 16 as on the device). len is 0 until InitBufPool and after Reset. */
template <uint32_t N>
struct PoolCore {
    static constexpr uint32_t kSlots = N == 0 ? 1 : N;
    static constexpr uint32_t kMax = N < 16 ? N : 16;

    uint32_t start = 0, len = 0, cur = 0;
    uint8_t bufs = 0;
    PoolSlot slots[kSlots];

    void Init(uint32_t s, uint32_t l)
    {
        start = cur = s;
        len = l;
        bufs = 0;
    }
    void Clear() { Init(0, 0); }

    void Ready(const char *what) const
    {
        if (len == 0) {
            Fail("%s: the pool has no memory (InitBufPool was not called for it, or it was Reset)", what);
        }
    }

    /* Share gives this pool other's start and length. */
    template <class Other>
    void Share(const Other &other, uint32_t l, const char *what)
    {
        other.Ready(what);
        if (l == 0 || l > other.len) {
            Fail("%s: %u bytes shared with a pool of %u (len must be in [1, the shared pool's])", what, l, other.len);
        }
        Init(other.start, other.len);
    }

    /* Take hands out bytes for nbufs buffers (or a smaller pool, 0). */
    uint8_t *Take(uint64_t bytes, uint32_t nbufs, const char *what)
    {
        Ready(what);
        if (bytes > uint64_t(start) + len - cur) {
            Fail("%s: %llu more bytes, but %u of the pool's %u are already taken", what, (unsigned long long)bytes,
                 cur - start, len);
        }
        if (bufs + nbufs > kMax) {
            Fail("%s: %u more buffers, but the pool holds %u and has %u already", what, nbufs, kMax, bufs);
        }
        uint8_t *p = UnifiedBuffer() + cur;
        cur += uint32_t(bytes);
        bufs = uint8_t(bufs + nbufs);
        return p;
    }

    TBufHandle Handle(uint32_t offset, const char *what)
    {
        if (offset >= N) {
            Fail("%s(%u): the pool has %u buffer slots", what, offset, N);
        }
        return reinterpret_cast<TBufHandle>(&slots[offset]);
    }

    /* Place records a buffer of bytes at addr in the slot handle names and
     * returns its memory: it must lie in the pool. */
    uint8_t *Place(TBufHandle handle, uint32_t addr, uint32_t bytes, const char *what)
    {
        Ready(what);
        PoolSlot *s = reinterpret_cast<PoolSlot *>(handle);
        if (s < slots || s >= slots + kSlots) {
            Fail("%s: the handle is not one of the pool's (GetBufHandle gives them)", what);
        }
        if (addr % kBlockBytes != 0 || addr < start || uint64_t(addr) + bytes > uint64_t(start) + len) {
            Fail("%s: %u bytes at %u are not in the pool's [%u, %u) on a 32-byte block", what, bytes, addr, start,
                 start + len);
        }
        s->addr = addr;
        s->len = bytes;
        return UnifiedBuffer() + addr;
    }
};

} // namespace gocann

/* TBufPool is a pool of bufIDSize buffer slots (at most 16) over bytes a
 * TPipe or a larger pool gave it. Reset ends it: its queues and buffers
 * keep their memory, but it hands out none until InitBufPool again. */
template <TPosition pos, uint32_t bufIDSize = 4>
class TBufPool {
public:
    static constexpr TPosition poolPos = pos;

    __aicore__ inline TBufPool() = default;

    template <class T>
    __aicore__ inline bool InitBuffer(T &que, uint8_t num, uint32_t len)
    {
        if (num == 0 || num > gocann::kMaxQueBuffers || len == 0) {
            gocann::Fail("TBufPool::InitBuffer(que, %u, %u): num must be in [1, %u] and len above 0", num, len,
                         gocann::kMaxQueBuffers);
        }
        uint32_t each = gocann::RoundBlock(len);
        que.gocannInit(gocannPool_.Take(uint64_t(each) * num, num, "TBufPool::InitBuffer(que)"), num, each);
        return true;
    }

    template <TPosition bufPos>
    __aicore__ inline bool InitBuffer(TBuf<bufPos> &buf, uint32_t len)
    {
        if (len == 0) {
            gocann::Fail("TBufPool::InitBuffer(buf, 0): len must be above 0");
        }
        uint32_t each = gocann::RoundBlock(len);
        buf.gocannInit(gocannPool_.Take(each, 1, "TBufPool::InitBuffer(buf)"), each);
        return true;
    }

    template <class T>
    __aicore__ inline bool InitBufPool(T &bufPool, uint32_t len)
    {
        if (len == 0) {
            gocann::Fail("TBufPool::InitBufPool(pool, 0): len must be above 0");
        }
        uint32_t each = gocann::RoundBlock(len);
        uint8_t *p = gocannPool_.Take(each, 0, "TBufPool::InitBufPool");
        bufPool.gocannPool_.Init(uint32_t(p - gocann::UnifiedBuffer()), each);
        return true;
    }

    template <class T, class U>
    __aicore__ inline bool InitBufPool(T &bufPool, uint32_t len, U &shareBuf)
    {
        bufPool.gocannPool_.Share(shareBuf.gocannPool_, gocann::RoundBlock(len), "TBufPool::InitBufPool");
        return true;
    }

    __aicore__ inline void Reset() { gocannPool_.Clear(); }

    gocann::PoolCore<bufIDSize> gocannPool_;
};

} // namespace AscendC

/* EXTERN_IMPL_BUFPOOL makes the class it is written in a custom pool: a
 * TPipe or TBufPool gives it memory with InitBufPool, and its own
 * InitBuffer places each buffer with the queue's InitStartBufHandle and
 * InitBufHandle, at GetCurAddr on, in the slots of GetBufHandle. */
#define EXTERN_IMPL_BUFPOOL(EXT_BUFPOOL, POSITION, BUFID_SIZE)                                             \
public:                                                                                                    \
    static constexpr ::AscendC::TPosition poolPos = POSITION;                                              \
    __aicore__ inline ~EXT_BUFPOOL() { Reset(); }                                                          \
    __aicore__ inline void Init() { gocannPool_.Clear(); }                                                 \
    __aicore__ inline void Reset() { gocannPool_.Clear(); }                                                \
    __aicore__ inline ::AscendC::TBufHandle GetBufHandle(uint8_t offset)                                   \
    {                                                                                                      \
        return gocannPool_.Handle(offset, "GetBufHandle");                                                 \
    }                                                                                                      \
    __aicore__ inline void SetCurAddr(uint32_t curAddr) { gocannPool_.cur = curAddr; }                     \
    __aicore__ inline uint32_t GetCurAddr() { return gocannPool_.cur; }                                    \
    __aicore__ inline void SetCurBufSize(uint8_t curBufSize) { gocannPool_.bufs = curBufSize; }            \
    __aicore__ inline uint8_t GetCurBufSize() { return gocannPool_.bufs; }                                 \
    ::AscendC::gocann::PoolCore<BUFID_SIZE> gocannPool_

/* GetTPipePtr is the block's TPipe: the one made last and not destroyed. */
__aicore__ inline AscendC::TPipe *GetTPipePtr() { return AscendC::gocann::CurrentPipe(); }

namespace AscendC {

/* PopStackBuffer views the unified buffer the TPipe has not handed out, up
 * to the 64 bytes at its end the device keeps for its own messages; false
 * when nothing is left. */
template <typename T, TPosition pos>
__aicore__ inline bool PopStackBuffer(LocalTensor<T> &popLocal)
{
    TPipe *pipe = GetTPipePtr();
    if (pipe == nullptr) {
        gocann::Fail("PopStackBuffer: there is no TPipe (make one first)");
    }
    constexpr uint32_t end = gocann::kUBSize - 64;
    uint32_t used = pipe->gocannUsed();
    if (used >= end) {
        return false;
    }
    popLocal.gocannSet(reinterpret_cast<T *>(gocann::UnifiedBuffer() + used), (end - used) / sizeof(T), pipe, -1,
                       end - used);
    return true;
}

} // namespace AscendC

#endif /* GOCANN_ASCENDC_BUFPOOL_H_ */
