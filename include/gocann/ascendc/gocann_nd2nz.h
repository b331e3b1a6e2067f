/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * Part of kernel_operator.h: DataCopy from global memory into the unified
 * buffer with the ND to NZ conversion on the way (Nd2NzParams): each row
 * of an ND matrix is cut into 32-byte pieces (C0, 16 halves or 8 floats),
 * and piece c of row i lands (c * dstNzC0Stride + i * dstNzNStride)
 * blocks into its NZ matrix; the part of a last piece past dValue is
 * zeros. On the device this path is emulated in software too. Include
 * kernel_operator.h, not this.
 */
#ifndef GOCANN_ASCENDC_ND2NZ_H_
#define GOCANN_ASCENDC_ND2NZ_H_

#include <cstring>

#include "gocann_mask.h"

namespace AscendC {

/* The ND to NZ conversion of a copy (Atlas A2's field types). */
struct Nd2NzParams {
    __aicore__ Nd2NzParams() {}
    __aicore__ Nd2NzParams(uint16_t ndNumIn, uint16_t nValueIn, uint16_t dValueIn, uint16_t srcNdMatrixStrideIn,
                           uint16_t srcDValueIn, uint16_t dstNzC0StrideIn, uint16_t dstNzNStrideIn,
                           uint16_t dstNzMatrixStrideIn)
        : ndNum(ndNumIn), nValue(nValueIn), dValue(dValueIn), srcNdMatrixStride(srcNdMatrixStrideIn),
          srcDValue(srcDValueIn), dstNzC0Stride(dstNzC0StrideIn), dstNzNStride(dstNzNStrideIn),
          dstNzMatrixStride(dstNzMatrixStrideIn)
    {
    }
    uint16_t ndNum = 0;
    uint16_t nValue = 0;
    uint16_t dValue = 0;
    uint16_t srcNdMatrixStride = 0;
    uint16_t srcDValue = 0;
    uint16_t dstNzC0Stride = 0;
    uint16_t dstNzNStride = 0;
    uint16_t dstNzMatrixStride = 0;
};

namespace gocann {

inline void Nd2NzRange(const char *field, uint32_t v, uint32_t lo, uint32_t hi)
{
    if (v < lo || v > hi) {
        Fail("DataCopy(Nd2NzParams): %s %u is out of its range [%u, %u]", field, v, lo, hi);
    }
}

} // namespace gocann

template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const Nd2NzParams &p)
{
    static_assert(sizeof(T) <= 4, "DataCopy(Nd2NzParams): Atlas A2 converts 1-, 2- and 4-byte elements");
    constexpr uint32_t c0 = ONE_BLK_SIZE / sizeof(T);
    gocann::Nd2NzRange("ndNum", p.ndNum, 0, 4095);
    gocann::Nd2NzRange("nValue", p.nValue, 0, 16384);
    gocann::Nd2NzRange("srcDValue", p.srcDValue, 1, 65535);
    gocann::Nd2NzRange("dstNzC0Stride", p.dstNzC0Stride, 1, 16384);
    gocann::Nd2NzRange("dstNzNStride", p.dstNzNStride, 1, 16384);
    if (p.ndNum > 1) {
        gocann::Nd2NzRange("dstNzMatrixStride", p.dstNzMatrixStride, 1, 65535);
    }
    if (p.ndNum == 0 || p.nValue == 0 || p.dValue == 0) {
        return;
    }
    uint32_t pieces = (p.dValue + c0 - 1) / c0;
    uint64_t lastRow = uint64_t(p.ndNum - 1) * p.srcNdMatrixStride + uint64_t(p.nValue - 1) * p.srcDValue;
    src.gocannCheck(lastRow + p.dValue, "DataCopy(Nd2NzParams) from GlobalTensor");
    uint64_t lastPiece = uint64_t(p.ndNum - 1) * p.dstNzMatrixStride +
                         (uint64_t(pieces - 1) * p.dstNzC0Stride + uint64_t(p.nValue - 1) * p.dstNzNStride) * c0;
    dst.gocannCheck(lastPiece + c0, "DataCopy(Nd2NzParams) to LocalTensor");
    const T *s = src.GetPhyAddr();
    T *d = dst.GetPhyAddr();
    for (uint32_t m = 0; m < p.ndNum; m++) {
        for (uint32_t i = 0; i < p.nValue; i++) {
            const T *row = s + uint64_t(m) * p.srcNdMatrixStride + uint64_t(i) * p.srcDValue;
            for (uint32_t c = 0; c < pieces; c++) {
                T *to = d + uint64_t(m) * p.dstNzMatrixStride +
                        (uint64_t(c) * p.dstNzC0Stride + uint64_t(i) * p.dstNzNStride) * c0;
                uint32_t n = p.dValue - c * c0 < c0 ? p.dValue - c * c0 : c0;
                memcpy(to, row + uint64_t(c) * c0, n * sizeof(T));
                memset(to + n, 0, (c0 - n) * sizeof(T));
            }
        }
    }
}

} // namespace AscendC

#endif /* GOCANN_ASCENDC_ND2NZ_H_ */
