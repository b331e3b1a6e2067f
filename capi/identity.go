package main

/*
#include <string.h>
#include "acl/acl.h"
#include "thread.h"
*/
import "C"

import (
	"unsafe"

	"github.com/gocann/gocann"
)

// convertID is the body of the six device id conversions.
func convertID(t *C.gocann_thread, fn string, id C.int32_t, out *C.int32_t, param string,
	conv func(*gocann.Runtime, int) (int, error)) C.aclError {
	if out == nil {
		return nullArg(t, fn, param)
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	v, err := conv(r, int(id))
	if err != nil {
		return fail(t, fn, err)
	}
	*out = C.int32_t(v)
	return 0
}

//export gocann_aclrtGetLogicDevIdByUserDevId
func gocann_aclrtGetLogicDevIdByUserDevId(t *C.gocann_thread, id C.int32_t, out *C.int32_t) C.aclError {
	return convertID(t, "aclrtGetLogicDevIdByUserDevId", id, out, "logicDevId", (*gocann.Runtime).LogicalIDOfUser)
}

//export gocann_aclrtGetUserDevIdByLogicDevId
func gocann_aclrtGetUserDevIdByLogicDevId(t *C.gocann_thread, id C.int32_t, out *C.int32_t) C.aclError {
	return convertID(t, "aclrtGetUserDevIdByLogicDevId", id, out, "userDevid", (*gocann.Runtime).UserIDOfLogical)
}

//export gocann_aclrtGetPhyDevIdByUserDevId
func gocann_aclrtGetPhyDevIdByUserDevId(t *C.gocann_thread, id C.int32_t, out *C.int32_t) C.aclError {
	return convertID(t, "aclrtGetPhyDevIdByUserDevId", id, out, "phyDevId", (*gocann.Runtime).PhysicalIDOfUser)
}

//export gocann_aclrtGetUserDevIdByPhyDevId
func gocann_aclrtGetUserDevIdByPhyDevId(t *C.gocann_thread, id C.int32_t, out *C.int32_t) C.aclError {
	return convertID(t, "aclrtGetUserDevIdByPhyDevId", id, out, "userDevId", (*gocann.Runtime).UserIDOfPhysical)
}

//export gocann_aclrtGetPhyDevIdByLogicDevId
func gocann_aclrtGetPhyDevIdByLogicDevId(t *C.gocann_thread, id C.int32_t, out *C.int32_t) C.aclError {
	return convertID(t, "aclrtGetPhyDevIdByLogicDevId", id, out, "phyDevId", (*gocann.Runtime).PhysicalIDOfLogical)
}

//export gocann_aclrtGetLogicDevIdByPhyDevId
func gocann_aclrtGetLogicDevIdByPhyDevId(t *C.gocann_thread, id C.int32_t, out *C.int32_t) C.aclError {
	return convertID(t, "aclrtGetLogicDevIdByPhyDevId", id, out, "logicDevId", (*gocann.Runtime).LogicalIDOfPhysical)
}

//export gocann_aclrtDeviceGetPCIBusId
func gocann_aclrtDeviceGetPCIBusId(t *C.gocann_thread, id C.int32_t, buf *C.char, n C.int32_t) C.aclError {
	const fn = "aclrtDeviceGetPCIBusId"
	if buf == nil {
		return nullArg(t, fn, "pciBusId")
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	s, err := r.Raw().PCIBusID(int(id), int(n))
	if err != nil {
		return fail(t, fn, err)
	}
	out := unsafe.Slice((*byte)(unsafe.Pointer(buf)), len(s)+1)
	copy(out, s)
	out[len(s)] = 0
	return 0
}

//export gocann_aclrtDeviceGetByPCIBusId
func gocann_aclrtDeviceGetByPCIBusId(t *C.gocann_thread, bus *C.char, id *C.int32_t) C.aclError {
	const fn = "aclrtDeviceGetByPCIBusId"
	if bus == nil {
		return nullArg(t, fn, "pciBusId")
	}
	if id == nil {
		return nullArg(t, fn, "deviceId")
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	// A bus id is 12 characters; read no further than a little past them.
	v, err := r.DeviceByPCIBusID(C.GoStringN(bus, C.int(C.strnlen(bus, 64))))
	if err != nil {
		return fail(t, fn, err)
	}
	*id = C.int32_t(v)
	return 0
}

//export gocann_aclrtDeviceGetUuid
func gocann_aclrtDeviceGetUuid(t *C.gocann_thread, id C.int32_t, uuid *C.aclrtUuid) C.aclError {
	const fn = "aclrtDeviceGetUuid"
	if uuid == nil {
		return nullArg(t, fn, "uuid")
	}
	d, code := device(t, fn, int(id))
	if code != 0 {
		return code
	}
	u, err := d.UUID()
	if err != nil {
		return fail(t, fn, err)
	}
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&uuid.bytes[0])), 16), u[:])
	return 0
}

// atomicArgs checks the arrays of the atomic capability queries. CANN
// checks them in the runtime, with ACL_ERROR_RT_PARAM_INVALID.
func atomicArgs(t *C.gocann_thread, fn string, caps *C.uint32_t, ops *C.aclrtAtomicOperation, count C.uint32_t) ([]uint32, []gocann.AtomicOp, C.aclError) {
	if caps == nil || ops == nil {
		return nil, nil, failf(t, fn, gocann.KindInvalidParam, "capabilities or operations is NULL, expected arrays of count entries")
	}
	if count == 0 {
		return nil, nil, failf(t, fn, gocann.KindInvalidParam, "count 0 is invalid, expected at least one operation")
	}
	if count > 1<<16 {
		return nil, nil, failf(t, fn, gocann.KindInvalidParam, "count %d is invalid, expected at most 65536 operations", count)
	}
	c := unsafe.Slice((*uint32)(unsafe.Pointer(caps)), count)
	o := unsafe.Slice((*gocann.AtomicOp)(unsafe.Pointer(ops)), count)
	return c, o, 0
}

//export gocann_aclrtDeviceGetHostAtomicCapabilities
func gocann_aclrtDeviceGetHostAtomicCapabilities(t *C.gocann_thread, caps *C.uint32_t, ops *C.aclrtAtomicOperation, count C.uint32_t, id C.int32_t) C.aclError {
	const fn = "aclrtDeviceGetHostAtomicCapabilities"
	c, o, code := atomicArgs(t, fn, caps, ops, count)
	if code != 0 {
		return code
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	v, err := r.HostAtomicCapabilities(int(id), o...)
	if err != nil {
		return fail(t, fn, err)
	}
	copy(c, v)
	return 0
}

//export gocann_aclrtDeviceGetP2PAtomicCapabilities
func gocann_aclrtDeviceGetP2PAtomicCapabilities(t *C.gocann_thread, caps *C.uint32_t, ops *C.aclrtAtomicOperation, count C.uint32_t, src, dst C.int32_t) C.aclError {
	const fn = "aclrtDeviceGetP2PAtomicCapabilities"
	c, o, code := atomicArgs(t, fn, caps, ops, count)
	if code != 0 {
		return code
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	v, err := r.P2PAtomicCapabilities(int(src), int(dst), o...)
	if err != nil {
		return fail(t, fn, err)
	}
	copy(c, v)
	return 0
}

//export gocann_aclrtGetDeviceCapability
func gocann_aclrtGetDeviceCapability(t *C.gocann_thread, id C.int32_t, feature C.aclrtDevFeatureType, value *C.int32_t) C.aclError {
	const fn = "aclrtGetDeviceCapability"
	if value == nil {
		return nullArg(t, fn, "value")
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	ok, err := r.Raw().DeviceFeature(int(id), gocann.DeviceFeature(feature))
	if err != nil {
		return fail(t, fn, err)
	}
	*value = 0 // ACL_DEV_FEATURE_NOT_SUPPORT
	if ok {
		*value = 1 // ACL_DEV_FEATURE_SUPPORT
	}
	return 0
}

//export gocann_aclrtCheckArchCompatibility
func gocann_aclrtCheckArchCompatibility(t *C.gocann_thread, soc *C.char, can *C.int32_t) C.aclError {
	const fn = "aclrtCheckArchCompatibility"
	if soc == nil {
		return failf(t, fn, gocann.KindInvalidParam, "socVersion is NULL, expected a SoC name such as Ascend910B1")
	}
	if can == nil {
		return failf(t, fn, gocann.KindInvalidParam, "canCompatible is NULL, expected a valid pointer")
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	ok, err := r.CheckArchCompatibility(C.GoStringN(soc, C.int(C.strnlen(soc, 256))))
	if err != nil {
		return fail(t, fn, err)
	}
	*can = 0
	if ok {
		*can = 1
	}
	return 0
}

//export gocann_aclrtGetDeviceUtilizationRate
func gocann_aclrtGetDeviceUtilizationRate(t *C.gocann_thread, id C.int32_t, info *C.aclrtUtilizationInfo) C.aclError {
	const fn = "aclrtGetDeviceUtilizationRate"
	if info == nil {
		return nullArg(t, fn, "utilizationInfo")
	}
	if info.utilizationExtend != nil {
		return failf(t, fn, gocann.KindBadArgument, "utilizationInfo->utilizationExtend is %p, expected NULL (reserved)", unsafe.Pointer(info.utilizationExtend))
	}
	d, code := device(t, fn, int(id))
	if code != 0 {
		return code
	}
	u, err := d.Utilization()
	if err != nil {
		return fail(t, fn, err)
	}
	info.cubeUtilization, info.vectorUtilization = C.int32_t(u.Cube), C.int32_t(u.Vector)
	info.aicpuUtilization, info.memoryUtilization = C.int32_t(u.AICPU), C.int32_t(u.Memory)
	return 0
}

//export gocann_aclrtDeviceSetLimit
func gocann_aclrtDeviceSetLimit(t *C.gocann_thread, limit C.aclrtDeviceLimit, value C.size_t) C.aclError {
	const fn = "aclrtDeviceSetLimit"
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	return fail(t, fn, r.SetDeviceLimit(gocann.DeviceLimit(limit), uint64(value)))
}

//export gocann_aclrtDeviceGetLimit
func gocann_aclrtDeviceGetLimit(t *C.gocann_thread, limit C.aclrtDeviceLimit, value *C.size_t) C.aclError {
	const fn = "aclrtDeviceGetLimit"
	if value == nil {
		return nullArg(t, fn, "value")
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	v, err := r.DeviceLimit(gocann.DeviceLimit(limit))
	if err != nil {
		return fail(t, fn, err)
	}
	*value = C.size_t(v)
	return 0
}

//export gocann_aclrtSetTsDevice
func gocann_aclrtSetTsDevice(t *C.gocann_thread, ts C.aclrtTsId) C.aclError {
	const fn = "aclrtSetTsDevice"
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	return fail(t, fn, r.Raw().SetTsDevice(int(ts)))
}

//export gocann_aclrtGetMemUsageInfo
func gocann_aclrtGetMemUsageInfo(t *C.gocann_thread, id C.int32_t, info *C.aclrtMemUsageInfo, inputNum C.size_t, outputNum *C.size_t) C.aclError {
	const fn = "aclrtGetMemUsageInfo"
	if info == nil {
		return nullArg(t, fn, "memUsageInfo")
	}
	if outputNum == nil {
		return nullArg(t, fn, "outputNum")
	}
	*outputNum = 0
	if inputNum == 0 {
		return failf(t, fn, gocann.KindInvalidParam, "inputNum 0 is invalid, expected at least 1")
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	comps, err := r.MemUsage(int(id))
	if err != nil {
		return fail(t, fn, err)
	}
	n := min(len(comps), int(min(inputNum, 1<<16)))
	out := unsafe.Slice(info, n)
	for i, c := range comps[:n] {
		out[i] = C.aclrtMemUsageInfo{}
		name := unsafe.Slice((*byte)(unsafe.Pointer(&out[i].name[0])), len(out[i].name))
		copy(name[:len(name)-1], c.Name)
		out[i].curMemSize, out[i].memPeakSize = C.uint64_t(c.Bytes), C.uint64_t(c.Peak)
	}
	*outputNum = C.size_t(n)
	return 0
}
