/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * acl/acl_rt_copy.h: batch, 32-bit, offset, descriptor and conditional copies, cache
 * maintenance and device symbols. Part of acl/acl_rt.h, which includes it; it may
 * also be included on its own.
 */
/* First: acl_rt.h includes every part, this one included. */
#include "acl_rt.h"

#ifndef INC_GOCANN_ACL_ACL_RT_COPY_H_
#define INC_GOCANN_ACL_ACL_RT_COPY_H_

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------
 * More copies: batches, 32-bit memsets, copies the device reads from memory
 * ------------------------------------------------------------------------ */

/* Copy sizes[i] bytes from srcs[i] to dsts[i] (room for destMaxs[i]) for
 * each of the numBatches copies, host to device or device to host, and
 * return when done; attrs[k] describes the copies from attrsIndexes[k] on.
 * On a refused copy *failIndex names it, else it is SIZE_MAX. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyBatch(
    void** dsts, size_t* destMaxs, void** srcs, size_t* sizes, size_t numBatches, aclrtMemcpyBatchAttr* attrs,
    size_t* attrsIndexes, size_t numAttrs, size_t* failIndex);

/* aclrtMemcpyBatch without the failure index. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyBatchV2(
    void** dsts, size_t* destMaxs, void** srcs, size_t* sizes, size_t numBatches, aclrtMemcpyBatchAttr* attrs,
    size_t* attrsIndexes, size_t numAttrs);

/* Enqueue on stream the copies of aclrtMemcpyBatch as one task; with
 * pageable host memory among them, return when they are done. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyBatchAsync(
    void** dsts, size_t* destMaxs, void** srcs, size_t* sizes, size_t numBatches, aclrtMemcpyBatchAttr* attrs,
    size_t* attrsIndexes, size_t numAttrs, size_t* failIndex, aclrtStream stream);

/* aclrtMemcpyBatchAsync without the failure index. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyBatchAsyncV2(
    void** dsts, size_t* destMaxs, void** srcs, size_t* sizes, size_t numBatches, aclrtMemcpyBatchAttr* attrs,
    size_t* attrsIndexes, size_t numAttrs, aclrtStream stream);

/* Set N 32-bit words at ptr (memSize bytes, 4-byte aligned) to value and
 * return when done. */
ACL_FUNC_VISIBILITY aclError aclrtMemsetD32(void* ptr, size_t memSize, uint32_t value, size_t N);

/* Enqueue on stream the fill of aclrtMemsetD32; host memory is filled at
 * once. */
ACL_FUNC_VISIBILITY aclError aclrtMemsetD32Async(
    void* ptr, size_t memSize, uint32_t value, size_t N, aclrtStream stream);

/* aclrtMemcpyAsync, refusing ACL_MEMCPY_HOST_TO_HOST. */
ACL_DEPRECATED_MESSAGE("aclrtMemcpyAsyncWithCondition is deprecated, use aclrtMemcpyAsync instead")
ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsyncWithCondition(
    void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind, aclrtStream stream);

/* Store in *descSize the size of a copy descriptor for kind
 * (ACL_MEMCPY_INNER_DEVICE_TO_DEVICE). */
ACL_FUNC_VISIBILITY aclError aclrtGetMemcpyDescSize(aclrtMemcpyKind kind, size_t* descSize);

/* Write into the device memory at desc a descriptor of a copy of count
 * bytes from srcAddr to dstAddr; config must be NULL. */
ACL_FUNC_VISIBILITY aclError aclrtSetMemcpyDesc(
    void* desc, aclrtMemcpyKind kind, void* srcAddr, void* dstAddr, size_t count, void* config);

/* Enqueue on stream a copy of count bytes from the address in the device
 * word at src plus srcDataOffset to the one in the word at dst plus
 * dstDataOffset, read when the copy starts. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsyncWithOffset(
    void** dst, size_t destMax, size_t dstDataOffset, const void** src, size_t count, size_t srcDataOffset,
    aclrtMemcpyKind kind, aclrtStream stream);

/* Enqueue on stream the copy the descriptor at desc describes, read when
 * the copy starts. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsyncWithDesc(void* desc, aclrtMemcpyKind kind, aclrtStream stream);

/* ------------------------------------------------------------------------
 * Cache maintenance. The simulated memory is coherent: these are checked
 * and ordered like any task, and change no bytes.
 * ------------------------------------------------------------------------ */

/* Write the cache lines of size bytes at devPtr back and drop them. */
ACL_FUNC_VISIBILITY aclError aclrtMemFlush(void* devPtr, size_t size);

/* Drop the cache lines of size bytes at devPtr. */
ACL_FUNC_VISIBILITY aclError aclrtMemInvalidate(void* devPtr, size_t size);

/* Flush the current device's L2 cache; rsv must be NULL. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceL2CacheFlush(void* rsv);

/* Enqueue on stream cache operation cmoType over size bytes of device
 * memory at src. */
ACL_FUNC_VISIBILITY aclError aclrtCmoAsync(void* src, size_t size, aclrtCmoType cmoType, aclrtStream stream);

/* As aclrtCmoAsync, carrying barrier barrierId, on a stream bound to a
 * model. */
ACL_FUNC_VISIBILITY aclError aclrtCmoAsyncWithBarrier(
    void* src, size_t size, aclrtCmoType cmoType, uint32_t barrierId, aclrtStream stream);

/* Enqueue on stream, bound to a model, a wait for the invalidations with
 * the barriers in taskInfo; flag must be 0. */
ACL_FUNC_VISIBILITY aclError aclrtCmoWaitBarrier(aclrtBarrierTaskInfo* taskInfo, aclrtStream stream, uint32_t flag);

/* Store in *size the size of a cache operation descriptor. */
ACL_FUNC_VISIBILITY aclError aclrtCmoGetDescSize(size_t* size);

/* Write into the device memory at cmoDesc a descriptor of size bytes at
 * src. */
ACL_FUNC_VISIBILITY aclError aclrtCmoSetDesc(void* cmoDesc, void* src, size_t size);

/* Enqueue on stream cache operation cmoType over what the descriptor at
 * cmoDesc describes; reserve must be NULL. */
ACL_FUNC_VISIBILITY aclError aclrtCmoAsyncWithDesc(
    void* cmoDesc, aclrtCmoType cmoType, aclrtStream stream, const void* reserve);
/* Device symbols: symbol is the address of a device global (an exported
 * variable of a loaded kernel binary). Copies into a symbol take
 * ACL_MEMCPY_HOST_TO_DEVICE or ACL_MEMCPY_DEFAULT, copies out of one
 * ACL_MEMCPY_DEVICE_TO_HOST or ACL_MEMCPY_DEFAULT; offset + count must lie
 * inside the symbol. */
ACL_FUNC_VISIBILITY aclError aclrtGetSymbolAddress(const void* symbol, void** devPtr);
ACL_FUNC_VISIBILITY aclError aclrtGetSymbolSize(const void* symbol, size_t* size);
ACL_FUNC_VISIBILITY aclError aclrtMemcpyFromSymbol(
    void* dst, size_t dstMax, const void* symbol, size_t count, size_t offset, aclrtMemcpyKind kind);
ACL_FUNC_VISIBILITY aclError aclrtMemcpyFromSymbolAsync(
    void* dst, size_t dstMax, const void* symbol, size_t count, size_t offset, aclrtMemcpyKind kind,
    aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtMemcpyToSymbol(
    const void* symbol, const void* src, size_t count, size_t offset, aclrtMemcpyKind kind);
ACL_FUNC_VISIBILITY aclError aclrtMemcpyToSymbolAsync(
    const void* symbol, const void* src, size_t count, size_t offset, aclrtMemcpyKind kind, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* INC_GOCANN_ACL_ACL_RT_COPY_H_ */
