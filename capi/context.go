package main

/*
#include "acl/acl.h"
#include "thread.h"
*/
import "C"

import "unsafe"

// contextOf resolves a context handle.
func contextOf(t *C.gocann_thread, fn string, p C.aclrtContext) (*cContext, C.aclError) {
	if obj, ok := proc.handles.get(handleOf(unsafe.Pointer(p)), kindContext); ok {
		return obj.(*cContext), 0
	}
	return nil, badHandle(t, fn, "context", unsafe.Pointer(p), kindContext)
}

//export gocann_aclrtCreateContext
func gocann_aclrtCreateContext(t *C.gocann_thread, out *C.aclrtContext, deviceID C.int32_t) C.aclError {
	const fn = "aclrtCreateContext"
	if out == nil {
		return nullArg(t, fn, "context")
	}
	d, code := device(t, fn, int(deviceID))
	if code != 0 {
		return code
	}
	gc, err := d.NewContext()
	if err != nil {
		return fail(t, fn, err)
	}
	c, err := newCContext(gc, int(deviceID), false)
	if err != nil {
		if ds, derr := gc.Raw().DefaultStream(); derr == nil {
			forgetPending(ds)
		}
		gc.Close()
		return fail(t, fn, err)
	}
	bornStream(c.def.s, c.def.h)
	// The new context becomes the thread's current one.
	t.context, t.device = C.uint64_t(c.h), deviceID
	*out = C.aclrtContext(C.gocann_handle(C.uintptr_t(c.h)))
	return 0
}

//export gocann_aclrtDestroyContext
func gocann_aclrtDestroyContext(t *C.gocann_thread, p C.aclrtContext) C.aclError {
	const fn = "aclrtDestroyContext"
	c, code := contextOf(t, fn, p)
	if code != 0 {
		return code
	}
	if err := c.c.Close(); err != nil {
		return fail(t, fn, err)
	}
	c.release()
	if handle(t.context) == c.h {
		t.context, t.device = 0, -1
	}
	return 0
}

//export gocann_aclrtSetCurrentContext
func gocann_aclrtSetCurrentContext(t *C.gocann_thread, p C.aclrtContext) C.aclError {
	c, code := contextOf(t, "aclrtSetCurrentContext", p)
	if code != 0 {
		return code
	}
	// A context of another device switches the thread's device too.
	t.context, t.device = C.uint64_t(c.h), C.int32_t(c.dev)
	return 0
}

//export gocann_aclrtGetCurrentContext
func gocann_aclrtGetCurrentContext(t *C.gocann_thread, out *C.aclrtContext) C.aclError {
	const fn = "aclrtGetCurrentContext"
	if out == nil {
		return nullArg(t, fn, "context")
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	*out = C.aclrtContext(C.gocann_handle(C.uintptr_t(c.h)))
	return 0
}

//export gocann_aclrtCtxGetCurrentDefaultStream
func gocann_aclrtCtxGetCurrentDefaultStream(t *C.gocann_thread, out *C.aclrtStream) C.aclError {
	const fn = "aclrtCtxGetCurrentDefaultStream"
	if out == nil {
		return nullArg(t, fn, "stream")
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	*out = C.aclrtStream(C.gocann_handle(C.uintptr_t(c.def.h)))
	return 0
}
