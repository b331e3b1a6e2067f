package main

/*
#include "acl/acl.h"
#include "thread.h"
*/
import "C"

import (
	"unsafe"

	"github.com/gocann/gocann"
)

// Shared buffers (acl/acl_rt_mbuf.h). A buffer is a handle; proc.fronts
// maps each *gocann.Buf to it, so a buffer read back from a chain is the
// handle it was given as.

func bufOf(t *C.gocann_thread, fn, param string, p C.aclrtMbuf) (*gocann.Buf, C.aclError) {
	if obj, ok := proc.handles.get(handleOf(unsafe.Pointer(p)), kindBuf); ok {
		return obj.(*gocann.Buf), 0
	}
	return nil, badHandle(t, fn, param, unsafe.Pointer(p), kindBuf)
}

// putBuf gives b, new, a handle and stores it in *out.
func putBuf(t *C.gocann_thread, fn string, b *gocann.Buf, out *C.aclrtMbuf) C.aclError {
	h, ok := proc.handles.add(kindBuf, b)
	if !ok {
		_ = b.Free() // new, in no chain: nothing else holds it
		return failf(t, fn, gocann.KindInternal, "too many live handles")
	}
	proc.fronts.Store(b, h)
	*out = C.aclrtMbuf(C.gocann_handle(C.uintptr_t(h)))
	return 0
}

//export gocann_aclrtAllocBuf
func gocann_aclrtAllocBuf(t *C.gocann_thread, out *C.aclrtMbuf, size C.size_t) C.aclError {
	const fn = "aclrtAllocBuf"
	if out == nil {
		return nullArg(t, fn, "buf")
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	b, err := c.c.AllocBuf(uint64(size))
	if err != nil {
		return fail(t, fn, err)
	}
	return putBuf(t, fn, b, out)
}

//export gocann_aclrtFreeBuf
func gocann_aclrtFreeBuf(t *C.gocann_thread, p C.aclrtMbuf) C.aclError {
	const fn = "aclrtFreeBuf"
	b, code := bufOf(t, fn, "buf", p)
	if code != 0 {
		return code
	}
	freed, err := b.FreeChain()
	if err != nil {
		return fail(t, fn, err)
	}
	for _, f := range freed {
		if h, ok := proc.fronts.LoadAndDelete(f); ok {
			proc.handles.remove(h.(handle), kindBuf)
		}
	}
	return 0
}

//export gocann_aclrtGetBufData
func gocann_aclrtGetBufData(t *C.gocann_thread, p C.aclrtMbuf, dataPtr *unsafe.Pointer, size *C.size_t) C.aclError {
	const fn = "aclrtGetBufData"
	b, code := bufOf(t, fn, "buf", p)
	if code != 0 {
		return code
	}
	if dataPtr == nil {
		return nullArg(t, fn, "dataPtr")
	}
	if size == nil {
		return nullArg(t, fn, "size")
	}
	ptr, n, err := b.Raw().Data()
	if err != nil {
		return fail(t, fn, err)
	}
	*dataPtr, *size = ptr, C.size_t(n)
	return 0
}

//export gocann_aclrtGetBufDataLen
func gocann_aclrtGetBufDataLen(t *C.gocann_thread, p C.aclrtMbuf, n *C.size_t) C.aclError {
	const fn = "aclrtGetBufDataLen"
	b, code := bufOf(t, fn, "buf", p)
	if code != 0 {
		return code
	}
	if n == nil {
		return nullArg(t, fn, "len")
	}
	v, err := b.DataLen()
	if err != nil {
		return fail(t, fn, err)
	}
	*n = C.size_t(v)
	return 0
}

//export gocann_aclrtSetBufDataLen
func gocann_aclrtSetBufDataLen(t *C.gocann_thread, p C.aclrtMbuf, n C.size_t) C.aclError {
	const fn = "aclrtSetBufDataLen"
	b, code := bufOf(t, fn, "buf", p)
	if code != 0 {
		return code
	}
	return fail(t, fn, b.SetDataLen(uint64(n)))
}

//export gocann_aclrtGetBufUserData
func gocann_aclrtGetBufUserData(t *C.gocann_thread, p C.aclrtMbuf, dataPtr unsafe.Pointer, size, offset C.size_t) C.aclError {
	const fn = "aclrtGetBufUserData"
	b, code := bufOf(t, fn, "buf", p)
	if code != 0 {
		return code
	}
	return fail(t, fn, b.Raw().UserData(dataPtr, uint64(size), uint64(offset)))
}

//export gocann_aclrtSetBufUserData
func gocann_aclrtSetBufUserData(t *C.gocann_thread, p C.aclrtMbuf, dataPtr unsafe.Pointer, size, offset C.size_t) C.aclError {
	const fn = "aclrtSetBufUserData"
	b, code := bufOf(t, fn, "buf", p)
	if code != 0 {
		return code
	}
	return fail(t, fn, b.Raw().SetUserData(dataPtr, uint64(size), uint64(offset)))
}

//export gocann_aclrtCopyBufRef
func gocann_aclrtCopyBufRef(t *C.gocann_thread, p C.aclrtMbuf, out *C.aclrtMbuf) C.aclError {
	const fn = "aclrtCopyBufRef"
	b, code := bufOf(t, fn, "buf", p)
	if code != 0 {
		return code
	}
	if out == nil {
		return nullArg(t, fn, "newBuf")
	}
	n, err := b.CopyRef()
	if err != nil {
		return fail(t, fn, err)
	}
	return putBuf(t, fn, n, out)
}

//export gocann_aclrtAppendBufChain
func gocann_aclrtAppendBufChain(t *C.gocann_thread, head, p C.aclrtMbuf) C.aclError {
	const fn = "aclrtAppendBufChain"
	h, code := bufOf(t, fn, "headBuf", head)
	if code != 0 {
		return code
	}
	b, code := bufOf(t, fn, "buf", p)
	if code != 0 {
		return code
	}
	return fail(t, fn, h.Append(b))
}

//export gocann_aclrtGetBufChainNum
func gocann_aclrtGetBufChainNum(t *C.gocann_thread, head C.aclrtMbuf, num *C.uint32_t) C.aclError {
	const fn = "aclrtGetBufChainNum"
	h, code := bufOf(t, fn, "headBuf", head)
	if code != 0 {
		return code
	}
	if num == nil {
		return nullArg(t, fn, "num")
	}
	n, err := h.ChainNum()
	if err != nil {
		return fail(t, fn, err)
	}
	*num = C.uint32_t(n)
	return 0
}

//export gocann_aclrtGetBufFromChain
func gocann_aclrtGetBufFromChain(t *C.gocann_thread, head C.aclrtMbuf, index C.uint32_t, out *C.aclrtMbuf) C.aclError {
	const fn = "aclrtGetBufFromChain"
	h, code := bufOf(t, fn, "headBuf", head)
	if code != 0 {
		return code
	}
	if out == nil {
		return nullArg(t, fn, "buf")
	}
	b, err := h.ChainAt(uint32(index))
	if err != nil {
		return fail(t, fn, err)
	}
	bh, ok := proc.fronts.Load(b)
	if !ok {
		return failf(t, fn, gocann.KindInternal, "buffer %d of the chain has no handle", index)
	}
	*out = C.aclrtMbuf(C.gocann_handle(C.uintptr_t(bh.(handle))))
	return 0
}
