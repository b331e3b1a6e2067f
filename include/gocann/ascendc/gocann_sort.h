/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * Part of kernel_operator.h: sorting (score, index) pairs in descending
 * order of score. On Atlas A2 a pair takes 8 bytes: the score in the low
 * bytes (a float in 4, or a half in 2 and 2 reserved bytes, which Sort32
 * writes as zero), the uint32_t index in the high 4. Sort32 sorts each
 * 32 pairs; MrgSort merges up to 4 sorted queues; Sort, Concat and Extract
 * wrap them. On equal scores the earlier pair, or the pair of the earlier
 * queue, comes first. Include kernel_operator.h, not this.
 */
#ifndef GOCANN_ASCENDC_SORT_H_
#define GOCANN_ASCENDC_SORT_H_

#include <cstring>
#include <type_traits>

#include "gocann_gather.h"

namespace AscendC {

constexpr uint8_t MRG_SORT_ELEMENT_LEN = 4;

/* How MrgSort merges: the queues' lengths in pairs, whether it stops when
 * a queue runs out, which queues take part (3, 7 or 15: the first 2, 3
 * or 4) and the repeats. */
struct MrgSort4Info {
    __aicore__ MrgSort4Info() {}
    __aicore__ MrgSort4Info(const uint16_t elementLengthsIn[MRG_SORT_ELEMENT_LEN], const bool ifExhaustedSuspensionIn,
                            const uint16_t validBitIn, const uint16_t repeatTimesIn)
        : ifExhaustedSuspension(ifExhaustedSuspensionIn), validBit(validBitIn), repeatTimes(uint8_t(repeatTimesIn))
    {
        for (int32_t i = 0; i < MRG_SORT_ELEMENT_LEN; ++i) {
            elementLengths[i] = elementLengthsIn[i];
        }
    }
    uint16_t elementLengths[MRG_SORT_ELEMENT_LEN] = {0};
    bool ifExhaustedSuspension = false;
    uint16_t validBit = 0;
    uint8_t repeatTimes = 1;
};

/* The queues MrgSort merges. */
template <typename T>
struct MrgSortSrcList {
    __aicore__ MrgSortSrcList() {}
    __aicore__ MrgSortSrcList(const LocalTensor<T> &src1In, const LocalTensor<T> &src2In,
                              const LocalTensor<T> &src3In, const LocalTensor<T> &src4In)
        : src1(src1In), src2(src2In), src3(src3In), src4(src4In)
    {
    }
    LocalTensor<T> src1;
    LocalTensor<T> src2;
    LocalTensor<T> src3;
    LocalTensor<T> src4;
};

namespace gocann {

constexpr uint32_t kPairBytes = 8;
constexpr uint32_t kSortRun = 32; // pairs Sort32 sorts in one repeat

template <typename T>
inline void SortCheck()
{
    static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value,
                  "Sort32, MrgSort, Sort, Extract: the scores are half or float");
}

/* Score is the score of the pair at p. */
template <typename T>
inline float Score(const uint8_t *p)
{
    T s;
    std::memcpy(&s, p, sizeof s);
    return float(s);
}

/* MrgState is what the last MrgSort left in the register GetMrgSortResult
 * reads: the pairs it took from each queue. */
inline uint16_t (&MrgDone())[MRG_SORT_ELEMENT_LEN]
{
    static thread_local uint16_t done[MRG_SORT_ELEMENT_LEN];
    return done;
}

/* Merge merges the queues q[i] of n[i] pairs whose bit of valid is set
 * into out, taking the highest score, the earliest queue on a tie; with
 * suspend it stops once a queue is empty. It returns the pairs written and
 * sets taken[i]. */
template <typename T>
inline uint64_t Merge(uint8_t *out, const uint8_t *const q[4], const uint32_t n[4], uint32_t valid, bool suspend,
                      uint32_t taken[4])
{
    uint64_t k = 0;
    for (int i = 0; i < 4; i++) {
        taken[i] = 0;
    }
    for (;;) {
        int best = -1;
        for (int i = 0; i < 4; i++) {
            if (!(valid >> i & 1)) {
                continue;
            }
            if (taken[i] == n[i]) {
                if (suspend) {
                    return k;
                }
                continue;
            }
            if (best < 0 || Score<T>(q[i] + taken[i] * kPairBytes) > Score<T>(q[best] + taken[best] * kPairBytes)) {
                best = i;
            }
        }
        if (best < 0) {
            return k;
        }
        std::memcpy(out + k * kPairBytes, q[best] + taken[best] * kPairBytes, kPairBytes);
        taken[best]++;
        k++;
    }
}

/* Sort32Run sorts 32 scores with their indices into pairs at out: stable,
 * so an earlier score comes first on a tie. */
template <typename T>
inline void Sort32Run(uint8_t *out, const T *score, const uint32_t *index)
{
    uint32_t order[kSortRun];
    for (uint32_t i = 0; i < kSortRun; i++) {
        uint32_t j = i;
        for (; j > 0 && float(score[i]) > float(score[order[j - 1]]); j--) {
            order[j] = order[j - 1];
        }
        order[j] = i;
    }
    for (uint32_t i = 0; i < kSortRun; i++) {
        uint8_t pair[kPairBytes] = {};
        std::memcpy(pair, &score[order[i]], sizeof(T));
        std::memcpy(pair + 4, &index[order[i]], 4);
        std::memcpy(out + i * kPairBytes, pair, kPairBytes);
    }
}

} // namespace gocann

/* Sort32 sorts each 32 scores of src0 with the indices of src1 into pairs
 * in dst: repeat r reads 32 elements from src0[32 r] and src1[32 r] and
 * writes 256 bytes from byte 256 r of dst. */
template <typename T>
__aicore__ inline void Sort32(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<uint32_t> &src1,
                              const int32_t repeatTime)
{
    gocann::SortCheck<T>();
    const char *what = "Sort32";
    if (repeatTime < 0 || repeatTime > int32_t(MAX_REPEAT_TIMES)) {
        gocann::Fail("%s: repeatTime %d is out of [0, %u]", what, repeatTime, MAX_REPEAT_TIMES);
    }
    uint64_t runs = uint64_t(repeatTime), n = runs * gocann::kSortRun;
    gocann::InUB(dst.GetPhyAddr(), n * gocann::kPairBytes, ONE_BLK_SIZE, what, "dst");
    gocann::InUB(src0.GetPhyAddr(), n * sizeof(T), ONE_BLK_SIZE, what, "src0");
    gocann::InUB(src1.GetPhyAddr(), n * sizeof(uint32_t), ONE_BLK_SIZE, what, "src1");
    uint8_t *out = reinterpret_cast<uint8_t *>(dst.GetPhyAddr());
    for (uint64_t r = 0; r < runs; r++) {
        T score[gocann::kSortRun];
        uint32_t index[gocann::kSortRun];
        std::memcpy(score, src0.GetPhyAddr() + r * gocann::kSortRun, sizeof score); // read the repeat, then write
        std::memcpy(index, src1.GetPhyAddr() + r * gocann::kSortRun, sizeof index);
        gocann::Sort32Run(out + r * gocann::kSortRun * gocann::kPairBytes, score, index);
    }
}

/* MrgSort merges the sorted queues of src into dst. Its repeats, each
 * past the 4 queues' pairs in src and dst, need 4 queues of one length
 * stored one after the other and no suspension. */
template <typename T>
__aicore__ inline void MrgSort(const LocalTensor<T> &dst, const MrgSortSrcList<T> &src, const MrgSort4Info &params)
{
    gocann::SortCheck<T>();
    const char *what = "MrgSort";
    uint32_t valid = params.validBit;
    if (valid != 3 && valid != 7 && valid != 15) {
        gocann::Fail("%s: validBit %u is not 3, 7 or 15 (the first 2, 3 or 4 queues)", what, valid);
    }
    const LocalTensor<T> *list[4] = {&src.src1, &src.src2, &src.src3, &src.src4};
    const uint8_t *q[4] = {};
    uint32_t n[4] = {};
    uint64_t total = 0;
    for (int i = 0; i < 4; i++) {
        if (params.elementLengths[i] > 4095) {
            gocann::Fail("%s: elementLengths[%d] = %u is more than 4095", what, i, params.elementLengths[i]);
        }
        if (valid >> i & 1) {
            q[i] = reinterpret_cast<const uint8_t *>(list[i]->GetPhyAddr());
            n[i] = params.elementLengths[i];
            total += n[i];
        }
    }
    uint32_t repeats = params.repeatTimes;
    if (repeats > 1) {
        bool same = valid == 15 && !params.ifExhaustedSuspension;
        for (int i = 1; i < 4 && same; i++) {
            same = n[i] == n[0] && q[i] == q[i - 1] + uint64_t(n[0]) * gocann::kPairBytes;
        }
        if (!same) {
            gocann::Fail("%s: %u repeats need 4 queues (validBit 15) of one length, one after the other, and "
                         "ifExhaustedSuspension false",
                         what, repeats);
        }
    }
    if (repeats == 0) {
        return;
    }
    uint64_t step = total * gocann::kPairBytes, span = uint64_t(repeats) * step;
    uint8_t *out = reinterpret_cast<uint8_t *>(dst.GetPhyAddr());
    gocann::InUB(out, span, ONE_BLK_SIZE, what, "dst");
    static const char *names[4] = {"src1", "src2", "src3", "src4"};
    for (int i = 0; i < 4; i++) {
        if (valid >> i & 1) {
            uint64_t reach = uint64_t(repeats - 1) * step + uint64_t(n[i]) * gocann::kPairBytes;
            gocann::InUB(q[i], reach, gocann::kPairBytes, what, names[i]);
            if (gocann::Overlaps(out, span, q[i], reach)) {
                gocann::Fail("%s: dst overlaps %s, which the device does not support", what, names[i]);
            }
        }
    }
    uint32_t taken[4];
    for (uint32_t r = 0; r < repeats; r++) {
        const uint8_t *rq[4];
        for (int i = 0; i < 4; i++) {
            rq[i] = q[i] == nullptr ? nullptr : q[i] + r * step;
        }
        gocann::Merge<T>(out + r * step, rq, n, valid, params.ifExhaustedSuspension, taken);
    }
    for (int i = 0; i < 4; i++) {
        gocann::MrgDone()[i] = uint16_t(taken[i]);
    }
}

/* GetMrgSortResult gives how many pairs of each queue the last MrgSort
 * merged: all of them, or up to where it stopped with
 * ifExhaustedSuspension. */
__aicore__ inline void GetMrgSortResult(uint16_t &mrgSortList1, uint16_t &mrgSortList2, uint16_t &mrgSortList3,
                                        uint16_t &mrgSortList4)
{
    mrgSortList1 = gocann::MrgDone()[0];
    mrgSortList2 = gocann::MrgDone()[1];
    mrgSortList3 = gocann::MrgDone()[2];
    mrgSortList4 = gocann::MrgDone()[3];
}

/* MrgSort with the queues' lengths apart; sortedNum gets the pairs merged
 * from each queue when isExhaustedSuspension. */
template <typename T, bool isExhaustedSuspension = false>
__aicore__ inline void MrgSort(const LocalTensor<T> &dst, const MrgSortSrcList<T> &sortList,
                               const uint16_t elementCountList[4], uint32_t sortedNum[4], uint16_t validBit,
                               const int32_t repeatTime)
{
    if (repeatTime < 0 || repeatTime > int32_t(MAX_REPEAT_TIMES)) {
        gocann::Fail("MrgSort: repeatTime %d is out of [0, %u]", repeatTime, MAX_REPEAT_TIMES);
    }
    MrgSort(dst, sortList, MrgSort4Info(elementCountList, isExhaustedSuspension, validBit, uint16_t(repeatTime)));
    if (isExhaustedSuspension) {
        for (int i = 0; i < 4; i++) {
            sortedNum[i] = gocann::MrgDone()[i];
        }
    }
}

/* GetSortOffset and GetSortLen: where pair elemOffset starts, and how long
 * elemCount pairs are, in elements of T (the documentation says bytes; the
 * device's library counts elements, 8 bytes a pair). */
template <typename T>
__aicore__ inline uint32_t GetSortOffset(const uint32_t elemOffset)
{
    gocann::SortCheck<T>();
    return elemOffset * (gocann::kPairBytes / sizeof(T));
}

template <typename T>
__aicore__ inline uint32_t GetSortLen(const uint32_t elemCount)
{
    gocann::SortCheck<T>();
    return elemCount * (gocann::kPairBytes / sizeof(T));
}

/* Concat makes the scores ready for Sort: on Atlas A2 concat is src. */
template <typename T>
__aicore__ inline void Concat(LocalTensor<T> &concat, const LocalTensor<T> &src, const LocalTensor<T> &tmp,
                              const int32_t repeatTime)
{
    gocann::SortCheck<T>();
    (void)tmp;
    if (repeatTime < 0 || repeatTime > int32_t(MAX_REPEAT_TIMES)) {
        gocann::Fail("Concat: repeatTime %d is out of [0, %u]", repeatTime, MAX_REPEAT_TIMES);
    }
    concat = src;
}

/* Sort sorts repeatTime runs of 32 scores with their indices into pairs
 * (Sort32); isFullSort then merges the runs, 4 at a time, into one (with
 * tmp, which needs room for the pairs, left holding them). */
template <typename T, bool isFullSort>
__aicore__ inline void Sort(const LocalTensor<T> &dst, const LocalTensor<T> &concat, const LocalTensor<uint32_t> &index,
                            LocalTensor<T> &tmp, const int32_t repeatTime)
{
    Sort32(dst, concat, index, repeatTime);
    if (!isFullSort || repeatTime == 0) {
        return;
    }
    uint64_t pairs = uint64_t(repeatTime) * gocann::kSortRun, bytes = pairs * gocann::kPairBytes;
    tmp.gocannCheck(bytes / sizeof(T), "Sort");
    gocann::InUB(tmp.GetPhyAddr(), bytes, ONE_BLK_SIZE, "Sort", "tmp");
    if (gocann::Overlaps(tmp.GetPhyAddr(), bytes, dst.GetPhyAddr(), bytes)) {
        gocann::Fail("Sort: tmp overlaps dst");
    }
    uint8_t *out = reinterpret_cast<uint8_t *>(dst.GetPhyAddr()), *t = reinterpret_cast<uint8_t *>(tmp.GetPhyAddr());
    for (uint64_t run = gocann::kSortRun; run < pairs; run *= 4) { // merge each 4 runs, the last group maybe fewer
        std::memcpy(t, out, bytes);
        for (uint64_t at = 0; at < pairs; at += 4 * run) {
            const uint8_t *q[4] = {};
            uint32_t n[4] = {}, valid = 0, taken[4];
            for (int i = 0; i < 4 && at + i * run < pairs; i++) {
                q[i] = t + (at + i * run) * gocann::kPairBytes;
                n[i] = uint32_t(pairs - (at + i * run) < run ? pairs - (at + i * run) : run);
                valid |= 1u << i;
            }
            gocann::Merge<T>(out + at * gocann::kPairBytes, q, n, valid, false, taken);
        }
    }
    std::memcpy(t, out, bytes);
}

/* Extract splits Sort's pairs into scores and indices, as the device's
 * library does it with GatherMask: for half it reads twice the pairs for
 * the indices, so dstIndex gets 64 per repeat, the second half from the
 * bytes after sorted. */
template <typename T>
__aicore__ inline void Extract(const LocalTensor<T> &dstValue, const LocalTensor<uint32_t> &dstIndex,
                               const LocalTensor<T> &sorted, const int32_t repeatTime)
{
    gocann::SortCheck<T>();
    const char *what = "Extract";
    if (repeatTime < 0 || repeatTime > int32_t(MAX_REPEAT_TIMES)) {
        gocann::Fail("%s: repeatTime %d is out of [0, %u]", what, repeatTime, MAX_REPEAT_TIMES);
    }
    uint64_t values = uint64_t(repeatTime) * gocann::kSortRun, indices = values * (sizeof(T) == 2 ? 2 : 1);
    const uint8_t *in = reinterpret_cast<const uint8_t *>(sorted.GetPhyAddr());
    gocann::InUB(in, indices * gocann::kPairBytes, ONE_BLK_SIZE, what, "sorted");
    gocann::InUB(dstValue.GetPhyAddr(), values * sizeof(T), ONE_BLK_SIZE, what, "dstValue");
    gocann::InUB(dstIndex.GetPhyAddr(), indices * sizeof(uint32_t), ONE_BLK_SIZE, what, "dstIndex");
    for (uint64_t k = 0; k < values; k++) { // the scores first, then the indices, as two instructions
        std::memcpy(dstValue.GetPhyAddr() + k, in + k * gocann::kPairBytes, sizeof(T));
    }
    for (uint64_t k = 0; k < indices; k++) {
        std::memcpy(dstIndex.GetPhyAddr() + k, in + k * gocann::kPairBytes + 4, sizeof(uint32_t));
    }
    // Its GatherMasks leave the normal mode and a zero mask behind.
    gocann::VecState &v = gocann::Vec();
    v.mode = MaskMode::NORMAL;
    v.bits[0] = v.bits[1] = 0;
}

} // namespace AscendC

#endif /* GOCANN_ASCENDC_SORT_H_ */
