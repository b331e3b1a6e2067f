package main

/*
#include <stdlib.h>
#include <string.h>
#include "acl/acl.h"
#include "thread.h"
*/
import "C"

import (
	"time"
	"unsafe"

	"github.com/gocann/gocann"
)

// Kernel launches: the launch configuration, the argument block in its
// three forms (device or host memory, a host block with placeholders, a
// pointer per parameter), and the stream they go to.

// checkLaunchCfg accepts the documented launch attributes and returns what
// a task keeps of them. They tune hardware scheduling the simulator does
// not model, so they change nothing of how the kernel runs.
func checkLaunchCfg(t *C.gocann_thread, fn string, cfg *C.aclrtLaunchKernelCfg) (gocann.LaunchConfig, C.aclError) {
	var lc gocann.LaunchConfig
	if cfg == nil || cfg.numAttrs == 0 {
		return lc, 0
	}
	if cfg.attrs == nil {
		return lc, nullArg(t, fn, "cfg->attrs")
	}
	if code := checkArray(t, fn, "cfg->numAttrs", unsafe.Pointer(cfg.attrs), cfg.numAttrs, unsafe.Sizeof(*cfg.attrs)); code != 0 {
		return lc, code
	}
	var timeout, timeoutUS bool
	for _, a := range unsafe.Slice(cfg.attrs, cfg.numAttrs) {
		v := unsafe.Pointer(&a.value)
		switch a.id {
		case C.ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT:
			timeout = true
			lc.Timeout = time.Duration(*(*C.uint16_t)(v)) * time.Second
		case C.ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US:
			timeoutUS = true
			us := (*C.aclrtTimeoutUs)(v)
			lc.Timeout = time.Duration(uint64(us.timeoutHigh)<<32|uint64(us.timeoutLow)) * time.Microsecond
		case C.ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE:
			lc.SchedMode = uint8(*(*C.uint8_t)(v))
		case C.ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE:
			lc.DynUBufSize = uint32(*(*C.uint32_t)(v))
		case C.ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP:
			lc.DataDump = *(*C.uint8_t)(v) != 0
		case C.ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE, C.ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET,
			C.ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH, C.ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING:
		default:
			return lc, failf(t, fn, gocann.KindInvalidParam, "launch attribute id %d is invalid, expected 1..9", a.id)
		}
	}
	if timeout && timeoutUS {
		return lc, failf(t, fn, gocann.KindInvalidParam, "ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT and ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US cannot be given together")
	}
	return lc, 0
}

// launchTarget looks up a launch's function, configuration and stream.
func launchTarget(t *C.gocann_thread, fn string, fp unsafe.Pointer, cfg *C.aclrtLaunchKernelCfg, sp C.aclrtStream) (*cFunc, *cStream, gocann.LaunchConfig, C.aclError) {
	var lc gocann.LaunchConfig
	f, code := funcOf(t, fn, fp)
	if code != 0 {
		return nil, nil, lc, code
	}
	lc, code = checkLaunchCfg(t, fn, cfg)
	if code != 0 {
		return nil, nil, lc, code
	}
	s, code := queueStream(t, fn, sp)
	if code != 0 {
		return nil, nil, lc, code
	}
	return f, s, lc, 0
}

// launchArgs queues f with an argument block in device or host memory.
// Stream.LaunchArgs checks the block's size and the runtime the block
// count; here is what only the C ABI knows: the name of a NULL block's
// parameter, and the parameter bytes the binary declares.
func launchArgs(t *C.gocann_thread, fn string, fp unsafe.Pointer, blocks C.uint32_t, args unsafe.Pointer, size C.size_t, cfg *C.aclrtLaunchKernelCfg, sp C.aclrtStream) C.aclError {
	f, s, lc, code := launchTarget(t, fn, fp, cfg, sp)
	if code != 0 {
		return code
	}
	if size > 0 && args == nil {
		return nullArg(t, fn, "argsData")
	}
	if code := checkCovers(t, fn, f, "argsSize", uint64(size)); code != 0 {
		return code
	}
	if code := fail(t, fn, s.s.Raw().WithLaunchConfig(lc).LaunchArgs(f.k, uint32(blocks), args, uintptr(size), uint32(t.tid))); code != 0 {
		return code
	}
	launchedInGo(t, s)
	proc.direct.noteKernel(f, s)
	return 0
}

//export gocann_go_aclrtLaunchKernel
func gocann_go_aclrtLaunchKernel(t *C.gocann_thread, f C.aclrtFuncHandle, blocks C.uint32_t, args unsafe.Pointer, size C.size_t, sp C.aclrtStream) C.aclError {
	return launchArgs(t, "aclrtLaunchKernel", unsafe.Pointer(f), blocks, args, size, nil, sp)
}

//export gocann_go_aclrtLaunchKernelV2
func gocann_go_aclrtLaunchKernelV2(t *C.gocann_thread, f C.aclrtFuncHandle, blocks C.uint32_t, args unsafe.Pointer, size C.size_t, cfg *C.aclrtLaunchKernelCfg, sp C.aclrtStream) C.aclError {
	if code := unsupported(t, "aclrtLaunchKernelV2"); code != 0 {
		return code
	}
	return launchArgs(t, "aclrtLaunchKernelV2", unsafe.Pointer(f), blocks, args, size, cfg, sp)
}

// placeholder is a pointer slot of a host argument block to point at the
// device copy of the block's data at dataOffset.
type placeholder = gocann.Placeholder

// launchBlock queues f with a host argument block whose first slots bytes,
// at most 32 slots (the callers check), are the parameters. With
// placeholders the runtime copies the whole block to device memory of its
// own first, the placeholder slots pointing into that copy, and frees it
// after the kernel.
// launchBlock launches k (f's kernel, or a SIMT launch's of it) with an
// argument block.
func launchBlock(t *C.gocann_thread, fn string, s *cStream, f *cFunc, k *gocann.Kernel, lc gocann.LaunchConfig, blocks uint32, block []byte, slots int, phs []placeholder) C.aclError {
	if code := checkCovers(t, fn, f, "the parameter bytes of the argument block", uint64(slots)); code != 0 {
		return code
	}
	tid := uint32(t.tid)
	var err error
	if len(phs) == 0 {
		var p unsafe.Pointer
		if slots > 0 {
			p = unsafe.Pointer(&block[0])
		}
		err = s.s.Raw().WithLaunchConfig(lc).LaunchArgs(k, blocks, p, uintptr(slots), tid)
	} else {
		err = s.s.Raw().WithLaunchConfig(lc).LaunchPlaceholders(k, blocks, block, slots, phs, tid)
	}
	if err == nil {
		launchedInGo(t, s)
	}
	return fail(t, fn, err)
}

// launchedInGo notes that the thread's last launch on an explicit stream
// went through Go, which knows its task (aclrtGetThreadLastTaskId).
func launchedInGo(t *C.gocann_thread, s *cStream) {
	if s != s.ctx.def {
		t.last_task_go = 1
	}
}

//export gocann_go_aclrtLaunchKernelWithHostArgs
func gocann_go_aclrtLaunchKernelWithHostArgs(t *C.gocann_thread, fp C.aclrtFuncHandle, blocks C.uint32_t, sp C.aclrtStream, cfg *C.aclrtLaunchKernelCfg,
	hostArgs unsafe.Pointer, size C.size_t, phArray *C.aclrtPlaceHolderInfo, phNum C.size_t) C.aclError {
	const fn = "aclrtLaunchKernelWithHostArgs"
	if code := unsupported(t, "aclrtLaunchKernelWithHostArgs"); code != 0 {
		return code
	}
	f, s, lc, code := launchTarget(t, fn, unsafe.Pointer(fp), cfg, sp)
	if code != 0 {
		return code
	}
	return launchHostArgs(t, fn, f, nil, s, lc, uint32(blocks), hostArgs, size, phArray, phNum)
}

// launchHostArgs launches f, or k for a SIMT launch of it, with a host
// argument block.
func launchHostArgs(t *C.gocann_thread, fn string, f *cFunc, k *gocann.Kernel, s *cStream, lc gocann.LaunchConfig, blocks uint32,
	hostArgs unsafe.Pointer, size C.size_t, phArray *C.aclrtPlaceHolderInfo, phNum C.size_t) C.aclError {
	direct := k == nil
	if k == nil {
		k = f.k
	}
	if size > 0 && hostArgs == nil {
		return nullArg(t, fn, "hostArgs")
	}
	if code := checkArgsSize(t, fn, f, size, maxArgsBlock); code != 0 {
		return code
	}
	if code := checkPlaceholders(t, fn, size, phNum); code != 0 {
		return code
	}
	if phNum == 0 && size <= 8*gocann.MaxArgs {
		// No placeholders: the slots are read from the caller's block now,
		// without a copy.
		if code := fail(t, fn, s.s.Raw().WithLaunchConfig(lc).LaunchArgs(k, blocks, hostArgs, uintptr(size), uint32(t.tid))); code != 0 {
			return code
		}
		launchedInGo(t, s)
		if direct {
			proc.direct.noteKernel(f, s)
		}
		return 0
	}
	block := C.GoBytes(hostArgs, C.int(size))
	slots := len(block)
	var phs []placeholder
	if phNum > 0 {
		if phArray == nil {
			return nullArg(t, fn, "placeHolderArray")
		}
		for i, p := range unsafe.Slice(phArray, phNum) {
			a, d := uint64(p.addrOffset), uint64(p.dataOffset)
			if a%8 != 0 || a+8 > uint64(size) || d >= uint64(size) {
				return failf(t, fn, gocann.KindInvalidParam, "placeholder %d {addrOffset %d, dataOffset %d} is invalid, expected an 8-byte aligned slot and data inside the %d-byte block", i, a, d, size)
			}
			phs = append(phs, placeholder{AddrOffset: a, DataOffset: d})
			slots = min(slots, int(d)) // the parameters end where placeholder data begins
		}
	}
	return launchBlock(t, fn, s, f, k, lc, blocks, block, min(slots, 8*gocann.MaxArgs), phs)
}

// params returns f's parameter sizes, read once from its binary.
func (f *cFunc) paramSizes() ([]int, error) {
	f.paramsOnce.Do(func() {
		sym := f.name
		if f.entry != "" {
			sym = f.entry
		}
		f.params, f.paramsErr = f.bin.b.Params(sym)
	})
	return f.params, f.paramsErr
}

//export gocann_aclrtLaunchKernelWithArgsArray
func gocann_aclrtLaunchKernelWithArgsArray(t *C.gocann_thread, fp unsafe.Pointer, blocks C.uint32_t, sp C.aclrtStream, cfg *C.aclrtLaunchKernelCfg, args *unsafe.Pointer) C.aclError {
	const fn = "aclrtLaunchKernelWithArgsArray"
	if code := unsupported(t, "aclrtLaunchKernelWithArgsArray"); code != 0 {
		return code
	}
	f, s, lc, code := launchTarget(t, fn, fp, cfg, sp)
	if code != 0 {
		return code
	}
	return launchArgsArray(t, fn, f, f.k, s, lc, uint32(blocks), args)
}

// launchArgsArray launches k (f's kernel, or a SIMT launch's of it) with
// its parameters given by pointer, packed as f's binary declares them.
func launchArgsArray(t *C.gocann_thread, fn string, f *cFunc, k *gocann.Kernel, s *cStream, lc gocann.LaunchConfig, blocks uint32, args *unsafe.Pointer) C.aclError {
	sizes, err := f.paramSizes()
	if err != nil {
		return fail(t, fn, gocann.Wrap(fn, err))
	}
	if len(sizes) > gocann.MaxArgs {
		return failf(t, fn, gocann.KindInvalidParam, "kernel %q has %d parameters, expected at most %d", f.name, len(sizes), gocann.MaxArgs)
	}
	if len(sizes) > 0 && args == nil {
		return nullArg(t, fn, "args")
	}
	// The parameters are packed as a host argument block lays them out:
	// in order, each padded to a multiple of 8 bytes, so one larger than 8
	// bytes takes several slots rather than losing its tail.
	var block [8 * gocann.MaxArgs]byte
	off := 0
	ptrs := unsafe.Slice(args, len(sizes))
	for i, n := range sizes {
		if ptrs[i] == nil {
			return failf(t, fn, gocann.KindBadArgument, "args[%d] is NULL, expected a pointer to parameter %d's value", i, i)
		}
		if off+n > len(block) {
			return failf(t, fn, gocann.KindInvalidParam, "kernel %q's parameters take more than %d bytes (%d slots of 8 bytes)", f.name, len(block), gocann.MaxArgs)
		}
		copy(block[off:], unsafe.Slice((*byte)(ptrs[i]), n))
		off += (n + 7) &^ 7
	}
	var p unsafe.Pointer
	if off > 0 {
		p = unsafe.Pointer(&block[0])
	}
	if code := fail(t, fn, s.s.Raw().WithLaunchConfig(lc).LaunchArgs(k, blocks, p, uintptr(off), uint32(t.tid))); code != 0 {
		return code
	}
	launchedInGo(t, s)
	return 0
}
