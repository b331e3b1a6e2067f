/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * acl/acl_rt_process.h: process-level settings: callbacks run by aclInit
 * and aclFinalize, system parameters of the process and of a context, and
 * the data dump, process snapshots. Part of acl/acl_rt.h, which includes it; it may also be
 * included on its own.
 */
/* First: acl_rt.h includes every part, this one included. */
#include "acl_rt.h"

#ifndef INC_GOCANN_ACL_ACL_RT_PROCESS_H_
#define INC_GOCANN_ACL_ACL_RT_PROCESS_H_

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------
 * Init and finalize callbacks
 * ------------------------------------------------------------------------ */

/* Have aclInit call cbFunc(configuration text, its length, userData) for
 * component type; if the runtime is already initialized it is called at
 * once. Every type but ACL_REG_TYPE_OTHER takes one callback. */
ACL_FUNC_VISIBILITY aclError aclInitCallbackRegister(
    aclRegisterCallbackType type, aclInitCallbackFunc cbFunc, void* userData);

/* Remove an init callback registered for type. */
ACL_FUNC_VISIBILITY aclError aclInitCallbackUnRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc);

/* Have the aclFinalize that ends the runtime call cbFunc(userData) for
 * component type, before it releases anything. */
ACL_FUNC_VISIBILITY aclError aclFinalizeCallbackRegister(
    aclRegisterCallbackType type, aclFinalizeCallbackFunc cbFunc, void* userData);

/* Remove a finalize callback registered for type. */
ACL_FUNC_VISIBILITY aclError aclFinalizeCallbackUnRegister(
    aclRegisterCallbackType type, aclFinalizeCallbackFunc cbFunc);

/* ------------------------------------------------------------------------
 * System parameters
 * ------------------------------------------------------------------------ */

/* Store the value of opt in the current context; one never set there has
 * none (ACL_ERROR_RT_SYSPARAMOPT_NOT_SET). */
ACL_FUNC_VISIBILITY aclError aclrtCtxGetSysParamOpt(aclSysParamOpt opt, int64_t* value);

/* Set opt in the current context (and, as CANN does, in the process). */
ACL_FUNC_VISIBILITY aclError aclrtCtxSetSysParamOpt(aclSysParamOpt opt, int64_t value);

/* Store the process's value of opt; 0 if never set. */
ACL_FUNC_VISIBILITY aclError aclrtGetSysParamOpt(aclSysParamOpt opt, int64_t* value);

/* Set opt for the process. */
ACL_FUNC_VISIBILITY aclError aclrtSetSysParamOpt(aclSysParamOpt opt, int64_t value);

/* ------------------------------------------------------------------------
 * Data dump
 * ------------------------------------------------------------------------ */

/* Open a dump session (after aclInit). */
ACL_FUNC_VISIBILITY aclError aclmdlInitDump(void);

/* Apply the "dump" section of the JSON file at dumpCfgPath. */
ACL_FUNC_VISIBILITY aclError aclmdlSetDump(const char* dumpCfgPath);

/* Close the dump session. */
ACL_FUNC_VISIBILITY aclError aclmdlFinalizeDump(void);

/* ------------------------------------------------------------------------
 * Process snapshots
 * ------------------------------------------------------------------------ */

/* Lock the calling process (pid is its own id, reserve NULL): from now
 * until the unlock, calls that set devices, allocate, free or copy memory,
 * create or destroy resources, or submit tasks wait. The LOCK_PRE
 * callbacks run first. RUNNING becomes LOCKED. */
ACL_FUNC_VISIBILITY aclError aclrtSnapShotProcessLock(int pid, void* reserve);

/* Unlock the process, releasing the waiting calls, then run the
 * UNLOCK_POST callbacks. LOCKED or BACKED_UP becomes RUNNING. */
ACL_FUNC_VISIBILITY aclError aclrtSnapShotProcessUnlock(int pid, void* reserve);

/* Save the device memory of the process on the host once the devices'
 * tasks finish (args NULL). LOCKED becomes BACKED_UP. */
ACL_FUNC_VISIBILITY aclError aclrtSnapShotProcessBackup(int pid, aclrtSnapShotBackupArgs* args);

/* Write the last backup back into device memory (args NULL). BACKED_UP
 * becomes LOCKED. */
ACL_FUNC_VISIBILITY aclError aclrtSnapShotProcessRestore(int pid, aclrtSnapShotRestoreArgs* args);

/* Have callback(deviceId, args) run at stage, once for each open device;
 * a callback registers once per stage. */
ACL_FUNC_VISIBILITY aclError aclrtSnapShotCallbackRegister(
    aclrtSnapShotStage stage, aclrtSnapShotCallBack callback, void* args);

/* Remove callback from stage. */
ACL_FUNC_VISIBILITY aclError aclrtSnapShotCallbackUnregister(aclrtSnapShotStage stage, aclrtSnapShotCallBack callback);

#ifdef __cplusplus
}
#endif

#endif /* INC_GOCANN_ACL_ACL_RT_PROCESS_H_ */
