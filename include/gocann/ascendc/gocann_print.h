/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * A kernel's printf (AscendC::printf, PRINTF): each line comes out with
 * the block that printed it, "[AIV Block i/n] ", a block's lines together
 * when it ends, as the device shows them (gocann_kernel_printf,
 * gocann/kernel.h). The compiler driver also makes a bare printf in a
 * kernel function this one. utils/debug/asc_printf.h and
 * kernel_operator.h include it.
 */
#ifndef GOCANN_ASCENDC_PRINT_H_
#define GOCANN_ASCENDC_PRINT_H_

#include "../kernel.h"

namespace AscendC {

template <class... Args>
__aicore__ inline void printf(const char *fmt, Args &&...args)
{
    ::gocann_kernel_printf(fmt, args...);
}

template <class... Args>
__aicore__ inline void PRINTF(const char *fmt, Args &&...args)
{
    ::gocann_kernel_printf(fmt, args...);
}

} // namespace AscendC

#endif /* GOCANN_ASCENDC_PRINT_H_ */
