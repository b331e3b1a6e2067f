/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * acl/acl_rt_control.h: controlling execution: the cores kernels may use
 * (per device, per stream, and as a thread reports them), operator
 * timeouts and capability groups. Part of
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

/* ------------------------------------------------------------------------
 * Operator timeouts
 *
 * The process's, for every device. An execute timeout is interval * N
 * microseconds, N in [1, 254] (a request is rounded up, capped at 254).
 * A kernel past it fails with ACL_ERROR_RT_AICORE_TIMEOUT at the deadline,
 * reported to the exception callback and by its stream's next synchronize.
 * A CPU cannot stop a block: it runs on until it returns, its cores stay
 * busy, the stream's later tasks wait for it and, in ACL_STOP_ON_FAILURE
 * mode, never run.
 * ------------------------------------------------------------------------ */

/* Set the timeout of device-side waits (aclrtStreamWaitEvent, notify waits
 * without a timeout of their own) queued from now on, in seconds; 0, the
 * default, waits for ever. A wait past it fails with
 * ACL_ERROR_RT_WAIT_TIMEOUT at the next synchronize. */
ACL_FUNC_VISIBILITY aclError aclrtSetOpWaitTimeout(uint32_t timeout);

/* Set the execute timeout of kernels launched without their own, in
 * seconds; 0: the longest. */
ACL_FUNC_VISIBILITY aclError aclrtSetOpExecuteTimeOut(uint32_t timeout);

/* The millisecond form, which no product offers:
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT. */
ACL_FUNC_VISIBILITY aclError aclrtSetOpExecuteTimeOutWithMs(uint32_t timeout);

/* Set the execute timeout in microseconds and store the one in force in
 * *actualTimeout. With an interval under 100000 us, 0 means kernels never
 * time out and *actualTimeout is UINT64_MAX; otherwise 0 is the longest. */
ACL_FUNC_VISIBILITY aclError aclrtSetOpExecuteTimeOutV2(uint64_t timeout, uint64_t* actualTimeout);

/* Store the tick of operator timeouts, in microseconds (4294967 on the
 * Atlas A2, A3 and Ascend 950). */
ACL_FUNC_VISIBILITY aclError aclrtGetOpTimeOutInterval(uint64_t* interval);

/* Store the execute timeout in force, in milliseconds, rounded up:
 * UINT32_MAX when kernels never time out; by default the longest (1091 s
 * on the Atlas A2, A3 and Ascend 950). */
ACL_FUNC_VISIBILITY aclError aclrtGetOpExecuteTimeout(uint32_t* const timeoutMs);

/* ------------------------------------------------------------------------
 * Capability groups (Atlas inference series only; other chips answer
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
 *
 * The device's AI cores split into groups, which the simulator's
 * "core_groups" configuration creates as the driver's tools do on the
 * hardware. Kernels of a group run on its cores only, shared by all of
 * them.
 * ------------------------------------------------------------------------ */

/* Make group groupId the current device's, for the kernels launched from
 * now on and the streams created from now on, in every thread, until the
 * device is reset. */
ACL_FUNC_VISIBILITY aclError aclrtSetGroup(int32_t groupId);

/* Store the number of groups of the current device. */
ACL_FUNC_VISIBILITY aclError aclrtGetGroupCount(uint32_t* count);

/* An array for every group of the current device, or NULL if it has none;
 * free it with aclrtDestroyGroupInfo. */
ACL_FUNC_VISIBILITY aclrtGroupInfo* aclrtCreateGroupInfo(void);

/* Free an array of aclrtCreateGroupInfo. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyGroupInfo(aclrtGroupInfo* groupInfo);

/* Fill an array of aclrtCreateGroupInfo with the current device's groups,
 * in group id order. */
ACL_FUNC_VISIBILITY aclError aclrtGetAllGroupInfo(aclrtGroupInfo* groupInfo);

/* Store attribute attr of entry groupIndex of a filled array at attrValue
 * (every attribute is a 4-byte integer) and its size at *paramRetSize. */
ACL_FUNC_VISIBILITY aclError aclrtGetGroupInfoDetail(
    const aclrtGroupInfo* groupInfo, int32_t groupIndex, aclrtGroupAttr attr, void* attrValue, size_t valueLen,
    size_t* paramRetSize);

#ifdef __cplusplus
}
#endif

#endif /* INC_GOCANN_ACL_ACL_RT_CONTROL_H_ */
