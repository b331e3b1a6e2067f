package gocann

import (
	"unsafe"

	"github.com/gocann/gocann/internal/callsite"
	"github.com/gocann/gocann/internal/rt"
	"github.com/gocann/gocann/internal/rterr"
)

// Symbol is a device global: memory kernels and the host share by name.
// A Go kernel's global is device memory made with Context.NewGlobal and
// found with Runtime.Global; kernels reach it at Ptr. A C kernel binary's
// globals are its device symbols, registered when the binary loads; their
// bytes are the binary's own variables, which its kernels read directly.
type Symbol struct {
	r *Runtime
	s *rt.Symbol
}

func (r *Runtime) symbol(s *rt.Symbol) *Symbol {
	if f, ok := s.Front.Load().(*Symbol); ok {
		return f
	}
	s.Front.CompareAndSwap(nil, &Symbol{r: r, s: s})
	return s.Front.Load().(*Symbol)
}

// NewGlobal makes a global of size bytes for Go kernels, in device memory
// of the context's device, registered under name. It reads as zero until
// written.
//
// CANN: none (a device variable the kernel compiler registers).
func (c *Context) NewGlobal(name string, size int64) (*Symbol, error) {
	const op = "Context.NewGlobal"
	if size <= 0 {
		return nil, wrap(op, rterr.Errorf(rterr.KindInvalidParam, "size %d is invalid, expected > 0", size))
	}
	s, err := c.c.NewGlobal(name, uint64(size))
	if err != nil {
		return nil, wrap(op, err)
	}
	return c.r.symbol(s), nil
}

// Global finds a Go kernels' global by name.
//
// CANN: aclrtBinaryGetGlobal (Go kernels' globals).
func (r *Runtime) Global(name string) (*Symbol, error) {
	if err := r.require("aclrtBinaryGetGlobal"); err != nil {
		return nil, err
	}
	s, err := r.rt.Global(name)
	if err != nil {
		return nil, wrap("Runtime.Global (aclrtBinaryGetGlobal)", err)
	}
	return r.symbol(s), nil
}

// Name is the symbol's name.
//
// CANN: none.
func (s *Symbol) Name() string { return s.s.Name() }

// Ptr is the symbol's device address.
//
// CANN: aclrtGetSymbolAddress.
func (s *Symbol) Ptr() DevPtr { return DevPtr(s.s.Addr()) }

// Size is the symbol's size in bytes.
//
// CANN: aclrtGetSymbolSize.
func (s *Symbol) Size() int64 { return int64(s.s.Size()) }

// Close ends the symbol once the copies queued on it are done, and frees a
// Go global's memory.
//
// CANN: none.
func (s *Symbol) Close() error { return wrap("Symbol.Close", s.r.rt.Drop(s.s)) }

// CopyToSymbol copies src into the symbol at offset off, synchronously.
//
// CANN: aclrtMemcpyToSymbol.
func (c *Context) CopyToSymbol(s *Symbol, off int64, src []byte) error {
	if err := c.r.require("aclrtMemcpyToSymbol"); err != nil {
		return err
	}
	const op = "Context.CopyToSymbol (aclrtMemcpyToSymbol)"
	if off < 0 {
		return wrap(op, rterr.Errorf(rterr.KindBadArgument, "offset %d is invalid, expected >= 0", off))
	}
	return wrap(op, c.c.CopyToSymbol(rt.Caller{}, s.s, uint64(off), bytesLoc(src), uint64(len(src)), rt.HostToDevice))
}

// CopyFromSymbol copies len(dst) bytes of the symbol at offset off into
// dst, synchronously.
//
// CANN: aclrtMemcpyFromSymbol.
func (c *Context) CopyFromSymbol(dst []byte, s *Symbol, off int64) error {
	if err := c.r.require("aclrtMemcpyFromSymbol"); err != nil {
		return err
	}
	const op = "Context.CopyFromSymbol (aclrtMemcpyFromSymbol)"
	if off < 0 {
		return wrap(op, rterr.Errorf(rterr.KindBadArgument, "offset %d is invalid, expected >= 0", off))
	}
	n := uint64(len(dst))
	return wrap(op, c.c.CopyFromSymbol(rt.Caller{}, bytesLoc(dst), n, s.s, uint64(off), n, rt.DeviceToHost))
}

// CopyToSymbol queues a copy of n bytes of src at srcOff into the symbol
// at offset off.
//
// CANN: aclrtMemcpyToSymbolAsync.
//
//go:noinline
func (st *Stream) CopyToSymbol(s *Symbol, off int64, src *HostBuffer, srcOff, n int64) error {
	if err := st.r.require("aclrtMemcpyToSymbolAsync"); err != nil {
		return err
	}
	const op = "Stream.CopyToSymbol (aclrtMemcpyToSymbolAsync)"
	site := callsite.Caller()
	from, err := src.region("src", srcOff, n)
	if err == nil && off < 0 {
		err = rterr.Errorf(rterr.KindBadArgument, "offset %d is invalid, expected >= 0", off)
	}
	if err != nil {
		return wrap(op, err)
	}
	return wrap(op, st.s.CopyToSymbolAsync(s.s, uint64(off), from, uint64(n), rt.HostToDevice, site))
}

// CopyFromSymbol queues a copy of n bytes of the symbol at offset off into
// dst at dstOff.
//
// CANN: aclrtMemcpyFromSymbolAsync.
//
//go:noinline
func (st *Stream) CopyFromSymbol(dst *HostBuffer, dstOff int64, s *Symbol, off, n int64) error {
	if err := st.r.require("aclrtMemcpyFromSymbolAsync"); err != nil {
		return err
	}
	const op = "Stream.CopyFromSymbol (aclrtMemcpyFromSymbolAsync)"
	site := callsite.Caller()
	to, err := dst.region("dst", dstOff, n)
	if err == nil && off < 0 {
		err = rterr.Errorf(rterr.KindBadArgument, "offset %d is invalid, expected >= 0", off)
	}
	if err != nil {
		return wrap(op, err)
	}
	return wrap(op, st.s.CopyFromSymbolAsync(to, uint64(n), s.s, uint64(off), uint64(n), rt.DeviceToHost, site))
}

// RegisterSymbol registers size bytes of process memory at p, a global of
// a C kernel binary loaded while device dev was current, as a device
// symbol named name; Close it before the binary is unloaded. Copies,
// memsets and value operations then take addresses in it as device
// memory, and PointerAttributes reports it on device dev.
//
// CANN: none (a binary's globals, registered when it loads).
func (x RawRuntime) RegisterSymbol(name string, p unsafe.Pointer, size uintptr, dev int) (*Symbol, error) {
	s, err := x.r.rt.RegisterHostSymbol(name, p, uint64(size), dev)
	if err != nil {
		return nil, wrap("RawRuntime.RegisterSymbol", err)
	}
	return x.r.symbol(s), nil
}

// SymbolAt finds the symbol whose address is p.
//
// CANN: aclrtGetSymbolAddress (by pointer).
func (x RawRuntime) SymbolAt(p unsafe.Pointer) (*Symbol, error) {
	if err := x.r.require("aclrtGetSymbolAddress"); err != nil {
		return nil, err
	}
	s, err := x.r.rt.SymbolAt(uint64(uintptr(p)))
	if err != nil {
		return nil, wrap("RawRuntime.SymbolAt (aclrtGetSymbolAddress)", err)
	}
	return x.r.symbol(s), nil
}

// Pointer is the symbol's address as a pointer, for C code.
//
// CANN: none.
func (s *Symbol) Pointer() (unsafe.Pointer, error) {
	p, err := s.r.rt.SymbolPointer(s.s)
	return p, wrap("Symbol.Pointer", err)
}

// CopyToSymbol copies count bytes from src, host or device memory as kind
// says, into the symbol at offset off, synchronously.
//
// CANN: aclrtMemcpyToSymbol (by pointer).
func (x RawContext) CopyToSymbol(t CaptureThread, s *Symbol, src unsafe.Pointer, count, off uintptr, kind MemcpyKind) error {
	if err := x.c.r.require("aclrtMemcpyToSymbol"); err != nil {
		return err
	}
	c := x.c
	return wrap("RawContext.CopyToSymbol (aclrtMemcpyToSymbol)", c.c.CopyToSymbol(t.rt(), s.s, uint64(off), c.r.rt.Loc(src), uint64(count), rt.CopyKind(kind)))
}

// CopyFromSymbol copies count bytes of the symbol at offset off to dst,
// synchronously.
//
// CANN: aclrtMemcpyFromSymbol (by pointer).
func (x RawContext) CopyFromSymbol(t CaptureThread, dst unsafe.Pointer, destMax uintptr, s *Symbol, count, off uintptr, kind MemcpyKind) error {
	if err := x.c.r.require("aclrtMemcpyFromSymbol"); err != nil {
		return err
	}
	c := x.c
	return wrap("RawContext.CopyFromSymbol (aclrtMemcpyFromSymbol)", c.c.CopyFromSymbol(t.rt(), c.r.rt.Loc(dst), uint64(destMax), s.s, uint64(off), uint64(count), rt.CopyKind(kind)))
}

// CopyToSymbolAsync queues a copy into the symbol; a pageable source is
// staged at the call.
//
// CANN: aclrtMemcpyToSymbolAsync (by pointer).
//
//go:noinline
func (x RawStream) CopyToSymbolAsync(s *Symbol, src unsafe.Pointer, count, off uintptr, kind MemcpyKind) error {
	if err := x.s.r.require("aclrtMemcpyToSymbolAsync"); err != nil {
		return err
	}
	st := x.s
	return wrap("RawStream.CopyToSymbolAsync (aclrtMemcpyToSymbolAsync)", st.s.CopyToSymbolAsync(s.s, uint64(off), st.r.rt.Loc(src), uint64(count), rt.CopyKind(kind), callsite.Caller()))
}

// CopyFromSymbolAsync queues a copy out of the symbol; a pageable
// destination makes the call wait for it.
//
// CANN: aclrtMemcpyFromSymbolAsync (by pointer).
//
//go:noinline
func (x RawStream) CopyFromSymbolAsync(dst unsafe.Pointer, destMax uintptr, s *Symbol, count, off uintptr, kind MemcpyKind) error {
	if err := x.s.r.require("aclrtMemcpyFromSymbolAsync"); err != nil {
		return err
	}
	st := x.s
	return wrap("RawStream.CopyFromSymbolAsync (aclrtMemcpyFromSymbolAsync)", st.s.CopyFromSymbolAsync(st.r.rt.Loc(dst), uint64(destMax), s.s, uint64(off), uint64(count), rt.CopyKind(kind), callsite.Caller()))
}
