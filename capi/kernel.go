package main

/*
#include <stdlib.h>
#include <string.h>
#include "acl/acl.h"
#include "thread.h"
*/
import "C"

import (
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/gocann/gocann"
	"github.com/gocann/gocann/ckernel"
)

// cBinary is a loaded kernel binary.
type cBinary struct {
	b *ckernel.Binary
	h handle

	// mu guards funcs.
	mu    sync.Mutex
	funcs map[string]*cFunc // one function handle per kernel name

	syms map[string]*gocann.Symbol // its globals by name (symbol.go), set at load

	cpu bool // loaded from data in CPU kernel mode 2: its functions register as AI CPU kernels (aicpu.go)

	// exc is aclrtBinarySetExceptionCallback's callback and its userData,
	// under mu.
	exc     C.aclrtOpExceptionCallback
	excData unsafe.Pointer
}

// cFunc is a kernel of a binary. It owns the argument lists built for it,
// which go when the binary is unloaded.
type cFunc struct {
	k     *gocann.Kernel
	name  string
	entry string // the binary's symbol, when it is not name (an AI CPU operator's)
	bin   *cBinary
	h     handle

	direct atomic.Bool // its record has its kernel number: launches may go direct

	paramsOnce sync.Once
	params     []int
	paramsErr  error

	// mu guards the fields below.
	mu       sync.Mutex
	gone     bool   // released: its record is not set again
	unnumber func() // drops its kernel's number, once a queue gave it one (noteKernel)
	lists    []*cArgs
	userMems []unsafe.Pointer // caller memory naming lists (aclrtKernelArgsInitByUserMem)
}

// own records an argument list built for f; mem is the caller memory that
// names it, if any.
func (f *cFunc) own(a *cArgs, mem unsafe.Pointer) {
	f.mu.Lock()
	f.lists = append(f.lists, a)
	if mem != nil {
		f.userMems = append(f.userMems, mem)
	}
	f.mu.Unlock()
}

// release drops f's handle and its argument lists.
func (f *cFunc) release() {
	f.mu.Lock()
	lists, mems, unnumber := f.lists, f.userMems, f.unnumber
	f.lists, f.userMems, f.gone = nil, nil, true
	f.mu.Unlock()
	if unnumber != nil {
		unnumber()
	}
	for _, a := range lists {
		a.release()
	}
	for _, m := range mems {
		userLists.Delete(m)
	}
	proc.fronts.Delete(f.k)
	proc.handles.remove(f.h, kindFunc)
}

// release unloads nothing; it drops the handles of b and its functions.
func (b *cBinary) release() {
	b.mu.Lock()
	funcs := b.funcs
	b.funcs = nil
	b.mu.Unlock()
	for _, f := range funcs {
		f.release()
	}
	proc.handles.remove(b.h, kindBinary)
}

func binaryOf(t *C.gocann_thread, fn string, p C.aclrtBinHandle) (*cBinary, C.aclError) {
	if obj, ok := proc.handles.get(handleOf(unsafe.Pointer(p)), kindBinary); ok {
		return obj.(*cBinary), 0
	}
	return nil, badHandle(t, fn, "binHandle", unsafe.Pointer(p), kindBinary)
}

func funcOf(t *C.gocann_thread, fn string, p unsafe.Pointer) (*cFunc, C.aclError) {
	if obj, ok := proc.handles.get(handleOf(p), kindFunc); ok {
		return obj.(*cFunc), 0
	}
	return nil, badHandle(t, fn, "funcHandle", p, kindFunc)
}

// checkLoadOptions accepts the documented binary load options and returns
// the CPU kernel mode they set, -1 if none; the others change nothing for
// host-compiled binaries.
func checkLoadOptions(t *C.gocann_thread, fn string, opts *C.aclrtBinaryLoadOptions) (cpuMode int32, code C.aclError) {
	if opts == nil || opts.numOpt == 0 {
		return -1, 0
	}
	if opts.options == nil {
		return -1, nullArg(t, fn, "options->options")
	}
	if code := checkArray(t, fn, "options->numOpt", unsafe.Pointer(opts.options), opts.numOpt, unsafe.Sizeof(*opts.options)); code != 0 {
		return -1, code
	}
	cpuMode = -1
	for _, o := range unsafe.Slice(opts.options, opts.numOpt) {
		switch o._type {
		case C.ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD, C.ACL_RT_BINARY_LOAD_OPT_MAGIC:
		case C.ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE:
			cpuMode = *(*int32)(unsafe.Pointer(&o.value))
		default:
			return -1, failf(t, fn, gocann.KindInvalidParam, "load option type %d is invalid, expected 1 (lazy load), 2 (magic) or 3 (CPU kernel mode)", o._type)
		}
	}
	return cpuMode, 0
}

func addBinary(t *C.gocann_thread, fn string, b *ckernel.Binary, cpu bool, out *C.aclrtBinHandle) C.aclError {
	cb := &cBinary{b: b, funcs: map[string]*cFunc{}, cpu: cpu}
	if code := registerGlobals(t, fn, cb); code != 0 {
		b.Unload()
		return code
	}
	h, ok := proc.handles.add(kindBinary, cb)
	if !ok {
		dropGlobals(cb)
		b.Unload()
		return failf(t, fn, gocann.KindInternal, "too many live handles")
	}
	cb.h = h
	*out = C.aclrtBinHandle(C.gocann_handle(C.uintptr_t(h)))
	return 0
}

//export gocann_aclrtBinaryLoadFromFile
func gocann_aclrtBinaryLoadFromFile(t *C.gocann_thread, path *C.char, opts *C.aclrtBinaryLoadOptions, out *C.aclrtBinHandle) C.aclError {
	const fn = "aclrtBinaryLoadFromFile"
	if path == nil || out == nil {
		return nullArg(t, fn, "binPath or binHandle")
	}
	if _, code := checkLoadOptions(t, fn, opts); code != 0 {
		return code
	}
	if _, code := rt(t, fn); code != 0 {
		return code
	}
	b, err := ckernel.LoadFile(C.GoString(path))
	if err != nil {
		return fail(t, fn, gocann.Wrap(fn, err))
	}
	return addBinary(t, fn, b, false, out)
}

//export gocann_aclrtBinaryLoadFromData
func gocann_aclrtBinaryLoadFromData(t *C.gocann_thread, data unsafe.Pointer, length C.size_t, opts *C.aclrtBinaryLoadOptions, out *C.aclrtBinHandle) C.aclError {
	const fn = "aclrtBinaryLoadFromData"
	if data == nil || out == nil {
		return nullArg(t, fn, "data or binHandle")
	}
	if length == 0 || length > maxBinaryData {
		return failf(t, fn, gocann.KindInvalidParam, "length %d is invalid, expected the binary's size, 1..%d", uint64(length), maxBinaryData)
	}
	cpuMode, code := checkLoadOptions(t, fn, opts)
	if code != 0 {
		return code
	}
	if _, code := rt(t, fn); code != 0 {
		return code
	}
	b, err := ckernel.LoadData(C.GoBytes(data, C.int(length)))
	if err != nil {
		return fail(t, fn, gocann.Wrap(fn, err))
	}
	return addBinary(t, fn, b, cpuMode == cpuModeRegister, out)
}

//export gocann_aclrtBinaryGetFunction
func gocann_aclrtBinaryGetFunction(t *C.gocann_thread, p C.aclrtBinHandle, name *C.char, out *C.aclrtFuncHandle) C.aclError {
	const fn = "aclrtBinaryGetFunction"
	if name == nil || out == nil {
		return nullArg(t, fn, "kernelName or funcHandle")
	}
	b, code := binaryOf(t, fn, p)
	if code != 0 {
		return code
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.funcLocked(t, fn, C.GoString(name), out)
}

//export gocann_aclrtBinaryUnLoad
func gocann_aclrtBinaryUnLoad(t *C.gocann_thread, p C.aclrtBinHandle) C.aclError {
	const fn = "aclrtBinaryUnLoad"
	b, code := binaryOf(t, fn, p)
	if code != 0 {
		return code
	}
	dropGlobals(b) // waits for symbol copies queued on its globals
	if err := b.b.Unload(); err != nil {
		return fail(t, fn, gocann.Wrap(fn, err))
	}
	b.release()
	return 0
}

//export gocann_aclrtGetFunctionName
func gocann_aclrtGetFunctionName(t *C.gocann_thread, p C.aclrtFuncHandle, maxLen C.uint32_t, name *C.char) C.aclError {
	const fn = "aclrtGetFunctionName"
	if name == nil {
		return nullArg(t, fn, "name")
	}
	f, code := funcOf(t, fn, unsafe.Pointer(p))
	if code != 0 {
		return code
	}
	if int(maxLen) < len(f.name)+1 {
		return failf(t, fn, gocann.KindInvalidParam, "maxLen %d is invalid, expected at least %d for %q and its NUL", maxLen, len(f.name)+1, f.name)
	}
	dst := unsafe.Slice((*byte)(unsafe.Pointer(name)), len(f.name)+1)
	copy(dst, f.name)
	dst[len(f.name)] = 0
	return 0
}

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
