/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * What the Ascend C compiler knows before a source's first line, for the
 * host compiler: the qualifiers (__global__, __aicore__, __vector__,
 * __gm__, ...), the built-in names (pipe_t, EVENT_ID0..7, block_idx,
 * block_num), a kernel's printf and the launches <<<>>> becomes. The
 * compiler driver (bisheng) includes it first in every Ascend C source it
 * compiles.
 */
#ifndef GOCANN_ASCENDC_PRELUDE_H_
#define GOCANN_ASCENDC_PRELUDE_H_

#include "../kernel.h"
#include "gocann_builtin.h"
#include "gocann_launch.h"

#endif /* GOCANN_ASCENDC_PRELUDE_H_ */
