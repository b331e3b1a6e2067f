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

// Host memory the device can see (aclrtHostRegister and its family) and
// the synchronizing frees.

//export gocann_aclrtHostRegister
func gocann_aclrtHostRegister(t *C.gocann_thread, p unsafe.Pointer, size C.uint64_t, typ C.aclrtHostRegisterType, devPtr *unsafe.Pointer) C.aclError {
	const fn = "aclrtHostRegister"
	if code := unsupported(t, "aclrtHostRegister"); code != 0 {
		return code
	}
	switch {
	case p == nil:
		return nullArg(t, fn, "ptr")
	case devPtr == nil:
		return nullArg(t, fn, "devPtr")
	case size == 0:
		return failf(t, fn, gocann.KindBadArgument, "size 0 is invalid, expected > 0")
	}
	var flags uint32
	switch typ {
	case C.ACL_HOST_REGISTER_MAPPED:
		flags = uint32(gocann.HostRegMapped)
	case C.ACL_HOST_REGISTER_IOMEMORY, C.ACL_HOST_REGISTER_READONLY, C.ACL_HOST_REGISTER_IOMEMORY | C.ACL_HOST_REGISTER_READONLY:
		flags = uint32(typ) // refused as the reserved flags they are
	default:
		return failf(t, fn, gocann.KindNotSupported, "type %d is not supported, expected ACL_HOST_REGISTER_MAPPED (0)", typ)
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	if err := c.c.Raw().HostRegister(p, uint64(size), flags); err != nil {
		return fail(t, fn, err)
	}
	*devPtr = p // kernels reach the memory at its own address
	return 0
}

//export gocann_aclrtHostRegisterV2
func gocann_aclrtHostRegisterV2(t *C.gocann_thread, p unsafe.Pointer, size C.uint64_t, flag C.uint32_t) C.aclError {
	const fn = "aclrtHostRegisterV2"
	switch {
	case p == nil:
		return nullArg(t, fn, "ptr")
	case size == 0:
		return failf(t, fn, gocann.KindBadArgument, "size 0 is invalid, expected > 0")
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	return fail(t, fn, c.c.Raw().HostRegister(p, uint64(size), uint32(flag)))
}

//export gocann_aclrtHostGetDevicePointer
func gocann_aclrtHostGetDevicePointer(t *C.gocann_thread, p unsafe.Pointer, out *unsafe.Pointer, flag C.uint32_t) C.aclError {
	const fn = "aclrtHostGetDevicePointer"
	switch {
	case p == nil:
		return nullArg(t, fn, "pHost")
	case out == nil:
		return nullArg(t, fn, "pDevice")
	case flag != 0:
		return failf(t, fn, gocann.KindBadArgument, "flag %d is invalid, expected 0 (reserved)", flag)
	}
	if _, code := currentContext(t, fn); code != 0 {
		return code
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	d, err := r.Raw().HostDevicePointer(p)
	if err != nil {
		return fail(t, fn, err)
	}
	*out = d
	return 0
}

//export gocann_aclrtHostUnregister
func gocann_aclrtHostUnregister(t *C.gocann_thread, p unsafe.Pointer) C.aclError {
	const fn = "aclrtHostUnregister"
	if p == nil {
		return nullArg(t, fn, "ptr")
	}
	if _, code := currentContext(t, fn); code != 0 {
		return code
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	return fail(t, fn, r.Raw().HostUnregister(p))
}

//export gocann_aclrtHostMemMapCapabilities
func gocann_aclrtHostMemMapCapabilities(t *C.gocann_thread, id C.uint32_t, hac C.aclrtHacType, out *C.aclrtHostMemMapCapability) C.aclError {
	const fn = "aclrtHostMemMapCapabilities"
	if out == nil {
		return nullArg(t, fn, "capabilities")
	}
	if _, code := currentContext(t, fn); code != 0 {
		return code
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	d, err := r.Device(int(int32(id)))
	if err != nil {
		return fail(t, fn, err)
	}
	ok, err := d.HostMemMapCapable(gocann.HAC(int32(hac)))
	if err != nil {
		return fail(t, fn, err)
	}
	*out = C.ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED
	if ok {
		*out = C.ACL_RT_HOST_MEM_MAP_SUPPORTED
	}
	return 0
}

//export gocann_aclrtMallocHostWithCfg
func gocann_aclrtMallocHostWithCfg(t *C.gocann_thread, out *unsafe.Pointer, size C.uint64_t, cfg *C.aclrtMallocConfig) C.aclError {
	const fn = "aclrtMallocHostWithCfg"
	if out == nil {
		return nullArg(t, fn, "ptr")
	}
	if size == 0 {
		return failf(t, fn, gocann.KindBadArgument, "size 0 is invalid, expected > 0")
	}
	var hc gocann.HostMallocConfig
	if cfg != nil {
		if cfg.attrs == nil {
			return failf(t, fn, gocann.KindInvalidParam, "cfg->attrs is NULL, expected %d attributes", cfg.numAttrs)
		}
		if code := checkArray(t, fn, "cfg->numAttrs", unsafe.Pointer(cfg.attrs), cfg.numAttrs, unsafe.Sizeof(*cfg.attrs)); code != 0 {
			return code
		}
		for i, a := range unsafe.Slice(cfg.attrs, cfg.numAttrs) {
			switch a.attr {
			case C.ACL_RT_MEM_ATTR_MODULE_ID:
				hc.ModuleID = uint16(*(*C.uint16_t)(unsafe.Pointer(&a.value)))
			case C.ACL_RT_MEM_ATTR_VA_FLAG:
				switch v := *(*C.uint32_t)(unsafe.Pointer(&a.value)); v {
				case 0, 1:
					hc.VAConsistent = v == 1
				default:
					return failf(t, fn, gocann.KindInvalidParam, "cfg->attrs[%d] ACL_RT_MEM_ATTR_VA_FLAG %d is invalid, expected 0 or 1", i, v)
				}
			default:
				return failf(t, fn, gocann.KindInvalidParam, "cfg->attrs[%d] attribute %d is invalid for host memory, expected ACL_RT_MEM_ATTR_MODULE_ID (1) or ACL_RT_MEM_ATTR_VA_FLAG (3)", i, a.attr)
			}
		}
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	if uint64(size) > uint64(^uint(0)>>1) {
		return failf(t, fn, gocann.KindInvalidParam, "size %d is invalid, expected at most %d", size, ^uint(0)>>1)
	}
	b, err := c.c.MallocHostConfig(int(size), hc)
	if err != nil {
		return fail(t, fn, err)
	}
	*out = b.Pointer()
	return 0
}

//export gocann_aclrtFreeHostWithDevSync
func gocann_aclrtFreeHostWithDevSync(t *C.gocann_thread, p unsafe.Pointer) C.aclError {
	const fn = "aclrtFreeHostWithDevSync"
	if p == nil {
		return nullArg(t, fn, "hostPtr")
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	return fail(t, fn, r.Raw().FreeHostWithDevSync(p))
}

//export gocann_aclrtFreeWithDevSync
func gocann_aclrtFreeWithDevSync(t *C.gocann_thread, p unsafe.Pointer) C.aclError {
	const fn = "aclrtFreeWithDevSync"
	if p == nil {
		return nullArg(t, fn, "devPtr")
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	return fail(t, fn, r.Raw().FreeWithDevSync(p))
}

//export gocann_aclrtCheckMemType
func gocann_aclrtCheckMemType(t *C.gocann_thread, list *unsafe.Pointer, size C.uint32_t, memType C.uint32_t, result *C.uint32_t, reserve C.uint32_t) C.aclError {
	const fn = "aclrtCheckMemType"
	switch {
	case list == nil:
		return nullArg(t, fn, "addrList")
	case result == nil:
		return nullArg(t, fn, "checkResult")
	}
	*result = 0
	if reserve != 0 {
		return failf(t, fn, gocann.KindInvalidParam, "reserve %d is invalid, expected 0", reserve)
	}
	if code := checkArray(t, fn, "size", unsafe.Pointer(list), C.size_t(size), unsafe.Sizeof(*list)); code != 0 {
		return code
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	ptrs := make([]gocann.DevPtr, size)
	for i, p := range unsafe.Slice(list, size) {
		ptrs[i] = gocann.DevPtr(uintptr(p))
	}
	ok, err := c.c.CheckMemType(ptrs, uint32(memType))
	if err != nil {
		return fail(t, fn, err)
	}
	if ok {
		*result = 1
	}
	return 0
}
