/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * Part of kernel_operator.h: the hardware events between the pipes of an
 * AI core (HardEvent), which SetFlag and WaitFlag name and a TPipe hands
 * out ids of. Include kernel_operator.h, not this.
 */
#ifndef GOCANN_ASCENDC_EVENT_H_
#define GOCANN_ASCENDC_EVENT_H_

#include <cstdint>

namespace AscendC {

/* The events between pipes, for SetFlag and WaitFlag. */
enum class HardEvent : uint8_t {
    MTE2_MTE1,
    MTE1_MTE2,
    MTE1_M,
    M_MTE1,
    MTE2_V,
    V_MTE2,
    MTE3_V,
    V_MTE3,
    M_V,
    V_M,
    V_V,
    MTE3_MTE1,
    MTE1_MTE3,
    MTE1_V,
    MTE2_M,
    M_MTE2,
    V_MTE1,
    M_FIX,
    FIX_M,
    MTE3_MTE2,
    MTE2_MTE3,
    S_V,
    V_S,
    S_MTE2,
    MTE2_S,
    S_MTE3,
    MTE3_S,
    MTE2_FIX,
    FIX_MTE2,
    FIX_S,
    M_S,
    FIX_MTE3,
    MTE1_FIX,
    FIX_MTE1,
    FIX_FIX,
    MAX,
};

/* An event id, EVENT_ID0 to EVENT_ID7, as a TPipe hands them out. */
using TEventID = int8_t;

} // namespace AscendC

#endif /* GOCANN_ASCENDC_EVENT_H_ */
