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

#ifdef __cplusplus
}
#endif

#endif /* INC_GOCANN_ACL_ACL_RT_CONTROL_H_ */
