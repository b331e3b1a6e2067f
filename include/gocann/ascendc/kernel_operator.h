/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * kernel_operator.h: the part of the Ascend C API that vector kernels of
 * the CANN samples are written with, for building them with the host
 * compiler into binaries the simulated NPU runs (bisheng and ascendc.cmake
 * put this directory on the kernels' include path).
 *
 * What is here:
 *   half                      IEEE binary16 (the compiler's _Float16)
 *   TPosition / QuePosition   the buffer positions (GM, VECIN, VECOUT, ...)
 *   GlobalTensor<T>           a view of global (device) memory
 *   LocalTensor<T>            a view of the block's unified buffer
 *   TPipe, TQue, TBuf         the unified buffer, its queues and buffers
 *   DataCopy                  global <-> local and local -> local copies
 *   Add Sub Mul Div Max Min, Adds Muls Maxs Mins, Abs Exp Ln Sqrt Rsqrt
 *   Relu Reciprocal, Duplicate  the vector operations on the first count
 *                             elements
 *   LocalMemAllocator<Hardware::UB>  static tensors in the unified buffer
 *   PipeBarrier, SetFlag, WaitFlag (HardEvent, EVENT_ID0..7), InitSocState,
 *   SetNextTaskStart, WaitPreTaskEnd, GetBlockIdx, GetBlockNum
 *   printf, PRINTF            a kernel's printf, each line with its block
 *   block_idx, block_num      the block's index and the launch's blocks
 *   KERNEL_TASK_TYPE_DEFAULT, TILING_KEY_IS
 *   <<<>>> launches           which the compiler driver (bisheng)
 *                             rewrites (gocann_launch.h)
 *
 * A block runs from start to end on one thread, so a copy or a vector
 * operation is done when its call returns: queues hand tensors over in
 * order and the synchronization calls have nothing to wait for. What the
 * hardware would get wrong silently or hang on stops the block with an AI
 * core trap whose message says what was wrong: a copy that is not a
 * multiple of 32 bytes, an operation past the end of a tensor, a queue
 * with no free buffer, buffers larger than the unified buffer (192 KiB per
 * block, GOCANN_ASCENDC_UB_SIZE to change it), a tensor freed twice or to
 * the wrong queue. Matrix (cube) operations, DataCopyPad and the other
 * Ascend C APIs are not here yet.
 *
 * A kernel keeps one TPipe, as Ascend C requires: two would share the
 * unified buffer.
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
