/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * Part of kernel_operator.h: GroupBarrier, where a group of waiting blocks
 * waits for a group of arriving blocks, round after round, over a
 * workspace in global memory with the device's layout: for each of the
 * larger group's members a 512-byte line, whose first word counts the
 * arrivals and whose word at byte 64 counts the waits. Arrive adds one to
 * every line's arrival count, Wait one to every wait count; a waiter of
 * round r waits for r times the arriving blocks, an arriver of round r > 1
 * for the waits of round r - 1. Included by gocann_blocksync.h.
 */
#ifndef GOCANN_ASCENDC_GROUPBARRIER_H_
#define GOCANN_ASCENDC_GROUPBARRIER_H_

#include <cstdint>

namespace AscendC {

enum class PipeMode : uint8_t {
    SCALAR_MODE = 0,
    MTE3_MODE = 1,
    MAX,
};

template <PipeMode pipeMode>
class GroupBarrier {
public:
    /* The device's line per member and where its wait count is. */
    static constexpr uint32_t kLine = 512;
    static constexpr uint32_t kWaitAt = 64;
    static constexpr uint32_t kMaxBlocks = 50;

    __aicore__ inline GroupBarrier(GM_ADDR groupWorkspace, uint32_t arriveSizeIn, uint32_t waitSizeIn)
        : ws_(groupWorkspace), arriveSize_(arriveSizeIn), waitSize_(waitSizeIn)
    {
        if (pipeMode != PipeMode::MTE3_MODE) {
            gocann::Fail("GroupBarrier: pipe mode %d is not supported, expected PipeMode::MTE3_MODE", int(pipeMode));
        }
        int64_t num = GetBlockNum();
        if (arriveSizeIn == 0 || waitSizeIn == 0 || arriveSizeIn > num || waitSizeIn > num ||
            arriveSizeIn > kMaxBlocks || waitSizeIn > kMaxBlocks) {
            gocann::Fail("GroupBarrier: %u arriving and %u waiting blocks, expected 1..%lld each (at most %u)",
                         arriveSizeIn, waitSizeIn, (long long)(num < kMaxBlocks ? num : kMaxBlocks), kMaxBlocks);
        }
        if (groupWorkspace == nullptr || reinterpret_cast<uintptr_t>(groupWorkspace) % kLine != 0) {
            gocann::Fail("GroupBarrier: groupWorkspace %p is not 512-byte aligned", static_cast<void *>(groupWorkspace));
        }
    }

    /* Arrive says this block (arriveIndex in the arriving group) is done. */
    __aicore__ inline void Arrive(uint32_t arriveIndex)
    {
        if (arriveIndex >= arriveSize_) {
            gocann::Fail("GroupBarrier::Arrive: arriveIndex %u is out of range, expected 0..%u", arriveIndex,
                         arriveSize_ - 1);
        }
        if (counter_ > 1) {
            uint32_t want = (counter_ - 1) * waitSize_;
            for (uint32_t n = 0; Count(arriveIndex, kWaitAt) != want;) {
                gocann_gang_pause("GroupBarrier::Arrive", &n);
            }
        }
        AddAll(0);
        counter_++;
        hasArrive_ = true;
    }

    /* Wait waits until the arriving group has arrived in this round. */
    __aicore__ inline void Wait(uint32_t waitIndex)
    {
        if (waitIndex >= waitSize_) {
            gocann::Fail("GroupBarrier::Wait: waitIndex %u is out of range, expected 0..%u", waitIndex, waitSize_ - 1);
        }
        uint32_t round = hasArrive_ ? counter_ - 1 : counter_;
        for (uint32_t n = 0; Count(waitIndex, 0) < round * arriveSize_;) {
            gocann_gang_pause("GroupBarrier::Wait", &n);
        }
        AddAll(kWaitAt);
        if (!hasArrive_) {
            counter_++;
        }
        hasArrive_ = false;
    }

    /* GetWorkspaceLen is the bytes of global memory the barrier takes. */
    __aicore__ inline uint64_t GetWorkspaceLen() { return uint64_t(Members()) * kLine; }

private:
    GroupBarrier() = delete;

    uint32_t Members() const { return arriveSize_ > waitSize_ ? arriveSize_ : waitSize_; }
    uint32_t *Word(uint32_t line, uint32_t at) const
    {
        return reinterpret_cast<uint32_t *>(ws_ + uint64_t(line) * kLine + at);
    }
    uint32_t Count(uint32_t line, uint32_t at) const { return __atomic_load_n(Word(line, at), __ATOMIC_ACQUIRE); }
    void AddAll(uint32_t at) const
    {
        for (uint32_t i = 0; i < Members(); i++) {
            __atomic_add_fetch(Word(i, at), 1u, __ATOMIC_ACQ_REL);
        }
    }

    GM_ADDR ws_;
    uint32_t arriveSize_, waitSize_;
    uint32_t counter_ = 1;
    bool hasArrive_ = false;
};

} // namespace AscendC

#endif /* GOCANN_ASCENDC_GROUPBARRIER_H_ */
