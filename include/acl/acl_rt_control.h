/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * acl/acl_rt_control.h: controlling execution: the cores kernels may use
 * (per device, per stream, and as a thread reports them). Part of
 * acl/acl_rt.h, which includes it; it may also be included on its own.
 */
/* First: acl_rt.h includes every part, this one included. */
#include "acl_rt.h"

#ifndef INC_GOCANN_ACL_ACL_RT_CONTROL_H_
#define INC_GOCANN_ACL_ACL_RT_CONTROL_H_

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------
 * Core resource limits
 *
 * A kernel's blocks run on at most as many cores at once as the limit in
 * force on its stream when it was queued: the stream's own, else its
 * device's, else the chip's count. The simulator counts each block as one
 * cube and one vector core, so the tighter of the two limits applies.
 * ------------------------------------------------------------------------ */

/* The process's limit of type on device deviceId: the one set, else the
 * chip's number of such cores. */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t* value);

/* Limit the cores of type the kernels queued from now on may use, on every
 * stream of the device without its own limit; value is at most the chip's
 * count. The device must be set. */
ACL_FUNC_VISIBILITY aclError aclrtSetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t value);

/* Return the device's limits to the chip's counts. */
ACL_FUNC_VISIBILITY aclError aclrtResetDeviceResLimit(int32_t deviceId);

/* The limit of type on stream (NULL: the default stream): its own, else
 * its device's. */
ACL_FUNC_VISIBILITY aclError aclrtGetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t* value);

/* Limit the cores of type the kernels queued on stream from now on may
 * use, whatever the device's limit. */
ACL_FUNC_VISIBILITY aclError aclrtSetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t value);

/* Drop the stream's own limits. */
ACL_FUNC_VISIBILITY aclError aclrtResetStreamResLimit(aclrtStream stream);

/* Have this thread report stream's limits (aclrtGetResInCurrentThread);
 * a later call replaces the stream. */
ACL_FUNC_VISIBILITY aclError aclrtUseStreamResInCurrentThread(aclrtStream stream);

/* Stop reporting stream's limits in this thread; another stream than the
 * one in use changes nothing. */
ACL_FUNC_VISIBILITY aclError aclrtUnuseStreamResInCurrentThread(aclrtStream stream);

/* The cores of type this thread may use: the limit set on the stream it
 * uses, else its current device's, else the chip's count. */
ACL_FUNC_VISIBILITY aclError aclrtGetResInCurrentThread(aclrtDevResLimitType type, uint32_t* value);

/* ------------------------------------------------------------------------
 * Built-in tasks
 *
 * Stream tasks that need no kernel: they order, fail and are captured like
 * any other task.
 * ------------------------------------------------------------------------ */

/* Queue dst = dst kind src over count bytes of elements of type, both on
 * the stream's device and aligned to the element. float16 and bfloat16
 * round to nearest even; integer sums wrap; a stream created in saturation
 * mode saturates float results. reserve must be NULL. */
ACL_FUNC_VISIBILITY aclError aclrtReduceAsync(
    void* dst, const void* src, uint64_t count, aclrtReduceKind kind, aclDataType type, aclrtStream stream,
    void* reserve);

/* Queue the generation of taskInfo->randomNum random numbers at
 * taskInfo->randomResultAddr: Philox4x32-10 keyed by the seed, from the
 * 128-bit counter at randomCounterAddr (16 bytes of device memory), which
 * the task advances by the blocks it draws. reserve must be NULL. */
ACL_FUNC_VISIBILITY aclError aclrtRandomNumAsync(
    const aclrtRandomNumTaskInfo* taskInfo, const aclrtStream stream, void* reserve);

/* ------------------------------------------------------------------------
 * Float overflow
 *
 * A stream takes its device's overflow mode when it is created. Tasks on a
 * stream whose overflow switch is on set the device's overflow status when
 * they produce an inf or a NaN (kernels: when they report one); the status
 * tasks copy out or clear that one status, 64 bytes whose first 32-bit
 * word is 1 after an overflow.
 * ------------------------------------------------------------------------ */

/* Set the current device's mode for the streams created from now on. */
ACL_FUNC_VISIBILITY aclError aclrtSetDeviceSatMode(aclrtFloatOverflowMode mode);

/* The current device's mode. */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceSatMode(aclrtFloatOverflowMode* mode);

/* Turn overflow detection on stream on (flag 1) or off (0) for the tasks
 * queued from now on. */
ACL_FUNC_VISIBILITY aclError aclrtSetStreamOverflowSwitch(aclrtStream stream, uint32_t flag);

/* Whether stream detects overflow (1) or not (0). */
ACL_FUNC_VISIBILITY aclError aclrtGetStreamOverflowSwitch(aclrtStream stream, uint32_t* flag);

/* Queue the copy of the device's overflow status to outputAddr
 * (outputSize must be 64). */
ACL_FUNC_VISIBILITY aclError aclrtGetOverflowStatus(void* outputAddr, size_t outputSize, aclrtStream stream);

/* Queue the clearing of the device's overflow status. */
ACL_FUNC_VISIBILITY aclError aclrtResetOverflowStatus(aclrtStream stream);

/* The device address of the overflow status, for operators to report
 * into. */
ACL_FUNC_VISIBILITY aclError aclrtCtxGetFloatOverflowAddr(void** overflowAddr);

/* aclrtGetOverflowStatus and aclrtResetOverflowStatus under their other
 * names. */
ACL_FUNC_VISIBILITY aclError aclrtGetFloatOverflowStatus(void* outputAddr, uint64_t outputSize, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtResetFloatOverflowStatus(aclrtStream stream);

/* The same as NPU float status tasks; checkMode selects nothing on the
 * simulated NPU, whose one status covers every check. */
ACL_FUNC_VISIBILITY aclError aclrtNpuGetFloatOverFlowStatus(
    void* outputAddr, uint64_t outputSize, uint32_t checkMode, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtNpuClearFloatOverFlowStatus(uint32_t checkMode, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* INC_GOCANN_ACL_ACL_RT_CONTROL_H_ */
