/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * Part of kernel_operator.h: synchronization between the blocks of a
 * launch. SyncAll (with a workspace in global memory, or the hardware's
 * form over every block), IBSet/IBWait, InitDetermineComputeWorkspace,
 * WaitPreBlock/NotifyNextBlock and GroupBarrier keep the device's layout
 * of their global memory words, read and written here with atomics; a
 * waiting block polls them, backing off through the runtime
 * (gocann_gang_pause), which makes it give up (an AI core trap) once the
 * launch failed or the blocks that could release it have ended.
 *
 * Blocks that wait for one another must all run at once. The compiler
 * driver marks the kernels of a source that calls these (or that are
 * declared __schedmode__(1)) as gang kernels (gocann_gang.h), which the
 * runtime starts only with a core for every block, and refuses when wider
 * than the chip's cores of their kind. Include kernel_operator.h, not
 * this.
 */
#ifndef GOCANN_ASCENDC_BLOCKSYNC_H_
#define GOCANN_ASCENDC_BLOCKSYNC_H_

#include <cstdint>

#include "gocann_gang.h"
#include "gocann_mask.h"

extern "C" {
/* One look of a block's wait for words other blocks write (*n counts the
 * looks from 0); it traps the block when nothing can release it. */
void gocann_gang_pause(const char *who, uint32_t *n);
/* The barrier over every block of the launch (SyncAll without workspace). */
void gocann_gang_sync(const char *who);
}

namespace AscendC {

namespace gocann {

/* One 32-byte block of int32_t: the device's unit of a flag in GM. */
constexpr uint32_t kFlagWords = 8;

inline int32_t LoadGM(const int32_t *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
inline void StoreGM(int32_t *p, int32_t v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }

/* CheckWorkspaces fails unless the GM workspace holds gmWords words (when
 * its size is known) and the UB one ubWords. */
inline void CheckWorkspaces(const char *what, const GlobalTensor<int32_t> &gm, const LocalTensor<int32_t> &ub,
                            uint64_t gmWords, uint64_t ubWords)
{
    if (gm.GetPhyAddr() == nullptr) {
        Fail("%s: gmWorkspace has no buffer (SetGlobalBuffer was not called)", what);
    }
    if (gm.GetSize() != 0 && gm.GetSize() < gmWords) {
        Fail("%s: gmWorkspace has %llu int32_t, expected at least %llu (%llu bytes)", what,
             (unsigned long long)gm.GetSize(), (unsigned long long)gmWords, (unsigned long long)gmWords * 4);
    }
    if (ub.GetPhyAddr() == nullptr) {
        Fail("%s: ubWorkspace has no buffer (it was not allocated from a TQue or a TBuf)", what);
    }
    if (ub.GetSize() < ubWords) {
        Fail("%s: ubWorkspace has %u int32_t, expected at least %llu (%llu bytes)", what, ub.GetSize(),
             (unsigned long long)ubWords, (unsigned long long)ubWords * 4);
    }
}

/* FlagBlocks is the blocks IBSet and IBWait number flags by: the launch's,
 * twice as many for a mixed kernel (isAIVOnly false). */
template <bool isAIVOnly>
inline int64_t FlagBlocks()
{
    return isAIVOnly ? GetBlockNum() : 2 * GetBlockNum();
}

/* IBFlag checks IBSet's or IBWait's arguments and returns the flag. */
template <bool isAIVOnly>
inline int32_t *IBFlag(const char *what, const GlobalTensor<int32_t> &gm, const LocalTensor<int32_t> &ub,
                       int32_t blockIdx, int32_t eventID)
{
    int64_t blocks = FlagBlocks<isAIVOnly>();
    if (blockIdx < 0 || blockIdx >= blocks) {
        Fail("%s: blockIdx %d is out of range, expected 0..%lld", what, blockIdx, (long long)blocks - 1);
    }
    if (eventID < 0) {
        Fail("%s: eventID %d is negative", what, eventID);
    }
    uint64_t at = (uint64_t(blocks) * eventID + blockIdx) * kFlagWords;
    CheckWorkspaces(what, gm, ub, at + kFlagWords, kFlagWords);
    return gm.GetPhyAddr() + at;
}

/* Exchange waits until *flag is from, then makes it to; the UB workspace
 * ends as the device leaves it, the flag's block with its new value. */
inline void Exchange(const char *what, int32_t *flag, const LocalTensor<int32_t> &ub, int32_t from, int32_t to)
{
    for (uint32_t n = 0; LoadGM(flag) != from;) {
        gocann_gang_pause(what, &n);
    }
    int32_t *u = ub.GetPhyAddr();
    for (uint32_t i = 1; i < kFlagWords; i++) {
        u[i] = LoadGM(flag + i);
    }
    u[0] = to;
    StoreGM(flag, to);
}

} // namespace gocann

/* IBSet tells the block waiting in IBWait with the same blockIdx and
 * eventID that this one got there: once their flag is clear, it is set. */
template <bool isAIVOnly = true>
__aicore__ inline void IBSet(const GlobalTensor<int32_t> &gmWorkspace, const LocalTensor<int32_t> &ubWorkspace,
                             int32_t blockIdx, int32_t eventID)
{
    int32_t *flag = gocann::IBFlag<isAIVOnly>("IBSet", gmWorkspace, ubWorkspace, blockIdx, eventID);
    gocann::Exchange("IBSet", flag, ubWorkspace, 0, 1);
}

/* IBWait waits for the IBSet with the same blockIdx and eventID, and
 * clears their flag. */
template <bool isAIVOnly = true>
__aicore__ inline void IBWait(const GlobalTensor<int32_t> &gmWorkspace, const LocalTensor<int32_t> &ubWorkspace,
                              int32_t blockIdx, int32_t eventID)
{
    int32_t *flag = gocann::IBFlag<isAIVOnly>("IBWait", gmWorkspace, ubWorkspace, blockIdx, eventID);
    gocann::Exchange("IBWait", flag, ubWorkspace, 1, 0);
}

/* SyncAll with a workspace: each of the usedCores first blocks (0: every
 * block) counts its calls in its 32-byte flag of gmWorkspace, which must
 * start at 0, and waits until the flags add up to every block's count;
 * ubWorkspace ends holding the flags. Vector kernels only. */
template <bool isAIVOnly = true>
__aicore__ inline void SyncAll(const GlobalTensor<int32_t> &gmWorkspace, const LocalTensor<int32_t> &ubWorkspace,
                               const int32_t usedCores = 0)
{
    if (!isAIVOnly) {
        gocann::Fail("SyncAll: the workspace form synchronizes vector cores only (isAIVOnly = true)");
    }
    int64_t num = GetBlockNum(), idx = GetBlockIdx();
    if (usedCores < 0 || usedCores > num) {
        gocann::Fail("SyncAll: usedCores %d is out of range, expected 0..%lld", usedCores, (long long)num);
    }
    int64_t n = usedCores != 0 ? usedCores : num;
    uint64_t words = uint64_t(n > idx ? n : idx + 1) * gocann::kFlagWords;
    gocann::CheckWorkspaces("SyncAll", gmWorkspace, ubWorkspace, words, words);
    int32_t *gm = gmWorkspace.GetPhyAddr(), *ub = ubWorkspace.GetPhyAddr();
    int32_t *own = gm + idx * gocann::kFlagWords;
    int32_t count = gocann::LoadGM(own) + 1;
    ub[idx * gocann::kFlagWords] = count;
    gocann::StoreGM(own, count);
    for (uint32_t look = 0;; gocann_gang_pause("SyncAll", &look)) {
        int64_t sum = 0;
        for (int64_t i = 0; i < n; i++) {
            sum += gocann::LoadGM(gm + i * gocann::kFlagWords);
        }
        if (sum >= n * int64_t(count)) {
            break;
        }
    }
    for (uint64_t i = 0; i < uint64_t(n) * gocann::kFlagWords; i++) {
        ub[i] = gocann::LoadGM(gm + i);
    }
}

/* SyncAll without a workspace: the barrier over every block of the
 * launch, which must be a gang launch (gocann_gang.h). A mixed kernel's
 * (isAIVOnly false) blocks are whole AI cores here, so both forms are the
 * one barrier. */
template <bool isAIVOnly = true>
__aicore__ inline void SyncAll()
{
    gocann_gang_sync("SyncAll");
}

/* InitDetermineComputeWorkspace readies deterministic computation, where
 * block i waits for block i - 1 (WaitPreBlock) until it notifies
 * (NotifyNextBlock): block 0 clears the blocks' flags in gmWorkspace, and
 * every block starts its round count, kept in ubWorkspace after the
 * copies of the flags, at 1. */
__aicore__ inline void InitDetermineComputeWorkspace(GlobalTensor<int32_t> &gmWorkspace,
                                                     LocalTensor<int32_t> &ubWorkspace)
{
    uint64_t words = uint64_t(GetBlockNum()) * gocann::kFlagWords;
    gocann::CheckWorkspaces("InitDetermineComputeWorkspace", gmWorkspace, ubWorkspace, words,
                            words + gocann::kFlagWords);
    int32_t *ub = ubWorkspace.GetPhyAddr();
    if (GetBlockIdx() == 0) {
        for (uint64_t i = 0; i < words; i++) {
            ub[i] = 0;
            gocann::StoreGM(gmWorkspace.GetPhyAddr() + i, 0);
        }
    }
    ub[words] = 1;
}

namespace gocann {

/* Round is the determinate computation's round count, after checking the
 * workspaces. */
inline int32_t Round(const char *what, const GlobalTensor<int32_t> &gm, const LocalTensor<int32_t> &ub)
{
    uint64_t words = uint64_t(GetBlockNum()) * kFlagWords;
    CheckWorkspaces(what, gm, ub, words, words + kFlagWords);
    int32_t round = ub.GetPhyAddr()[words];
    if (round < 1) {
        Fail("%s: ubWorkspace holds round %d: InitDetermineComputeWorkspace was not called", what, round);
    }
    return round;
}

} // namespace gocann

/* WaitPreBlock waits until every block before this one has notified in
 * this round and none after it has. */
__aicore__ inline void WaitPreBlock(GlobalTensor<int32_t> &gmWorkspace, LocalTensor<int32_t> &ubWorkspace)
{
    int32_t round = gocann::Round("WaitPreBlock", gmWorkspace, ubWorkspace);
    int64_t num = GetBlockNum(), idx = GetBlockIdx();
    int32_t *gm = gmWorkspace.GetPhyAddr(), *ub = ubWorkspace.GetPhyAddr();
    for (uint32_t look = 0;; gocann_gang_pause("WaitPreBlock", &look)) {
        bool ready = true;
        for (int64_t i = 0; i < num * int64_t(gocann::kFlagWords); i++) {
            ub[i] = gocann::LoadGM(gm + i);
        }
        for (int64_t b = 0; b < num && ready; b++) {
            ready = ub[b * gocann::kFlagWords] == (b < idx ? round : 0);
        }
        if (ready) {
            return;
        }
    }
}

/* NotifyNextBlock marks this block's flag with the round; the last block
 * clears them all for the next round. */
__aicore__ inline void NotifyNextBlock(GlobalTensor<int32_t> &gmWorkspace, LocalTensor<int32_t> &ubWorkspace)
{
    int32_t round = gocann::Round("NotifyNextBlock", gmWorkspace, ubWorkspace);
    int64_t num = GetBlockNum(), idx = GetBlockIdx();
    int32_t *gm = gmWorkspace.GetPhyAddr(), *ub = ubWorkspace.GetPhyAddr();
    int64_t from = idx + 1 == num ? 0 : idx * gocann::kFlagWords;
    int64_t to = idx + 1 == num ? num * gocann::kFlagWords : from + gocann::kFlagWords;
    int32_t value = idx + 1 == num ? 0 : round;
    for (int64_t i = from; i < to; i++) {
        ub[i] = value;
    }
    for (int64_t i = from; i < to; i++) {
        gocann::StoreGM(gm + i, value);
    }
    ub[num * gocann::kFlagWords] = round + 1;
}

/* InitOutput (deprecated for Fill) sets size elements of global memory to
 * value. */
template <typename T>
__aicore__ inline void InitOutput(GlobalTensor<T> gmWorkspaceAddr, uint32_t size, T value = 0)
{
    gmWorkspaceAddr.gocannCheck(size, "InitOutput");
    T *p = gmWorkspaceAddr.GetPhyAddr();
    for (uint32_t i = 0; i < size; i++) {
        p[i] = value;
    }
}

} // namespace AscendC

#include "gocann_groupbarrier.h"

#endif /* GOCANN_ASCENDC_BLOCKSYNC_H_ */
