/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * acl/acl_rt.h: the runtime API: initialisation, devices, contexts,
 * streams, events, notifies, memory, host callbacks, exception reporting
 * and kernel loading and launch, with every flag, enum and structure those
 * calls use. Values and layouts are binary-compatible with CANN 1.17.
 */
#ifndef INC_EXTERNAL_ACL_ACL_RT_H_
#define INC_EXTERNAL_ACL_ACL_RT_H_

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* API version implemented: 1.17.0. */
#define ACL_MAJOR_VERSION 1
#define ACL_MINOR_VERSION 17
#define ACL_PATCH_VERSION 0

/* ------------------------------------------------------------------------
 * Flags and limits
 * ------------------------------------------------------------------------ */

/* Event creation flags, combinable with |. */
#define ACL_EVENT_SYNC 0x00000001U
#define ACL_EVENT_CAPTURE_STREAM_PROGRESS 0x00000002U
#define ACL_EVENT_TIME_LINE 0x00000008U
#define ACL_EVENT_DEVICE_USE_ONLY 0x00000010U
#define ACL_EVENT_EXTERNAL 0x00000020U
#define ACL_EVENT_IPC 0x00000040U

/* Event record and wait flags. */
#define ACL_EVENT_RECORD_DEFAULT 0x0U
#define ACL_EVENT_RECORD_EXTERNAL 0x01U
#define ACL_EVENT_WAIT_DEFAULT 0x0U
#define ACL_EVENT_WAIT_EXTERNAL 0x01U

/* Stream creation flags, combinable with |. */
#define ACL_STREAM_FAST_LAUNCH 0x00000001U
#define ACL_STREAM_FAST_SYNC 0x00000002U
#define ACL_STREAM_PERSISTENT 0x00000004U
#define ACL_STREAM_HUGE 0x00000008U
#define ACL_STREAM_CPU_SCHEDULE 0x00000010U
#define ACL_STREAM_DEVICE_USE_ONLY 0x00000020U

/* Comparison used by aclrtValueWait on the 64-bit word w against value v:
 * GEQ (int64_t)(w - v) >= 0, EQ w == v, AND (w & v) != 0, NOR ~(w | v) != 0. */
#define ACL_STREAM_WAIT_VALUE_GEQ 0x00000000U
#define ACL_STREAM_WAIT_VALUE_EQ 0x00000001U
#define ACL_STREAM_WAIT_VALUE_AND 0x00000002U
#define ACL_STREAM_WAIT_VALUE_NOR 0x00000003U

/* What a stream does after one of its tasks fails
 * (aclrtSetStreamFailureMode). */
#define ACL_CONTINUE_ON_FAILURE 0x00000000U
#define ACL_STOP_ON_FAILURE 0x00000001U

/* Notify creation flags. */
#define ACL_NOTIFY_DEFAULT 0x00000000U
#define ACL_NOTIFY_DEVICE_USE_ONLY 0x00000001U

/* Notify sharing between processes. */
#define ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION 0x02UL
#define ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS 0x02UL

/* Answers of a device feature query. */
#define ACL_DEV_FEATURE_SUPPORT 0x00000001
#define ACL_DEV_FEATURE_NOT_SUPPORT 0x00000000

/* How a device is attached to the host (ACL_DEV_ATTR_HD_CONNECT_TYPE). */
#define ACL_HOST_DEVICE_CONNECT_TYPE_PCIE 0
#define ACL_HOST_DEVICE_CONNECT_TYPE_HCCS 1
#define ACL_HOST_DEVICE_CONNECT_TYPE_UB 2

/* Product form of a device (ACL_DEV_ATTR_DEVICE_FORM_FACTOR). */
#define ACL_DEVICE_FORM_FACTOR_POD 0
#define ACL_DEVICE_FORM_FACTOR_A_K 1
#define ACL_DEVICE_FORM_FACTOR_A_X 2
#define ACL_DEVICE_FORM_FACTOR_PCIE_CARD 3

/* Bits describing the connection between two devices. */
#define ACL_RT_DEVS_TOPOLOGY_HCCS 0x01ULL
#define ACL_RT_DEVS_TOPOLOGY_PIX 0x02ULL
#define ACL_RT_DEVS_TOPOLOGY_PIB 0x04ULL
#define ACL_RT_DEVS_TOPOLOGY_PHB 0x08ULL
#define ACL_RT_DEVS_TOPOLOGY_SYS 0x10ULL
#define ACL_RT_DEVS_TOPOLOGY_SIO 0x20ULL
#define ACL_RT_DEVS_TOPOLOGY_HCCS_SW 0x40ULL

/* Sharing device memory between processes. */
#define ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION 0x1UL
#define ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS 0x1UL
#define ACL_RT_VMM_EXPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION 0x1UL

/* Link choices for the ACL_RT_IPC_MEM_ATTR_ACCESS_LINK attribute. */
#define ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_SIO 0
#define ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_HCCS 1
#define ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_ONE_PORT_PATH 2
#define ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_MULTI_PORT_PATH 3

/* Flags for registering host memory with the device, combinable with |. */
#define ACL_HOST_REG_MAPPED 0x2UL
#define ACL_HOST_REG_IOMEMORY 0x4UL
#define ACL_HOST_REG_READONLY 0x8UL
#define ACL_HOST_REG_PINNED 0x10000000UL

/* Managed (unified) memory attach flag. */
#define ACL_RT_MEM_ATTACH_GLOBAL 0x01U

/* Link index for memory mapping: 0 is SIO, 1 is HCCS. */
#define ACL_RT_MEM_LINK_IDX_0 0U
#define ACL_RT_MEM_LINK_IDX_1 1U

/* Device memory kinds. */
#define ACL_RT_MEM_TYPE_DEV (0X2U)
#define ACL_RT_MEM_TYPE_DVPP (0X8U)
#define ACL_RT_MEM_TYPE_RSVD (0X10U)

/* Capacity limits. */
#define ACL_RT_MAX_RECORD_PA_NUM_PER_DEV 20U
#define ACL_IPC_EVENT_HANDLE_SIZE 64U
#define ACL_RT_CMO_MAX_BARRIER_NUM 6U

/* Sizes of the memory-error (UCE) report. */
#define MAX_MEM_UCE_INFO_ARRAY_SIZE 128
#define UCE_INFO_RESERVED_SIZE 14
#define ACL_RT_MEM_UCE_INFO_MAX_NUM 20

/* Identifiers of the core type a kernel binary targets
 * (ACL_RT_BINARY_LOAD_OPT_MAGIC). */
#define ACL_RT_BINARY_MAGIC_ELF_AICORE 0x43554245U
#define ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE 0x41415246U
#define ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE 0x41494343U

/* Detail level of a model run instance's JSON debug dump. */
#define ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY 0x0UL
#define ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE 0x1UL

/* Buffer sizes for package version strings, bytes. */
#define ACL_PKG_VERSION_MAX_SIZE 128
#define ACL_PKG_VERSION_PARTS_MAX_SIZE 64

/* ------------------------------------------------------------------------
 * Devices
 * ------------------------------------------------------------------------ */

/* Whether the program runs on the host or on the device's own CPU. */
typedef enum aclrtRunMode {
    ACL_DEVICE,
    ACL_HOST,
} aclrtRunMode;

/* Task scheduler a thread submits to. */
typedef enum aclrtTsId {
    ACL_TS_ID_AICORE = 0,
    ACL_TS_ID_AIVECTOR = 1,
    ACL_TS_ID_RESERVED = 2,
} aclrtTsId;

/* Health of a device. */
typedef enum aclrtDeviceStatus {
    ACL_RT_DEVICE_STATUS_NORMAL = 0,
    ACL_RT_DEVICE_STATUS_ABNORMAL,
    ACL_RT_DEVICE_STATUS_END = 0xFFFF,
} aclrtDeviceStatus;

/* Device properties readable with aclrtGetDeviceInfo. Counts are plain
 * numbers, sizes are bytes. Several names share a value (old spellings). */
typedef enum {
    ACL_DEV_ATTR_AICPU_CORE_NUM = 1,

    ACL_DEV_ATTR_AICORE_CORE_NUM = 101,
    ACL_DEV_ATTR_CUBE_CORE_NUM = 102,

    ACL_DEV_ATTR_VECTOR_CORE_NUM = 201,
    ACL_DEV_ATTR_WARP_SIZE = 202,
    ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE = 203,
    ACL_DEV_ATTR_LOCAL_MEM_PER_VECTOR_CORE ACL_DEPRECATED_MESSAGE(
        "Use ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE instead") = 204,
    ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE = 204,
    ACL_DEV_ATTR_MAX_GRID_DIM_X = 205,
    ACL_DEV_ATTR_MAX_GRID_DIM_Y = 206,
    ACL_DEV_ATTR_MAX_GRID_DIM_Z = 207,
    ACL_DEV_ATTR_MAX_BLOCK_PER_GRID = 208,
    ACL_DEV_ATTR_MAX_THREADS_PER_BLOCK = 209,
    ACL_DEV_ATTR_MAX_BLOCK_DIM_X = 210,
    ACL_DEV_ATTR_MAX_BLOCK_DIM_Y = 211,
    ACL_DEV_ATTR_MAX_BLOCK_DIM_Z = 212,

    ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE = 301,
    ACL_DEV_ATTR_L2_CACHE_SIZE = 302,

    ACL_DEV_ATTR_SMP_ID = 401U,
    ACL_DEV_ATTR_PHY_CHIP_ID = 402U,
    ACL_DEV_ATTR_SUPER_POD_DEVIDE_ID = 403U, /* misspelt alias of the next */
    ACL_DEV_ATTR_SUPER_POD_DEVICE_ID = 403U,
    ACL_DEV_ATTR_SUPER_POD_SERVER_ID = 404U,
    ACL_DEV_ATTR_SUPER_POD_ID = 405U,
    ACL_DEV_ATTR_CUST_OP_PRIVILEGE = 406U,
    ACL_DEV_ATTR_MAINBOARD_ID = 407U,
    ACL_DEV_ATTR_HD_CONNECT_TYPE = 408U,
    ACL_DEV_ATTR_DEVICE_FORM_FACTOR = 409U,

    ACL_DEV_ATTR_IS_VIRTUAL = 501U,

    ACL_DEV_ATTR_NPU_ARCH = 601U,
} aclrtDevAttr;

/* Optional device features. */
typedef enum {
    ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV = 1,
    ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV = 21,
} aclrtDevFeatureType;

/* Per-device limits (stack and printf buffer sizes, bytes). */
typedef enum aclrtDeviceLimit {
    ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE = 0,
    ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE = 1,
    ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE = 2,
    ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE = 3,
    ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE = 4,
} aclrtDeviceLimit;

/* Core kinds whose usage can be limited. */
typedef enum {
    ACL_RT_DEV_RES_CUBE_CORE = 0,
    ACL_RT_DEV_RES_VECTOR_CORE,
} aclrtDevResLimitType;

/* How floating-point overflow is reported: clamp, or produce Inf/NaN. */
typedef enum aclrtFloatOverflowMode {
    ACL_RT_OVERFLOW_MODE_SATURATION = 0,
    ACL_RT_OVERFLOW_MODE_INFNAN,
    ACL_RT_OVERFLOW_MODE_UNDEF,
} aclrtFloatOverflowMode;

typedef struct aclrtUtilizationExtendInfo aclrtUtilizationExtendInfo;

/* Utilisation of the cube, vector and AI CPU engines and of device
 * memory. utilizationExtend must be NULL. */
typedef struct aclrtUtilizationInfo {
    int32_t cubeUtilization;
    int32_t vectorUtilization;
    int32_t aicpuUtilization;
    int32_t memoryUtilization;
    aclrtUtilizationExtendInfo* utilizationExtend;
} aclrtUtilizationInfo;

/* 16-byte unique identifier of a device. */
typedef struct aclrtUuid {
    char bytes[16];
} aclrtUuid;

/* Points in a device's set/reset life cycle at which a registered
 * callback runs. */
typedef enum {
    ACL_RT_DEVICE_STATE_SET_PRE = 0,
    ACL_RT_DEVICE_STATE_SET_POST,
    ACL_RT_DEVICE_STATE_RESET_PRE,
    ACL_RT_DEVICE_STATE_RESET_POST,
} aclrtDeviceState;

typedef void (*aclrtDeviceStateCallback)(int32_t deviceId, aclrtDeviceState state, void* args);

/* Phases of aborting all tasks of a device. */
typedef enum {
    ACL_RT_DEVICE_TASK_ABORT_PRE = 0,
    ACL_RT_DEVICE_TASK_ABORT_POST,
} aclrtDeviceTaskAbortStage;

typedef int32_t (*aclrtDeviceTaskAbortCallback)(
    int32_t deviceId, aclrtDeviceTaskAbortStage stage, uint32_t timeout, void* args);

/* Core groups. */
typedef struct tagRtGroupInfo aclrtGroupInfo;

typedef enum aclrtGroupAttr {
    ACL_GROUP_AICORE_INT,
    ACL_GROUP_AIV_INT,
    ACL_GROUP_AIC_INT,
    ACL_GROUP_SDMANUM_INT,
    ACL_GROUP_ASQNUM_INT,
    ACL_GROUP_GROUPID_INT
} aclrtGroupAttr;

/* Hardware accelerator kinds. */
typedef enum {
    ACL_RT_HAC_TYPE_STARS = 0,
    ACL_RT_HAC_TYPE_AICPU,
    ACL_RT_HAC_TYPE_AIC,
    ACL_RT_HAC_TYPE_AIV,
    ACL_RT_HAC_TYPE_PCIEDMA,
    ACL_RT_HAC_TYPE_RDMA,
    ACL_RT_HAC_TYPE_SDMA,
    ACL_RT_HAC_TYPE_DVPP,
    ACL_RT_HAC_TYPE_UDMA,
    ACL_RT_HAC_TYPE_CCU
} aclrtHacType;

/* Atomic operations a device supports, as capability bits. */
typedef enum aclrtAtomicOperationCapability {
    ACL_RT_ATOMIC_CAPABILITY_SIGNED = 1U << 0,
    ACL_RT_ATOMIC_CAPABILITY_UNSIGNED = 1U << 1,
    ACL_RT_ATOMIC_CAPABILITY_REDUCATION = 1U << 2, /* misspelt alias of the next */
    ACL_RT_ATOMIC_CAPABILITY_REDUCTION = 1U << 2,
    ACL_RT_ATOMIC_CAPABILITY_SCALAR8 = 1U << 3,
    ACL_RT_ATOMIC_CAPABILITY_SCALAR16 = 1U << 4,
    ACL_RT_ATOMIC_CAPABILITY_SCALAR32 = 1U << 5,
    ACL_RT_ATOMIC_CAPABILITY_SCALAR64 = 1U << 6,
    ACL_RT_ATOMIC_CAPABILITY_SCALAR128 = 1U << 7,
    ACL_RT_ATOMIC_CAPABILITY_VECTOR32X4 = 1U << 8,
} aclrtAtomicOperationCapability;

typedef enum aclrtAtomicOperation {
    ACL_RT_ATOMIC_OPERATION_INTEGER_ADD = 0,
    ACL_RT_ATOMIC_OPERATION_INTEGER_MIN = 1,
    ACL_RT_ATOMIC_OPERATION_INTEGER_MAX = 2,
    ACL_RT_ATOMIC_OPERATION_INTEGER_INCREMENT = 3,
    ACL_RT_ATOMIC_OPERATION_INTEGER_DECREMENT = 4,
    ACL_RT_ATOMIC_OPERATION_AND = 5,
    ACL_RT_ATOMIC_OPERATION_OR = 6,
    ACL_RT_ATOMIC_OPERATION_XOR = 7,
    ACL_RT_ATOMIC_OPERATION_EXCHANGE = 8,
    ACL_RT_ATOMIC_OPERATION_CAS = 9,
    ACL_RT_ATOMIC_OPERATION_FLOAT_ADD = 10,
    ACL_RT_ATOMIC_OPERATION_FLOAT_MIN = 11,
    ACL_RT_ATOMIC_OPERATION_FLOAT_MAX = 12,

    ACL_RT_ATOMIC_OPERATION_DMA_ADD = 30,
    ACL_RT_ATOMIC_OPERATION_DMA_MIN = 31,
    ACL_RT_ATOMIC_OPERATION_DMA_MAX = 32,

    ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_ADD = 40,
    ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_MIN = 41,
    ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_MAX = 42,
    ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_CAS = 43,
    ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_EXCH = 44,
} aclrtAtomicOperation;

/* Whether the process accepts runtime calls or is locked. */
typedef enum aclrtProcessState {
    ACL_RT_PROCESS_STATE_RUNNING = 0,
    ACL_RT_PROCESS_STATE_LOCKED,
} aclrtProcessState;

/* Scope of the "last error" kept by the runtime: per host thread only. */
typedef enum aclrtLastErrLevel {
    ACL_RT_THREAD_LEVEL = 0,
} aclrtLastErrLevel;

/* ------------------------------------------------------------------------
 * Streams
 * ------------------------------------------------------------------------ */

/* Result of aclrtStreamQuery: whether every task on the stream has run. */
typedef enum aclrtStreamStatus {
    ACL_STREAM_STATUS_COMPLETE = 0,
    ACL_STREAM_STATUS_NOT_READY = 1,
    ACL_STREAM_STATUS_RESERVED = 0xFFFF,
} aclrtStreamStatus;

/* Fields of a stream configuration set with aclrtSetStreamConfigOpt. */
typedef enum {
    ACL_RT_STREAM_WORK_ADDR_PTR = 0,
    ACL_RT_STREAM_WORK_SIZE,
    ACL_RT_STREAM_FLAG,
    ACL_RT_STREAM_PRIORITY,
} aclrtStreamConfigAttr;

/* Stream configuration consumed by aclrtCreateStreamV2. The layout is
 * public; obtain one from aclrtCreateStreamConfigHandle. */
typedef struct aclrtStreamConfigHandle {
    void* workptr;
    size_t workSize;
    size_t flag;
    uint32_t priority;
} aclrtStreamConfigHandle;

/* Stream attributes for aclrtSetStreamAttribute/aclrtGetStreamAttribute. */
typedef enum {
    ACL_STREAM_ATTR_FAILURE_MODE = 1,
    ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK = 2,
    ACL_STREAM_ATTR_USER_CUSTOM_TAG = 3,
    ACL_STREAM_ATTR_CACHE_OP_INFO = 4,
    ACL_STREAM_ATTR_PRIORITY = 5,
} aclrtStreamAttr;

/* Value of a stream attribute; the member used follows the attribute. */
typedef union {
    uint64_t failureMode;
    uint32_t overflowSwitch;
    uint32_t userCustomTag;
    uint32_t cacheOpInfoSwitch;
    uint32_t streamPriority;
    uint32_t reserve[4];
} aclrtStreamAttrValue;

/* Points in a stream's life at which a registered callback runs. */
typedef enum {
    ACL_RT_STREAM_STATE_CREATE_POST = 1,
    ACL_RT_STREAM_STATE_DESTROY_PRE,
} aclrtStreamState;

typedef void (*aclrtStreamStateCallback)(aclrtStream stm, aclrtStreamState state, void* args);

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
 * Memory
 * ------------------------------------------------------------------------ */

/* Direction of a copy. aclrtMemcpy works the direction out from the
 * addresses, so kind is informational there. */
typedef enum aclrtMemcpyKind {
    ACL_MEMCPY_HOST_TO_HOST,
    ACL_MEMCPY_HOST_TO_DEVICE,
    ACL_MEMCPY_DEVICE_TO_HOST,
    ACL_MEMCPY_DEVICE_TO_DEVICE,
    ACL_MEMCPY_DEFAULT,
    ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE,
    ACL_MEMCPY_INNER_DEVICE_TO_DEVICE,
    ACL_MEMCPY_INTER_DEVICE_TO_DEVICE,
} aclrtMemcpyKind;

/* Page-size policy of a device allocation (one value, not a bit set),
 * plus bandwidth and access modifiers. */
typedef enum aclrtMemMallocPolicy {
    ACL_MEM_MALLOC_HUGE_FIRST,
    ACL_MEM_MALLOC_HUGE_ONLY,
    ACL_MEM_MALLOC_NORMAL_ONLY,
    ACL_MEM_MALLOC_HUGE_FIRST_P2P,
    ACL_MEM_MALLOC_HUGE_ONLY_P2P,
    ACL_MEM_MALLOC_NORMAL_ONLY_P2P,
    ACL_MEM_MALLOC_HUGE1G_ONLY,
    ACL_MEM_MALLOC_HUGE1G_ONLY_P2P,
    ACL_MEM_TYPE_LOW_BAND_WIDTH = 0x0100,
    ACL_MEM_TYPE_HIGH_BAND_WIDTH = 0x1000,
    ACL_MEM_ACCESS_USER_SPACE_READONLY = 0x100000,
} aclrtMemMallocPolicy;

/* Memory pool queried by aclrtGetMemInfo. */
typedef enum aclrtMemAttr {
    ACL_DDR_MEM,
    ACL_HBM_MEM,
    ACL_DDR_MEM_HUGE,
    ACL_DDR_MEM_NORMAL,
    ACL_HBM_MEM_HUGE,
    ACL_HBM_MEM_NORMAL,
    ACL_DDR_MEM_P2P_HUGE,
    ACL_DDR_MEM_P2P_NORMAL,
    ACL_HBM_MEM_P2P_HUGE,
    ACL_HBM_MEM_P2P_NORMAL,
    ACL_HBM_MEM_HUGE1G,
    ACL_HBM_MEM_P2P_HUGE1G,
    ACL_MEM_NORMAL,
    ACL_MEM_HUGE,
    ACL_MEM_HUGE1G,
    ACL_MEM_P2P_NORMAL,
    ACL_MEM_P2P_HUGE,
    ACL_MEM_P2P_HUGE1G,
} aclrtMemAttr;

enum aclrtMemPgType {
    NORMAL_PAGE_TYPE = 0U,
    HUGE_PAGE_TYPE,
    HUGE1G_PAGE_TYPE,
};

enum aclrtMemType {
    HBM_TYPE = 0U,
    DDR_TYPE,
    P2P_HBM_TYPE,
    P2P_DDR_TYPE,
};

/* Ties a page type (aclrtMemPgType) and memory type (aclrtMemType) to the
 * matching aclrtMemAttr. */
struct MemAttrMapping {
    uint32_t pgType;
    uint32_t memType;
    bool isHostAlloc;
    aclrtMemAttr memAttr;
};

/* Extra allocation attributes passed in an aclrtMallocConfig. */
typedef enum {
    ACL_RT_MEM_ATTR_RSV = 0,
    ACL_RT_MEM_ATTR_MODULE_ID,
    ACL_RT_MEM_ATTR_DEVICE_ID,
    ACL_RT_MEM_ATTR_VA_FLAG,
} aclrtMallocAttrType;

typedef union {
    uint16_t moduleId;
    uint32_t deviceId;
    uint32_t vaFlag;
    uint8_t rsv[8];
} aclrtMallocAttrValue;

typedef struct {
    aclrtMallocAttrType attr;
    aclrtMallocAttrValue value;
} aclrtMallocAttribute;

/* numAttrs entries at attrs. */
typedef struct {
    aclrtMallocAttribute* attrs;
    size_t numAttrs;
} aclrtMallocConfig;

/* How host memory is registered with the device. */
typedef enum {
    ACL_HOST_REGISTER_MAPPED = 0,
    ACL_HOST_REGISTER_IOMEMORY = 0x04,
    ACL_HOST_REGISTER_READONLY = 0x08
} aclrtHostRegisterType;

/* Where memory physically lives. */
typedef enum aclrtMemLocationType {
    ACL_MEM_LOCATION_TYPE_HOST = 0,
    ACL_MEM_LOCATION_TYPE_DEVICE,
    ACL_MEM_LOCATION_TYPE_UNREGISTERED,
    ACL_MEM_LOCATION_TYPE_MANAGED,
    ACL_MEM_LOCATION_TYPE_HOST_NUMA = 4,
} aclrtMemLocationType;

/* A location: its kind and the device (or NUMA node) id. */
typedef struct aclrtMemLocation {
    uint32_t id;
    aclrtMemLocationType type;
} aclrtMemLocation;

/* What aclrtPointerGetAttributes reports about an address; pageSize is in
 * bytes. */
typedef struct aclrtPtrAttributes {
    aclrtMemLocation location;
    uint32_t pageSize;
    uint32_t rsv[4];
} aclrtPtrAttributes;

/* Memory use of one component, bytes. */
typedef struct aclrtMemUsageInfo {
    char name[32];
    uint64_t curMemSize;
    uint64_t memPeakSize;
    size_t reserved[8];
} aclrtMemUsageInfo;

/* Managed (unified) memory hints, locations and range attributes. */
typedef enum aclrtMemManagedAdviseType {
    ACL_MEM_ADVISE_SET_READ_MOSTLY = 0,
    ACL_MEM_ADVISE_UNSET_READ_MOSTLY,
    ACL_MEM_ADVISE_SET_PREFERRED_LOCATION,
    ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION,
    ACL_MEM_ADVISE_SET_ACCESSED_BY,
    ACL_MEM_ADVISE_UNSET_ACCESSED_BY,
} aclrtMemManagedAdviseType;

typedef enum aclrtMemManagedLocationType {
    ACL_MEM_LOCATIONTYPE_INVALID = 0,
    ACL_MEM_LOCATIONTYPE_DEVICE,
    ACL_MEM_LOCATIONTYPE_HOST,
    ACL_MEM_LOCATIONTYPE_HOST_NUMA,
    ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT,
} aclrtMemManagedLocationType;

typedef struct aclrtMemManagedLocation {
    aclrtMemManagedLocationType type;
    int32_t id;
} aclrtMemManagedLocation;

typedef enum aclrtMemManagedRangeAttribute {
    ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY = 1,
    ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION,
    ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY,
    ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE,
    ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID,
    ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION,
    ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE,
    ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID,
} aclrtMemManagedRangeAttribute;

/* Virtual memory management: physical allocations, sharing handles,
 * granularity and access rights. */
typedef enum aclrtMemAllocationType {
    ACL_MEM_ALLOCATION_TYPE_PINNED = 0,
} aclrtMemAllocationType;

typedef enum aclrtMemHandleType {
    ACL_MEM_HANDLE_TYPE_NONE = 0,
    ACL_MEM_HANDLE_TYPE_POSIX = 2,
} aclrtMemHandleType;

typedef enum aclrtMemSharedHandleType {
    ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT = 0x1,
    ACL_MEM_SHARE_HANDLE_TYPE_FABRIC = 0x2,
} aclrtMemSharedHandleType;

typedef struct aclrtMemFabricHandle {
    uint8_t data[128];
} aclrtMemFabricHandle;

typedef struct aclrtPhysicalMemProp {
    aclrtMemHandleType handleType;
    aclrtMemAllocationType allocationType;
    aclrtMemAttr memAttr;
    aclrtMemLocation location;
    uint64_t reserve;
} aclrtPhysicalMemProp;

typedef enum aclrtMemGranularityOptions {
    ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM,
    ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED,
    ACL_RT_MEM_ALLOC_GRANULARITY_UNDEF = 0xFFFF,
} aclrtMemGranularityOptions;

typedef void* aclrtDrvMemHandle;

typedef enum {
    ACL_RT_MEM_ACCESS_FLAGS_NONE = 0x0,
    ACL_RT_MEM_ACCESS_FLAGS_READ = 0x1,
    ACL_RT_MEM_ACCESS_FLAGS_READWRITE = 0x3,
} aclrtMemAccessFlags;

typedef struct {
    aclrtMemAccessFlags flags;
    aclrtMemLocation location;
    uint8_t rsv[12];
} aclrtMemAccessDesc;

typedef enum {
    ACL_RT_MEM_ACCESS_LINK_SIO = 0,
    ACL_RT_MEM_ACCESS_LINK_HCCS = 1,
    ACL_RT_MEM_ACCESS_UB_ONE_PORT_PATH = 2,
    ACL_RT_MEM_ACCESS_UB_MULTI_PORT_PATH = 3,
} aclrtMemLinkType;

typedef enum {
    ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED = 0,
    ACL_RT_HOST_MEM_MAP_SUPPORTED
} aclrtHostMemMapCapability;

/* Interprocess memory sharing. */
typedef enum {
    ACL_RT_IPC_MEM_ATTR_ACCESS_LINK,
} aclrtIpcMemAttrType;

/* Processes (num pids at pid) of server sdid allowed to open shared
 * memory. */
typedef struct {
    uint32_t sdid;
    int32_t* pid;
    size_t num;
} aclrtServerPid;

/* Per-entry source and destination of a batched copy. */
typedef struct {
    aclrtMemLocation dstLoc;
    aclrtMemLocation srcLoc;
    uint8_t rsv[16];
} aclrtMemcpyBatchAttr;

/* Reduction applied by a reducing copy. */
typedef enum {
    ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM = 10,
    ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX = 11,
    ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN = 12,
    ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL = 13,
} aclrtReduceKind;

/* Cache maintenance operations. */
typedef enum aclrtCmoType {
    ACL_RT_CMO_TYPE_PREFETCH = 0,
    ACL_RT_CMO_TYPE_WRITEBACK,
    ACL_RT_CMO_TYPE_INVALID,
    ACL_RT_CMO_TYPE_FLUSH,
} aclrtCmoType;

typedef struct {
    aclrtCmoType cmoType;
    uint32_t barrierId;
} aclrtBarrierCmoInfo;

typedef struct {
    size_t barrierNum;
    aclrtBarrierCmoInfo cmoInfo[ACL_RT_CMO_MAX_BARRIER_NUM];
} aclrtBarrierTaskInfo;

/* ------------------------------------------------------------------------
 * Kernel binaries and launch
 * ------------------------------------------------------------------------ */

/* Opaque handles: binary description, loaded binary, kernel function,
 * argument list under construction, one argument of such a list. */
typedef void* aclrtBinary;
typedef void* aclrtBinHandle;
typedef void* aclrtFuncHandle;
typedef void* aclrtArgsHandle;
typedef void* aclrtParamHandle;

/* Options when loading a binary. LAZY_MAGIC is an old name of MAGIC. */
typedef enum aclrtBinaryLoadOptionType {
    ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD = 1,
    ACL_RT_BINARY_LOAD_OPT_LAZY_MAGIC = 2,
    ACL_RT_BINARY_LOAD_OPT_MAGIC = 2,
    ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE = 3,
} aclrtBinaryLoadOptionType;

/* isLazyLoad: 1 defers the copy to the device until a function is looked
 * up; magic: one of ACL_RT_BINARY_MAGIC_*; cpuKernelMode: how AI CPU
 * kernels are found (0, 1 or 2). */
typedef union aclrtBinaryLoadOptionValue {
    uint32_t isLazyLoad;
    uint32_t magic;
    int32_t cpuKernelMode;
    uint32_t rsv[4];
} aclrtBinaryLoadOptionValue;

typedef struct {
    aclrtBinaryLoadOptionType type;
    aclrtBinaryLoadOptionValue value;
} aclrtBinaryLoadOption;

/* numOpt entries at options. */
typedef struct aclrtBinaryLoadOptions {
    aclrtBinaryLoadOption* options;
    size_t numOpt;
} aclrtBinaryLoadOptions;

/* Core type a launch targets. */
typedef enum {
    ACL_RT_ENGINE_TYPE_AIC = 0,
    ACL_RT_ENGINE_TYPE_AIV,
} aclrtEngineType;

/* Grid or block extent of a SIMT launch; each dimension defaults to 1 in
 * C++. */
#ifndef __BISHENG_CCEC__
typedef struct dim3 {
    uint32_t x;
    uint32_t y;
    uint32_t z;
#ifdef __cplusplus
#if __cplusplus >= 201103L
    constexpr dim3(uint32_t vx = 1, uint32_t vy = 1, uint32_t vz = 1) : x(vx), y(vy), z(vz) {}
#else
    dim3(uint32_t vx = 1, uint32_t vy = 1, uint32_t vz = 1) : x(vx), y(vy), z(vz) {}
#endif
#endif
} dim3;
#endif

/* Per-launch attributes carried in an aclrtLaunchKernelCfg. TIMEOUT and
 * TIMEOUT_US are mutually exclusive. */
typedef enum aclrtLaunchKernelAttrId {
    ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE = 1,
    ACL_RT_LAUNCH_KERNEL_ATTR_LOCAL_MEMORY_SIZE ACL_DEPRECATED_MESSAGE(
        "Use ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE instead") = 2,
    ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE = 2,
    ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE = 3,
    ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET = 4,
    ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH = 5,
    ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP = 6,
    ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT = 7,
    ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US = 8,
    ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING = 9,
} aclrtLaunchKernelAttrId;

/* A 64-bit microsecond timeout split into two 32-bit halves; both zero
 * means no timeout. */
typedef struct {
    uint32_t timeoutLow;
    uint32_t timeoutHigh;
} aclrtTimeoutUs;

/* Value of a launch attribute; the member used follows the attribute id.
 * timeout is in seconds (0: none), timeoutUs in microseconds. */
typedef union aclrtLaunchKernelAttrValue {
    uint8_t schemMode;
    ACL_DEPRECATED_MESSAGE("Use dynUbufSize instead")
    uint32_t localMemorySize;
    uint32_t dynUBufSize;
    aclrtEngineType engineType;
    uint32_t blockDimOffset;
    uint8_t isBlockTaskPrefetch;
    uint8_t isDataDump;
    uint16_t timeout;
    aclrtTimeoutUs timeoutUs;
    uint8_t enableProfiling;
    uint32_t rsv[4];
} aclrtLaunchKernelAttrValue;

typedef struct aclrtLaunchKernelAttr {
    aclrtLaunchKernelAttrId id;
    aclrtLaunchKernelAttrValue value;
} aclrtLaunchKernelAttr;

/* numAttrs entries at attrs. */
typedef struct aclrtLaunchKernelCfg {
    aclrtLaunchKernelAttr* attrs;
    size_t numAttrs;
} aclrtLaunchKernelCfg;

/* A pointer slot in a host argument block (addrOffset, bytes from the
 * start of the block) that the runtime rewrites at launch to the device
 * address of the data found at dataOffset in the same block. */
typedef struct {
    uint32_t addrOffset;
    uint32_t dataOffset;
} aclrtPlaceHolderInfo;

/* Kernel function attributes (aclrtGetFunctionAttribute) and kernel
 * kinds. */
typedef enum {
    ACL_FUNC_ATTR_KERNEL_TYPE = 1,
    ACL_FUNC_ATTR_KERNEL_RATIO = 2,
    ACL_FUNC_ATTR_KERNEL_SCHED_MODE = 3,
} aclrtFuncAttribute;

typedef enum {
    ACL_KERNEL_TYPE_AICORE = 0,
    ACL_KERNEL_TYPE_CUBE = 1,
    ACL_KERNEL_TYPE_VECTOR = 2,
    ACL_KERNEL_TYPE_MIX = 3,
    ACL_KERNEL_TYPE_AICPU = 100,
} aclrtKernelType;

/* ------------------------------------------------------------------------
 * Model run instances (captured task graphs)
 * ------------------------------------------------------------------------ */

typedef void* aclmdlRI;

typedef enum {
    ACL_MODEL_RI_CAPTURE_MODE_GLOBAL = 0,
    ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL,
    ACL_MODEL_RI_CAPTURE_MODE_RELAXED,
} aclmdlRICaptureMode;

typedef enum {
    ACL_MODEL_RI_CAPTURE_STATUS_NONE = 0,
    ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE,
    ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED,
} aclmdlRICaptureStatus;

/* Kind of a task inside a run instance and the parameters of each kind. */
typedef enum aclmdlRITaskType {
    ACL_MODEL_RI_TASK_DEFAULT,
    ACL_MODEL_RI_TASK_KERNEL,
    ACL_MODEL_RI_TASK_EVENT_RECORD,
    ACL_MODEL_RI_TASK_EVENT_WAIT,
    ACL_MODEL_RI_TASK_EVENT_RESET,
    ACL_MODEL_RI_TASK_VALUE_WRITE,
    ACL_MODEL_RI_TASK_VALUE_WAIT,
} aclmdlRITaskType;

typedef struct aclmdlRIKernelTaskParams {
    aclrtFuncHandle funcHandle;
    aclrtLaunchKernelCfg* cfg;
    void* args;
    uint32_t isHostArgs;
    size_t argsSize;
    uint32_t numBlocks;
    uint32_t rsv[10];
} aclmdlRIKernelTaskParams;

/* eventFlag is the flag the event was created with; recordFlag, waitFlag
 * and resetFlag are ACL_EVENT_RECORD_* / ACL_EVENT_WAIT_* values. */
typedef struct aclmdlRIEventRecordTaskParams {
    aclrtEvent event;
    uint32_t eventFlag;
    uint32_t recordFlag;
} aclmdlRIEventRecordTaskParams;

typedef struct aclmdlRIEventWaitTaskParams {
    aclrtEvent event;
    uint32_t eventFlag;
    uint32_t waitFlag;
} aclmdlRIEventWaitTaskParams;

typedef struct aclmdlRIEventResetTaskParams {
    aclrtEvent event;
    uint32_t eventFlag;
    uint32_t resetFlag;
} aclmdlRIEventResetTaskParams;

typedef struct aclmdlRIValueWriteTaskParams {
    void* devAddr;
    uint64_t value;
} aclmdlRIValueWriteTaskParams;

typedef struct aclmdlRIValueWaitTaskParams {
    void* devAddr;
    uint64_t value;
    uint32_t flag;
} aclmdlRIValueWaitTaskParams;

/* A task of a run instance: its type, task group, operator info, and the
 * parameters of that type in the anonymous union. */
typedef struct aclmdlRITaskParams {
    aclmdlRITaskType type;
    uint32_t rsv0[3];
    aclrtTaskGrp taskGrp;
    void* opInfoPtr;
    size_t opInfoSize;
    uint8_t rsv1[32];

    union {
        uint8_t rsv2[128];
        struct aclmdlRIKernelTaskParams kernelTaskParams;
        struct aclmdlRIEventRecordTaskParams eventRecordTaskParams;
        struct aclmdlRIEventWaitTaskParams eventWaitTaskParams;
        struct aclmdlRIEventResetTaskParams eventResetTaskParams;
        struct aclmdlRIValueWriteTaskParams valueWriteTaskParams;
        struct aclmdlRIValueWaitTaskParams valueWaitTaskParams;
    };
} aclmdlRITaskParams;

/* Conditional (if / while / switch) sub-graphs of a run instance. */
typedef void* aclmdlRICondHandle;

typedef enum {
    ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT = 1,
} aclmdlRICondHandleFlag;

typedef enum {
    ACL_MODEL_RI_COND_TYPE_IF = 0,
    ACL_MODEL_RI_COND_TYPE_WHILE = 1,
    ACL_MODEL_RI_COND_TYPE_SWITCH = 2,
} aclmdlRICondTaskType;

/* modelRIArray receives size sub-graphs: 1 or 2 for IF, 1 for WHILE, at
 * least 1 for SWITCH. */
typedef struct tagAclmdlRICondTaskParams {
    aclmdlRICondHandle handle;
    aclmdlRICondTaskType type;
    uint32_t size;
    aclmdlRI* modelRIArray;
} aclmdlRICondTaskParams;

/* Comparisons and operand widths of device-side conditions. */
typedef enum {
    ACL_RT_EQUAL = 0,
    ACL_RT_NOT_EQUAL,
    ACL_RT_GREATER,
    ACL_RT_GREATER_OR_EQUAL,
    ACL_RT_LESS,
    ACL_RT_LESS_OR_EQUAL
} aclrtCondition;

typedef enum {
    ACL_RT_SWITCH_INT32 = 0,
    ACL_RT_SWITCH_INT64 = 1,
} aclrtCompareDataType;

/* ------------------------------------------------------------------------
 * Device-generated random numbers and task updates
 * ------------------------------------------------------------------------ */

/* A parameter given either inline (valueOrAddr holds size bytes) or as a
 * device address (isAddr != 0). */
typedef struct {
    uint8_t isAddr;
    uint8_t valueOrAddr[8];
    uint8_t size;
    uint8_t rsv[6];
} aclrtRandomParaInfo;

typedef struct {
    aclrtRandomParaInfo dropoutRation;
} aclrtDropoutBitmaskInfo;

typedef struct {
    aclrtRandomParaInfo min;
    aclrtRandomParaInfo max;
} aclrtUniformDisInfo;

typedef struct {
    aclrtRandomParaInfo mean;
    aclrtRandomParaInfo stddev;
} aclrtNormalDisInfo;

typedef enum {
    ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK = 0,
    ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS,
    ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS,
    ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS,
} aclrtRandomNumFuncType;

typedef struct {
    aclrtRandomNumFuncType funcType;
    union {
        aclrtDropoutBitmaskInfo dropoutBitmaskInfo;
        aclrtUniformDisInfo uniformDisInfo;
        aclrtNormalDisInfo normalDisInfo;
    } paramInfo;
} aclrtRandomNumFuncParaInfo;

typedef struct {
    aclDataType dataType;
    aclrtRandomNumFuncParaInfo randomNumFuncParaInfo;
    void* randomParaAddr;
    void* randomResultAddr;
    void* randomCounterAddr;
    aclrtRandomParaInfo randomSeed;
    aclrtRandomParaInfo randomNum;
    uint8_t rsv[8];
} aclrtRandomNumTaskInfo;

typedef enum {
    ACL_RT_UPDATE_RANDOM_TASK = 1,
    ACL_RT_UPDATE_AIC_AIV_TASK,
} aclrtUpdateTaskAttrId;

typedef struct {
    void* srcAddr;
    size_t size;
    uint32_t rsv[4];
} aclrtRandomTaskUpdateAttr;

typedef struct {
    void* binHandle;
    void* funcEntryAddr;
    void* blockDimAddr;
    uint32_t rsv[4];
} aclrtAicAivTaskUpdateAttr;

typedef union {
    aclrtRandomTaskUpdateAttr randomTaskAttr;
    aclrtAicAivTaskUpdateAttr aicAivTaskAttr;
} aclrtUpdateTaskAttrVal;

typedef struct {
    aclrtUpdateTaskAttrId id;
    aclrtUpdateTaskAttrVal val;
} aclrtTaskUpdateInfo;

/* ------------------------------------------------------------------------
 * Process snapshots
 * ------------------------------------------------------------------------ */

/* Stages of saving (lock, back up, unlock) or restoring a process at which
 * registered callbacks run. */
typedef enum {
    ACL_RT_SNAPSHOT_LOCK_PRE = 0,
    ACL_RT_SNAPSHOT_BACKUP_PRE,
    ACL_RT_SNAPSHOT_BACKUP_POST,
    ACL_RT_SNAPSHOT_RESTORE_PRE,
    ACL_RT_SNAPSHOT_RESTORE_POST,
    ACL_RT_SNAPSHOT_UNLOCK_POST,
} aclrtSnapShotStage;

typedef uint32_t (*aclrtSnapShotCallBack)(int32_t deviceId, void* args);

typedef struct aclrtSnapShotBackupArgs {
    uint32_t backupFlags;
    char reserved[60];
} aclrtSnapShotBackupArgs;

typedef struct aclrtSnapShotRestoreArgs {
    uint32_t restoreFlags;
    char reserved[60];
} aclrtSnapShotRestoreArgs;

/* ------------------------------------------------------------------------
 * Software packages and init/finalize hooks
 * ------------------------------------------------------------------------ */

typedef enum aclCANNPackageName {
    ACL_PKG_NAME_CANN,
    ACL_PKG_NAME_RUNTIME,
    ACL_PKG_NAME_COMPILER,
    ACL_PKG_NAME_HCCL,
    ACL_PKG_NAME_TOOLKIT,
    ACL_PKG_NAME_OPP,
    ACL_PKG_NAME_OPP_KERNEL,
    ACL_PKG_NAME_DRIVER
} aclCANNPackageName;

/* Version strings of one installed package, NUL-terminated. */
typedef struct aclCANNPackageVersion {
    char version[ACL_PKG_VERSION_MAX_SIZE];
    char majorVersion[ACL_PKG_VERSION_PARTS_MAX_SIZE];
    char minorVersion[ACL_PKG_VERSION_PARTS_MAX_SIZE];
    char releaseVersion[ACL_PKG_VERSION_PARTS_MAX_SIZE];
    char patchVersion[ACL_PKG_VERSION_PARTS_MAX_SIZE];
    char reserved[ACL_PKG_VERSION_MAX_SIZE];
} aclCANNPackageVersion;

/* Components that can hook into aclInit and aclFinalize. */
typedef enum aclRegisterCallbackType {
    ACL_REG_TYPE_ACL_MODEL,
    ACL_REG_TYPE_ACL_OP_EXECUTOR,
    ACL_REG_TYPE_ACL_OP_CBLAS,
    ACL_REG_TYPE_ACL_OP_COMPILER,
    ACL_REG_TYPE_ACL_TDT_CHANNEL,
    ACL_REG_TYPE_ACL_TDT_QUEUE,
    ACL_REG_TYPE_ACL_DVPP,
    ACL_REG_TYPE_ACL_RETR,
    ACL_REG_TYPE_OTHER = 0xFFFF,
} aclRegisterCallbackType;

typedef aclError (*aclInitCallbackFunc)(const char* configStr, size_t len, void* userData);
typedef aclError (*aclFinalizeCallbackFunc)(void* userData);

/* ------------------------------------------------------------------------
 * Initialisation, version and errors
 * ------------------------------------------------------------------------ */

/* Initialise the runtime. configPath names an optional JSON configuration
 * file (NULL for none); calling it again returns ACL_ERROR_REPEAT_INITIALIZE. */
ACL_FUNC_VISIBILITY aclError aclInit(const char* configPath);

/* Shut the runtime down and release everything it holds, however many
 * times aclInit succeeded. */
ACL_FUNC_VISIBILITY aclError aclFinalize(void);

/* Drop one aclInit reference and store the number left in *refCount; the
 * runtime shuts down when it reaches 0. */
ACL_FUNC_VISIBILITY aclError aclFinalizeReference(uint64_t* refCount);

/* Return, and clear, the text of the calling thread's recent failures
 * (newest first), or NULL if none; valid until the next call. */
ACL_FUNC_VISIBILITY const char* aclGetRecentErrMsg(void);

/* Store the major, minor and patch numbers of the API this library
 * implements. */
ACL_DEPRECATED_MESSAGE("aclrtGetVersion is deprecated, use aclSysGetVersion instead")
ACL_FUNC_VISIBILITY aclError aclrtGetVersion(
    int32_t* majorVersion, int32_t* minorVersion, int32_t* patchVersion);

/* Return the calling thread's last error code, leaving it set (level must
 * be ACL_RT_THREAD_LEVEL). */
ACL_FUNC_VISIBILITY aclError aclrtPeekAtLastError(aclrtLastErrLevel level);

/* Return the calling thread's last error code and reset it to ACL_SUCCESS
 * (level must be ACL_RT_THREAD_LEVEL). */
ACL_FUNC_VISIBILITY aclError aclrtGetLastError(aclrtLastErrLevel level);

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

/* ------------------------------------------------------------------------
 * Contexts
 * ------------------------------------------------------------------------ */

/* Create a context on device deviceId and make it the calling thread's
 * current context. */
ACL_FUNC_VISIBILITY aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId);

/* Destroy a context made by aclrtCreateContext (not a device's default
 * context). */
ACL_FUNC_VISIBILITY aclError aclrtDestroyContext(aclrtContext context);

/* Make context the calling thread's current context; the thread's device
 * becomes the context's device. */
ACL_FUNC_VISIBILITY aclError aclrtSetCurrentContext(aclrtContext context);

/* Store the calling thread's current context. */
ACL_FUNC_VISIBILITY aclError aclrtGetCurrentContext(aclrtContext* context);

/* Store the default stream of the calling thread's current context. */
ACL_FUNC_VISIBILITY aclError aclrtCtxGetCurrentDefaultStream(aclrtStream* stream);

/* ------------------------------------------------------------------------
 * Devices
 * ------------------------------------------------------------------------ */

/* Make deviceId the calling thread's device, creating the device's default
 * context and stream on first use. Counted: undo with aclrtResetDevice. */
ACL_FUNC_VISIBILITY aclError aclrtSetDevice(int32_t deviceId);

/* Undo one aclrtSetDevice of deviceId; the last one waits for the device's
 * work and frees its default context, streams and memory. */
ACL_FUNC_VISIBILITY aclError aclrtResetDevice(int32_t deviceId);

/* Free the resources of device deviceId now, however many aclrtSetDevice
 * calls are outstanding. */
ACL_FUNC_VISIBILITY aclError aclrtResetDeviceForce(int32_t deviceId);

/* Store the calling thread's device; an error if none has been set. */
ACL_FUNC_VISIBILITY aclError aclrtGetDevice(int32_t* deviceId);

/* Store the number of devices. */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceCount(uint32_t* count);

/* Store whether this program runs on the host or on the device. */
ACL_FUNC_VISIBILITY aclError aclrtGetRunMode(aclrtRunMode* runMode);

/* Block until every task submitted to the current device has finished. */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDevice(void);

/* As aclrtSynchronizeDevice, but give up after timeout ms (-1: wait
 * forever). */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout);

/* Store property attr of device deviceId (a count, a size in bytes or an
 * id, depending on attr). */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceInfo(
    uint32_t deviceId, aclrtDevAttr attr, int64_t* value);

/* Store the lowest and the highest stream priority; a smaller number is a
 * higher priority. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetStreamPriorityRange(
    int32_t* leastPriority, int32_t* greatestPriority);

/* Store whether device deviceId is working normally. */
ACL_FUNC_VISIBILITY aclError aclrtQueryDeviceStatus(
    int32_t deviceId, aclrtDeviceStatus* deviceStatus);

/* Store the free and total size, in bytes, of memory pool attr of the
 * current device. */
ACL_FUNC_VISIBILITY aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t* free, size_t* total);

/* ------------------------------------------------------------------------
 * Streams
 * ------------------------------------------------------------------------ */

/* A NULL stream argument means the default stream of the current context. */

/* Create a stream in the current context with default priority and flags. */
ACL_FUNC_VISIBILITY aclError aclrtCreateStream(aclrtStream* stream);

/* Create a stream with the given priority (0 is highest) and ACL_STREAM_*
 * flags. */
ACL_FUNC_VISIBILITY aclError aclrtCreateStreamWithConfig(
    aclrtStream* stream, uint32_t priority, uint32_t flag);

/* Create a stream with the settings in handle. */
ACL_FUNC_VISIBILITY aclError aclrtCreateStreamV2(
    aclrtStream* stream, const aclrtStreamConfigHandle* handle);

/* Allocate a stream configuration holding default settings; NULL on
 * failure. */
ACL_FUNC_VISIBILITY aclrtStreamConfigHandle* aclrtCreateStreamConfigHandle(void);

/* Free a configuration made by aclrtCreateStreamConfigHandle. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyStreamConfigHandle(aclrtStreamConfigHandle* handle);

/* Set field attr of a stream configuration from the valueSize bytes at
 * attrValue. */
ACL_FUNC_VISIBILITY aclError aclrtSetStreamConfigOpt(
    aclrtStreamConfigHandle* handle, aclrtStreamConfigAttr attr, const void* attrValue,
    size_t valueSize);

/* Destroy stream once the tasks already on it have finished. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyStream(aclrtStream stream);

/* Destroy stream at once, without waiting for the tasks on it. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyStreamForce(aclrtStream stream);

/* Block until every task on stream has finished. */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStream(aclrtStream stream);

/* As aclrtSynchronizeStream, but give up after timeout ms (-1: wait
 * forever). */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout);

/* Store, without blocking, whether every task on stream has finished. */
ACL_FUNC_VISIBILITY aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus* status);

/* Store the priority of stream. */
ACL_FUNC_VISIBILITY aclError aclrtStreamGetPriority(aclrtStream stream, uint32_t* priority);

/* Store the flags stream was created with. */
ACL_FUNC_VISIBILITY aclError aclrtStreamGetFlags(aclrtStream stream, uint32_t* flags);

/* Store the numeric id of stream. */
ACL_FUNC_VISIBILITY aclError aclrtStreamGetId(aclrtStream stream, int32_t* streamId);

/* Choose whether stream goes on after a failed task
 * (ACL_CONTINUE_ON_FAILURE) or stops (ACL_STOP_ON_FAILURE). */
ACL_FUNC_VISIBILITY aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode);

/* Set attribute stmAttrType of stream from *value. */
ACL_FUNC_VISIBILITY aclError aclrtSetStreamAttribute(
    aclrtStream stream, aclrtStreamAttr stmAttrType, aclrtStreamAttrValue* value);

/* Store attribute stmAttrType of stream in *value. */
ACL_FUNC_VISIBILITY aclError aclrtGetStreamAttribute(
    aclrtStream stream, aclrtStreamAttr stmAttrType, aclrtStreamAttrValue* value);

/* Stop the task running on stream and discard the ones not yet started. */
ACL_FUNC_VISIBILITY aclError aclrtStreamAbort(aclrtStream stream);

/* Enqueue on stream a wait: later tasks of stream start only after event
 * completes. */
ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event);

/* As aclrtStreamWaitEvent, but the wait fails after timeout seconds (0:
 * never). */
ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEventWithTimeout(
    aclrtStream stream, aclrtEvent event, int32_t timeout);

/* ------------------------------------------------------------------------
 * Memory
 * ------------------------------------------------------------------------ */

/* Allocate size bytes of device memory on the current device using page
 * policy policy. The start is 64-byte aligned; the content is undefined. */
ACL_FUNC_VISIBILITY aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy);

/* As aclrtMalloc, with size rounded up to a multiple of 32 bytes and no
 * extra padding. */
ACL_FUNC_VISIBILITY aclError aclrtMallocAlign32(
    void** devPtr, size_t size, aclrtMemMallocPolicy policy);

/* As aclrtMalloc, for memory that is always cacheable. */
ACL_FUNC_VISIBILITY aclError aclrtMallocCached(
    void** devPtr, size_t size, aclrtMemMallocPolicy policy);

/* As aclrtMalloc, with extra allocation attributes in cfg (may be NULL). */
ACL_FUNC_VISIBILITY aclError aclrtMallocWithCfg(
    void** devPtr, size_t size, aclrtMemMallocPolicy policy, aclrtMallocConfig* cfg);

/* Free device memory from the aclrtMalloc family. Does not wait for tasks
 * that may still use it. */
ACL_FUNC_VISIBILITY aclError aclrtFree(void* devPtr);

/* Allocate size bytes of page-locked host memory, suitable for
 * asynchronous copies. */
ACL_FUNC_VISIBILITY aclError aclrtMallocHost(void** hostPtr, size_t size);

/* Free memory from aclrtMallocHost. */
ACL_FUNC_VISIBILITY aclError aclrtFreeHost(void* hostPtr);

/* Copy count bytes from src to dst, which has room for destMax bytes, and
 * return when done; the direction is taken from the addresses. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpy(
    void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind);

/* Enqueue on stream a copy of count bytes from src to dst, which has room
 * for destMax bytes. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsync(
    void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
    aclrtStream stream);

/* Set count bytes at devPtr, a buffer of maxCount bytes, to the byte value
 * and return when done. */
ACL_FUNC_VISIBILITY aclError aclrtMemset(
    void* devPtr, size_t maxCount, int32_t value, size_t count);

/* Enqueue on stream a fill of count bytes at devPtr, a buffer of maxCount
 * bytes, with the byte value. */
ACL_FUNC_VISIBILITY aclError aclrtMemsetAsync(
    void* devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream);

/* Copy height rows of width bytes; rows are spitch bytes apart in src and
 * dpitch bytes apart in dst. Returns when done. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpy2d(
    void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
    aclrtMemcpyKind kind);

/* Enqueue on stream the 2-D copy described for aclrtMemcpy2d. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpy2dAsync(
    void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
    aclrtMemcpyKind kind, aclrtStream stream);

/* Describe the memory at ptr: where it lives and its page size. */
ACL_FUNC_VISIBILITY aclError aclrtPointerGetAttributes(
    const void* ptr, aclrtPtrAttributes* attributes);

/* Store the start address and the size in bytes of the allocation that
 * contains ptr. */
ACL_FUNC_VISIBILITY aclError aclrtMemGetAddressRange(void* ptr, void** pbase, size_t* psize);

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

/* ------------------------------------------------------------------------
 * Kernel binaries and launch
 * ------------------------------------------------------------------------ */

/* Launches are asynchronous: success means the task was queued. numBlocks is
 * the number of cores (blocks) the kernel runs on. An argument block holds
 * the kernel's parameters in order, each padded to 8 bytes. */

/* Load the kernel binary file binPath; options may be NULL. */
ACL_FUNC_VISIBILITY aclError aclrtBinaryLoadFromFile(
    const char* binPath, aclrtBinaryLoadOptions* options, aclrtBinHandle* binHandle);

/* Load a kernel binary from length bytes of host memory at data onto the
 * current device; options may be NULL. */
ACL_FUNC_VISIBILITY aclError aclrtBinaryLoadFromData(
    const void* data, size_t length, const aclrtBinaryLoadOptions* options,
    aclrtBinHandle* binHandle);

/* Look up the kernel named kernelName in a loaded binary. */
ACL_FUNC_VISIBILITY aclError aclrtBinaryGetFunction(
    const aclrtBinHandle binHandle, const char* kernelName, aclrtFuncHandle* funcHandle);

/* Unload a binary, freeing its host and device copies; its function
 * handles become invalid. */
ACL_FUNC_VISIBILITY aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle);

/* Copy the kernel name of funcHandle, NUL-terminated, into name, a buffer
 * of maxLen bytes. */
ACL_FUNC_VISIBILITY aclError aclrtGetFunctionName(
    aclrtFuncHandle funcHandle, uint32_t maxLen, char* name);

/* Enqueue funcHandle on stream over numBlocks blocks, with an argument
 * block of argsSize bytes already in device memory at argsData. */
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernel(
    aclrtFuncHandle funcHandle, uint32_t numBlocks, const void* argsData, size_t argsSize,
    aclrtStream stream);

/* As aclrtLaunchKernel, with launch attributes in cfg (may be NULL). */
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelV2(
    aclrtFuncHandle funcHandle, uint32_t numBlocks, const void* argsData, size_t argsSize,
    aclrtLaunchKernelCfg* cfg, aclrtStream stream);

/* Enqueue funcHandle on stream over numBlocks blocks, with arguments built
 * by the aclrtKernelArgs* calls; reserve must be NULL. */
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelWithConfig(
    aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream, aclrtLaunchKernelCfg* cfg,
    aclrtArgsHandle argsHandle, void* reserve);

/* Enqueue funcHandle with an argument block of argsSize bytes in host
 * memory; placeHolderArray (placeHolderNum entries) names pointer slots to fill. */
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelWithHostArgs(
    aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream, aclrtLaunchKernelCfg* cfg,
    void* hostArgs, size_t argsSize, aclrtPlaceHolderInfo* placeHolderArray, size_t placeHolderNum);

/* Enqueue func over numBlocks blocks; args[i] points at the host copy of
 * parameter i. */
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelWithArgsArray(
    void* func, uint32_t numBlocks, aclrtStream stream, aclrtLaunchKernelCfg* cfg, void** args);

/* ------------------------------------------------------------------------
 * Kernel argument lists
 * ------------------------------------------------------------------------ */

/* Built with these calls and launched with aclrtLaunchKernelWithConfig. */

/* Store how many bytes of host memory an argument handle for funcHandle
 * needs (for aclrtKernelArgsInitByUserMem). */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsGetHandleMemSize(
    aclrtFuncHandle funcHandle, size_t* memSize);

/* Store how many bytes of host memory the arguments need, given
 * userArgsSize bytes of parameters each padded to 8 bytes. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsGetMemSize(
    aclrtFuncHandle funcHandle, size_t userArgsSize, size_t* actualArgsSize);

/* Start an argument list for funcHandle in runtime-owned memory. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsInit(
    aclrtFuncHandle funcHandle, aclrtArgsHandle* argsHandle);

/* Start an argument list for funcHandle in caller memory: argsHandle is
 * the handle memory, userHostMem holds actualArgsSize bytes of arguments. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsInitByUserMem(
    aclrtFuncHandle funcHandle, aclrtArgsHandle argsHandle, void* userHostMem,
    size_t actualArgsSize);

/* Append a copy of the paramSize bytes at param as the next parameter and
 * store its handle. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsAppend(
    aclrtArgsHandle argsHandle, void* param, size_t paramSize, aclrtParamHandle* paramHandle);

/* Append a pointer parameter that will point at a device copy of the
 * buffer from aclrtKernelArgsGetPlaceHolderBuffer. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsAppendPlaceHolder(
    aclrtArgsHandle argsHandle, aclrtParamHandle* paramHandle);

/* Store a runtime-owned host buffer of dataSize bytes for placeholder
 * paramHandle; its contents are copied to the device at launch. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsGetPlaceHolderBuffer(
    aclrtArgsHandle argsHandle, aclrtParamHandle paramHandle, size_t dataSize, void** bufferAddr);

/* Replace the value of appended parameter paramHandle with the paramSize
 * bytes at param. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsParaUpdate(
    aclrtArgsHandle argsHandle, aclrtParamHandle paramHandle, void* param, size_t paramSize);

/* Mark the argument list complete; call it again after any later update. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle);

/* ------------------------------------------------------------------------
 * Model run instances: built over persistent streams, or captured
 * ------------------------------------------------------------------------ */

/* aclmdlRIBindStream flags: a head stream starts with the run; a default
 * stream waits to be activated or jumped to by a task of the model. */
#define ACL_MODEL_STREAM_FLAG_HEAD 0x00000000U
#define ACL_MODEL_STREAM_FLAG_DEFAULT 0x7FFFFFFFU

/* Start building a model in the current context; flag must be 0. */
ACL_FUNC_VISIBILITY aclError aclmdlRIBuildBegin(aclmdlRI* modelRI, uint32_t flag);

/* Bind a stream created with ACL_STREAM_PERSISTENT: its tasks go into the
 * model instead of running. */
ACL_FUNC_VISIBILITY aclError aclmdlRIBindStream(aclmdlRI modelRI, aclrtStream stream, uint32_t flag);

/* End a bound stream: a run stops that stream here. */
ACL_FUNC_VISIBILITY aclError aclmdlRIEndTask(aclmdlRI modelRI, aclrtStream stream);

/* Finish building; reserve must be NULL. The model can run afterwards. */
ACL_FUNC_VISIBILITY aclError aclmdlRIBuildEnd(aclmdlRI modelRI, void* reserve);

/* Unbind a stream from a model that is not running. */
ACL_FUNC_VISIBILITY aclError aclmdlRIUnbindStream(aclmdlRI modelRI, aclrtStream stream);

/* Run the model on the current context's default stream and wait for it:
 * timeout in milliseconds, -1 for no limit. */
ACL_FUNC_VISIBILITY aclError aclmdlRIExecute(aclmdlRI modelRI, int32_t timeout);

/* Queue one run of the model on stream. */
ACL_FUNC_VISIBILITY aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream);

/* Destroy a model that is not running; its streams go back to the pool. */
ACL_FUNC_VISIBILITY aclError aclmdlRIDestroy(aclmdlRI modelRI);

/* Name a model (at most 512 bytes are kept) and read the name back into a
 * buffer of maxLen bytes. */
ACL_FUNC_VISIBILITY aclError aclmdlRISetName(aclmdlRI modelRI, const char* name);
ACL_FUNC_VISIBILITY aclError aclmdlRIGetName(aclmdlRI modelRI, uint32_t maxLen, char* name);

/* The model's id, unique in the process. */
ACL_FUNC_VISIBILITY aclError aclmdlRIGetId(aclmdlRI modelRI, uint32_t* modelRIId);

/* Call func(userData) when the model is destroyed / stop doing so. */
ACL_FUNC_VISIBILITY aclError aclmdlRIDestroyRegisterCallback(aclmdlRI modelRI, aclrtCallback func, void* userData);
ACL_FUNC_VISIBILITY aclError aclmdlRIDestroyUnregisterCallback(aclmdlRI modelRI, aclrtCallback func);

/* Capture the tasks queued on stream (and on streams that wait for events
 * recorded in the capture) into a new model, until aclmdlRICaptureEnd on
 * the same stream. */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode);

/* Capture into a branch model of a conditional task. */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureToModelRIBegin(
    aclrtStream stream, aclmdlRI modelRI, aclmdlRICaptureMode mode);

/* Whether stream is capturing, and into which model. */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureGetInfo(
    aclrtStream stream, aclmdlRICaptureStatus* status, aclmdlRI* modelRI);

/* End the capture begun on stream and store the model. */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI* modelRI);

/* Swap the calling thread's capture mode with *mode. */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode* mode);

/* Mark the tasks captured on stream between Begin and End as a group whose
 * tasks can be replaced later. */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskGrpBegin(aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskGrpEnd(aclrtStream stream, aclrtTaskGrp* handle);

/* Replace a group's tasks with the tasks queued on stream (not capturing)
 * between Begin and End: same number, same kinds. */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskUpdateBegin(aclrtStream stream, aclrtTaskGrp handle);
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskUpdateEnd(aclrtStream stream);

/* Describe the model on standard output / as JSON in the file at path
 * (flags: ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY or _VERBOSE). */
ACL_DEPRECATED_MESSAGE("aclmdlRIDebugPrint is deprecated, use aclmdlRIDebugJsonPrint instead")
ACL_FUNC_VISIBILITY aclError aclmdlRIDebugPrint(aclmdlRI modelRI);
ACL_FUNC_VISIBILITY aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI, const char* path, uint32_t flags);

/* The model's streams, and a stream's tasks. With a NULL array the count
 * is stored in *num; otherwise *num is the array's capacity. */
ACL_FUNC_VISIBILITY aclError aclmdlRIGetStreams(aclmdlRI modelRI, aclrtStream* streams, uint32_t* numStreams);
ACL_FUNC_VISIBILITY aclError aclmdlRIGetTasksByStream(aclrtStream stream, aclmdlRITask* tasks, uint32_t* numTasks);

/* A task's type, position in its stream and parameters. */
ACL_FUNC_VISIBILITY aclError aclmdlRITaskGetType(aclmdlRITask task, aclmdlRITaskType* type);
ACL_FUNC_VISIBILITY aclError aclmdlRITaskGetSeqId(aclmdlRITask task, uint32_t* id);
ACL_FUNC_VISIBILITY aclError aclmdlRITaskGetParams(aclmdlRITask task, aclmdlRITaskParams* params);

/* Change a task's parameters or take it out of later runs; aclmdlRIUpdate
 * applies the changes. */
ACL_FUNC_VISIBILITY aclError aclmdlRITaskSetParams(aclmdlRITask task, aclmdlRITaskParams* params);
ACL_FUNC_VISIBILITY aclError aclmdlRITaskDisable(aclmdlRITask task);
ACL_FUNC_VISIBILITY aclError aclmdlRIUpdate(aclmdlRI modelRI);

/* A condition variable of a model being captured: 8 bytes of device memory,
 * reset to defaultLaunchValue at each run with
 * ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT. */
ACL_FUNC_VISIBILITY aclError aclmdlRICondHandleCreate(
    aclmdlRI modelRI, uint32_t defaultLaunchValue, aclmdlRICondHandleFlag flag, aclmdlRICondHandle* handle);
ACL_FUNC_VISIBILITY aclError aclmdlRICondHandleGetCondPtr(aclmdlRICondHandle handle, uint64_t** ptr);

/* Capture a conditional task on stream; its branch models are stored in
 * params.modelRIArray, to be captured with aclmdlRICaptureToModelRIBegin.
 * flags must be 0. */
ACL_FUNC_VISIBILITY aclError aclmdlRIAddCondTask(aclmdlRICondTaskParams params, aclrtStream stream, uint32_t flags);

/* Labels mark positions in bound streams; a label switch jumps to one. */
ACL_FUNC_VISIBILITY aclError aclrtCreateLabel(aclrtLabel* label);
ACL_FUNC_VISIBILITY aclError aclrtSetLabel(aclrtLabel label, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtDestroyLabel(aclrtLabel label);
ACL_FUNC_VISIBILITY aclError aclrtCreateLabelList(aclrtLabel* labels, size_t num, aclrtLabelList* labelList);
ACL_FUNC_VISIBILITY aclError aclrtDestroyLabelList(aclrtLabelList labelList);

/* Jump to the label whose index is the uint32 at device address ptr
 * (indexes past maxValue-1 take the last label). */
ACL_FUNC_VISIBILITY aclError aclrtSwitchLabelByIndex(
    void* ptr, uint32_t maxValue, aclrtLabelList labelList, aclrtStream stream);

/* Start bound stream activeStream from a task of bound stream stream. */
ACL_FUNC_VISIBILITY aclError aclrtActiveStream(aclrtStream activeStream, aclrtStream stream);

/* Jump to trueStream when (*leftValue cond *rightValue) holds; falseStream
 * must be NULL. */
ACL_FUNC_VISIBILITY aclError aclrtSwitchStream(
    void* leftValue, aclrtCondition cond, void* rightValue, aclrtCompareDataType dataType, aclrtStream trueStream,
    aclrtStream falseStream, aclrtStream stream);

/* How many more streams the current device's pool can give; models hold
 * streams of the pool too. */
ACL_FUNC_VISIBILITY aclError aclrtGetStreamAvailableNum(uint32_t* streamCount);

/* Drop the tasks a persistent stream queued into a model not yet built. */
ACL_FUNC_VISIBILITY aclError aclrtPersistentTaskClean(aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_ACL_ACL_RT_H_ */
