package main

/*
#include <stdlib.h>
#include "acl/acl.h"
#include "thread.h"
*/
import "C"

import (
	"sync"
	"unsafe"

	"github.com/gocann/gocann"
)

// Kernel argument lists built with aclrtKernelArgs* and launched with
// aclrtLaunchKernelWithConfig.

// maxListParams is CANN's limit on parameters appended to one list.
const maxListParams = 128

// cArgs is an argument list.
type cArgs struct {
	f   *cFunc
	h   handle // 0 for lists in caller memory (aclrtKernelArgsInitByUserMem)
	cap uint64 // the bytes of parameters and placeholder data it may hold

	// mu guards the fields below.
	mu     sync.Mutex
	params []argParam
	final  bool
}

// argParam is one appended parameter: its bytes padded to 8, or a
// placeholder whose slot will point at the device copy of buf.
type argParam struct {
	val     []byte
	ph      bool
	buf     unsafe.Pointer // C memory the caller fills
	bufSize uintptr
}

// userLists maps caller-provided handle memory to its list: such a handle
// is an address, not one of ours, and is never dereferenced.
var userLists sync.Map // unsafe.Pointer -> *cArgs

func argsOf(t *C.gocann_thread, fn string, p C.aclrtArgsHandle) (*cArgs, C.aclError) {
	a, err := argsLookup(fn, unsafe.Pointer(p))
	return a, fail(t, fn, err)
}

// argsLookup resolves an argument list handle: one of ours, or caller
// memory that names a list.
func argsLookup(fn string, p unsafe.Pointer) (*cArgs, error) {
	if obj, ok := proc.handles.get(handleOf(p), kindArgs); ok {
		return obj.(*cArgs), nil
	}
	if a, ok := userLists.Load(p); ok {
		return a.(*cArgs), nil
	}
	return nil, badHandleError(fn, "argsHandle", p, kindArgs)
}

// paramLookup returns argument list ap and the index of its parameter p.
// A parameter handle is its index in the list, tagged, so parameters take
// no table slots; the list handle that comes with it says which list.
func paramLookup(fn string, ap, p unsafe.Pointer) (*cArgs, int, error) {
	a, err := argsLookup(fn, ap)
	if err != nil {
		return nil, 0, err
	}
	h := handleOf(p)
	a.mu.Lock()
	n := len(a.params)
	a.mu.Unlock()
	if h.kind() == kindParam && h.gen() == 0 && int(h.index()) < n {
		return a, int(h.index()), nil
	}
	return nil, 0, argsError(fn, gocann.KindInvalidHandle, "paramHandle %p is not a parameter of this argument list", p)
}

// release frees what the list holds: its placeholder buffers and handle.
func (a *cArgs) release() {
	a.mu.Lock()
	for i := range a.params {
		C.free(a.params[i].buf)
		a.params[i].buf, a.params[i].bufSize = nil, 0
	}
	a.mu.Unlock()
	if a.h != 0 {
		proc.handles.remove(a.h, kindArgs)
	}
}

// handleMemSize is what aclrtKernelArgsGetHandleMemSize reports.
const handleMemSize = 64

//export gocann_aclrtKernelArgsGetHandleMemSize
func gocann_aclrtKernelArgsGetHandleMemSize(t *C.gocann_thread, fp C.aclrtFuncHandle, size *C.size_t) C.aclError {
	const fn = "aclrtKernelArgsGetHandleMemSize"
	if code := unsupported(t, "aclrtKernelArgsGetHandleMemSize"); code != 0 {
		return code
	}
	if size == nil {
		return nullArg(t, fn, "memSize")
	}
	if _, code := funcOf(t, fn, unsafe.Pointer(fp)); code != 0 {
		return code
	}
	*size = handleMemSize
	return 0
}

//export gocann_aclrtKernelArgsGetMemSize
func gocann_aclrtKernelArgsGetMemSize(t *C.gocann_thread, fp C.aclrtFuncHandle, user C.size_t, actual *C.size_t) C.aclError {
	const fn = "aclrtKernelArgsGetMemSize"
	if code := unsupported(t, "aclrtKernelArgsGetMemSize"); code != 0 {
		return code
	}
	if actual == nil {
		return nullArg(t, fn, "actualArgsSize")
	}
	if _, code := funcOf(t, fn, unsafe.Pointer(fp)); code != 0 {
		return code
	}
	if user > maxUserArgsSize {
		return failf(t, fn, gocann.KindInvalidParam, "userArgsSize %d is invalid, expected at most %d", uint64(user), uint64(maxUserArgsSize))
	}
	*actual = (user + 7) &^ 7
	return 0
}

//export gocann_aclrtKernelArgsInit
func gocann_aclrtKernelArgsInit(t *C.gocann_thread, fp C.aclrtFuncHandle, out *C.aclrtArgsHandle) C.aclError {
	const fn = "aclrtKernelArgsInit"
	if code := unsupported(t, "aclrtKernelArgsInit"); code != 0 {
		return code
	}
	if out == nil {
		return nullArg(t, fn, "argsHandle")
	}
	f, code := funcOf(t, fn, unsafe.Pointer(fp))
	if code != 0 {
		return code
	}
	a := &cArgs{f: f, cap: maxArgsBlock}
	h, ok := proc.handles.add(kindArgs, a)
	if !ok {
		return failf(t, fn, gocann.KindInternal, "too many live handles")
	}
	a.h = h
	f.own(a, nil)
	*out = C.aclrtArgsHandle(C.gocann_handle(C.uintptr_t(h)))
	return 0
}

//export gocann_aclrtKernelArgsInitByUserMem
func gocann_aclrtKernelArgsInitByUserMem(t *C.gocann_thread, fp C.aclrtFuncHandle, mem C.aclrtArgsHandle, host unsafe.Pointer, size C.size_t) C.aclError {
	const fn = "aclrtKernelArgsInitByUserMem"
	if code := unsupported(t, "aclrtKernelArgsInitByUserMem"); code != 0 {
		return code
	}
	if mem == nil || host == nil {
		return nullArg(t, fn, "argsHandle or userHostMem")
	}
	f, code := funcOf(t, fn, unsafe.Pointer(fp))
	if code != 0 {
		return code
	}
	if size == 0 {
		return failf(t, fn, gocann.KindInvalidParam, "actualArgsSize 0 is invalid, expected the size aclrtKernelArgsGetMemSize gave")
	}
	// The arguments are kept by the runtime; the caller's memory only
	// names the list, and its size bounds what the list holds.
	a := &cArgs{f: f, cap: uint64(size)}
	userLists.Store(unsafe.Pointer(mem), a)
	f.own(a, unsafe.Pointer(mem))
	return 0
}

// The calls that build a list, on Go values: the exported functions
// below check their out-pointers and hand over.

// argsAppend is aclrtKernelArgsAppend: it returns the new parameter's
// handle.
func argsAppend(ap, param unsafe.Pointer, size uintptr) (handle, error) {
	const fn = "aclrtKernelArgsAppend"
	if param == nil {
		return 0, nullArgError(fn, "param or paramHandle")
	}
	if size == 0 || size > 8*gocann.MaxArgs {
		return 0, argsError(fn, gocann.KindInvalidParam, "paramSize %d is invalid, expected 1..%d", size, 8*gocann.MaxArgs)
	}
	a, err := argsLookup(fn, ap)
	if err != nil {
		return 0, err
	}
	return a.add(fn, argParam{val: padded(param, size)})
}

// argsAppendPlaceHolder is aclrtKernelArgsAppendPlaceHolder.
func argsAppendPlaceHolder(ap unsafe.Pointer) (handle, error) {
	const fn = "aclrtKernelArgsAppendPlaceHolder"
	a, err := argsLookup(fn, ap)
	if err != nil {
		return 0, err
	}
	return a.add(fn, argParam{val: make([]byte, 8), ph: true})
}

// used is the bytes a's parameters and placeholder data take in its block,
// with the data of parameter skip counted as extra bytes instead. a.mu held.
func (a *cArgs) used(skip int, extra uint64) uint64 {
	n := extra
	for i, p := range a.params {
		n = addSat(n, uint64(len(p.val)))
		if i != skip {
			n = addSat(n, pad8(uint64(p.bufSize)))
		}
	}
	return n
}

// add appends a parameter and returns its handle.
func (a *cArgs) add(fn string, p argParam) (handle, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.params) >= maxListParams {
		return 0, argsError(fn, gocann.KindInvalidParam, "argument list already has %d parameters, the most allowed", maxListParams)
	}
	if n := a.used(-1, uint64(len(p.val))); n > a.cap {
		return 0, argsError(fn, gocann.KindInvalidParam, "the argument list would take %d bytes, expected at most %d (its memory)", n, a.cap)
	}
	a.params = append(a.params, p)
	return makeHandle(kindParam, 0, uint32(len(a.params)-1)), nil
}

// argsError is an error of one of the calls on argument lists.
func argsError(fn string, k gocann.Kind, format string, args ...any) error {
	return gocann.Errorf(fn, k, format, args...)
}

func padded(p unsafe.Pointer, n uintptr) []byte {
	v := make([]byte, (n+7)&^7)
	copy(v, unsafe.Slice((*byte)(p), n))
	return v
}

// argsPlaceHolderBuffer is aclrtKernelArgsGetPlaceHolderBuffer: the
// placeholder's buffer of at least size bytes, which the list owns.
func argsPlaceHolderBuffer(ap, pp unsafe.Pointer, size uintptr) (unsafe.Pointer, error) {
	const fn = "aclrtKernelArgsGetPlaceHolderBuffer"
	if size == 0 {
		return nil, argsError(fn, gocann.KindInvalidParam, "dataSize 0 is invalid, expected > 0")
	}
	a, idx, err := paramLookup(fn, ap, pp)
	if err != nil {
		return nil, err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	par := &a.params[idx]
	if !par.ph {
		return nil, argsError(fn, gocann.KindInvalidParam, "parameter %d was appended with aclrtKernelArgsAppend, expected a placeholder", idx)
	}
	if par.bufSize < size {
		if n := a.used(idx, pad8(uint64(size))); n > a.cap {
			return nil, argsError(fn, gocann.KindInvalidParam, "dataSize %d is invalid: the argument list would take %d bytes, expected at most %d (its memory)",
				uint64(size), n, a.cap)
		}
		buf := C.calloc(1, C.size_t(size))
		if buf == nil {
			return nil, argsError(fn, gocann.KindOutOfMemory, "dataSize %d: no host memory for a placeholder buffer that large", uint64(size))
		}
		C.free(par.buf) // the list owns its buffers; a larger request replaces the old one
		par.buf, par.bufSize = buf, size
	}
	return par.buf, nil
}

// argsParaUpdate is aclrtKernelArgsParaUpdate.
func argsParaUpdate(ap, pp, param unsafe.Pointer, size uintptr) error {
	const fn = "aclrtKernelArgsParaUpdate"
	if param == nil {
		return nullArgError(fn, "param")
	}
	a, idx, err := paramLookup(fn, ap, pp)
	if err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	par := &a.params[idx]
	if par.ph {
		return argsError(fn, gocann.KindInvalidParam, "parameter %d is a placeholder; fill its buffer instead", idx)
	}
	if (size+7)&^7 != uintptr(len(par.val)) {
		return argsError(fn, gocann.KindInvalidParam, "paramSize %d is invalid, expected %d bytes as appended", size, len(par.val))
	}
	par.val = padded(param, size)
	a.final = false
	return nil
}

// argsFinalize is aclrtKernelArgsFinalize.
func argsFinalize(ap unsafe.Pointer) error {
	a, err := argsLookup("aclrtKernelArgsFinalize", ap)
	if err != nil {
		return err
	}
	a.mu.Lock()
	a.final = true
	a.mu.Unlock()
	return nil
}

// paramOut stores a parameter handle for C.
func paramOut(out *C.aclrtParamHandle, h handle) {
	*out = C.aclrtParamHandle(C.gocann_handle(C.uintptr_t(h)))
}

//export gocann_aclrtKernelArgsAppend
func gocann_aclrtKernelArgsAppend(t *C.gocann_thread, ap C.aclrtArgsHandle, param unsafe.Pointer, size C.size_t, out *C.aclrtParamHandle) C.aclError {
	const fn = "aclrtKernelArgsAppend"
	if code := unsupported(t, "aclrtKernelArgsAppend"); code != 0 {
		return code
	}
	if out == nil {
		return nullArg(t, fn, "param or paramHandle")
	}
	h, err := argsAppend(unsafe.Pointer(ap), param, uintptr(size))
	if err == nil {
		paramOut(out, h)
	}
	return fail(t, fn, err)
}

//export gocann_aclrtKernelArgsAppendPlaceHolder
func gocann_aclrtKernelArgsAppendPlaceHolder(t *C.gocann_thread, ap C.aclrtArgsHandle, out *C.aclrtParamHandle) C.aclError {
	const fn = "aclrtKernelArgsAppendPlaceHolder"
	if code := unsupported(t, "aclrtKernelArgsAppendPlaceHolder"); code != 0 {
		return code
	}
	if out == nil {
		return nullArg(t, fn, "paramHandle")
	}
	h, err := argsAppendPlaceHolder(unsafe.Pointer(ap))
	if err == nil {
		paramOut(out, h)
	}
	return fail(t, fn, err)
}

//export gocann_aclrtKernelArgsGetPlaceHolderBuffer
func gocann_aclrtKernelArgsGetPlaceHolderBuffer(t *C.gocann_thread, ap C.aclrtArgsHandle, pp C.aclrtParamHandle, size C.size_t, out *unsafe.Pointer) C.aclError {
	const fn = "aclrtKernelArgsGetPlaceHolderBuffer"
	if code := unsupported(t, "aclrtKernelArgsGetPlaceHolderBuffer"); code != 0 {
		return code
	}
	if out == nil {
		return nullArg(t, fn, "bufferAddr")
	}
	buf, err := argsPlaceHolderBuffer(unsafe.Pointer(ap), unsafe.Pointer(pp), uintptr(size))
	if err == nil {
		*out = buf
	}
	return fail(t, fn, err)
}

//export gocann_aclrtKernelArgsParaUpdate
func gocann_aclrtKernelArgsParaUpdate(t *C.gocann_thread, ap C.aclrtArgsHandle, pp C.aclrtParamHandle, param unsafe.Pointer, size C.size_t) C.aclError {
	if code := unsupported(t, "aclrtKernelArgsParaUpdate"); code != 0 {
		return code
	}
	return fail(t, "aclrtKernelArgsParaUpdate", argsParaUpdate(unsafe.Pointer(ap), unsafe.Pointer(pp), param, uintptr(size)))
}

//export gocann_aclrtKernelArgsFinalize
func gocann_aclrtKernelArgsFinalize(t *C.gocann_thread, ap C.aclrtArgsHandle) C.aclError {
	if code := unsupported(t, "aclrtKernelArgsFinalize"); code != 0 {
		return code
	}
	return fail(t, "aclrtKernelArgsFinalize", argsFinalize(unsafe.Pointer(ap)))
}

// block lays the list out as CANN does: the parameters in order, then each
// placeholder's data, with the placeholder slots to point at it.
func (a *cArgs) block() ([]byte, int, []placeholder) {
	a.mu.Lock()
	defer a.mu.Unlock()
	var b []byte
	var offs []int
	for _, p := range a.params {
		offs = append(offs, len(b))
		b = append(b, p.val...)
	}
	slots := len(b)
	var phs []placeholder
	for i, p := range a.params {
		if !p.ph {
			continue
		}
		phs = append(phs, placeholder{AddrOffset: uint64(offs[i]), DataOffset: uint64(len(b))})
		if p.buf != nil {
			b = append(b, unsafe.Slice((*byte)(p.buf), p.bufSize)...)
		}
		for len(b)%8 != 0 {
			b = append(b, 0)
		}
	}
	return b, slots, phs
}

//export gocann_aclrtLaunchKernelWithConfig
func gocann_aclrtLaunchKernelWithConfig(t *C.gocann_thread, fp C.aclrtFuncHandle, blocks C.uint32_t, sp C.aclrtStream, cfg *C.aclrtLaunchKernelCfg, ap C.aclrtArgsHandle, reserve C.uintptr_t) C.aclError {
	const fn = "aclrtLaunchKernelWithConfig"
	if code := unsupported(t, "aclrtLaunchKernelWithConfig"); code != 0 {
		return code
	}
	if reserve != 0 {
		return failf(t, fn, gocann.KindInvalidParam, "reserve is %#x, expected NULL", uintptr(reserve))
	}
	f, code := funcOf(t, fn, unsafe.Pointer(fp))
	if code != 0 {
		return code
	}
	a, code := argsOf(t, fn, ap)
	if code != 0 {
		return code
	}
	if a.f != f {
		return failf(t, fn, gocann.KindInvalidParam, "argsHandle was built for kernel %q, not %q", a.f.name, f.name)
	}
	a.mu.Lock()
	final := a.final
	a.mu.Unlock()
	if !final {
		return failf(t, fn, gocann.KindInvalidParam, "argument list is not finalized; call aclrtKernelArgsFinalize after the last append or update")
	}
	lc, code := checkLaunchCfg(t, fn, cfg)
	if code != 0 {
		return code
	}
	s, code := queueStream(t, fn, sp)
	if code != 0 {
		return code
	}
	block, slots, phs := a.block()
	if slots > 8*gocann.MaxArgs {
		return failf(t, fn, gocann.KindInvalidParam, "the parameters take %d bytes, expected at most %d (32 slots of 8 bytes)", slots, 8*gocann.MaxArgs)
	}
	return launchBlock(t, fn, s, f, f.k, lc, uint32(blocks), block, slots, phs)
}
