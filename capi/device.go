package main

/*
#include "acl/acl.h"
#include "thread.h"
*/
import "C"

import (
	"context"
	"time"

	"github.com/gocann/gocann"
)

//export gocann_aclrtSetDevice
func gocann_aclrtSetDevice(t *C.gocann_thread, deviceID C.int32_t) C.aclError {
	return setDevice(t, "aclrtSetDevice", int(deviceID))
}

// device returns device id of the runtime.
func device(t *C.gocann_thread, fn string, id int) (*gocann.Device, C.aclError) {
	r, code := rt(t, fn)
	if code != 0 {
		return nil, code
	}
	d, err := r.Device(id)
	if err != nil {
		return nil, fail(t, fn, err)
	}
	return d, 0
}

func resetDevice(t *C.gocann_thread, fn string, id int, force bool) C.aclError {
	d, code := device(t, fn, id)
	if code != 0 {
		return code
	}
	var err error
	if force {
		err = d.ResetForce()
	} else {
		err = d.Reset()
	}
	if err != nil {
		return fail(t, fn, err)
	}
	// Only the reset that releases the device ends its default context,
	// and so the current context of a thread that had it; a reset that
	// leaves references changes no thread's state, as in CANN's runtime.
	if !d.IsSet() {
		if def := dropDefault(id); def != 0 && handle(t.context) == def {
			t.device, t.context = -1, 0
		}
	}
	return 0
}

//export gocann_aclrtResetDevice
func gocann_aclrtResetDevice(t *C.gocann_thread, deviceID C.int32_t) C.aclError {
	return resetDevice(t, "aclrtResetDevice", int(deviceID), false)
}

//export gocann_aclrtResetDeviceForce
func gocann_aclrtResetDeviceForce(t *C.gocann_thread, deviceID C.int32_t) C.aclError {
	return resetDevice(t, "aclrtResetDeviceForce", int(deviceID), true)
}

//export gocann_aclrtGetDevice
func gocann_aclrtGetDevice(t *C.gocann_thread, deviceID *C.int32_t) C.aclError {
	const fn = "aclrtGetDevice"
	if deviceID == nil {
		return nullArg(t, fn, "deviceId")
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	*deviceID = C.int32_t(c.dev)
	return 0
}

//export gocann_aclrtGetDeviceCount
func gocann_aclrtGetDeviceCount(t *C.gocann_thread, count *C.uint32_t) C.aclError {
	const fn = "aclrtGetDeviceCount"
	if count == nil {
		return nullArg(t, fn, "count")
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	n, err := r.DeviceCount()
	if err != nil {
		return fail(t, fn, err)
	}
	*count = C.uint32_t(n)
	return 0
}

//export gocann_aclrtGetRunMode
func gocann_aclrtGetRunMode(t *C.gocann_thread, mode *C.aclrtRunMode) C.aclError {
	if mode == nil {
		return nullArg(t, "aclrtGetRunMode", "runMode")
	}
	*mode = C.ACL_HOST // the program runs on the host, the device is attached
	return 0
}

// currentDevice returns the device of the thread's current context.
func currentDevice(t *C.gocann_thread, fn string) (*gocann.Device, C.aclError) {
	c, code := currentContext(t, fn)
	if code != 0 {
		return nil, code
	}
	return c.c.Device(), 0
}

// msTimeout turns a CANN timeout in milliseconds into a duration: -1 waits
// forever, 0 checks once, > 0 bounds the wait; other values are invalid.
func msTimeout(t *C.gocann_thread, fn string, ms C.int32_t) (time.Duration, C.aclError) {
	switch {
	case ms == -1:
		return 0, 0
	case ms == 0:
		return time.Nanosecond, 0
	case ms > 0:
		return time.Duration(ms) * time.Millisecond, 0
	}
	return 0, failf(t, fn, gocann.KindInvalidParam, "timeout %d is invalid, expected -1 (forever), 0 or a positive number of milliseconds", ms)
}

//export gocann_aclrtSynchronizeDevice
func gocann_aclrtSynchronizeDevice(t *C.gocann_thread) C.aclError {
	const fn = "aclrtSynchronizeDevice"
	d, code := currentDevice(t, fn)
	if code != 0 {
		return code
	}
	return fail(t, fn, d.Synchronize(context.Background()))
}

//export gocann_aclrtSynchronizeDeviceWithTimeout
func gocann_aclrtSynchronizeDeviceWithTimeout(t *C.gocann_thread, timeout C.int32_t) C.aclError {
	const fn = "aclrtSynchronizeDeviceWithTimeout"
	d, code := currentDevice(t, fn)
	if code != 0 {
		return code
	}
	to, code := msTimeout(t, fn, timeout)
	if code != 0 {
		return code
	}
	return fail(t, fn, d.SynchronizeTimeout(to))
}

//export gocann_aclrtGetDeviceInfo
func gocann_aclrtGetDeviceInfo(t *C.gocann_thread, deviceID C.uint32_t, attr C.aclrtDevAttr, value *C.int64_t) C.aclError {
	const fn = "aclrtGetDeviceInfo"
	if value == nil {
		return nullArg(t, fn, "value")
	}
	d, code := device(t, fn, int(deviceID))
	if code != 0 {
		return code
	}
	v, err := d.Info(gocann.DeviceAttr(attr))
	if err != nil {
		return fail(t, fn, err)
	}
	*value = C.int64_t(v)
	return 0
}

//export gocann_aclrtDeviceGetStreamPriorityRange
func gocann_aclrtDeviceGetStreamPriorityRange(t *C.gocann_thread, least, greatest *C.int32_t) C.aclError {
	const fn = "aclrtDeviceGetStreamPriorityRange"
	if code := unsupported(t, "aclrtDeviceGetStreamPriorityRange"); code != 0 {
		return code
	}
	if least == nil || greatest == nil {
		return nullArg(t, fn, "leastPriority or greatestPriority")
	}
	d, code := currentDevice(t, fn)
	if code != 0 {
		return code
	}
	l, g := d.StreamPriorityRange()
	*least, *greatest = C.int32_t(l), C.int32_t(g)
	return 0
}

//export gocann_aclrtQueryDeviceStatus
func gocann_aclrtQueryDeviceStatus(t *C.gocann_thread, deviceID C.int32_t, status *C.aclrtDeviceStatus) C.aclError {
	const fn = "aclrtQueryDeviceStatus"
	if code := unsupported(t, "aclrtQueryDeviceStatus"); code != 0 {
		return code
	}
	if status == nil {
		return nullArg(t, fn, "deviceStatus")
	}
	if _, code := device(t, fn, int(deviceID)); code != 0 {
		return code
	}
	*status = C.ACL_RT_DEVICE_STATUS_NORMAL
	return 0
}

//export gocann_aclrtGetMemInfo
func gocann_aclrtGetMemInfo(t *C.gocann_thread, attr C.aclrtMemAttr, free, total *C.size_t) C.aclError {
	const fn = "aclrtGetMemInfo"
	if free == nil || total == nil {
		return nullArg(t, fn, "free or total")
	}
	d, code := currentDevice(t, fn)
	if code != 0 {
		return code
	}
	if attr < C.ACL_DDR_MEM || attr > C.ACL_MEM_P2P_HUGE1G {
		return failf(t, fn, gocann.KindInvalidParam, "attr %d is invalid, expected an aclrtMemAttr value 0..17", attr)
	}
	f, tot, err := d.MemInfo()
	if err != nil {
		return fail(t, fn, err)
	}
	// One kind of memory backs every attribute: HBM, whatever the page size.
	*free, *total = C.size_t(f), C.size_t(tot)
	return 0
}
