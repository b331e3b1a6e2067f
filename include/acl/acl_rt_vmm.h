/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * acl/acl_rt_vmm.h: virtual memory management (reserved ranges, physical memory,
 * mappings, access) and managed memory. Part of acl/acl_rt.h, which includes it; it may
 * also be included on its own.
 */
/* First: acl_rt.h includes every part, this one included. */
#include "acl_rt.h"

#ifndef INC_GOCANN_ACL_ACL_RT_VMM_H_
#define INC_GOCANN_ACL_ACL_RT_VMM_H_

#ifdef __cplusplus
extern "C" {
#endif

/* Virtual memory management: address ranges reserved apart from memory,
 * physical device memory, and mappings of one at a reserved address. */

/* Store in *granularity the size physical memory with property prop is
 * allocated and mapped in multiples of. */
ACL_FUNC_VISIBILITY aclError aclrtMemGetAllocationGranularity(
    aclrtPhysicalMemProp* prop, aclrtMemGranularityOptions option, size_t* granularity);

/* Reserve size bytes of device virtual address space, at expectPtr if not
 * NULL; alignment is reserved (0). */
ACL_FUNC_VISIBILITY aclError aclrtReserveMemAddress(
    void** virPtr, size_t size, size_t alignment, void* expectPtr, uint64_t flags);

/* Reserve as aclrtReserveMemAddress, for memory operators that bypass the
 * L2 cache must not use; expectPtr is required. */
ACL_FUNC_VISIBILITY aclError aclrtReserveMemAddressNoUCMemory(
    void** virPtr, size_t size, size_t alignment, void* expectPtr, uint64_t flags);

/* Release a reservation that has no mapping left. */
ACL_FUNC_VISIBILITY aclError aclrtReleaseMemAddress(void* virPtr);

/* Allocate size bytes of physical memory with property prop. */
ACL_FUNC_VISIBILITY aclError aclrtMallocPhysical(
    aclrtDrvMemHandle* handle, size_t size, const aclrtPhysicalMemProp* prop, uint64_t flags);

/* Release a reference to physical memory; mapped memory goes at its last
 * unmap. */
ACL_FUNC_VISIBILITY aclError aclrtFreePhysical(aclrtDrvMemHandle handle);

/* Map physical memory handle, all size bytes of it, at virPtr. */
ACL_FUNC_VISIBILITY aclError aclrtMapMem(
    void* virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle, uint64_t flags);

/* Map as aclrtMapMem, with no access until aclrtMemSetAccess gives it. */
ACL_FUNC_VISIBILITY aclError aclrtMemMapNoAccess(
    void* virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle, uint64_t flags);

/* Remove the mapping that starts at virPtr. */
ACL_FUNC_VISIBILITY aclError aclrtUnmapMem(void* virPtr);

/* Set access to the mapping [virPtr, virPtr+size) for count locations. */
ACL_FUNC_VISIBILITY aclError aclrtMemSetAccess(void* virPtr, size_t size, aclrtMemAccessDesc* desc, size_t count);

/* Store in *flag location's access to the mapping at virPtr. */
ACL_FUNC_VISIBILITY aclError aclrtMemGetAccess(void* virPtr, aclrtMemLocation* location, uint64_t* flag);

/* Store in *handle the physical memory mapped at virPtr, with a reference
 * more that takes its own aclrtFreePhysical. */
ACL_FUNC_VISIBILITY aclError aclrtMemRetainAllocationHandle(void* virPtr, aclrtDrvMemHandle* handle);

/* Store in *prop the property physical memory handle reads back with. */
ACL_FUNC_VISIBILITY aclError aclrtMemGetAllocationPropertiesFromHandle(
    aclrtDrvMemHandle handle, aclrtPhysicalMemProp* prop);

/* Map the reservation at virPtrDst to the physical memory mapped at
 * virPtrSrc, over link linkIdx (ACL_RT_MEM_LINK_IDX_0 or _1). */
ACL_FUNC_VISIBILITY aclError aclrtMemMapSelectedLink(void* virPtrDst, size_t size, void* virPtrSrc, uint32_t linkIdx);

/* Set the link physical memory handle is reached over. */
ACL_FUNC_VISIBILITY aclError aclrtMemMapSetLink(aclrtDrvMemHandle handle, aclrtMemLinkType adviceLink);

/* Managed memory: one address for the host and every device. */

/* Allocate size bytes of managed memory, rounded up to 2 MiB; flag is
 * ACL_RT_MEM_ATTACH_GLOBAL. Free it with aclrtFree. */
ACL_FUNC_VISIBILITY aclError aclrtMemAllocManaged(void** ptr, uint64_t size, uint32_t flag);

/* Set or clear advice on [ptr, ptr+size) of managed memory. */
ACL_FUNC_VISIBILITY aclError aclrtMemManagedAdvise(
    const void* const ptr, uint64_t size, aclrtMemManagedAdviseType advise, aclrtMemManagedLocation location);

/* Store in data (dataSize bytes) a range attribute of managed memory. */
ACL_FUNC_VISIBILITY aclError aclrtMemManagedGetAttr(
    aclrtMemManagedRangeAttribute attribute, const void* ptr, size_t size, void* data, size_t dataSize);

/* Store numAttributes range attributes, each in its own data entry. */
ACL_FUNC_VISIBILITY aclError aclrtMemManagedGetAttrs(
    aclrtMemManagedRangeAttribute* attributes, size_t numAttributes, const void* ptr, size_t size, void** data,
    size_t* dataSizes);

/* Enqueue on stream a prefetch of managed memory to location. */
ACL_FUNC_VISIBILITY aclError aclrtMemManagedPrefetchAsync(
    const void* ptr, size_t size, aclrtMemManagedLocation location, uint32_t flags, aclrtStream stream);

/* Enqueue on stream the prefetches of count ranges as one task. */
ACL_FUNC_VISIBILITY aclError aclrtMemManagedPrefetchBatchAsync(
    const void** ptrs, size_t* sizes, size_t count, aclrtMemManagedLocation* prefetchLocs, size_t* prefetchLocIdxs,
    size_t numPrefetchLocs, uint64_t flags, aclrtStream stream);

/* Sharing physical memory with other processes of the simulated machine. */

/* Export physical memory handle (handleType ACL_MEM_HANDLE_TYPE_NONE) and
 * store its shareable handle in *shareableHandle. flags:
 * ACL_RT_VMM_EXPORT_FLAG_*. */
ACL_FUNC_VISIBILITY aclError aclrtMemExportToShareableHandle(
    aclrtDrvMemHandle handle, aclrtMemHandleType handleType, uint64_t flags, uint64_t* shareableHandle);

/* Export as aclrtMemExportToShareableHandle into shareableHandle: a
 * uint64_t for ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, an aclrtMemFabricHandle
 * for ACL_MEM_SHARE_HANDLE_TYPE_FABRIC. */
ACL_FUNC_VISIBILITY aclError aclrtMemExportToShareableHandleV2(
    aclrtDrvMemHandle handle, uint64_t flags, aclrtMemSharedHandleType shareType, void* shareableHandle);

/* Import the physical memory another process exported as shareableHandle
 * onto device deviceId and store its handle in *handle. */
ACL_FUNC_VISIBILITY aclError aclrtMemImportFromShareableHandle(
    uint64_t shareableHandle, int32_t deviceId, aclrtDrvMemHandle* handle);

/* Import as aclrtMemImportFromShareableHandle onto the current device;
 * flags must be 0. */
ACL_FUNC_VISIBILITY aclError aclrtMemImportFromShareableHandleV2(
    void* shareableHandle, aclrtMemSharedHandleType shareType, uint64_t flags, aclrtDrvMemHandle* handle);

/* Let the pidNum processes at pid import shareableHandle. */
ACL_FUNC_VISIBILITY aclError aclrtMemSetPidToShareableHandle(uint64_t shareableHandle, int32_t* pid, size_t pidNum);

/* aclrtMemSetPidToShareableHandle for a handle of type shareType. */
ACL_FUNC_VISIBILITY aclError aclrtMemSetPidToShareableHandleV2(
    void* shareableHandle, aclrtMemSharedHandleType shareType, int32_t* pid, size_t pidNum);

#ifdef __cplusplus
}
#endif

#endif /* INC_GOCANN_ACL_ACL_RT_VMM_H_ */
