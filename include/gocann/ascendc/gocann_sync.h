/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * Part of kernel_operator.h: the synchronization between the pipes of one
 * AI core (PipeBarrier, SetFlag/WaitFlag by hardware event) and the
 * kernel-entry calls. A block runs on one thread and each operation is
 * done when its call returns, so they have nothing to wait for. Include
 * kernel_operator.h, not this.
 */
#ifndef GOCANN_ASCENDC_SYNC_H_
#define GOCANN_ASCENDC_SYNC_H_

#include "gocann_builtin.h"
#include "gocann_event.h"
#include "gocann_mask.h"

namespace AscendC {


/* Every operation is finished when its call returns, so there is nothing
 * to wait for between pipes. */
template <pipe_t pipe>
__aicore__ inline void PipeBarrier()
{
}

/* SetNextTaskStart and WaitPreTaskEnd let neighbouring sub-kernels of a
 * SuperKernel overlap on an Atlas A3 or Ascend 950 (gocann/kernel.h's
 * calls, which the runtime serves); outside one, and on other chips, they
 * do nothing. Every operation being done when its call returns, the pipes
 * chosen do not matter. */
template <pipe_t AIV_PIPE = PIPE_MTE3, pipe_t AIC_PIPE = PIPE_FIX, bool FORCE = false>
__aicore__ inline void SetNextTaskStart()
{
    ::SetNextTaskStart();
}
template <bool FORCE = false>
__aicore__ inline void WaitPreTaskEnd()
{
    ::WaitPreTaskEnd();
}
template <HardEvent event>
__aicore__ inline void SetFlag(int32_t)
{
}
template <HardEvent event>
__aicore__ inline void WaitFlag(int32_t)
{
}

} // namespace AscendC

#endif /* GOCANN_ASCENDC_SYNC_H_ */
