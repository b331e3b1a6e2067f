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
	if code := unsupported(t, "aclrtBinaryLoadFromFile"); code != 0 {
		return code
	}
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
	if code := unsupported(t, "aclrtBinaryLoadFromData"); code != 0 {
		return code
	}
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
	if code := unsupported(t, "aclrtBinaryGetFunction"); code != 0 {
		return code
	}
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
	if code := unsupported(t, "aclrtBinaryUnLoad"); code != 0 {
		return code
	}
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
	if code := unsupported(t, "aclrtGetFunctionName"); code != 0 {
		return code
	}
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
