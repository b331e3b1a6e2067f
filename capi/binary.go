package main

/*
#include "acl/acl.h"
#include "thread.h"
*/
import "C"

import (
	"unsafe"

	"github.com/gocann/gocann"
	"github.com/gocann/gocann/ckernel"
)

// binaryDesc is an aclrtBinary: the caller's bytes of a kernel binary,
// read when it is loaded. They stay the caller's, as in CANN.
type binaryDesc struct {
	data unsafe.Pointer
	n    C.size_t
}

//export gocann_aclrtCreateBinary
func gocann_aclrtCreateBinary(t *C.gocann_thread, data unsafe.Pointer, n C.size_t) C.aclrtBinary {
	const fn = "aclrtCreateBinary"
	if unsupported(t, "aclrtCreateBinary") != 0 {
		return nil
	}
	if data == nil {
		nullArg(t, fn, "data")
		return nil
	}
	h, ok := proc.handles.add(kindBinaryDesc, &binaryDesc{data: data, n: n})
	if !ok {
		failf(t, fn, gocann.KindInternal, "too many live handles")
		return nil
	}
	return C.aclrtBinary(C.gocann_handle(C.uintptr_t(h)))
}

//export gocann_aclrtDestroyBinary
func gocann_aclrtDestroyBinary(t *C.gocann_thread, b C.aclrtBinary) C.aclError {
	const fn = "aclrtDestroyBinary"
	if code := unsupported(t, "aclrtDestroyBinary"); code != 0 {
		return code
	}
	if b == nil {
		return nullArg(t, fn, "binary")
	}
	if !proc.handles.remove(handleOf(unsafe.Pointer(b)), kindBinaryDesc) {
		return badHandle(t, fn, "binary", unsafe.Pointer(b), kindBinaryDesc)
	}
	return 0
}

//export gocann_aclrtBinaryLoad
func gocann_aclrtBinaryLoad(t *C.gocann_thread, b C.aclrtBinary, out *C.aclrtBinHandle) C.aclError {
	const fn = "aclrtBinaryLoad"
	if code := unsupported(t, "aclrtBinaryLoad"); code != 0 {
		return code
	}
	if b == nil || out == nil {
		return nullArg(t, fn, "binary or binHandle")
	}
	obj, ok := proc.handles.get(handleOf(unsafe.Pointer(b)), kindBinaryDesc)
	if !ok {
		return badHandle(t, fn, "binary", unsafe.Pointer(b), kindBinaryDesc)
	}
	d := obj.(*binaryDesc)
	if d.n == 0 || d.n > maxBinaryData {
		return failf(t, fn, gocann.KindInvalidParam, "the binary's dataLen %d is invalid, expected the binary's size, 1..%d", uint64(d.n), maxBinaryData)
	}
	if _, code := rt(t, fn); code != 0 {
		return code
	}
	kb, err := ckernel.LoadData(C.GoBytes(d.data, C.int(d.n)))
	if err != nil {
		return fail(t, fn, gocann.Wrap(fn, err))
	}
	return addBinary(t, fn, kb, false, out)
}

// funcLocked stores in out the handle of b's function kname, made the
// first time it is asked for. b.mu held.
func (b *cBinary) funcLocked(t *C.gocann_thread, fn, kname string, out *C.aclrtFuncHandle) C.aclError {
	f, err := b.functionLocked(kname)
	if err != nil {
		return fail(t, fn, gocann.Wrap(fn, err))
	}
	*out = C.aclrtFuncHandle(C.gocann_handle(C.uintptr_t(f.h)))
	return 0
}

// functionLocked returns b's function kname, making it if b has none for
// that name yet. b.mu held.
func (b *cBinary) functionLocked(kname string) (*cFunc, error) {
	if f := b.funcs[kname]; f != nil {
		return f, nil
	}
	if b.funcs == nil {
		return nil, gocann.Errorf("", gocann.KindInvalidHandle, "binHandle was unloaded")
	}
	hk, err := b.b.Kernel(kname)
	if err != nil {
		return nil, err
	}
	f := &cFunc{k: gocann.NewKernel(hk), name: kname, bin: b}
	h, ok := proc.handles.add(kindFunc, f)
	if !ok {
		return nil, gocann.Errorf("", gocann.KindInternal, "too many live handles")
	}
	f.h = h
	b.funcs[kname] = f
	proc.fronts.Store(f.k, h)
	return f, nil
}

// kernelAt returns the kernel of b whose code starts at entry.
func (b *cBinary) kernelAt(entry uint64) (*gocann.Kernel, error) {
	kname, err := b.b.NameAt(uintptr(entry))
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	f, err := b.functionLocked(kname)
	if err != nil {
		return nil, err
	}
	return f.k, nil
}

//export gocann_aclrtBinaryGetFunctionByEntry
func gocann_aclrtBinaryGetFunctionByEntry(t *C.gocann_thread, p C.aclrtBinHandle, entry C.uint64_t, out *C.aclrtFuncHandle) C.aclError {
	const fn = "aclrtBinaryGetFunctionByEntry"
	if out == nil {
		return nullArg(t, fn, "funcHandle")
	}
	b, code := binaryOf(t, fn, p)
	if code != 0 {
		return code
	}
	kname, err := b.b.NameAt(uintptr(entry))
	if err != nil {
		return fail(t, fn, gocann.Wrap(fn, err))
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.funcLocked(t, fn, kname, out)
}

//export gocann_aclrtGetFuncBySymbol
func gocann_aclrtGetFuncBySymbol(t *C.gocann_thread, sym unsafe.Pointer, out *C.aclrtFuncHandle) C.aclError {
	const fn = "aclrtGetFuncBySymbol"
	if sym == nil || out == nil {
		return nullArg(t, fn, "symbol or funcHandle")
	}
	if code := unsupported(t, "aclrtGetFuncBySymbol"); code != 0 {
		return code
	}
	if _, code := rt(t, fn); code != 0 {
		return code
	}
	path, kname, err := ckernel.Containing(uintptr(sym))
	if err != nil {
		return fail(t, fn, gocann.Wrap(fn, err))
	}
	proc.symMu.Lock()
	defer proc.symMu.Unlock()
	b := proc.symBins[path]
	if b != nil {
		// Gone with aclFinalize, or unloaded: open it again.
		if obj, ok := proc.handles.get(b.h, kindBinary); !ok || obj != b {
			b = nil
		}
	}
	if b == nil {
		// The object is loaded already: opening it again shares its code,
		// so the kernel runs the very function the symbol names.
		kb, err := ckernel.LoadFile(path)
		if err != nil {
			return fail(t, fn, gocann.Wrap(fn, err))
		}
		var bh C.aclrtBinHandle
		if code := addBinary(t, fn, kb, false, &bh); code != 0 {
			return code
		}
		obj, _ := proc.handles.get(handleOf(unsafe.Pointer(bh)), kindBinary)
		b = obj.(*cBinary)
		if proc.symBins == nil {
			proc.symBins = map[string]*cBinary{}
		}
		proc.symBins[path] = b
	}
	if at, err := b.b.Entry(kname); err != nil || at != uintptr(sym) {
		return failf(t, fn, gocann.KindSymbolNotFound, "symbol %p (%s) is not the kernel %s exports under that name", sym, kname, path)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.funcLocked(t, fn, kname, out)
}

//export gocann_aclrtFunctionGetBinary
func gocann_aclrtFunctionGetBinary(t *C.gocann_thread, p C.aclrtFuncHandle, out *C.aclrtBinHandle) C.aclError {
	const fn = "aclrtFunctionGetBinary"
	if code := unsupported(t, "aclrtFunctionGetBinary"); code != 0 {
		return code
	}
	if out == nil {
		return nullArg(t, fn, "binHandle")
	}
	f, code := funcOf(t, fn, unsafe.Pointer(p))
	if code != 0 {
		return code
	}
	*out = C.aclrtBinHandle(C.gocann_handle(C.uintptr_t(f.bin.h)))
	return 0
}

//export gocann_aclrtGetFunctionAddr
func gocann_aclrtGetFunctionAddr(t *C.gocann_thread, p C.aclrtFuncHandle, aic, aiv *unsafe.Pointer) C.aclError {
	const fn = "aclrtGetFunctionAddr"
	if code := unsupported(t, "aclrtGetFunctionAddr"); code != 0 {
		return code
	}
	if aic == nil || aiv == nil {
		return nullArg(t, fn, "aicAddr or aivAddr")
	}
	f, code := funcOf(t, fn, unsafe.Pointer(p))
	if code != 0 {
		return code
	}
	at, err := f.bin.b.Entry(f.name)
	if err != nil {
		return fail(t, fn, gocann.Wrap(fn, err))
	}
	*(*uintptr)(unsafe.Pointer(aic)) = at
	*aiv = nil // one code for every core: none of its own for vector cores
	return 0
}

//export gocann_aclrtGetFunctionSize
func gocann_aclrtGetFunctionSize(t *C.gocann_thread, p C.aclrtFuncHandle, aic, aiv *C.size_t) C.aclError {
	const fn = "aclrtGetFunctionSize"
	if aic == nil || aiv == nil {
		return nullArg(t, fn, "aicSize or aivSize")
	}
	if code := unsupported(t, "aclrtGetFunctionSize"); code != 0 {
		return code
	}
	f, code := funcOf(t, fn, unsafe.Pointer(p))
	if code != 0 {
		return code
	}
	n, err := f.bin.b.CodeSize(f.name)
	if err != nil {
		return fail(t, fn, gocann.Wrap(fn, err))
	}
	*aic, *aiv = C.size_t(n), 0
	return 0
}

//export gocann_aclrtGetFunctionAttribute
func gocann_aclrtGetFunctionAttribute(t *C.gocann_thread, p C.aclrtFuncHandle, attr C.aclrtFuncAttribute, out *C.int64_t) C.aclError {
	const fn = "aclrtGetFunctionAttribute"
	if code := unsupported(t, "aclrtGetFunctionAttribute"); code != 0 {
		return code
	}
	if out == nil {
		return nullArg(t, fn, "attrValue")
	}
	if _, code := funcOf(t, fn, unsafe.Pointer(p)); code != 0 {
		return code
	}
	switch attr {
	case C.ACL_FUNC_ATTR_KERNEL_TYPE:
		*out = C.ACL_KERNEL_TYPE_AICORE // a host-compiled kernel runs whole on one core
	case C.ACL_FUNC_ATTR_KERNEL_RATIO:
		*out = 0 // not a mixed cube and vector kernel: no ratio
	case C.ACL_FUNC_ATTR_KERNEL_SCHED_MODE:
		*out = 0 // normal scheduling
	default:
		return failf(t, fn, gocann.KindInvalidParam, "attrType %d is invalid, expected ACL_FUNC_ATTR_KERNEL_TYPE (1), _KERNEL_RATIO (2) or _KERNEL_SCHED_MODE (3)", attr)
	}
	return 0
}

// paramLayout returns f's parameters as an argument block lays them out:
// in order, each at a multiple of 8 bytes.
func (f *cFunc) paramLayout() (offsets, sizes []int, err error) {
	sizes, err = f.paramSizes()
	if err != nil {
		return nil, nil, err
	}
	off := 0
	for _, n := range sizes {
		offsets = append(offsets, off)
		off += (n + 7) &^ 7
	}
	return offsets, sizes, nil
}

//export gocann_aclrtFunctionGetParamCount
func gocann_aclrtFunctionGetParamCount(t *C.gocann_thread, p unsafe.Pointer, out *C.size_t) C.aclError {
	const fn = "aclrtFunctionGetParamCount"
	if code := unsupported(t, "aclrtFunctionGetParamCount"); code != 0 {
		return code
	}
	if out == nil {
		return nullArg(t, fn, "paramCount")
	}
	f, code := funcOf(t, fn, p)
	if code != 0 {
		return code
	}
	_, sizes, err := f.paramLayout()
	if err != nil {
		return fail(t, fn, gocann.Wrap(fn, err))
	}
	*out = C.size_t(len(sizes))
	return 0
}

//export gocann_aclrtFunctionGetParamInfo
func gocann_aclrtFunctionGetParamInfo(t *C.gocann_thread, p unsafe.Pointer, i C.size_t, offset, size *C.size_t) C.aclError {
	const fn = "aclrtFunctionGetParamInfo"
	if code := unsupported(t, "aclrtFunctionGetParamInfo"); code != 0 {
		return code
	}
	if offset == nil && size == nil {
		return failf(t, fn, gocann.KindBadArgument, "paramOffset and paramSize are both NULL, expected at least one")
	}
	f, code := funcOf(t, fn, p)
	if code != 0 {
		return code
	}
	offsets, sizes, err := f.paramLayout()
	if err != nil {
		return fail(t, fn, gocann.Wrap(fn, err))
	}
	if uint64(i) >= uint64(len(sizes)) {
		return failf(t, fn, gocann.KindInvalidParam, "paramIndex %d is invalid, expected 0..%d for the %d parameters of kernel %q", uint64(i), len(sizes)-1, len(sizes), f.name)
	}
	if offset != nil {
		*offset = C.size_t(offsets[i])
	}
	if size != nil {
		*size = C.size_t(sizes[i])
	}
	return 0
}

//export gocann_aclrtFunctionGetAvailDynUbufPerBlock
func gocann_aclrtFunctionGetAvailDynUbufPerBlock(t *C.gocann_thread, p unsafe.Pointer, flags C.uint32_t, out *C.size_t) C.aclError {
	const fn = "aclrtFunctionGetAvailDynUbufPerBlock"
	if code := unsupported(t, "aclrtFunctionGetAvailDynUbufPerBlock"); code != 0 {
		return code
	}
	if out == nil {
		return nullArg(t, fn, "dynamicUbufSize")
	}
	if flags != 0 {
		return failf(t, fn, gocann.KindBadArgument, "flags %d is invalid, expected 0", flags)
	}
	if _, code := funcOf(t, fn, p); code != 0 {
		return code
	}
	*out = 0 // not a SIMT kernel: no dynamic unified buffer
	return 0
}
