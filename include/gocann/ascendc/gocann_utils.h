/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * Part of kernel_operator.h: the small helpers of Ascend C's utilities
 * the devkit's examples use (DivCeil, Conditional) and DumpTensor, which
 * prints a tensor's elements with the block's other printf lines. Include
 * kernel_operator.h, not this.
 */
#ifndef GOCANN_ASCENDC_UTILS_H_
#define GOCANN_ASCENDC_UTILS_H_

#include <cstdint>
#include <type_traits>

#include "gocann_pipe.h"
#include "gocann_print.h"
#include "gocann_round.h"

namespace AscendC {

/* DivCeil is a / b rounded up. */
template <typename T, typename U>
__aicore__ constexpr inline auto DivCeil(T a, U b)
{
    return (a + b - 1) / b;
}

/* Conditional is T when cond holds, else F, as std::conditional. */
template <bool cond, typename T, typename F>
struct Conditional {
    using type = T;
};
template <typename T, typename F>
struct Conditional<false, T, F> {
    using type = F;
};

namespace gocann {

template <typename T>
constexpr const char *DumpType()
{
    using U = std::remove_cv_t<T>;
    if constexpr (std::is_same_v<U, half>) {
        return "float16";
    } else if constexpr (std::is_same_v<U, bfloat16_t>) {
        return "bfloat16";
    } else if constexpr (std::is_same_v<U, float>) {
        return "float32";
    } else if constexpr (std::is_same_v<U, double>) {
        return "float64";
    } else if constexpr (std::is_same_v<U, bool>) {
        return "bool";
    } else if constexpr (std::is_integral_v<U>) {
        return std::is_signed_v<U> ? (sizeof(U) == 1   ? "int8"
                                      : sizeof(U) == 2 ? "int16"
                                      : sizeof(U) == 4 ? "int32"
                                                       : "int64")
                                   : (sizeof(U) == 1   ? "uint8"
                                      : sizeof(U) == 2 ? "uint16"
                                      : sizeof(U) == 4 ? "uint32"
                                                       : "uint64");
    } else {
        return "unknown";
    }
}

/* Dump prints the head line and the first n elements of data. */
template <typename T>
inline void Dump(const T *data, uint32_t desc, uint64_t addr, const char *position, uint32_t n)
{
    ::gocann_kernel_printf("DumpTensor: desc=%u, addr=%llu, data_type=%s, position=%s, dump_size=%u\n", desc,
                           (unsigned long long)addr, DumpType<T>(), position, n);
    ::gocann_kernel_printf("[");
    for (uint32_t i = 0; i < n; i++) {
        const char *sep = i + 1 < n ? ", " : "";
        if constexpr (std::is_integral_v<T>) {
            if constexpr (std::is_signed_v<T>) {
                ::gocann_kernel_printf("%lld%s", (long long)data[i], sep);
            } else {
                ::gocann_kernel_printf("%llu%s", (unsigned long long)data[i], sep);
            }
        } else {
            ::gocann_kernel_printf("%f%s", double(float(data[i])), sep);
        }
    }
    ::gocann_kernel_printf("]\n");
}

} // namespace gocann

/* DumpTensor prints dumpSize elements of a tensor (at most its own) with
 * desc, the user's label, as the device's debug print shows them. */
template <typename T>
__aicore__ inline void DumpTensor(const LocalTensor<T> &tensor, uint32_t desc, uint32_t dumpSize)
{
    uint32_t n = dumpSize < tensor.GetSize() ? dumpSize : tensor.GetSize();
    uint64_t addr = uint64_t(reinterpret_cast<const uint8_t *>(tensor.GetPhyAddr()) - gocann::UnifiedBuffer());
    gocann::Dump(tensor.GetPhyAddr(), desc, addr, "UB", n);
}

template <typename T>
__aicore__ inline void DumpTensor(const GlobalTensor<T> &tensor, uint32_t desc, uint32_t dumpSize)
{
    uint64_t size = tensor.GetSize();
    uint32_t n = size != 0 && size < dumpSize ? uint32_t(size) : dumpSize;
    gocann::Dump(tensor.GetPhyAddr(), desc, uint64_t(reinterpret_cast<uintptr_t>(tensor.GetPhyAddr())), "GM", n);
}

} // namespace AscendC

#endif /* GOCANN_ASCENDC_UTILS_H_ */
