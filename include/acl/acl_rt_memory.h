/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * acl/acl_rt_memory.h: memory: allocation, copies, memsets and pointer
 * queries. Part of acl/acl_rt.h, which includes it; it may also be
 * included on its own.
 */
/* First: acl_rt.h includes every part, this one included. */
#include "acl_rt.h"

#ifndef INC_GOCANN_ACL_ACL_RT_MEMORY_H_
#define INC_GOCANN_ACL_ACL_RT_MEMORY_H_

#ifdef __cplusplus
extern "C" {
#endif

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

/* As aclrtMallocWithCfg, for memory the device's task scheduler uses
 * (value writes and waits, model tasks); freed with aclrtFree. */
ACL_FUNC_VISIBILITY aclError aclrtMallocForTaskScheduler(
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

/* Store the free and total size, in bytes, of memory pool attr of the
 * current device. */
ACL_FUNC_VISIBILITY aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t* free, size_t* total);

/* Store up to inputNum components' device memory of device deviceId, most
 * in use first, and how many were stored in outputNum. */
ACL_FUNC_VISIBILITY aclError aclrtGetMemUsageInfo(
    int32_t deviceId, aclrtMemUsageInfo* memUsageInfo, size_t inputNum, size_t* outputNum);
/* ------------------------------------------------------------------------
 * Host memory the device can see, and frees that wait for the device
 * ------------------------------------------------------------------------ */

/* As aclrtMallocHost, with attributes in cfg (may be NULL):
 * ACL_RT_MEM_ATTR_MODULE_ID and ACL_RT_MEM_ATTR_VA_FLAG. */
ACL_FUNC_VISIBILITY aclError aclrtMallocHostWithCfg(void** ptr, uint64_t size, aclrtMallocConfig* cfg);

/* Register size bytes of host memory at ptr (4 KiB aligned) for device
 * access and store in *devPtr the address kernels reach it at; that
 * address is for kernels only, never for memory copies. */
ACL_FUNC_VISIBILITY aclError aclrtHostRegister(void* ptr, uint64_t size, aclrtHostRegisterType type, void** devPtr);

/* Register size bytes of host memory at ptr (4 KiB aligned) with an OR of
 * the ACL_HOST_REG_* flags. */
ACL_FUNC_VISIBILITY aclError aclrtHostRegisterV2(void* ptr, uint64_t size, uint32_t flag);

/* Store in *pDevice the address kernels reach mapped registered host
 * memory pHost at; flag must be 0. */
ACL_FUNC_VISIBILITY aclError aclrtHostGetDevicePointer(void* pHost, void** pDevice, uint32_t flag);

/* End the registration that starts at ptr. */
ACL_FUNC_VISIBILITY aclError aclrtHostUnregister(void* ptr);

/* Store in *capabilities whether accelerator hacType of device deviceId
 * can reach registered host memory. */
ACL_FUNC_VISIBILITY aclError aclrtHostMemMapCapabilities(
    uint32_t deviceId, aclrtHacType hacType, aclrtHostMemMapCapability* capabilities);

/* As aclrtFree, after waiting for the device's tasks. */
ACL_FUNC_VISIBILITY aclError aclrtFreeWithDevSync(void* devPtr);

/* As aclrtFreeHost, after waiting for the tasks of every device in use. */
ACL_FUNC_VISIBILITY aclError aclrtFreeHostWithDevSync(void* hostPtr);

/* Store in *checkResult 1 if every one of the size addresses in addrList
 * is device memory of a type in memType (ACL_RT_MEM_TYPE_*), else 0;
 * reserve must be 0. */
ACL_FUNC_VISIBILITY aclError aclrtCheckMemType(
    void** addrList, uint32_t size, uint32_t memType, uint32_t* checkResult, uint32_t reserve);

/* ------------------------------------------------------------------------
 * Interprocess memory: processes of one simulated machine (GOCANN_MACHINE)
 * ------------------------------------------------------------------------ */

/* Export [devPtr, devPtr+size) of aclrtMalloc memory of the current device
 * and write its key (64 hexadecimal digits and a NUL) to key, len bytes of
 * at least 65. flags: ACL_RT_IPC_MEM_EXPORT_FLAG_*. */
ACL_FUNC_VISIBILITY aclError aclrtIpcMemGetExportKey(void* devPtr, size_t size, char* key, size_t len, uint64_t flags);

/* Close key: the oldest import of it this process holds, else this
 * process's export of it. */
ACL_FUNC_VISIBILITY aclError aclrtIpcMemClose(const char* key);

/* Map the memory another process exported as key for the current device
 * and store its address in *devPtr. flags: ACL_RT_IPC_MEM_IMPORT_FLAG_*. */
ACL_FUNC_VISIBILITY aclError aclrtIpcMemImportByKey(void** devPtr, const char* key, uint64_t flags);

/* Let the num processes at pid (from aclrtDeviceGetBareTgid) import the
 * memory this process exported as key. */
ACL_FUNC_VISIBILITY aclError aclrtIpcMemSetImportPid(const char* key, int32_t* pid, size_t num);

/* Set the link (ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_*) this process's later
 * imports of key use. */
ACL_FUNC_VISIBILITY aclError aclrtIpcMemSetAttr(const char* key, aclrtIpcMemAttrType type, uint64_t attr);

/* Let the processes of num servers of a SuperPOD import key. */
ACL_FUNC_VISIBILITY aclError aclrtIpcMemImportPidInterServer(const char* key, aclrtServerPid* serverPids, size_t num);

/* Store in *pid this process's id as the devices know it. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetBareTgid(int32_t* pid);

#ifdef __cplusplus
}
#endif

#endif /* INC_GOCANN_ACL_ACL_RT_MEMORY_H_ */
