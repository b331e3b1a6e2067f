/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * acl/acl_prof.h: profiling (aclprof*). Collection writes msprof's
 * PROF_* directory under the aclprofInit path between aclprofStart and
 * aclprofStop; the msproftx calls put marks and ranges on the timeline;
 * a model subscription writes one record per operation of each run of the
 * model to a pipe, which the aclprofGetOp* calls read. acl/acl.h does not
 * include it, as CANN's does not. docs/profiling.md describes the output.
 * The library that holds these functions is also installed as
 * libmsprofiler.so.
 */
#ifndef INC_EXTERNAL_ACL_PROF_H_
#define INC_EXTERNAL_ACL_PROF_H_

#if (defined(_WIN32) || defined(_WIN64) || defined(_MSC_VER))
#define MSVP_PROF_API __declspec(dllexport)
#else
#define MSVP_PROF_API __attribute__((visibility("default")))
#endif

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What aclprofCreateConfig's dataTypeConfig asks for, ORed together. */
#define ACL_PROF_ACL_API 0x0001ULL
#define ACL_PROF_TASK_TIME 0x0002ULL
#define ACL_PROF_AICORE_METRICS 0x0004ULL
#define ACL_PROF_AICPU 0x0008ULL
#define ACL_PROF_L2CACHE 0x0010ULL
#define ACL_PROF_HCCL_TRACE 0x0020ULL
#define ACL_PROF_TRAINING_TRACE 0x0040ULL
#define ACL_PROF_MSPROFTX 0x0080ULL
#define ACL_PROF_RUNTIME_API 0x0100ULL
#define ACL_PROF_GE_API_L0 0x0200ULL
#define ACL_PROF_TASK_TIME_L0 0x0800ULL
#define ACL_PROF_TASK_MEMORY 0x1000ULL
#define ACL_PROF_GE_API_L1 0x01000000ULL
#define ACL_PROF_TASK_TIME_L2 0x2000ULL
#define ACL_PROF_OP_ATTR 0x4000ULL
#define ACL_PROF_TASK_TIME_L3 0x8000ULL
#define ACL_PROF_API_STATS 0x400000000ULL
#define ACL_PROF_AICORE_SHAPE 0x800000000ULL

/* Longest operator name and type of a subscription record, with the
 * terminating NUL; aclprofGetOpNameLen and aclprofGetOpTypeLen give the
 * actual lengths. */
#define ACL_PROF_MAX_OP_NAME_LEN 257
#define ACL_PROF_MAX_OP_TYPE_LEN 65

/* Dimensions of an aclprofTensor's shape. */
#ifndef ACL_PROF_TENSOR_DATA_SHAPE_LEN
#define ACL_PROF_TENSOR_DATA_SHAPE_LEN 8
#endif

/* The AI core metric a configuration collects. The simulated cores count
 * no hardware events: the metric is checked and kept, and the timeline
 * has none. */
typedef enum {
    ACL_AICORE_ARITHMETIC_UTILIZATION = 0,
    ACL_AICORE_PIPE_UTILIZATION = 1,
    ACL_AICORE_MEMORY_BANDWIDTH = 2,
    ACL_AICORE_L0B_AND_WIDTH = 3,
    ACL_AICORE_RESOURCE_CONFLICT_RATIO = 4,
    ACL_AICORE_MEMORY_UB = 5,
    ACL_AICORE_L2_CACHE = 6,
    ACL_AICORE_PIPE_EXECUTE_UTILIZATION = 7,
    ACL_AICORE_MEMORY_ACCESS = 8,
    ACL_AICORE_NONE = 0xFF
} aclprofAicoreMetrics;

/* Which end of a step aclprofGetStepTimestamp marks. */
typedef enum {
    ACL_STEP_START = 0,
    ACL_STEP_END = 1
} aclprofStepTag;

/* What a subscription record describes. */
typedef enum {
    ACL_SUBSCRIBE_OP = 0,
    ACL_SUBSCRIBE_SUBGRAPH = 1,
    ACL_SUBSCRIBE_OP_THREAD = 2,
    ACL_SUBSCRIBE_NONE = 0xFF
} aclprofSubscribeOpFlag;

/* The attributes aclprofGetOpAttriValue reads. */
typedef enum {
    ACL_SUBSCRIBE_ATTRI_THREADID = 0,
    ACL_SUBSCRIBE_ATTRI_NONE
} aclprofSubscribeOpAttri;

/* The settings aclprofSetConfig takes, each a string. */
typedef enum {
    ACL_PROF_ARGS_MIN = 0,
    ACL_PROF_STORAGE_LIMIT = 1,
    ACL_PROF_SYS_HARDWARE_MEM_FREQ = 3,
    ACL_PROF_LLC_MODE = 4,
    ACL_PROF_SYS_IO_FREQ = 5,
    ACL_PROF_SYS_INTERCONNECTION_FREQ = 6,
    ACL_PROF_DVPP_FREQ = 7,
    ACL_PROF_HOST_SYS = 8,
    ACL_PROF_HOST_SYS_USAGE = 9,
    ACL_PROF_HOST_SYS_USAGE_FREQ = 10,
    ACL_PROF_LOW_POWER_FREQ = 11,
    ACL_PROF_SYS_MEM_SERVICEFLOW = 12,
    ACL_PROF_SYS_CPU_FREQ = 13,
    ACL_PROF_OPTYPE = 14,
    ACL_PROF_NTS_METRICS = 15,
    ACL_PROF_PATH = 16,
    ACL_PROF_ARGS_MAX = 17
} aclprofConfigType;

/* The message an aclprofEventAttributes carries. */
typedef enum {
    ACL_PROF_MESSAGE_TYPE_TENSOR_INFO = 0
} aclprofMessageType;

typedef struct aclprofConfig aclprofConfig;
typedef struct aclprofStopConfig aclprofStopConfig;
typedef struct aclprofAicoreEvents aclprofAicoreEvents;
typedef struct aclprofSubscribeConfig aclprofSubscribeConfig;
typedef struct aclprofStepInfo aclprofStepInfo;

/* The tensors of an operator, for aclprofRangePushEx. A program that
 * defined these structs itself before CANN published them defines
 * ACL_PROF_TENSOR_INFO_DEFINED first to keep its own. */
#ifndef ACL_PROF_TENSOR_INFO_DEFINED
#define ACL_PROF_TENSOR_INFO_DEFINED

/* aclprofEventAttributes.version of this layout. */
#define ACL_PROF_EVENT_ATTR_VERSION 1

typedef struct aclprofTensor {
    uint32_t type;     /* 0 an input, 1 an output */
    uint32_t format;   /* an aclFormat */
    uint32_t dataType; /* an aclDataType */
    uint32_t shapeDim; /* dimensions used, at most ACL_PROF_TENSOR_DATA_SHAPE_LEN */
    uint32_t shape[ACL_PROF_TENSOR_DATA_SHAPE_LEN];
} aclprofTensor;

typedef struct aclprofTensorInfo {
    uint64_t opNameId; /* aclprofStr2Id of the operator's name */
    uint64_t opTypeId; /* and of its type */
    uint32_t resv;
    uint32_t tensorNum;
    uint32_t kernelType;
    uint32_t blockNums;
    void* stream; /* the stream the operator runs on */
    aclprofTensor* tensors;
} aclprofTensorInfo;

typedef struct aclprofEventAttributes {
    uint16_t version;     /* ACL_PROF_EVENT_ATTR_VERSION */
    uint16_t size;        /* sizeof(aclprofEventAttributes) */
    uint32_t messageType; /* an aclprofMessageType */
    union Message {
        aclprofTensorInfo* tensorInfo;
    } message;
} aclprofEventAttributes;

#endif /* ACL_PROF_TENSOR_INFO_DEFINED */

/* ------------------------------------------------------------------------
 * Collection: aclInit, aclprofInit, then pairs of aclprofStart and
 * aclprofStop, then aclprofFinalize. Each aclprofStart that starts a
 * session writes PROF_<pid>_<time>_<tag>/ under the path; aclprofStop
 * completes it. Refused while aclInit's configuration or the environment
 * profiles (ACL_ERROR_PROF_ALREADY_RUN) and while a model is subscribed
 * (ACL_ERROR_PROF_API_CONFLICT).
 * ------------------------------------------------------------------------ */

/* Set the directory sessions write under (made if missing); length is
 * strlen(profilerResultPath), under 4096. After aclInit. */
MSVP_PROF_API aclError aclprofInit(const char* profilerResultPath, size_t length);

/* End profiling: stop a running session and forget the stamps. */
MSVP_PROF_API aclError aclprofFinalize(void);

/* Start collecting on the configuration's devices; a device already
 * being profiled is refused (ACL_ERROR_PROF_ALREADY_RUN). */
MSVP_PROF_API aclError aclprofStart(const aclprofConfig* profilerConfig);

/* A configuration: deviceNums ids from deviceIdList (none, with
 * ACL_PROF_MSPROFTX, for marks only), an AI core metric, aicoreEvents
 * NULL, and the ACL_PROF_* data to collect. NULL if invalid (the reason
 * in aclGetRecentErrMsg). */
MSVP_PROF_API aclprofConfig* aclprofCreateConfig(
    uint32_t* deviceIdList, uint32_t deviceNums, aclprofAicoreMetrics aicoreMetrics,
    const aclprofAicoreEvents* aicoreEvents, uint64_t dataTypeConfig);

/* Free a configuration. */
MSVP_PROF_API aclError aclprofDestroyConfig(const aclprofConfig* profilerConfig);

/* Stop collecting on the configuration's devices, which aclprofStart
 * started with the same data types; the session's files are complete
 * once no device is left. */
MSVP_PROF_API aclError aclprofStop(const aclprofConfig* profilerConfig);

/* Set one collection setting (configLength = strlen(config), at most
 * 256) for the sessions started after; ACL_PROF_PATH also sets the
 * directory. */
MSVP_PROF_API aclError aclprofSetConfig(aclprofConfigType configType, const char* config, size_t configLength);

/* ------------------------------------------------------------------------
 * Model subscription: each run of the model (aclmdlRIGetId's id, or an id
 * MsprofSetDeviceIdByGeModelIdx registered) writes one record per
 * operation, aclprofGetOpDescSize bytes each, to the pipe whose write end
 * the configuration names; unsubscribing closes it.
 * ------------------------------------------------------------------------ */

/* Subscribe model modelId with a configuration of
 * aclprofCreateSubscribeConfig. */
MSVP_PROF_API aclError aclprofModelSubscribe(uint32_t modelId, const aclprofSubscribeConfig* profSubscribeConfig);

/* End the subscription of modelId: the records of the operations run so
 * far are written, then the write end is closed. */
MSVP_PROF_API aclError aclprofModelUnSubscribe(uint32_t modelId);

/* A subscription configuration: timeInfoSwitch 1 records the operations'
 * times, 0 not; fd points to the int write end of a pipe. */
MSVP_PROF_API aclprofSubscribeConfig* aclprofCreateSubscribeConfig(
    int8_t timeInfoSwitch, aclprofAicoreMetrics aicoreMetrics, void* fd);

/* Free a subscription configuration. */
MSVP_PROF_API aclError aclprofDestroySubscribeConfig(const aclprofSubscribeConfig* profSubscribeConfig);

/* Store the size of one record. */
MSVP_PROF_API aclError aclprofGetOpDescSize(size_t* opDescSize);

/* Store the number of records in opInfoLen bytes read from the pipe. */
MSVP_PROF_API aclError aclprofGetOpNum(const void* opInfo, size_t opInfoLen, uint32_t* opNumber);

/* Store the size of record index's operator type, its NUL included. */
MSVP_PROF_API aclError aclprofGetOpTypeLen(const void* opInfo, size_t opInfoLen, uint32_t index, size_t* opTypeLen);

/* Copy record index's operator type into opType (opTypeLen bytes, the
 * last a NUL); each record's type is read once. */
MSVP_PROF_API aclError aclprofGetOpType(
    const void* opInfo, size_t opInfoLen, uint32_t index, char* opType, size_t opTypeLen);

/* Store the size of record index's operator name, its NUL included. */
MSVP_PROF_API aclError aclprofGetOpNameLen(const void* opInfo, size_t opInfoLen, uint32_t index, size_t* opNameLen);

/* Copy record index's operator name into opName (opNameLen bytes, the
 * last a NUL); each record's name is read once. */
MSVP_PROF_API aclError aclprofGetOpName(
    const void* opInfo, size_t opInfoLen, uint32_t index, char* opName, size_t opNameLen);

/* When record index's operation started, in microseconds on
 * CLOCK_MONOTONIC; 0 on failure. */
MSVP_PROF_API uint64_t aclprofGetOpStart(const void* opInfo, size_t opInfoLen, uint32_t index);

/* When it ended; 0 on failure. */
MSVP_PROF_API uint64_t aclprofGetOpEnd(const void* opInfo, size_t opInfoLen, uint32_t index);

/* How long it ran, in microseconds; 0 on failure. */
MSVP_PROF_API uint64_t aclprofGetOpDuration(const void* opInfo, size_t opInfoLen, uint32_t index);

/* The id of the model record index comes from; 0 on failure. */
MSVP_PROF_API size_t aclprofGetModelId(const void* opInfo, size_t opInfoLen, uint32_t index);

/* What record index describes; ACL_SUBSCRIBE_NONE on failure. */
MSVP_PROF_API aclprofSubscribeOpFlag aclprofGetOpFlag(const void* opInfo, size_t opInfoLen, uint32_t index);

/* Attribute attri of record index as a string, or NULL when the record
 * has none. */
MSVP_PROF_API const char* aclprofGetOpAttriValue(
    const void* opInfo, size_t opInfoLen, uint32_t index, aclprofSubscribeOpAttri attri);

/* ------------------------------------------------------------------------
 * Steps and msproftx marks, between aclprofStart and aclprofStop.
 * ------------------------------------------------------------------------ */

/* Mark the start or the end of step stepInfo on stream: the stream's
 * track shows the mark when the stream reaches it; each tag once per step
 * information. */
MSVP_PROF_API aclError aclprofGetStepTimestamp(aclprofStepInfo* stepInfo, aclprofStepTag tag, aclrtStream stream);

/* A new step information, numbered from 1. */
MSVP_PROF_API aclprofStepInfo* aclprofCreateStepInfo(void);

/* Free a step information. */
MSVP_PROF_API void aclprofDestroyStepInfo(aclprofStepInfo* stepinfo);

/* A new stamp (at most 100 live), while a session with
 * ACL_PROF_MSPROFTX runs; NULL otherwise. */
MSVP_PROF_API void* aclprofCreateStamp(void);

/* Free a stamp. */
MSVP_PROF_API void aclprofDestroyStamp(void* stamp);

/* Start a range of stamp on the calling thread's stack. */
MSVP_PROF_API aclError aclprofPush(void* stamp);

/* End the range the calling thread pushed last. */
MSVP_PROF_API aclError aclprofPop(void);

/* Start a range of stamp that any thread may end, and store its id. */
MSVP_PROF_API aclError aclprofRangeStart(void* stamp, uint32_t* rangeId);

/* End the range rangeId. */
MSVP_PROF_API aclError aclprofRangeStop(uint32_t rangeId);

/* Set the message of stamp's marks and ranges (msgLen bytes, under 128). */
MSVP_PROF_API aclError aclprofSetStampTraceMessage(void* stamp, const char* msg, uint32_t msgLen);

/* Mark this instant with stamp's message. */
MSVP_PROF_API aclError aclprofMark(void* stamp);

/* Mark this instant with msg (msgLen = strlen(msg), 1 to 127) and queue a
 * mark on stream that its track shows when the stream reaches it. */
MSVP_PROF_API aclError aclprofMarkEx(const char* msg, size_t msgLen, aclrtStream stream);

/* A 64-bit id of message (an operator's name, say); UINT64_MAX for NULL
 * or "". */
MSVP_PROF_API uint64_t aclprofStr2Id(const char* message);

/* Start a range carrying an operator's tensors, on the calling thread. */
MSVP_PROF_API aclError aclprofRangePushEx(aclprofEventAttributes* attr);

/* End the range the calling thread started last with aclprofRangePushEx. */
MSVP_PROF_API aclError aclprofRangePop(void);

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_ACL_PROF_H_ */
