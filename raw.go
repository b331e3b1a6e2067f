package gocann

import (
	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/callsite"
	"github.com/gocann/gocann/internal/rt"
	"github.com/gocann/gocann/kernel"
)

// The raw dialect (see the package documentation): views of a Runtime, a
// Context and a Stream whose methods are CANN calls as C makes them. Go
// programs may use it for memory they hold as pointers; the typed API is
// the safer way in.

// RawRuntime is a Runtime's raw dialect: memory as bare pointers, and the
// hooks the C ABI keeps its own tables with.
type RawRuntime struct{ r *Runtime }

// Raw returns the runtime's raw dialect.
//
// CANN: none.
func (r *Runtime) Raw() RawRuntime { return RawRuntime{r} }

// RawContext is a Context's raw dialect: synchronous copies and memsets
// between bare pointers, and allocations returned as pointers.
type RawContext struct{ c *Context }

// Raw returns the context's raw dialect.
//
// CANN: none.
func (c *Context) Raw() RawContext { return RawContext{c} }

// DefaultStream is the context's default stream, the one a NULL stream
// names in C. It asks no support check, unlike Context.DefaultStream
// (aclrtCtxGetCurrentDefaultStream, which IPV350 lacks): every context has
// one, which the C ABI resolves NULL to for the functions the chip offers.
//
// CANN: none (the stream NULL names).
func (x RawContext) DefaultStream() (*Stream, error) {
	s, err := x.c.c.DefaultStream()
	if err != nil {
		return nil, wrap("RawContext.DefaultStream", err)
	}
	return x.c.r.stream(s), nil
}

// RawStream is a Stream's raw dialect: asynchronous copies and memsets
// between bare pointers, launches with argument blocks in memory,
// captures begun and ended by an OS thread, and the stream's submission
// area.
type RawStream struct {
	s     *Stream
	attrs hal.LaunchAttrs // WithLaunchConfig's, for the kernels it launches
}

// Raw returns the stream's raw dialect.
//
// CANN: none.
func (s *Stream) Raw() RawStream { return RawStream{s: s} }

// CaptureThread is the OS thread a raw call comes from and that thread's
// capture mode, for callers that keep CANN's per-thread capture state (the
// C ABI). The zero value is no thread in GLOBAL mode, which is how every
// call of the typed API counts.
type CaptureThread struct {
	ID   uint64 // non-zero thread id; 0 for no thread
	Mode CaptureMode
}

func (t CaptureThread) rt() rt.Caller { return rt.Caller{Thread: t.ID, Mode: rt.CaptureMode(t.Mode)} }

// Direct returns the stream's queue as producers outside Go write it: the C
// ABI writes kernel launches into its hal.SQ without entering Go, as a host
// driver writes into a hardware queue. It is nil if the device has no such
// queues, or if its chip lacks one of the launch calls the C ABI serves
// that way (aclrtLaunchKernel, aclrtLaunchKernelV2,
// aclrtLaunchKernelWithHostArgs): those launches take the Go path, where
// they are checked. Go programs have no use for it: Stream.Launch is the
// Go way in.
//
// CANN: none.
func (x RawStream) Direct() hal.Direct {
	if !x.s.r.offers("aclrtLaunchKernel", "aclrtLaunchKernelV2", "aclrtLaunchKernelWithHostArgs") {
		return nil
	}
	return x.s.s.Direct()
}

// Raw returns the device-level kernel, which a queue implementing
// hal.KernelNumberer numbers for its SQ entries.
// Go programs launch k itself.
//
// CANN: none.
func (k *Kernel) Raw() *kernel.Func {
	if k == nil {
		return nil // refused where the launch is checked, once
	}
	return &k.k
}

// RegisterKernel registers a kernel whose body works on a *kernel.Block, as
// kernels from package ckernel do; Runtime.RegisterKernel takes a Go
// kernel.
//
// CANN: none.
func (x RawRuntime) RegisterKernel(name string, fn func(*kernel.Block)) (*Kernel, error) {
	k, err := x.r.rt.RegisterKernel(name, fn)
	if err != nil {
		return nil, wrap("RawRuntime.RegisterKernel", err)
	}
	return NewKernel(k), nil
}

// LaunchCallback queues fn like Stream.LaunchHostFunc, for a caller that
// keeps the report threads of aclrtLaunchCallback itself: fn hands the
// callback to the stream's report thread (and, for a blocking one, waits
// for it). It is checked as aclrtLaunchCallback, which IPV350 offers while
// it lacks aclrtLaunchHostFunc.
//
// CANN: aclrtLaunchCallback (the stream task).
//
//go:noinline
func (x RawStream) LaunchCallback(fn func()) error {
	return wrap("RawStream.LaunchCallback (aclrtLaunchCallback)", x.s.s.LaunchHostFunc(fn, callsite.Caller()))
}
