package main

/*
#include "acl/acl.h"
#include "thread.h"
*/
import "C"

import (
	"sync"
	"unsafe"

	"github.com/gocann/gocann"
)

// Device symbols. A C kernel binary is a host shared object: its exported
// variables are its device symbols, registered with the runtime when it
// loads, at their own addresses, and dropped (after the copies queued on
// them) before it unloads. A binary loaded twice from one path is one
// object with one set of variables, so symbols are counted.

// globalRefs counts the binaries holding each symbol, by address.
type globalRefs struct {
	// mu guards refs.
	mu   sync.Mutex
	refs map[uintptr]*globalRef
}

type globalRef struct {
	s *gocann.Symbol
	n int
}

// registerGlobals registers cb's variables as symbols.
func registerGlobals(t *C.gocann_thread, fn string, cb *cBinary) C.aclError {
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	list, err := cb.b.Globals()
	if err != nil {
		return fail(t, fn, gocann.Wrap(fn, err))
	}
	dev := 0 // the device the binary loads on: the current one
	if obj, ok := proc.handles.get(handle(t.context), kindContext); ok && t.context != 0 {
		dev = obj.(*cContext).dev
	}
	cb.syms = make(map[string]*gocann.Symbol, len(list))
	proc.globals.mu.Lock()
	defer proc.globals.mu.Unlock()
	if proc.globals.refs == nil {
		proc.globals.refs = make(map[uintptr]*globalRef)
	}
	for _, g := range list {
		key := uintptr(g.Addr)
		if ref := proc.globals.refs[key]; ref != nil {
			if _, err := r.Raw().SymbolAt(g.Addr); err == nil {
				ref.n++
				cb.syms[g.Name] = ref.s
				continue
			}
			delete(proc.globals.refs, key) // from before an aclFinalize
		}
		s, err := r.Raw().RegisterSymbol(g.Name, g.Addr, uintptr(g.Size), dev)
		if err != nil {
			proc.globals.mu.Unlock()
			dropGlobals(cb)
			proc.globals.mu.Lock()
			return fail(t, fn, err)
		}
		proc.globals.refs[key] = &globalRef{s: s, n: 1}
		cb.syms[g.Name] = s
	}
	return 0
}

// dropGlobals drops cb's references to its symbols; the last one ends the
// symbol once the copies queued on it are done.
func dropGlobals(cb *cBinary) {
	proc.globals.mu.Lock()
	var last []*gocann.Symbol
	for _, s := range cb.syms {
		p, err := s.Pointer()
		ref := proc.globals.refs[uintptr(p)]
		if err != nil || ref == nil || ref.s != s {
			last = append(last, s) // already dropped, or from before an aclFinalize
			continue
		}
		if ref.n--; ref.n == 0 {
			delete(proc.globals.refs, uintptr(p))
			last = append(last, s)
		}
	}
	cb.syms = nil
	proc.globals.mu.Unlock()
	for _, s := range last {
		_ = s.Close() // a second close only reports what is already so
	}
}

// symbolOf resolves a symbol argument: the address of a device global.
func symbolOf(t *C.gocann_thread, fn string, p unsafe.Pointer) (*gocann.Symbol, C.aclError) {
	if p == nil {
		return nil, nullArg(t, fn, "symbol")
	}
	r, code := rt(t, fn)
	if code != 0 {
		return nil, code
	}
	s, err := r.Raw().SymbolAt(p)
	if err != nil {
		return nil, fail(t, fn, err)
	}
	return s, 0
}

// symbolInto resolves the symbol of a query whose one output is out, or of
// a copy whose host end is out (named param): a NULL out is refused before
// the symbol is looked at.
// The product check stays in each entry point, with its CANN name written
// out, so that the support test can see it.
func symbolInto(t *C.gocann_thread, fn string, sym, out unsafe.Pointer, param string) (*gocann.Symbol, C.aclError) {
	if out == nil {
		return nil, nullArg(t, fn, param)
	}
	return symbolOf(t, fn, sym)
}

//export gocann_aclrtBinaryGetGlobal
func gocann_aclrtBinaryGetGlobal(t *C.gocann_thread, bp C.aclrtBinHandle, name *C.char, dptr *unsafe.Pointer, size *C.size_t) C.aclError {
	const fn = "aclrtBinaryGetGlobal"
	switch {
	case bp == nil:
		return nullArg(t, fn, "binHandle")
	case name == nil:
		return nullArg(t, fn, "name")
	case dptr == nil && size == nil:
		return failf(t, fn, gocann.KindBadArgument, "dptr and size are both NULL, expected at least one")
	}
	b, code := binaryOf(t, fn, bp)
	if code != 0 {
		return code
	}
	s := b.syms[C.GoString(name)]
	if s == nil {
		return failf(t, fn, gocann.KindSymbolNotFound, "global %q is not exported by the binary (an exported variable of the shared object)", C.GoString(name))
	}
	p, err := s.Pointer()
	if err != nil {
		return fail(t, fn, err)
	}
	if dptr != nil {
		*dptr = p
	}
	if size != nil {
		*size = C.size_t(s.Size())
	}
	return 0
}

//export gocann_aclrtBinaryGetDevAddress
func gocann_aclrtBinaryGetDevAddress(t *C.gocann_thread, bp C.aclrtBinHandle, addr *unsafe.Pointer, size *C.size_t) C.aclError {
	const fn = "aclrtBinaryGetDevAddress"
	if code := unsupported(t, "aclrtBinaryGetDevAddress"); code != 0 {
		return code
	}
	switch {
	case bp == nil:
		return nullArg(t, fn, "binHandle")
	case addr == nil:
		return nullArg(t, fn, "binAddr")
	case size == nil:
		return nullArg(t, fn, "binSize")
	}
	b, code := binaryOf(t, fn, bp)
	if code != 0 {
		return code
	}
	p, n, err := b.b.Image()
	if err != nil {
		return fail(t, fn, gocann.Wrap(fn, err))
	}
	*addr, *size = p, C.size_t(n)
	return 0
}

//export gocann_aclrtGetSymbolAddress
func gocann_aclrtGetSymbolAddress(t *C.gocann_thread, sym unsafe.Pointer, devPtr *unsafe.Pointer) C.aclError {
	const fn = "aclrtGetSymbolAddress"
	if code := unsupported(t, "aclrtGetSymbolAddress"); code != 0 {
		return code
	}
	s, code := symbolInto(t, fn, sym, unsafe.Pointer(devPtr), "devPtr")
	if code != 0 {
		return code
	}
	p, err := s.Pointer()
	if err != nil {
		return fail(t, fn, err)
	}
	*devPtr = p
	return 0
}

//export gocann_aclrtGetSymbolSize
func gocann_aclrtGetSymbolSize(t *C.gocann_thread, sym unsafe.Pointer, size *C.size_t) C.aclError {
	const fn = "aclrtGetSymbolSize"
	if code := unsupported(t, "aclrtGetSymbolSize"); code != 0 {
		return code
	}
	s, code := symbolInto(t, fn, sym, unsafe.Pointer(size), "size")
	if code != 0 {
		return code
	}
	*size = C.size_t(s.Size())
	return 0
}

//export gocann_aclrtMemcpyFromSymbol
func gocann_aclrtMemcpyFromSymbol(t *C.gocann_thread, dst unsafe.Pointer, dstMax C.size_t, sym unsafe.Pointer, count, off C.size_t, kind C.aclrtMemcpyKind) C.aclError {
	const fn = "aclrtMemcpyFromSymbol"
	if count == 0 {
		return 0
	}
	s, code := symbolInto(t, fn, sym, dst, "dst")
	if code != 0 {
		return code
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	if err := c.c.Raw().CopyFromSymbol(captureThread(t), dst, uintptr(dstMax), s, uintptr(count), uintptr(off), gocann.MemcpyKind(kind)); err != nil {
		return fail(t, fn, err)
	}
	return 0
}

//export gocann_aclrtMemcpyFromSymbolAsync
func gocann_aclrtMemcpyFromSymbolAsync(t *C.gocann_thread, dst unsafe.Pointer, dstMax C.size_t, sym unsafe.Pointer, count, off C.size_t, kind C.aclrtMemcpyKind, sp C.aclrtStream) C.aclError {
	const fn = "aclrtMemcpyFromSymbolAsync"
	if count == 0 {
		return 0
	}
	s, code := symbolInto(t, fn, sym, dst, "dst")
	if code != 0 {
		return code
	}
	st, code := queueStream(t, fn, sp)
	if code != 0 {
		return code
	}
	if err := st.s.Raw().CopyFromSymbolAsync(dst, uintptr(dstMax), s, uintptr(count), uintptr(off), gocann.MemcpyKind(kind)); err != nil {
		return fail(t, fn, err)
	}
	return 0
}

//export gocann_aclrtMemcpyToSymbol
func gocann_aclrtMemcpyToSymbol(t *C.gocann_thread, sym unsafe.Pointer, src unsafe.Pointer, count, off C.size_t, kind C.aclrtMemcpyKind) C.aclError {
	const fn = "aclrtMemcpyToSymbol"
	if count == 0 {
		return 0
	}
	s, code := symbolInto(t, fn, sym, src, "src")
	if code != 0 {
		return code
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	if err := c.c.Raw().CopyToSymbol(captureThread(t), s, src, uintptr(count), uintptr(off), gocann.MemcpyKind(kind)); err != nil {
		return fail(t, fn, err)
	}
	return 0
}

//export gocann_aclrtMemcpyToSymbolAsync
func gocann_aclrtMemcpyToSymbolAsync(t *C.gocann_thread, sym unsafe.Pointer, src unsafe.Pointer, count, off C.size_t, kind C.aclrtMemcpyKind, sp C.aclrtStream) C.aclError {
	const fn = "aclrtMemcpyToSymbolAsync"
	if count == 0 {
		return 0
	}
	s, code := symbolInto(t, fn, sym, src, "src")
	if code != 0 {
		return code
	}
	st, code := queueStream(t, fn, sp)
	if code != 0 {
		return code
	}
	if err := st.s.Raw().CopyToSymbolAsync(s, src, uintptr(count), uintptr(off), gocann.MemcpyKind(kind)); err != nil {
		return fail(t, fn, err)
	}
	return 0
}
