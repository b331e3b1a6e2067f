/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * acl/acl_rt_callback.h: host callbacks and exception reports. Part of
 * acl/acl_rt.h, which includes it; it may also be included on its own.
 */
/* First: acl_rt.h includes every part, this one included. */
#include "acl_rt.h"

#ifndef INC_GOCANN_ACL_ACL_RT_CALLBACK_H_
#define INC_GOCANN_ACL_ACL_RT_CALLBACK_H_

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------
 * Host callbacks and exception reports
 * ------------------------------------------------------------------------ */

/* Whether a callback task holds back later tasks of its stream until the
 * callback returns. */
typedef enum aclrtCallbackBlockType {
    ACL_CALLBACK_NO_BLOCK,
    ACL_CALLBACK_BLOCK,
} aclrtCallbackBlockType;

/* Host function run by aclrtLaunchCallback. */
typedef void (*aclrtCallback)(void* userData);

/* Host function run by aclrtLaunchHostFunc. */
typedef void (*aclrtHostFunc)(void* args);

/* Description of a failed device task; valid only during the callback
 * that receives it. */
typedef struct rtExceptionInfo aclrtExceptionInfo;

typedef void (*aclrtExceptionInfoCallback)(aclrtExceptionInfo* exceptionInfo);

typedef void (*aclrtOpExceptionCallback)(aclrtExceptionInfo* exceptionInfo, void* userData);

/* Hardware error classes reported for a device. */
typedef enum {
    ACL_RT_NO_ERROR = 0,
    ACL_RT_ERROR_MEMORY = 1,
    ACL_RT_ERROR_L2 = 2,
    ACL_RT_ERROR_AICORE = 3,
    ACL_RT_ERROR_LINK = 4,
    ACL_RT_ERROR_L3_PORT = 5,
    ACL_RT_ERROR_OTHERS = 0xFFFF,
} aclrtErrorType;

typedef enum aclrtAicoreErrorType {
    ACL_RT_AICORE_ERROR_UNKNOWN,
    ACL_RT_AICORE_ERROR_SW,
    ACL_RT_AICORE_ERROR_HW_LOCAL,
} aclrtAicoreErrorType;

/* One damaged (uncorrectable error) memory range: start and length in
 * bytes. */
typedef struct aclrtMemUceInfo {
    void* addr;
    size_t len;
    size_t reserved[UCE_INFO_RESERVED_SIZE];
} aclrtMemUceInfo;

typedef struct {
    size_t arraySize;
    aclrtMemUceInfo memUceInfoArray[ACL_RT_MEM_UCE_INFO_MAX_NUM];
} aclrtMemUceInfoArray;

typedef union aclrtErrorInfoDetail {
    aclrtMemUceInfoArray uceInfo;
    aclrtAicoreErrorType aicoreErrType;
} aclrtErrorInfoDetail;

typedef struct aclrtErrorInfo {
    uint8_t tryRepair;
    uint8_t hasDetail;
    uint8_t reserved[2];
    aclrtErrorType errorType;
    aclrtErrorInfoDetail detail;
} aclrtErrorInfo;


/* ------------------------------------------------------------------------
 * Exception reports
 * ------------------------------------------------------------------------ */

/* A failed device task is reported to the registered callbacks with an
 * aclrtExceptionInfo that is only valid during the call. */

/* Install the one process-wide callback run when a device task fails; NULL
 * removes it. Kept for old code: prefer aclrtExceptionInfoCallbackRegister. */
ACL_DEPRECATED_MESSAGE(
    "aclrtSetExceptionInfoCallback is deprecated, use "
    "aclrtExceptionInfoCallbackRegister and aclrtExceptionInfoCallbackUnregister instead")
ACL_FUNC_VISIBILITY aclError aclrtSetExceptionInfoCallback(aclrtExceptionInfoCallback callback);

/* Add callback to those run when a device task fails; registering the same
 * function again is a no-op. */
ACL_FUNC_VISIBILITY aclError aclrtExceptionInfoCallbackRegister(
    aclrtExceptionInfoCallback callback);

/* Remove callback from those run when a device task fails. */
ACL_FUNC_VISIBILITY aclError aclrtExceptionInfoCallbackUnregister(
    aclrtExceptionInfoCallback callback);

/* Task id of the failed task in info (0xFFFFFFFF for a device-wide fault). */
ACL_FUNC_VISIBILITY uint32_t aclrtGetTaskIdFromExceptionInfo(const aclrtExceptionInfo* info);

/* Stream id of the failed task in info (0xFFFFFFFF for a device-wide fault). */
ACL_FUNC_VISIBILITY uint32_t aclrtGetStreamIdFromExceptionInfo(const aclrtExceptionInfo* info);

/* Id of the host thread that submitted the failed task in info
 * (0xFFFFFFFF for a device-wide fault). */
ACL_FUNC_VISIBILITY uint32_t aclrtGetThreadIdFromExceptionInfo(const aclrtExceptionInfo* info);

/* Device id of the failed task in info (0xFFFFFFFF for a device-wide
 * fault). */
ACL_FUNC_VISIBILITY uint32_t aclrtGetDeviceIdFromExceptionInfo(const aclrtExceptionInfo* info);

/* Error code of the failure in info (0xFFFFFFFF for a device-wide fault). */
ACL_FUNC_VISIBILITY uint32_t aclrtGetErrorCodeFromExceptionInfo(const aclrtExceptionInfo* info);

/* Fill *errorInfo with the class of device deviceId's latest task fault,
 * from before the tasks are aborted. */
ACL_FUNC_VISIBILITY aclError aclrtGetErrorVerbose(int32_t deviceId, aclrtErrorInfo* errorInfo);

/* ------------------------------------------------------------------------
 * Host callbacks
 * ------------------------------------------------------------------------ */

/* Make host thread threadId the one that runs callbacks launched on stream;
 * that thread must then call aclrtProcessReport. */
ACL_FUNC_VISIBILITY aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream);

/* Enqueue fn(userData) on stream, run by the subscribed thread once earlier
 * tasks finish; blockType says whether later tasks wait for it. */
ACL_FUNC_VISIBILITY aclError aclrtLaunchCallback(
    aclrtCallback fn, void* userData, aclrtCallbackBlockType blockType, aclrtStream stream);

/* Run the callbacks that are due on streams the calling thread subscribed
 * to, waiting up to timeout ms for one (-1: wait forever). */
ACL_FUNC_VISIBILITY aclError aclrtProcessReport(int32_t timeout);

/* Stop thread threadId from running the callbacks of stream. */
ACL_FUNC_VISIBILITY aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream);

/* Enqueue fn(args) on stream, run by a runtime thread once earlier tasks
 * finish; later tasks of the stream wait until it returns. */
ACL_FUNC_VISIBILITY aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void* args);


/* Make the caller's thread hostFuncThreadId run the host functions of
 * exeStream, inside its aclrtProcessHostFunc calls. */
ACL_FUNC_VISIBILITY aclError aclrtSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream);

/* Run one host function handed to the calling thread, waiting up to
 * timeout ms (-1: forever). */
ACL_FUNC_VISIBILITY aclError aclrtProcessHostFunc(int32_t timeout);

ACL_FUNC_VISIBILITY aclError aclrtUnSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream);

#ifdef __cplusplus
}
#endif

#endif /* INC_GOCANN_ACL_ACL_RT_CALLBACK_H_ */
