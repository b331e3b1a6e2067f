/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * acl/acl_rt.h: the runtime API: initialisation, devices, contexts and
 * streams here; host callbacks, exception reports, events, memory,
 * kernels and model run instances in the acl_rt_*.h parts it includes;
 * with every flag, enum and structure those calls use. Values and layouts
 * are binary-compatible with CANN 1.17.
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

/* Store in *version the version of package name, which must be
 * installed (ACL_ERROR_INVALID_FILE otherwise). */
ACL_DEPRECATED_MESSAGE("aclsysGetCANNVersion is deprecated, use aclsysGetVersionStr and aclsysGetVersionNum instead")
ACL_FUNC_VISIBILITY aclError aclsysGetCANNVersion(aclCANNPackageName name, aclCANNPackageVersion* version);

/* Store in versionStr (ACL_PKG_VERSION_MAX_SIZE bytes) the version string
 * of the installed package pkgName. */
ACL_FUNC_VISIBILITY aclError aclsysGetVersionStr(char* pkgName, char* versionStr);

/* Store in *versionNum the version of the installed package pkgName as a
 * number that orders releases. */
ACL_FUNC_VISIBILITY aclError aclsysGetVersionNum(char* pkgName, int32_t* versionNum);

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

/* ------------------------------------------------------------------------
 * Peer access between devices and their topology
 * ------------------------------------------------------------------------ */

/* Store 1 in canAccessPeer if the topology lets deviceId access the memory
 * of peerDeviceId (two different devices), else 0. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceCanAccessPeer(int32_t* canAccessPeer, int32_t deviceId, int32_t peerDeviceId);

/* Turn on the direction from the current device to peerDeviceId: copies
 * from the current device's memory into the peer's. flags must be 0. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags);

/* Turn off the direction from the current device to peerDeviceId. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId);

/* Store 1 in status if the direction from deviceId to peerDeviceId is on,
 * else 0. */
ACL_FUNC_VISIBILITY aclError aclrtDevicePeerAccessStatus(int32_t deviceId, int32_t peerDeviceId, int32_t* status);

/* Store how two devices are connected: one ACL_RT_DEVS_TOPOLOGY_* bit. */
ACL_FUNC_VISIBILITY aclError aclrtGetDevicesTopo(uint32_t deviceId, uint32_t otherDeviceId, uint64_t* value);

/* Map size bytes of device memory at devPtr for device dstDevId, whose
 * peer access to the memory's device must be on. flags must be 0. */
ACL_FUNC_VISIBILITY aclError aclrtMemP2PMap(void* devPtr, size_t size, int32_t dstDevId, uint64_t flags);

/* ------------------------------------------------------------------------
 * Device identity, capabilities and limits
 * ------------------------------------------------------------------------ */

/* Device ids: the user id every call takes (ASCEND_RT_VISIBLE_DEVICES
 * renumbers), the driver's logical id, the chip's physical id. */
ACL_FUNC_VISIBILITY aclError aclrtGetLogicDevIdByUserDevId(const int32_t userDevid, int32_t* const logicDevId);
ACL_FUNC_VISIBILITY aclError aclrtGetUserDevIdByLogicDevId(const int32_t logicDevId, int32_t* const userDevid);
ACL_FUNC_VISIBILITY aclError aclrtGetPhyDevIdByUserDevId(const int32_t userDevId, int32_t* const phyDevId);
ACL_FUNC_VISIBILITY aclError aclrtGetUserDevIdByPhyDevId(const int32_t phyDevId, int32_t* const userDevId);
/* These two read and give the user id, as CANN's runtime does. */
ACL_FUNC_VISIBILITY aclError aclrtGetPhyDevIdByLogicDevId(const int32_t logicDevId, int32_t* const phyDevId);
ACL_FUNC_VISIBILITY aclError aclrtGetLogicDevIdByPhyDevId(const int32_t phyDevId, int32_t* const logicDevId);

/* Store the device's PCI bus id (12 characters and a NUL; len >= 13). */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetPCIBusId(int32_t deviceId, char *pciBusId, int32_t len);

/* Store the id of the device at PCI bus id pciBusId. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetByPCIBusId(const char *pciBusId, int32_t *deviceId);

/* Store the device's 16-byte unique id. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetUuid(int32_t deviceId, aclrtUuid* uuid);

/* Store, for each of count operations, the atomic capability bits between
 * the device and the host, or between two devices. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetHostAtomicCapabilities(
    uint32_t* capabilities, const aclrtAtomicOperation* operations, const uint32_t count, int32_t deviceId);
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetP2PAtomicCapabilities(
    uint32_t* capabilities, const aclrtAtomicOperation* operations, const uint32_t count, int32_t srcDeviceId,
    int32_t dstDeviceId);

/* Store 1 if the device has feature devFeatureType, else 0. */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceCapability(
    int32_t deviceId, aclrtDevFeatureType devFeatureType, int32_t* value);

/* Store 1 if kernels built for socVersion run on the devices, else 0. */
ACL_FUNC_VISIBILITY aclError aclrtCheckArchCompatibility(const char* socVersion, int32_t* canCompatible);

/* Store how busy the device's engines were lately, in percent (-1: not
 * available). utilizationExtend must be NULL. */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceUtilizationRate(int32_t deviceId, aclrtUtilizationInfo* utilizationInfo);

/* Set or read a limit shared by every device of the process. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceSetLimit(aclrtDeviceLimit limit, size_t value);
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetLimit(aclrtDeviceLimit limit, size_t* value);

/* Choose the task scheduler of the calling thread. */
ACL_FUNC_VISIBILITY aclError aclrtSetTsDevice(aclrtTsId tsId);

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

/* Stop stream: no further task of it starts until aclrtStreamAbort drops
 * the ones queued; the default stream cannot be stopped. */
ACL_FUNC_VISIBILITY aclError aclrtStreamStop(aclrtStream stream);

/* Register callback under regName, a name not registered yet, to be called
 * after a stream is created and before it is destroyed, default streams
 * included; a NULL callback removes regName's. */
ACL_FUNC_VISIBILITY aclError aclrtRegStreamStateCallback(
    const char* regName, aclrtStreamStateCallback callback, void* args);

/* Register callback under regName, a name not registered yet, to be called
 * before the aclrtSetDevice that opens a device, after every
 * aclrtSetDevice, and before and after the aclrtResetDevice that ends its
 * default context; a NULL callback removes regName's. */
ACL_FUNC_VISIBILITY aclError aclrtRegDeviceStateCallback(
    const char* regName, aclrtDeviceStateCallback callback, void* args);

/* Register callback under regName, a name not registered yet, to be called
 * before and after aclrtDeviceTaskAbort aborts; a NULL callback removes
 * regName's. */
ACL_FUNC_VISIBILITY aclError aclrtSetDeviceTaskAbortCallback(
    const char* regName, aclrtDeviceTaskAbortCallback callback, void* args);

/* Abort the tasks of every stream of device deviceId: queued ones are
 * dropped, running ones waited for; timeout in milliseconds, 0 for none. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceTaskAbort(int32_t deviceId, uint32_t timeout);

/* Store in *taskId the id of the calling thread's last kernel launch on an
 * explicit stream (0 if none). */
ACL_FUNC_VISIBILITY aclError aclrtGetThreadLastTaskId(uint32_t* taskId);

/* Attach infoSize bytes (1 to 64 KiB) of operator information at infoPtr
 * to the calling thread's last task, a task being captured. */
ACL_FUNC_VISIBILITY aclError aclrtCacheLastTaskOpInfo(const void* const infoPtr, const size_t infoSize);

/* Attach infoSize bytes of JSON text at extendInfoPtr (the first 4 KiB) to
 * the calling thread's last task, a task being captured or built. */
ACL_FUNC_VISIBILITY aclError aclrtCacheLastTaskExtendInfo(const char* const extendInfoPtr, const size_t infoSize);

/* Store in *active 1 if device deviceId's default context exists, else 0;
 * flags is reserved and must be NULL. */
ACL_FUNC_VISIBILITY aclError aclrtGetPrimaryCtxState(int32_t deviceId, uint32_t* flags, int32_t* active);

/* Queue a profiling mark on stream: userdata holds length bytes (1 to 18)
 * of a little-endian uint64 id, uint64 model id and uint16 tag, padded
 * with zeros; a profiling session's timeline shows the mark on the
 * stream's track when the stream reaches it. */
ACL_FUNC_VISIBILITY aclError aclrtProfTrace(void* userdata, int32_t length, aclrtStream stream);

#ifdef __cplusplus
}
#endif

/* The rest of the runtime API, by topic. Each part includes this header
 * first, so any of them may be included on its own. */
#include "acl_rt_callback.h"
#include "acl_rt_event.h"
#include "acl_rt_memory.h"
#include "acl_rt_copy.h"
#include "acl_rt_vmm.h"
#include "acl_rt_kernel.h"
#include "acl_rt_graph.h"
#include "acl_rt_allocator.h"
#include "acl_rt_mbuf.h"
#include "acl_rt_process.h"
#include "acl_rt_control.h"

#endif /* INC_EXTERNAL_ACL_ACL_RT_H_ */
