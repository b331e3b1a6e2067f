/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * kernel_operator.h: Ascend C's basic API for the vector and scalar
 * units of an Atlas A2 AI core, for building kernels with the host
 * compiler into programs and binaries the simulated NPU runs (bisheng and
 * ascendc.cmake put this directory on the kernels' include path). Each
 * part is one header, included below in the order they build on:
 * tensors, the unified buffer and its queues, the vector instruction
 * model (gocann_mask.h), copies, the vector operations (element-wise,
 * compound, conversions, comparisons, reductions, gathers, sorts,
 * transposes), atomics and buffer pools, the cross-block synchronization
 * of gang-scheduled kernels, the core's state (InitSocState), debugging
 * (DumpTensor, ascendc_assert), and the cube and Ascend 950 calls, which
 * fail to compile naming themselves. docs/ascendc.md lists every call.
 *
 * A block runs from start to end on one thread, so a copy or a vector
 * operation is done when its call returns: queues hand tensors over in
 * order and the pipe synchronization calls have nothing to wait for. What
 * the hardware would get wrong silently or hang on stops the block with
 * an AI core trap whose message names the call and the numbers. The
 * unified buffer is 192 KiB per block (GOCANN_ASCENDC_UB_SIZE changes it).
 */
#ifndef GOCANN_ASCENDC_KERNEL_OPERATOR_H_
#define GOCANN_ASCENDC_KERNEL_OPERATOR_H_

#ifndef __cplusplus
#error "kernel_operator.h is C++: build Ascend C kernels as .cpp sources"
#endif

#include "gocann_builtin.h"
#include "gocann_print.h"
#include "gocann_tensor.h"
#include "gocann_pipe.h"
#include "gocann_alloc.h"
#include "gocann_mask.h"
#include "gocann_sync.h"
#include "gocann_superkernel.h"
#include "gocann_copy.h"
#include "gocann_copy_pad.h"
#include "gocann_copy_slice.h"
#include "gocann_copy_ub.h"
#include "gocann_vector.h"
#include "gocann_ternary.h"
#include "gocann_cast.h"
#include "gocann_round.h"
#include "gocann_cmpsel.h"
#include "gocann_select.h"
#include "gocann_reduce.h"
#include "gocann_reduce_block.h"
#include "gocann_reduce_all.h"
#include "gocann_cache.h"
#include "gocann_atomic.h"
#include "gocann_bufpool.h"
#include "gocann_listtensor.h"
#include "gocann_gather.h"
#include "gocann_fill.h"
#include "gocann_sort.h"
#include "gocann_transpose.h"
#include "gocann_blocksync.h"
#include "gocann_nd2nz.h"
#include "gocann_soc.h"
#include "gocann_utils.h"
#include "utils/debug/asc_assert.h"
#include "gocann_unavailable.h"
#include "gocann_launch.h"

#endif /* GOCANN_ASCENDC_KERNEL_OPERATOR_H_ */
