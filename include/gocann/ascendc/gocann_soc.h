/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * Part of kernel_operator.h, after every part with core state:
 * InitSocState. Include kernel_operator.h, not this.
 */
#ifndef GOCANN_ASCENDC_SOC_H_
#define GOCANN_ASCENDC_SOC_H_

#include "gocann_atomic.h"
#include "gocann_cast.h"
#include "gocann_cmpsel.h"
#include "gocann_mask.h"
#include "gocann_reduce.h"

namespace AscendC {

/* InitSocState resets the core's global state at a kernel's entry: the
 * mask register and mode, the atomic mode, the reduction, CMPMASK and
 * DEQSCALE registers, which otherwise keep what the kernel the core ran
 * before left in them, as on the device. */
template <int>
__aicore__ void InitSocState()
{
    gocann::Vec() = gocann::VecState();
    gocann::Atomic() = gocann::AtomicState(); // the atomic mode: off
    gocann::red::Reg() = gocann::red::Regs();
    gocann::CmpMask() = gocann::CmpMaskReg{};
    gocann::DeqScale() = half(0);
}

} // namespace AscendC

#endif /* GOCANN_ASCENDC_SOC_H_ */
