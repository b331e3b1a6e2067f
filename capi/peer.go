package main

/*
#include "acl/acl.h"
#include "thread.h"
*/
import "C"

import "unsafe"

//export gocann_aclrtDeviceCanAccessPeer
func gocann_aclrtDeviceCanAccessPeer(t *C.gocann_thread, can *C.int32_t, deviceID, peerDeviceID C.int32_t) C.aclError {
	const fn = "aclrtDeviceCanAccessPeer"
	if can == nil {
		return nullArg(t, fn, "canAccessPeer")
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	ok, err := r.CanAccessPeer(int(deviceID), int(peerDeviceID))
	if err != nil {
		return fail(t, fn, err)
	}
	*can = 0
	if ok {
		*can = 1
	}
	return 0
}

//export gocann_aclrtDeviceEnablePeerAccess
func gocann_aclrtDeviceEnablePeerAccess(t *C.gocann_thread, peerDeviceID C.int32_t, flags C.uint32_t) C.aclError {
	const fn = "aclrtDeviceEnablePeerAccess"
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	// The reserved flags come first, as in CANN, then the current device.
	if flags != 0 {
		return fail(t, fn, r.Raw().EnablePeerAccess(0, int(peerDeviceID), uint32(flags)))
	}
	d, code := currentDevice(t, fn)
	if code != 0 {
		return code
	}
	return fail(t, fn, d.EnablePeerAccess(int(peerDeviceID)))
}

//export gocann_aclrtDeviceDisablePeerAccess
func gocann_aclrtDeviceDisablePeerAccess(t *C.gocann_thread, peerDeviceID C.int32_t) C.aclError {
	const fn = "aclrtDeviceDisablePeerAccess"
	d, code := currentDevice(t, fn)
	if code != 0 {
		return code
	}
	return fail(t, fn, d.DisablePeerAccess(int(peerDeviceID)))
}

//export gocann_aclrtDevicePeerAccessStatus
func gocann_aclrtDevicePeerAccessStatus(t *C.gocann_thread, deviceID, peerDeviceID C.int32_t, status *C.int32_t) C.aclError {
	const fn = "aclrtDevicePeerAccessStatus"
	if status == nil {
		return nullArg(t, fn, "status")
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	on, err := r.PeerAccessStatus(int(deviceID), int(peerDeviceID))
	if err != nil {
		return fail(t, fn, err)
	}
	*status = 0
	if on {
		*status = 1
	}
	return 0
}

//export gocann_aclrtGetDevicesTopo
func gocann_aclrtGetDevicesTopo(t *C.gocann_thread, deviceID, otherDeviceID C.uint32_t, value *C.uint64_t) C.aclError {
	const fn = "aclrtGetDevicesTopo"
	if value == nil {
		return nullArg(t, fn, "value")
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	// uint32 ids past int32 are out of range, not negative.
	l, err := r.DevicesTopology(int(int64(deviceID)), int(int64(otherDeviceID)))
	if err != nil {
		return fail(t, fn, err)
	}
	*value = C.uint64_t(l)
	return 0
}

//export gocann_aclrtMemP2PMap
func gocann_aclrtMemP2PMap(t *C.gocann_thread, devPtr unsafe.Pointer, size C.size_t, dstDevID C.int32_t, flags C.uint64_t) C.aclError {
	const fn = "aclrtMemP2PMap"
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	return fail(t, fn, r.Raw().MemP2PMap(uintptr(devPtr), uint64(size), int(dstDevID), uint64(flags)))
}
