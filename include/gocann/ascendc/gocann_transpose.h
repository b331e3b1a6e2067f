/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * Part of kernel_operator.h: transposing a 16 x 16 matrix of 2-byte
 * elements, [N, C, H, W] to and from [N, H, W, C] (Transpose), and the
 * 16-block transposition behind NCHW to NC1HWC0 (TransDataTo5HD). Include
 * kernel_operator.h, not this.
 */
#ifndef GOCANN_ASCENDC_TRANSPOSE_H_
#define GOCANN_ASCENDC_TRANSPOSE_H_

#include <cstring>
#include <vector>

#include "gocann_gather.h"

namespace AscendC {

constexpr int32_t NCHW_CONV_ADDR_LIST_SIZE = 16;
constexpr int32_t VA_REG_ARRAY_LEN = 8;

enum class TransposeType : uint8_t {
    TRANSPOSE_TYPE_NONE, // does nothing
    TRANSPOSE_NZ2ND_0213,
    TRANSPOSE_NZ2NZ_0213,
    TRANSPOSE_NZ2NZ_012_WITH_N,
    TRANSPOSE_NZ2ND_012_WITH_N,
    TRANSPOSE_NZ2ND_012_WITHOUT_N,
    TRANSPOSE_NZ2NZ_012_WITHOUT_N,
    TRANSPOSE_ND2ND_ONLY,
    TRANSPOSE_ND_UB_GM,
    TRANSPOSE_GRAD_ND_UB_GM,
    TRANSPOSE_ND2ND_B16, // [16, 16] -> [16, 16] transposed
    TRANSPOSE_NCHW2NHWC,
    TRANSPOSE_NHWC2NCHW,
};

/* What TransDataTo5HD does each repeat: the 16 blocks' half (8-bit
 * elements only), the repeats and their strides in 32-byte blocks. */
struct TransDataTo5HDParams {
    constexpr __aicore__ TransDataTo5HDParams() = default;
    constexpr __aicore__ TransDataTo5HDParams(const bool dstHighHalfIn, const bool srcHighHalfIn,
                                              const uint8_t repeatTimesIn, const uint16_t dstRepStrideIn,
                                              const uint16_t srcRepStrideIn)
        : dstHighHalf(dstHighHalfIn), srcHighHalf(srcHighHalfIn), repeatTimes(repeatTimesIn),
          dstRepStride(dstRepStrideIn), srcRepStride(srcRepStrideIn)
    {
    }
    bool dstHighHalf = false;
    bool srcHighHalf = false;
    uint8_t repeatTimes = 1;
    uint16_t dstRepStride = 0;
    uint16_t srcRepStride = 0;
};

/* The shape and kind of an extended Transpose. */
struct TransposeParamsExt {
    constexpr __aicore__ TransposeParamsExt() = default;
    constexpr __aicore__ TransposeParamsExt(const uint16_t nSizeIn, const uint16_t cSizeIn, const uint16_t hSizeIn,
                                            const uint16_t wSizeIn, const TransposeType transposeTypeIn)
        : nSize(nSizeIn), cSize(cSizeIn), hSize(hSizeIn), wSize(wSizeIn), transposeType(transposeTypeIn)
    {
    }
    uint16_t nSize = 0;
    uint16_t cSize = 0;
    uint16_t hSize = 0;
    uint16_t wSize = 0;
    TransposeType transposeType = TransposeType::TRANSPOSE_ND2ND_B16;
};

namespace gocann {

/* Transpose16 transposes the 16 x 16 matrix of 2-byte elements at src
 * into dst, which may be src. */
inline void Transpose16(void *dst, const void *src, const char *what)
{
    constexpr uint64_t bytes = 16 * 16 * 2;
    InUB(dst, bytes, ONE_BLK_SIZE, what, "dst");
    InUB(src, bytes, ONE_BLK_SIZE, what, "src");
    uint16_t in[256], *out = static_cast<uint16_t *>(dst);
    std::memcpy(in, src, bytes);
    for (int i = 0; i < 16; i++) {
        for (int j = 0; j < 16; j++) {
            out[j * 16 + i] = in[i * 16 + j];
        }
    }
}

/* Nchw moves the elements of an [N, C, H, W] tensor to [N, H, W, C], or
 * back when toNchw. */
template <typename T>
inline void Nchw(T *dst, const T *src, uint32_t n, uint32_t c, uint32_t hw, bool toNchw)
{
    for (uint32_t b = 0; b < n; b++) {
        for (uint32_t k = 0; k < c; k++) {
            for (uint32_t p = 0; p < hw; p++) {
                uint64_t nchw = (uint64_t(b) * c + k) * hw + p, nhwc = (uint64_t(b) * hw + p) * c + k;
                if (toNchw) {
                    dst[nchw] = src[nhwc];
                } else {
                    dst[nhwc] = src[nchw];
                }
            }
        }
    }
}

/* TransData is TransDataTo5HD on the 16 destination and 16 source
 * addresses: each repeat reads the 16 source blocks, then writes element
 * i of destination j from element j of source i (2-byte elements), the
 * two blocks 2j and 2j + 1 from element j of sources 0-7 and 8-15 (4-byte
 * elements), or half of block j from element j of the chosen half of
 * each source (1-byte elements). With one repeat the strides still apply
 * once, as the documentation says. */
template <typename T>
inline void TransData(uint8_t *const dst[16], const uint8_t *const src[16], const TransDataTo5HDParams &p)
{
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4,
                  "TransDataTo5HD: Atlas A2 moves 1-, 2- and 4-byte elements");
    const char *what = "TransDataTo5HD";
    if (sizeof(T) != 1 && (p.dstHighHalf || p.srcHighHalf)) {
        Fail("%s: dstHighHalf and srcHighHalf are for 1-byte elements only, not %zu-byte ones", what, sizeof(T));
    }
    uint32_t repeats = p.repeatTimes;
    if (repeats == 0) {
        return;
    }
    uint64_t last = repeats == 1 ? 1 : repeats - 1;
    for (int i = 0; i < 16; i++) {
        InUB(dst[i], last * p.dstRepStride * ONE_BLK_SIZE + ONE_BLK_SIZE, ONE_BLK_SIZE, what, "dstList");
        InUB(src[i], last * p.srcRepStride * ONE_BLK_SIZE + ONE_BLK_SIZE, ONE_BLK_SIZE, what, "srcList");
    }
    for (uint32_t r = 0; r < repeats; r++) {
        uint64_t k = repeats == 1 ? 1 : r;
        T in[16][32 / sizeof(T)];
        for (int i = 0; i < 16; i++) {
            std::memcpy(in[i], src[i] + k * p.srcRepStride * ONE_BLK_SIZE, ONE_BLK_SIZE);
        }
        T *out[16];
        for (int j = 0; j < 16; j++) {
            out[j] = reinterpret_cast<T *>(dst[j] + k * p.dstRepStride * ONE_BLK_SIZE);
        }
        for (int i = 0; i < 16; i++) {
            if constexpr (sizeof(T) == 2) {
                for (int j = 0; j < 16; j++) {
                    out[j][i] = in[i][j];
                }
            } else if constexpr (sizeof(T) == 4) {
                for (int e = 0; e < 8; e++) {
                    out[2 * e + i / 8][i % 8] = in[i][e];
                }
            } else {
                for (int j = 0; j < 16; j++) {
                    out[j][(p.dstHighHalf ? 16 : 0) + i] = in[i][(p.srcHighHalf ? 16 : 0) + j];
                }
            }
        }
    }
}

/* Packed is what the device leaves in entry i of an address tensor of
 * TransDataTo5HD: four addresses' 32-byte block numbers, 16 bits each. */
inline uint64_t Packed(const uint64_t *a, int i)
{
    uint64_t v = 0;
    for (int k = 0; k < 4; k++) {
        uint64_t at = a[4 * i + k] - reinterpret_cast<uintptr_t>(UnifiedBuffer());
        v |= ((at >> 5) & 0x1fff) << (16 * k);
    }
    return v;
}

} // namespace gocann

/* Transpose transposes the 16 x 16 matrix of 2-byte elements at src into
 * dst, which may be src. */
template <typename T>
__aicore__ inline void Transpose(const LocalTensor<T> &dst, const LocalTensor<T> &src)
{
    static_assert(sizeof(T) == 2, "Transpose: the 16 x 16 transposition is of 2-byte elements");
    gocann::Transpose16(dst.GetPhyAddr(), src.GetPhyAddr(), "Transpose");
}

/* Transpose with TransposeParamsExt: TRANSPOSE_ND2ND_B16 (hSize and wSize
 * 16), TRANSPOSE_NCHW2NHWC and TRANSPOSE_NHWC2NCHW (sharedTmpBuffer of at
 * least the documented size, which the device works in; dst apart from
 * src); TRANSPOSE_TYPE_NONE does nothing; the others Atlas A2 lacks. */
template <typename T>
__aicore__ inline void Transpose(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                                 const LocalTensor<uint8_t> &sharedTmpBuffer, const TransposeParamsExt &transposeParams)
{
    const char *what = "Transpose";
    const TransposeParamsExt &p = transposeParams;
    switch (p.transposeType) {
    case TransposeType::TRANSPOSE_TYPE_NONE:
        return;
    case TransposeType::TRANSPOSE_ND2ND_B16:
        if constexpr (sizeof(T) != 2) {
            gocann::Fail("%s: TRANSPOSE_ND2ND_B16 of %zu-byte elements: it is of 2-byte ones", what, sizeof(T));
        } else {
            if (p.hSize != 16 || p.wSize != 16) {
                gocann::Fail("%s: TRANSPOSE_ND2ND_B16 with hSize %u and wSize %u: both must be 16", what, p.hSize,
                             p.wSize);
            }
            gocann::Transpose16(dst.GetPhyAddr(), src.GetPhyAddr(), what);
        }
        return;
    case TransposeType::TRANSPOSE_NCHW2NHWC:
    case TransposeType::TRANSPOSE_NHWC2NCHW:
        break;
    default:
        gocann::Fail("%s: transposeType %u is not supported on Atlas A2", what, unsigned(p.transposeType));
    }
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4,
                  "Transpose: [N, C, H, W] <-> [N, H, W, C] moves 1-, 2- and 4-byte elements");
    bool toNchw = p.transposeType == TransposeType::TRANSPOSE_NHWC2NCHW;
    uint32_t hw = uint32_t(p.hSize) * p.wSize;
    if (p.cSize > 4095 || hw > 4095 || hw * sizeof(T) % ONE_BLK_SIZE != 0) {
        gocann::Fail("%s: cSize %u, hSize * wSize %u of %zu-byte elements: cSize must be at most 4095 and hSize * "
                     "wSize at most 4095 and a multiple of 32 bytes",
                     what, p.cSize, hw, sizeof(T));
    }
    uint64_t count = uint64_t(p.nSize) * p.cSize * hw, bytes = count * sizeof(T);
    if (count == 0) {
        return;
    }
    gocann::InUB(dst.GetPhyAddr(), bytes, ONE_BLK_SIZE, what, "dst");
    gocann::InUB(src.GetPhyAddr(), bytes, ONE_BLK_SIZE, what, "src");
    if (gocann::Overlaps(dst.GetPhyAddr(), bytes, src.GetPhyAddr(), bytes)) {
        gocann::Fail("%s: dst overlaps src, which [N, C, H, W] <-> [N, H, W, C] does not support", what);
    }
    if (p.cSize > 1) { // one channel is a plain copy on the device, with no buffer
        uint64_t block = uint64_t(sizeof(T) == 1 ? 32 : 16) * (ONE_BLK_SIZE / sizeof(T)) * sizeof(T);
        uint64_t need = (toNchw ? 2 * uint64_t(p.cSize) + 1 : uint64_t(p.cSize) + 2) * block;
        if (sharedTmpBuffer.GetSize() < need) {
            gocann::Fail("%s: sharedTmpBuffer of %u bytes, less than the %llu it needs for cSize %u", what,
                         sharedTmpBuffer.GetSize(), (unsigned long long)need, p.cSize);
        }
        gocann::InUB(sharedTmpBuffer.GetPhyAddr(), need, ONE_BLK_SIZE, what, "sharedTmpBuffer");
    }
    gocann::Nchw(dst.GetPhyAddr(), src.GetPhyAddr(), p.nSize, p.cSize, hw, toNchw);
}

/* TransDataTo5HD with the 16 destination and 16 source addresses as
 * numbers (LocalTensor::GetPhyAddr), ... */
template <typename T>
__aicore__ inline void TransDataTo5HD(uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE],
                                      uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE],
                                      const TransDataTo5HDParams &nchwconvParams)
{
    uint8_t *d[16];
    const uint8_t *s[16];
    for (int i = 0; i < 16; i++) {
        d[i] = reinterpret_cast<uint8_t *>(uintptr_t(dstList[i]));
        s[i] = reinterpret_cast<const uint8_t *>(uintptr_t(srcList[i]));
    }
    gocann::TransData<T>(d, s, nchwconvParams);
}

/* ... as tensors, ... */
template <typename T>
__aicore__ inline void TransDataTo5HD(const LocalTensor<T> (&dstList)[NCHW_CONV_ADDR_LIST_SIZE],
                                      const LocalTensor<T> (&srcList)[NCHW_CONV_ADDR_LIST_SIZE],
                                      const TransDataTo5HDParams &nchwconvParams)
{
    uint8_t *d[16];
    const uint8_t *s[16];
    for (int i = 0; i < 16; i++) {
        d[i] = reinterpret_cast<uint8_t *>(dstList[i].GetPhyAddr());
        s[i] = reinterpret_cast<const uint8_t *>(srcList[i].GetPhyAddr());
    }
    gocann::TransData<T>(d, s, nchwconvParams);
}

/* ... or as 16 numbers in tensors of uint64_t, whose first 4 entries the
 * device then overwrites with the addresses packed for its registers. */
template <typename T>
__aicore__ inline void TransDataTo5HD(const LocalTensor<uint64_t> &dst, const LocalTensor<uint64_t> &src,
                                      const TransDataTo5HDParams &nchwconvParams)
{
    dst.gocannCheck(16, "TransDataTo5HD");
    src.gocannCheck(16, "TransDataTo5HD");
    gocann::InUB(dst.GetPhyAddr(), 16 * sizeof(uint64_t), ONE_BLK_SIZE, "TransDataTo5HD", "dst");
    gocann::InUB(src.GetPhyAddr(), 16 * sizeof(uint64_t), ONE_BLK_SIZE, "TransDataTo5HD", "src");
    uint64_t d[16], s[16];
    std::memcpy(d, dst.GetPhyAddr(), sizeof d);
    std::memcpy(s, src.GetPhyAddr(), sizeof s);
    for (int i = 0; i < 4; i++) {
        dst.GetPhyAddr()[i] = gocann::Packed(d, i);
        src.GetPhyAddr()[i] = gocann::Packed(s, i);
    }
    TransDataTo5HD<T>(d, s, nchwconvParams);
}

} // namespace AscendC

#endif /* GOCANN_ASCENDC_TRANSPOSE_H_ */
