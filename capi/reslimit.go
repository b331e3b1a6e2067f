package main

/*
#include "acl/acl.h"
#include "thread.h"
*/
import "C"

import "github.com/gocann/gocann"

// Core resource limits: a NULL stream is the current context's default
// stream, as in CANN.

//export gocann_aclrtGetDeviceResLimit
func gocann_aclrtGetDeviceResLimit(t *C.gocann_thread, id C.int32_t, typ C.aclrtDevResLimitType, value *C.uint32_t) C.aclError {
	const fn = "aclrtGetDeviceResLimit"
	if value == nil {
		return nullArg(t, fn, "value")
	}
	d, code := device(t, fn, int(id))
	if code != 0 {
		return code
	}
	v, err := d.ResLimit(gocann.ResType(typ))
	if err != nil {
		return fail(t, fn, err)
	}
	*value = C.uint32_t(v)
	return 0
}

//export gocann_aclrtSetDeviceResLimit
func gocann_aclrtSetDeviceResLimit(t *C.gocann_thread, id C.int32_t, typ C.aclrtDevResLimitType, value C.uint32_t) C.aclError {
	const fn = "aclrtSetDeviceResLimit"
	d, code := device(t, fn, int(id))
	if code != 0 {
		return code
	}
	return fail(t, fn, d.SetResLimit(gocann.ResType(typ), uint32(value)))
}

//export gocann_aclrtResetDeviceResLimit
func gocann_aclrtResetDeviceResLimit(t *C.gocann_thread, id C.int32_t) C.aclError {
	const fn = "aclrtResetDeviceResLimit"
	d, code := device(t, fn, int(id))
	if code != 0 {
		return code
	}
	return fail(t, fn, d.ResetResLimit())
}

//export gocann_aclrtGetStreamResLimit
func gocann_aclrtGetStreamResLimit(t *C.gocann_thread, p C.aclrtStream, typ C.aclrtDevResLimitType, value *C.uint32_t) C.aclError {
	const fn = "aclrtGetStreamResLimit"
	if value == nil {
		return nullArg(t, fn, "value")
	}
	s, code := stream(t, fn, p)
	if code != 0 {
		return code
	}
	v, err := s.s.ResLimit(gocann.ResType(typ))
	if err != nil {
		return fail(t, fn, err)
	}
	*value = C.uint32_t(v)
	return 0
}

//export gocann_aclrtSetStreamResLimit
func gocann_aclrtSetStreamResLimit(t *C.gocann_thread, p C.aclrtStream, typ C.aclrtDevResLimitType, value C.uint32_t) C.aclError {
	const fn = "aclrtSetStreamResLimit"
	s, code := stream(t, fn, p)
	if code != 0 {
		return code
	}
	return fail(t, fn, s.s.SetResLimit(gocann.ResType(typ), uint32(value)))
}

//export gocann_aclrtResetStreamResLimit
func gocann_aclrtResetStreamResLimit(t *C.gocann_thread, p C.aclrtStream) C.aclError {
	const fn = "aclrtResetStreamResLimit"
	s, code := stream(t, fn, p)
	if code != 0 {
		return code
	}
	return fail(t, fn, s.s.ResetResLimit())
}

//export gocann_aclrtUseStreamResInCurrentThread
func gocann_aclrtUseStreamResInCurrentThread(t *C.gocann_thread, p C.aclrtStream) C.aclError {
	const fn = "aclrtUseStreamResInCurrentThread"
	s, code := stream(t, fn, p)
	if code != 0 {
		return code
	}
	return fail(t, fn, s.s.Raw().UseResInCurrentThread(captureThread(t)))
}

//export gocann_aclrtUnuseStreamResInCurrentThread
func gocann_aclrtUnuseStreamResInCurrentThread(t *C.gocann_thread, p C.aclrtStream) C.aclError {
	const fn = "aclrtUnuseStreamResInCurrentThread"
	s, code := stream(t, fn, p)
	if code != 0 {
		return code
	}
	return fail(t, fn, s.s.Raw().UnuseResInCurrentThread(captureThread(t)))
}

//export gocann_aclrtGetResInCurrentThread
func gocann_aclrtGetResInCurrentThread(t *C.gocann_thread, typ C.aclrtDevResLimitType, value *C.uint32_t) C.aclError {
	const fn = "aclrtGetResInCurrentThread"
	if value == nil {
		return nullArg(t, fn, "value")
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	v, err := c.c.Raw().ResInCurrentThread(captureThread(t), gocann.ResType(typ))
	if err != nil {
		return fail(t, fn, err)
	}
	*value = C.uint32_t(v)
	return 0
}
