package main

/*
#include <stdlib.h>
#include "acl/acl.h"
#include "thread.h"

static inline aclError gocann_call_init_cb(uintptr_t fn, const char *cfg, size_t len, uintptr_t user) {
	return ((aclInitCallbackFunc)fn)(cfg, len, (void *)user);
}
static inline aclError gocann_call_fin_cb(uintptr_t fn, uintptr_t user) {
	return ((aclFinalizeCallbackFunc)fn)((void *)user);
}
*/
import "C"

import (
	"unsafe"

	"github.com/gocann/gocann"
)

// Process-level calls: the init and finalize callbacks, the system
// parameters and the data dump. The callbacks and the process's system
// parameters may be set before aclInit, so they reach the process's one
// runtime, made here if aclInit has not made it yet.

// procRuntime returns the process's runtime, initialized or not.
func procRuntime() *gocann.Runtime {
	proc.mu.Lock()
	defer proc.mu.Unlock()
	if proc.r == nil {
		proc.r = newRuntime()
	}
	return proc.r
}

// newRuntime makes the process's runtime, telling the direct launch path
// of closed devices' memory and of snapshot locks.
func newRuntime() *gocann.Runtime {
	r := gocann.New()
	r.Raw().SetClosedMemoryHook(noteClosed)
	r.Raw().SetSnapshotHook(noteSnapshot)
	r.Raw().SetProfilingAPI(apiCalls, recordAPI)
	return r
}

// cbError is a C callback's result as the Go API takes it.
func cbError(ret C.aclError) error {
	if ret == 0 {
		return nil
	}
	return gocann.Code(ret)
}

//export gocann_aclInitCallbackRegister
func gocann_aclInitCallbackRegister(t *C.gocann_thread, typ C.aclRegisterCallbackType, fn C.aclInitCallbackFunc, user C.uintptr_t) C.aclError {
	const name = "aclInitCallbackRegister"
	if fn == nil {
		return nullArg(t, name, "cbFunc")
	}
	f, u := uintptr(unsafe.Pointer(fn)), uintptr(user)
	cb := func(cfg string) error {
		// A copy in C memory, NUL-terminated; "" (never NULL) for none.
		p := C.CString(cfg)
		defer C.free(unsafe.Pointer(p))
		return cbError(C.gocann_call_init_cb(C.uintptr_t(f), p, C.size_t(len(cfg)), C.uintptr_t(u)))
	}
	return fail(t, name, procRuntime().RegisterInitCallback(gocann.RegisterType(typ), f, cb))
}

//export gocann_aclInitCallbackUnRegister
func gocann_aclInitCallbackUnRegister(t *C.gocann_thread, typ C.aclRegisterCallbackType, fn C.aclInitCallbackFunc) C.aclError {
	const name = "aclInitCallbackUnRegister"
	if fn == nil {
		return nullArg(t, name, "cbFunc")
	}
	return fail(t, name, procRuntime().UnregisterInitCallback(gocann.RegisterType(typ), uintptr(unsafe.Pointer(fn))))
}

//export gocann_aclFinalizeCallbackRegister
func gocann_aclFinalizeCallbackRegister(t *C.gocann_thread, typ C.aclRegisterCallbackType, fn C.aclFinalizeCallbackFunc, user C.uintptr_t) C.aclError {
	const name = "aclFinalizeCallbackRegister"
	if fn == nil {
		return nullArg(t, name, "cbFunc")
	}
	f, u := uintptr(unsafe.Pointer(fn)), uintptr(user)
	cb := func() error { return cbError(C.gocann_call_fin_cb(C.uintptr_t(f), C.uintptr_t(u))) }
	return fail(t, name, procRuntime().RegisterFinalizeCallback(gocann.RegisterType(typ), f, cb))
}

//export gocann_aclFinalizeCallbackUnRegister
func gocann_aclFinalizeCallbackUnRegister(t *C.gocann_thread, typ C.aclRegisterCallbackType, fn C.aclFinalizeCallbackFunc) C.aclError {
	const name = "aclFinalizeCallbackUnRegister"
	if fn == nil {
		return nullArg(t, name, "cbFunc")
	}
	return fail(t, name, procRuntime().UnregisterFinalizeCallback(gocann.RegisterType(typ), uintptr(unsafe.Pointer(fn))))
}

//export gocann_aclrtSetSysParamOpt
func gocann_aclrtSetSysParamOpt(t *C.gocann_thread, opt C.aclSysParamOpt, value C.int64_t) C.aclError {
	return fail(t, "aclrtSetSysParamOpt", procRuntime().SetSysParam(gocann.SysParamOpt(opt), int64(value)))
}

//export gocann_aclrtGetSysParamOpt
func gocann_aclrtGetSysParamOpt(t *C.gocann_thread, opt C.aclSysParamOpt, value *C.int64_t) C.aclError {
	const name = "aclrtGetSysParamOpt"
	if value == nil {
		return nullArg(t, name, "value")
	}
	v, err := procRuntime().SysParam(gocann.SysParamOpt(opt))
	if err != nil {
		return fail(t, name, err)
	}
	*value = C.int64_t(v)
	return 0
}

//export gocann_aclrtCtxSetSysParamOpt
func gocann_aclrtCtxSetSysParamOpt(t *C.gocann_thread, opt C.aclSysParamOpt, value C.int64_t) C.aclError {
	const name = "aclrtCtxSetSysParamOpt"
	if code := unsupported(t, "aclrtCtxSetSysParamOpt"); code != 0 {
		return code
	}
	if err := gocann.CheckContextSysParam(name, gocann.SysParamOpt(opt)); err != nil {
		return fail(t, name, err)
	}
	c, code := currentContext(t, name)
	if code != 0 {
		return code
	}
	return fail(t, name, c.c.SetSysParam(gocann.SysParamOpt(opt), int64(value)))
}

//export gocann_aclrtCtxGetSysParamOpt
func gocann_aclrtCtxGetSysParamOpt(t *C.gocann_thread, opt C.aclSysParamOpt, value *C.int64_t) C.aclError {
	const name = "aclrtCtxGetSysParamOpt"
	if value == nil {
		return nullArg(t, name, "value")
	}
	if err := gocann.CheckContextSysParam(name, gocann.SysParamOpt(opt)); err != nil {
		return fail(t, name, err)
	}
	c, code := currentContext(t, name)
	if code != 0 {
		return code
	}
	v, err := c.c.SysParam(gocann.SysParamOpt(opt))
	if err != nil {
		return fail(t, name, err)
	}
	*value = C.int64_t(v)
	return 0
}

//export gocann_aclmdlInitDump
func gocann_aclmdlInitDump(t *C.gocann_thread) C.aclError {
	return fail(t, "aclmdlInitDump", procRuntime().InitDump())
}

//export gocann_aclmdlSetDump
func gocann_aclmdlSetDump(t *C.gocann_thread, path *C.char) C.aclError {
	const name = "aclmdlSetDump"
	r := procRuntime()
	if path == nil {
		// CANN checks the path after the runtime and the session.
		if err := r.SetDump(""); gocann.CodeOf(err) != gocann.CodeInvalidFile {
			return fail(t, name, err)
		}
		return nullArg(t, name, "dumpCfgPath")
	}
	return fail(t, name, r.SetDump(C.GoString(path)))
}

//export gocann_aclmdlFinalizeDump
func gocann_aclmdlFinalizeDump(t *C.gocann_thread) C.aclError {
	return fail(t, "aclmdlFinalizeDump", procRuntime().FinalizeDump())
}
