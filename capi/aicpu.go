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

// cpuModeRegister is the CPU kernel mode (aclrtBinaryLoadOptionValue
// cpuKernelMode) of a binary loaded from data whose AI CPU operators are
// registered one by one with aclrtRegisterCpuFunc.
const cpuModeRegister = 2

// cpuKey is the funcs key of b's AI CPU operator opType: no kernel name
// holds a NUL, so it never meets one of aclrtBinaryGetFunction's.
func cpuKey(opType string) string { return "\x00cpu:" + opType }

//export gocann_aclrtRegisterCpuFunc
func gocann_aclrtRegisterCpuFunc(t *C.gocann_thread, p C.aclrtBinHandle, funcName, kernelName *C.char, out *C.aclrtFuncHandle) C.aclError {
	const fn = "aclrtRegisterCpuFunc"
	if code := unsupported(t, "aclrtRegisterCpuFunc"); code != 0 {
		return code
	}
	switch {
	case p == nil:
		return nullArg(t, fn, "handle")
	case funcName == nil:
		return nullArg(t, fn, "funcName")
	case kernelName == nil:
		return nullArg(t, fn, "kernelName")
	case out == nil:
		return nullArg(t, fn, "funcHandle")
	}
	if _, code := rt(t, fn); code != 0 {
		return code
	}
	b, code := binaryOf(t, fn, p)
	if code != 0 {
		return code
	}
	if !b.cpu {
		return failf(t, fn, gocann.KindInvalidParam, "handle %p is not an AI CPU binary, expected one loaded by aclrtBinaryLoadFromData with ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE %d", unsafe.Pointer(p), cpuModeRegister)
	}
	entry, op := C.GoString(funcName), C.GoString(kernelName)
	if entry == "" || op == "" {
		return failf(t, fn, gocann.KindBadArgument, "funcName %q and kernelName %q must not be empty", entry, op)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	key := cpuKey(op)
	if f := b.funcs[key]; f != nil {
		*out = C.aclrtFuncHandle(C.gocann_handle(C.uintptr_t(f.h)))
		return 0
	}
	if b.funcs == nil {
		return failf(t, fn, gocann.KindInvalidHandle, "handle %p was unloaded", unsafe.Pointer(p))
	}
	hk, err := b.b.Kernel(entry)
	if err != nil {
		return fail(t, fn, gocann.Wrap(fn, err))
	}
	f := &cFunc{k: gocann.CPUKernel(hk, op), name: op, entry: entry, bin: b}
	h, ok := proc.handles.add(kindFunc, f)
	if !ok {
		return failf(t, fn, gocann.KindInternal, "too many live handles")
	}
	f.h = h
	b.funcs[key] = f
	proc.fronts.Store(f.k, h)
	*out = C.aclrtFuncHandle(C.gocann_handle(C.uintptr_t(h)))
	return 0
}
