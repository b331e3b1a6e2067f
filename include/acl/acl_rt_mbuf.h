/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * acl/acl_rt_mbuf.h: shared buffers. A buffer (aclrtMbuf) is a data area
 * in device memory, the length of the valid data in it, a 96-byte user
 * data area, and, for the first buffer of a chain, the buffers appended
 * to it. acl/acl_rt.h includes it, as CANN's acl_rt.h declares these
 * functions; it may also be included on its own.
 */
#ifndef INC_GOCANN_ACL_ACL_RT_MBUF_H_
#define INC_GOCANN_ACL_ACL_RT_MBUF_H_

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Store in *buf buffer index of the chain headBuf is the first buffer of;
 * index 0 is headBuf. */
ACL_FUNC_VISIBILITY aclError aclrtGetBufFromChain(aclrtMbuf headBuf, uint32_t index, aclrtMbuf* buf);

/* Store in *num the number of buffers in the chain headBuf is the first
 * buffer of, headBuf included. */
ACL_FUNC_VISIBILITY aclError aclrtGetBufChainNum(aclrtMbuf headBuf, uint32_t* num);

/* Append buf, a buffer in no chain, to the chain headBuf is the first
 * buffer of; a chain holds at most 128 buffers. */
ACL_FUNC_VISIBILITY aclError aclrtAppendBufChain(aclrtMbuf headBuf, aclrtMbuf buf);

/* Store in *newBuf a new buffer over buf's data area, with its data length
 * and user data; the data area lives until both are freed. */
ACL_FUNC_VISIBILITY aclError aclrtCopyBufRef(const aclrtMbuf buf, aclrtMbuf* newBuf);

/* Copy size bytes of buf's user data area, from offset, to dataPtr;
 * size + offset is at most 96. */
ACL_FUNC_VISIBILITY aclError aclrtGetBufUserData(const aclrtMbuf buf, void* dataPtr, size_t size, size_t offset);

/* Copy size bytes at dataPtr into buf's user data area at offset; size +
 * offset is at most 96. */
ACL_FUNC_VISIBILITY aclError aclrtSetBufUserData(aclrtMbuf buf, const void* dataPtr, size_t size, size_t offset);

/* Store in *dataPtr the device address of buf's data area and in *size its
 * size. */
ACL_FUNC_VISIBILITY aclError aclrtGetBufData(const aclrtMbuf buf, void** dataPtr, size_t* size);

/* Store in *len the length of buf's valid data (0 until
 * aclrtSetBufDataLen). */
ACL_FUNC_VISIBILITY aclError aclrtGetBufDataLen(aclrtMbuf buf, size_t* len);

/* Set the length of buf's valid data, at most its data area's size. */
ACL_FUNC_VISIBILITY aclError aclrtSetBufDataLen(aclrtMbuf buf, size_t len);

/* Free buf and, if it heads a chain, every buffer of the chain; a data
 * area goes with the last buffer over it. */
ACL_FUNC_VISIBILITY aclError aclrtFreeBuf(aclrtMbuf buf);

/* Allocate in *buf a buffer with a data area of size bytes (1 to 4 GiB) of
 * the current context's device memory. */
ACL_FUNC_VISIBILITY aclError aclrtAllocBuf(aclrtMbuf* buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* INC_GOCANN_ACL_ACL_RT_MBUF_H_ */
