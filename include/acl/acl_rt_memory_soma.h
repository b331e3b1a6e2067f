/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * acl/acl_rt_memory_soma.h: stream-ordered memory allocation from memory
 * pools. As in CANN, acl/acl.h does not include it: include it yourself.
 */
#include "acl_rt.h"

#ifndef INC_EXTERNAL_ACL_RT_MEMORY_H_
#define INC_EXTERNAL_ACL_RT_MEMORY_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void* aclrtMemPool;

/* Pool attributes. The reuse switches are uint32_t (nonzero is on), the
 * others uint64_t byte counts; the CURRENT ones are read-only and the HIGH
 * ones only accept 0, which resets them. */
typedef enum aclrtMemPoolAttr {
    ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES = 0x1,
    ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC = 0x2,
    ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES = 0x3,
    ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD = 0x4,
    ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT = 0x5,
    ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH = 0x6,
    ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT = 0x7,
    ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH = 0x8
} aclrtMemPoolAttr;

/* A pool's properties: pinned device memory of location.id, at most
 * maxSize bytes (rounded up to 2 MiB; 0: all of the device's memory). */
typedef struct {
    aclrtMemAllocationType allocType;
    aclrtMemHandleType handleType;
    aclrtMemLocation location;
    size_t maxSize;
    unsigned char reserved[32];
} aclrtMemPoolProps;

/* Create a memory pool. */
ACL_FUNC_VISIBILITY aclError aclrtMemPoolCreate(aclrtMemPool* memPool, const aclrtMemPoolProps* poolProps);

/* Destroy a pool and free its memory, allocations still in use included. */
ACL_FUNC_VISIBILITY aclError aclrtMemPoolDestroy(const aclrtMemPool memPool);

/* Set or read an attribute; value points to a uint32_t or a uint64_t as
 * the attribute says. */
ACL_FUNC_VISIBILITY aclError aclrtMemPoolSetAttr(aclrtMemPool memPool, aclrtMemPoolAttr attr, void* value);
ACL_FUNC_VISIBILITY aclError aclrtMemPoolGetAttr(aclrtMemPool memPool, aclrtMemPoolAttr attr, void* value);

/* Take size bytes from the pool for the tasks stream queues from now on;
 * *ptr is valid at once. Zero bytes succeed and leave *ptr alone. */
ACL_FUNC_VISIBILITY aclError aclrtMemPoolMallocAsync(void** ptr, size_t size, aclrtMemPool memPool, aclrtStream stream);

/* Give memory back to its pool once stream's earlier tasks are done;
 * memory from aclrtMalloc is freed then. */
ACL_FUNC_VISIBILITY aclError aclrtMemPoolFreeAsync(void* ptr, aclrtStream stream);

/* Give cached memory back to the device until the pool holds at most
 * minBytesToKeep bytes, as far as it is unused. */
ACL_FUNC_VISIBILITY aclError aclrtMemPoolTrimTo(aclrtMemPool memPool, size_t minBytesToKeep);

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_ACL_RT_MEMORY_H_ */
