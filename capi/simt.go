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

// SIMT launches: the function must be a SIMT kernel (GOCANN_SIMT_KERNEL);
// each block of gridDim runs blockDim threads of it. dynUbufSize sizes a
// unified buffer the simulated NPU does not have; it is kept like the
// launch configuration's.

// simtTarget checks a SIMT launch and returns what it launches.
func simtTarget(t *C.gocann_thread, fn string, fp unsafe.Pointer, grid, block C.dim3, cfg *C.aclrtLaunchKernelCfg, sp C.aclrtStream) (*cFunc, *gocann.Kernel, uint32, *cStream, gocann.LaunchConfig, C.aclError) {
	var lc gocann.LaunchConfig
	if fp == nil {
		return nil, nil, 0, nil, lc, nullArg(t, fn, "func")
	}
	f, s, lc, code := launchTarget(t, fn, fp, cfg, sp)
	if code != 0 {
		return nil, nil, 0, nil, lc, code
	}
	d := func(x C.dim3) gocann.Dim3 { return gocann.Dim3{X: uint32(x.x), Y: uint32(x.y), Z: uint32(x.z)} }
	k, n, err := f.k.SIMTLaunch(d(grid), d(block))
	if err != nil {
		return nil, nil, 0, nil, lc, fail(t, fn, err)
	}
	return f, k, n, s, lc, 0
}

//export gocann_aclrtLaunchSIMTKernelWithArgsArray
func gocann_aclrtLaunchSIMTKernelWithArgsArray(t *C.gocann_thread, fp unsafe.Pointer, grid, block C.dim3, dynUbuf C.size_t, sp C.aclrtStream, cfg *C.aclrtLaunchKernelCfg, args *unsafe.Pointer) C.aclError {
	const fn = "aclrtLaunchSIMTKernelWithArgsArray"
	if code := unsupported(t, "aclrtLaunchSIMTKernelWithArgsArray"); code != 0 {
		return code
	}
	f, k, n, s, lc, code := simtTarget(t, fn, fp, grid, block, cfg, sp)
	if code != 0 {
		return code
	}
	return launchArgsArray(t, fn, f, k, s, withDynUBuf(lc, dynUbuf), n, args)
}

//export gocann_aclrtLaunchSIMTKernelWithHostArgs
func gocann_aclrtLaunchSIMTKernelWithHostArgs(t *C.gocann_thread, fp unsafe.Pointer, grid, block C.dim3, dynUbuf C.size_t, sp C.aclrtStream, cfg *C.aclrtLaunchKernelCfg,
	hostArgs unsafe.Pointer, size C.size_t, phArray *C.aclrtPlaceHolderInfo, phNum C.size_t) C.aclError {
	const fn = "aclrtLaunchSIMTKernelWithHostArgs"
	if code := unsupported(t, "aclrtLaunchSIMTKernelWithHostArgs"); code != 0 {
		return code
	}
	f, k, n, s, lc, code := simtTarget(t, fn, fp, grid, block, cfg, sp)
	if code != 0 {
		return code
	}
	if hostArgs == nil {
		return nullArg(t, fn, "hostArgs")
	}
	if size == 0 {
		return failf(t, fn, gocann.KindInvalidParam, "argsSize 0 is invalid, expected the size of the kernel's parameters")
	}
	return launchHostArgs(t, fn, f, k, s, withDynUBuf(lc, dynUbuf), n, hostArgs, size, phArray, phNum)
}

// withDynUBuf sets the launch's dynamic unified buffer: the parameter wins
// over the configuration's attribute, as the reference says.
func withDynUBuf(lc gocann.LaunchConfig, n C.size_t) gocann.LaunchConfig {
	if n > 0 {
		lc.DynUBufSize = uint32(min(uint64(n), 1<<32-1))
	}
	return lc
}
