/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * Part of kernel_operator.h: DataCopy between global memory and the
 * unified buffer, in whole 32-byte blocks. Include kernel_operator.h, not
 * this.
 */
#ifndef GOCANN_ASCENDC_COPY_H_
#define GOCANN_ASCENDC_COPY_H_

#include <cstring>

#include "gocann_pipe.h"

namespace AscendC {

namespace gocann {

/* CopyCount checks a DataCopy of count elements of T: a whole number of
 * 32-byte blocks, as the copy engines move them. */
template <typename T>
inline void CopyCount(uint32_t count)
{
    if (uint64_t(count) * sizeof(T) % kBlockBytes != 0) {
        Fail("DataCopy: %u elements of %zu bytes are not a whole number of %u-byte blocks (DataCopyPad copies "
             "those on Ascend C)",
             count, sizeof(T), kBlockBytes);
    }
}


} // namespace gocann

/* DataCopy copies count elements, a whole number of 32-byte blocks. */
template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, uint32_t count)
{
    gocann::CopyCount<T>(count);
    dst.gocannCheck(count, "DataCopy to LocalTensor");
    src.gocannCheck(count, "DataCopy from GlobalTensor");
    memcpy(dst.GetPhyAddr(), src.GetPhyAddr(), size_t(count) * sizeof(T));
}

template <typename T>
__aicore__ inline void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src, uint32_t count)
{
    gocann::CopyCount<T>(count);
    dst.gocannCheck(count, "DataCopy to GlobalTensor");
    src.gocannCheck(count, "DataCopy from LocalTensor");
    gocann::StoreGM(dst.GetPhyAddr(), src.GetPhyAddr(), count);
}

template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src, uint32_t count)
{
    gocann::CopyCount<T>(count);
    dst.gocannCheck(count, "DataCopy to LocalTensor");
    src.gocannCheck(count, "DataCopy from LocalTensor");
    memmove(dst.GetPhyAddr(), src.GetPhyAddr(), size_t(count) * sizeof(T));
}

} // namespace AscendC

#endif /* GOCANN_ASCENDC_COPY_H_ */
