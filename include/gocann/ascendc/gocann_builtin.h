/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * The names the Ascend C compiler gives kernels without any include: the
 * AI core's pipes (pipe_t) and hardware event ids (event_t), block_idx and
 * block_num, the kernel types of KERNEL_TASK_TYPE_DEFAULT, and the tiling
 * key TILING_KEY_IS tests (which a CPU-debug main sets with
 * ICPU_SET_TILING_KEY). The compiler driver's prelude and
 * kernel_operator.h include it.
 */
#ifndef GOCANN_ASCENDC_BUILTIN_H_
#define GOCANN_ASCENDC_BUILTIN_H_

#include <cstdint>

#include "../kernel.h"

/* The pipes of an AI core, for PipeBarrier. */
enum pipe_t {
    PIPE_S = 0,
    PIPE_V,
    PIPE_M,
    PIPE_MTE1,
    PIPE_MTE2,
    PIPE_MTE3,
    PIPE_ALL,
    PIPE_MTE4 = 7,
    PIPE_MTE5 = 8,
    PIPE_V2 = 9,
    PIPE_FIX = 10,
};

/* The hardware event ids of SetFlag and WaitFlag. */
enum event_t {
    EVENT_ID0 = 0,
    EVENT_ID1,
    EVENT_ID2,
    EVENT_ID3,
    EVENT_ID4,
    EVENT_ID5,
    EVENT_ID6,
    EVENT_ID7,
};

/* Ascend C's built-in block variables, read-only here. */
#ifndef block_idx
#define block_idx (::GetBlockIdx())
#endif
#ifndef block_num
#define block_num (::GetBlockNum())
#endif

/* The kernel types a kernel may declare with KERNEL_TASK_TYPE_DEFAULT. A
 * block here runs on one simulated core whatever its type, so the
 * declaration only has to compile. */
enum KernelMetaType {
    KERNEL_TYPE_AIV_ONLY,
    KERNEL_TYPE_AIC_ONLY,
    KERNEL_TYPE_MIX_AIV_1_0,
    KERNEL_TYPE_MIX_AIC_1_0,
    KERNEL_TYPE_MIX_AIC_1_1,
    KERNEL_TYPE_MIX_AIC_1_2,
    KERNEL_TYPE_AICORE,
    KERNEL_TYPE_VECTORCORE,
    KERNEL_TYPE_MIX_AICORE,
    KERNEL_TYPE_MIX_VECTOR_CORE,
    KERNEL_TYPE_MAX,
};
#define KERNEL_TASK_TYPE_DEFAULT(type) ((void)(type))
#define KERNEL_TASK_TYPE(key, type) ((void)(key), (void)(type))

/* The tiling key of the kernels the program launches: one for the
 * process, shared by every source (an inline variable). */
inline uint64_t g_tilingKey = 0;
#define TILING_KEY_IS(key) (::g_tilingKey == static_cast<uint64_t>(key))

#endif /* GOCANN_ASCENDC_BUILTIN_H_ */
