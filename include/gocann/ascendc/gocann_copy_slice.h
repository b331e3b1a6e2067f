/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * Part of kernel_operator.h: DataCopy of a slice of a tensor of up to 8
 * dimensions (SliceInfo) between global memory and the unified buffer.
 * Dimension 0 is the innermost; shapeValue is a dimension's length, and
 * an element's offset is the sum of its indices times the lengths of the
 * dimensions inside. Along dimension 0 a slice takes bursts of burstLen
 * 32-byte blocks from startIndex, stride elements apart, up to endIndex
 * (the last element taken); along the others it takes one index each,
 * stride indices apart (burstLen is 1). The rows of the two sides, in
 * order, outer dimensions slowest, pair up and the bursts of each row are
 * copied. Include kernel_operator.h, not this.
 */
#ifndef GOCANN_ASCENDC_COPY_SLICE_H_
#define GOCANN_ASCENDC_COPY_SLICE_H_

#include "gocann_copy.h"

namespace AscendC {

namespace gocann {

/* Slice is one side of a slice copy, checked: its bursts per row, their
 * elements and step, and how many rows. */
template <typename T>
struct Slice {
    const SliceInfo *info;
    uint32_t dims, bursts, burst;
    uint64_t step, rows = 1;

    Slice(const SliceInfo *s, uint32_t dimValue, const char *side) : info(s), dims(dimValue)
    {
        constexpr uint32_t perBlk = ONE_BLK_SIZE / sizeof(T);
        if (s[0].burstLen == 0) {
            Fail("DataCopy with SliceInfo: %s burstLen 0 (it must be at least 1 block)", side);
        }
        burst = s[0].burstLen * perBlk;
        step = uint64_t(burst) + s[0].stride;
        bursts = Count(s[0], burst, 0, side);
        for (uint32_t d = 1; d < dims; d++) {
            if (s[d].burstLen != 1) {
                Fail("DataCopy with SliceInfo: %s dimension %u has burstLen %u (only dimension 0 may be other "
                     "than 1)",
                     side, d, s[d].burstLen);
            }
            if (s[d - 1].shapeValue == 0) {
                Fail("DataCopy with SliceInfo: %s dimension %u has shapeValue 0 (the tensor's own shape is not "
                     "modelled)",
                     side, d - 1);
            }
            rows *= Count(s[d], 1, d, side);
        }
    }

    /* Count is the slices along one dimension: endIndex - startIndex + 1
     * must be n * len + (n - 1) * stride for a whole n. */
    static uint32_t Count(const SliceInfo &s, uint32_t len, uint32_t d, const char *side)
    {
        uint64_t span = uint64_t(s.endIndex) - s.startIndex + 1 + s.stride, each = uint64_t(len) + s.stride;
        if (s.endIndex < s.startIndex || (s.shapeValue != 0 && s.endIndex >= s.shapeValue) || span % each != 0) {
            Fail("DataCopy with SliceInfo: %s dimension %u, indices %u to %u of %u, is not a whole number of "
                 "slices of %u with stride %u",
                 side, d, s.startIndex, s.endIndex, s.shapeValue, len, s.stride);
        }
        return uint32_t(span / each);
    }

    /* Row is the element offset of row r's first burst. */
    uint64_t Row(uint64_t r) const
    {
        uint64_t at = info[0].startIndex, pitch = 1;
        for (uint32_t d = 1; d < dims; d++) {
            pitch *= info[d - 1].shapeValue;
            uint64_t n = (uint64_t(info[d].endIndex) - info[d].startIndex + 1 + info[d].stride) / (1 + info[d].stride);
            at += (info[d].startIndex + (r % n) * (1 + info[d].stride)) * pitch;
            r /= n;
        }
        return at;
    }

    /* Bytes is how far from the tensor's start the slice reaches. */
    uint64_t Bytes() const { return (Row(rows - 1) + (bursts - 1) * step + burst) * sizeof(T); }
};

/* Pair checks that the two sides slice alike. */
template <typename T>
inline void Pair(const Slice<T> &d, const Slice<T> &s)
{
    if (d.info[0].burstLen != s.info[0].burstLen || d.bursts != s.bursts || d.rows != s.rows) {
        Fail("DataCopy with SliceInfo: dst takes %llu rows of %u bursts of %u blocks, src %llu rows of %u bursts of "
             "%u blocks",
             (unsigned long long)d.rows, d.bursts, d.info[0].burstLen, (unsigned long long)s.rows, s.bursts,
             s.info[0].burstLen);
    }
}

/* SliceCopy copies the bursts of each pair of rows, once every burst on
 * the local side is known to start on a 32-byte block; into global memory
 * (toGM) through StoreGM, for the atomic mode. */
template <typename T>
inline void SliceCopy(uint8_t *dst, const uint8_t *src, const Slice<T> &d, const Slice<T> &s, bool toGM)
{
    const Slice<T> &l = toGM ? s : d;
    for (uint64_t r = 0; r < l.rows; r++) {
        for (uint32_t b = 0; b < l.bursts; b++) {
            uint64_t at = (l.Row(r) + uint64_t(b) * l.step) * sizeof(T);
            if (at % kBlockBytes != 0) {
                Fail("DataCopy with SliceInfo: burst %u of row %llu starts %llu bytes into the local tensor, not on "
                     "a 32-byte block",
                     b, (unsigned long long)r, (unsigned long long)at);
            }
        }
    }
    for (uint64_t r = 0; r < d.rows; r++) {
        uint64_t dr = d.Row(r), sr = s.Row(r);
        for (uint32_t b = 0; b < d.bursts; b++) {
            uint8_t *to = dst + (dr + uint64_t(b) * d.step) * sizeof(T);
            const uint8_t *from = src + (sr + uint64_t(b) * s.step) * sizeof(T);
            if (toGM) {
                StoreGM(to, from, uint64_t(d.burst) * sizeof(T), "DataCopy with SliceInfo");
            } else {
                memmove(to, from, uint64_t(d.burst) * sizeof(T));
            }
        }
    }
}

inline void Dims(uint32_t dimValue)
{
    if (dimValue == 0 || dimValue > uint32_t(K_MAX_DIM)) {
        Fail("DataCopy with SliceInfo: dimValue %u is out of range [1, %d]", dimValue, K_MAX_DIM);
    }
}

} // namespace gocann

template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const SliceInfo dstSliceInfo[],
                                const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1)
{
    gocann::Dims(dimValue);
    gocann::Slice<T> d(dstSliceInfo, dimValue, "dst"), s(srcSliceInfo, dimValue, "src");
    gocann::Pair(d, s);
    uint8_t *out = gocann::Local(dst, d.Bytes(), "DataCopy with SliceInfo", "dst");
    gocann::SliceCopy(out, gocann::Global(src, s.Bytes(), false, "DataCopy with SliceInfo", false), d, s, false);
}

template <typename T>
__aicore__ inline void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const SliceInfo dstSliceInfo[],
                                const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1)
{
    gocann::Dims(dimValue);
    gocann::Slice<T> d(dstSliceInfo, dimValue, "dst"), s(srcSliceInfo, dimValue, "src");
    gocann::Pair(d, s);
    const uint8_t *in = gocann::Local(src, s.Bytes(), "DataCopy with SliceInfo", "src");
    gocann::SliceCopy(gocann::Global(dst, d.Bytes(), false, "DataCopy with SliceInfo", true), in, d, s, true);
}

} // namespace AscendC

#endif /* GOCANN_ASCENDC_COPY_SLICE_H_ */
