/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * acl/acl_rt_event.h: events, notifies and value operations. Part of
 * acl/acl_rt.h, which includes it; it may also be included on its own.
 */
/* First: acl_rt.h includes every part, this one included. */
#include "acl_rt.h"

#ifndef INC_GOCANN_ACL_ACL_RT_EVENT_H_
#define INC_GOCANN_ACL_ACL_RT_EVENT_H_

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------
 * Events and notifies
 * ------------------------------------------------------------------------ */

/* Result of the old aclrtQueryEvent (COMPLETE is 0 here). */
typedef enum aclrtEventStatus {
    ACL_EVENT_STATUS_COMPLETE = 0,
    ACL_EVENT_STATUS_NOT_READY = 1,
    ACL_EVENT_STATUS_RESERVED = 2,
} aclrtEventStatus;

/* Result of aclrtQueryEventStatus. Note the order is the reverse of
 * aclrtEventStatus: NOT_READY is 0 and COMPLETE is 1. */
typedef enum aclrtEventRecordedStatus {
    ACL_EVENT_RECORDED_STATUS_NOT_READY = 0,
    ACL_EVENT_RECORDED_STATUS_COMPLETE = 1,
} aclrtEventRecordedStatus;

/* Result of aclrtQueryEventWaitStatus. */
typedef enum aclrtEventWaitStatus {
    ACL_EVENT_WAIT_STATUS_COMPLETE = 0,
    ACL_EVENT_WAIT_STATUS_NOT_READY = 1,
    ACL_EVENT_WAIT_STATUS_RESERVED = 0xFFFF,
} aclrtEventWaitStatus;

/* Opaque token that lets another process open an event. */
typedef struct aclrtIpcEventHandle {
    char reserved[ACL_IPC_EVENT_HANDLE_SIZE];
} aclrtIpcEventHandle;

/* Processes (num pids at pid) of server sdid allowed to open shared
 * memory or a shared notify. */
typedef struct {
    uint32_t sdid;
    int32_t* pid;
    size_t num;
} aclrtServerPid;

/* Counting notifies: how a record changes the counter and what a wait
 * waits for. */
typedef enum {
    ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE = 0,
    ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE = 1,
    ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE = 2,
    ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE = 4,
} aclrtCntNotifyRecordMode;

typedef struct {
    aclrtCntNotifyRecordMode mode;
    uint32_t value;
} aclrtCntNotifyRecordInfo;

typedef enum {
    ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE = 0,
    ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE = 1,
    ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE = 2,
    ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE = 3,
    ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE = 4,
} aclrtCntNotifyWaitMode;

/* timeout is in seconds, 0 waits forever; isClear resets the counter
 * once the wait is satisfied. */
typedef struct {
    aclrtCntNotifyWaitMode mode;
    uint32_t value;
    uint32_t timeout;
    uint8_t isClear;
    uint8_t rsv[3];
} aclrtCntNotifyWaitInfo;

/* ------------------------------------------------------------------------
 * Events
 * ------------------------------------------------------------------------ */

/* Events mark points in a stream; a NULL stream is the default stream. */

/* Create an event with default flags. */
ACL_FUNC_VISIBILITY aclError aclrtCreateEvent(aclrtEvent* event);

/* Create an event with ACL_EVENT_* flags (combinable with |). */
ACL_FUNC_VISIBILITY aclError aclrtCreateEventWithFlag(aclrtEvent* event, uint32_t flag);

/* As aclrtCreateEventWithFlag, for an event not limited by the device's
 * hardware event count. */
ACL_FUNC_VISIBILITY aclError aclrtCreateEventExWithFlag(aclrtEvent* event, uint32_t flag);

/* Destroy event; if it is still pending, its resources go when it
 * completes. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyEvent(aclrtEvent event);

/* Enqueue on stream a record of event: it completes once the tasks before
 * it on stream have finished. */
ACL_FUNC_VISIBILITY aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream);

/* Enqueue on stream a reset of event to its initial state, so it can be
 * reused. */
ACL_FUNC_VISIBILITY aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream);

/* Store whether event has completed. Kept for old code: prefer
 * aclrtQueryEventStatus, whose status values are ordered differently. */
ACL_DEPRECATED_MESSAGE("aclrtQueryEvent is deprecated, use aclrtQueryEventStatus instead")
ACL_FUNC_VISIBILITY aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus* status);

/* Store, without blocking, whether the work captured by event's latest
 * record has finished. */
ACL_FUNC_VISIBILITY aclError aclrtQueryEventStatus(
    aclrtEvent event, aclrtEventRecordedStatus* status);

/* Store, without blocking, whether the stream waits on event have been
 * satisfied. */
ACL_FUNC_VISIBILITY aclError aclrtQueryEventWaitStatus(
    aclrtEvent event, aclrtEventWaitStatus* status);

/* Block until event completes. */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEvent(aclrtEvent event);

/* As aclrtSynchronizeEvent, but give up after timeout ms (-1: wait
 * forever). */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout);

/* Store in *ms the time in milliseconds from startEvent to endEvent, both
 * completed. */
ACL_FUNC_VISIBILITY aclError aclrtEventElapsedTime(
    float* ms, aclrtEvent startEvent, aclrtEvent endEvent);

/* Store the time event completed, in microseconds since the device
 * started. */
ACL_FUNC_VISIBILITY aclError aclrtEventGetTimestamp(aclrtEvent event, uint64_t* timestamp);

/* Store in *handle the handle of event, created with ACL_EVENT_IPC, that
 * other processes open with aclrtIpcOpenEventHandle. */
ACL_FUNC_VISIBILITY aclError aclrtIpcGetEventHandle(aclrtEvent event, aclrtIpcEventHandle* handle);

/* Open the event another process exported as handle: a new event whose
 * waits, synchronizations and queries follow the exporter's records. */
ACL_FUNC_VISIBILITY aclError aclrtIpcOpenEventHandle(aclrtIpcEventHandle handle, aclrtEvent* event);

/* ------------------------------------------------------------------------
 * Notifies and value operations
 * ------------------------------------------------------------------------ */

/* Notifies are device-side signals between streams. */

/* Create a notify with flag ACL_NOTIFY_DEFAULT or
 * ACL_NOTIFY_DEVICE_USE_ONLY. */
ACL_FUNC_VISIBILITY aclError aclrtCreateNotify(aclrtNotify* notify, uint64_t flag);

/* Destroy notify. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyNotify(aclrtNotify notify);

/* Enqueue on stream a signal of notify. */
ACL_FUNC_VISIBILITY aclError aclrtRecordNotify(aclrtNotify notify, aclrtStream stream);

/* Enqueue on stream a wait for notify to be signalled, consuming the
 * signal; the wait fails after timeout seconds (0: never). */
ACL_FUNC_VISIBILITY aclError aclrtWaitAndResetNotify(
    aclrtNotify notify, aclrtStream stream, uint32_t timeout);

/* Store the numeric id of notify. */
ACL_FUNC_VISIBILITY aclError aclrtGetNotifyId(aclrtNotify notify, uint32_t* notifyId);

/* Enqueue on stream a store of the 64-bit value at devAddr (8-byte
 * aligned); flag must be 0. */
ACL_FUNC_VISIBILITY aclError aclrtValueWrite(
    void* devAddr, uint64_t value, uint32_t flag, aclrtStream stream);

/* Enqueue on stream a wait until the 64-bit word at devAddr passes the
 * ACL_STREAM_WAIT_VALUE_* test given by flag against value. */
ACL_FUNC_VISIBILITY aclError aclrtValueWait(
    void* devAddr, uint64_t value, uint32_t flag, aclrtStream stream);

/* Enqueue a record of event on stream; flag is ACL_EVENT_RECORD_DEFAULT
 * (as aclrtRecordEvent) or ACL_EVENT_RECORD_EXTERNAL (a record inside a
 * capture that streams outside the model see). */
ACL_FUNC_VISIBILITY aclError aclrtRecordEventWithFlag(aclrtEvent event, aclrtStream stream, uint32_t flag);

/* Enqueue a wait of stream for event, timeout in seconds (0: forever);
 * flag is ACL_EVENT_WAIT_DEFAULT or ACL_EVENT_WAIT_EXTERNAL (a captured
 * wait for a record outside the model, timeout 0 only). */
ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEventWithFlag(
    aclrtStream stream, aclrtEvent event, uint32_t timeout, uint32_t flag);

/* The id of event on its device. */
ACL_FUNC_VISIBILITY aclError aclrtGetEventId(aclrtEvent event, uint32_t* eventId);

/* How many more counted events the current device can create. */
ACL_FUNC_VISIBILITY aclError aclrtGetEventAvailNum(uint32_t* eventCount);

/* Clear, from the host and at once, the unconsumed records of num
 * notifies. */
ACL_FUNC_VISIBILITY aclError aclrtNotifyBatchReset(aclrtNotify* notifies, size_t num);

/* Export notify to other processes: store its key (64 characters and a
 * NUL, len at least 65) in key. flags is
 * ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT (whitelisted processes only) or
 * ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION. */
ACL_FUNC_VISIBILITY aclError aclrtNotifyGetExportKey(aclrtNotify notify, char* key, size_t len, uint64_t flags);

/* Import the notify another process exported as key: a new notify whose
 * records signal the creator's; only the creator waits on it. */
ACL_FUNC_VISIBILITY aclError aclrtNotifyImportByKey(aclrtNotify* notify, const char* key, uint64_t flags);

/* Add num processes (aclrtDeviceGetBareTgid) to the whitelist of exported
 * notify. */
ACL_FUNC_VISIBILITY aclError aclrtNotifySetImportPid(aclrtNotify notify, int32_t* pid, size_t num);

/* Add processes of SuperPOD servers, one per entry, to the whitelist of
 * exported notify. */
ACL_FUNC_VISIBILITY aclError aclrtNotifySetImportPidInterServer(
    aclrtNotify notify, aclrtServerPid* serverPids, size_t num);

/* Counting notifies: a 32-bit count that records change and waits test,
 * in stream order. flag is reserved (0). */
ACL_FUNC_VISIBILITY aclError aclrtCntNotifyCreate(aclrtCntNotify* cntNotify, uint64_t flag);

ACL_FUNC_VISIBILITY aclError aclrtCntNotifyDestroy(aclrtCntNotify cntNotify);

/* Enqueue a change of the count by info->mode and info->value. */
ACL_FUNC_VISIBILITY aclError aclrtCntNotifyRecord(
    aclrtCntNotify cntNotify, aclrtStream stream, aclrtCntNotifyRecordInfo* info);

/* Enqueue a wait until the count passes info's test (timeout in seconds,
 * 0: forever; isClear 1 zeroes the count when the wait ends). */
ACL_FUNC_VISIBILITY aclError aclrtCntNotifyWaitWithTimeout(
    aclrtCntNotify cntNotify, aclrtStream stream, aclrtCntNotifyWaitInfo* info);

/* Enqueue a reset of the count to 0. */
ACL_FUNC_VISIBILITY aclError aclrtCntNotifyReset(aclrtCntNotify cntNotify, aclrtStream stream);

ACL_FUNC_VISIBILITY aclError aclrtCntNotifyGetId(aclrtCntNotify cntNotify, uint32_t* notifyId);

#ifdef __cplusplus
}
#endif

#endif /* INC_GOCANN_ACL_ACL_RT_EVENT_H_ */
