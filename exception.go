package gocann

import (
	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/callsite"
	"github.com/gocann/gocann/internal/rterr"
	"github.com/gocann/gocann/kernel"
)

// ExceptionInfo describes an asynchronous task fault, as the exception
// callbacks receive it.
type ExceptionInfo struct {
	Code     Code    // the CANN code the fault is reported with
	DeviceID int     // device of the failing task
	StreamID int32   // stream of the failing task
	TaskID   uint64  // the task's sequence number on its stream
	ThreadID uint32  // submitting OS thread, when known
	Kernel   string  // kernel name, for kernel faults
	Func     *Kernel // the kernel, for kernel faults
	Args     []Arg   // the kernel's argument slots, for kernel faults
	Site     string  // "file:line (function)" of the launching call, when known
	Msg      string
	Err      error // the panic value or cause
}

func exceptionInfo(f hal.Fault) ExceptionInfo {
	info := ExceptionInfo{Code: codeFor(rterr.Kind(f.Kind)), DeviceID: f.Device, StreamID: f.Queue, TaskID: f.Seq,
		ThreadID: f.Thread, Kernel: f.Kernel, Site: callsite.Format(f.Site), Msg: f.Msg, Err: f.Err}
	if f.Func != nil {
		info.Func = kernelOf(f.Func)
		info.Args = make([]Arg, f.NArgs)
		for i := range info.Args {
			info.Args[i] = Arg(f.Args[i])
		}
	}
	return info
}

// SetExceptionCallback installs the process-level exception callback,
// replacing the previous one; nil removes it. It runs on the goroutine that
// ran the failing task and must not call the runtime.
//
// CANN: aclrtSetExceptionInfoCallback.
func (r *Runtime) SetExceptionCallback(fn func(ExceptionInfo)) {
	r.mu.Lock()
	r.excSet = fn
	r.mu.Unlock()
}

// AddExceptionCallback adds an exception callback alongside the others and
// returns a function that removes it. A nil fn adds nothing.
//
// CANN: aclrtExceptionInfoCallbackRegister / aclrtExceptionInfoCallbackUnregister.
func (r *Runtime) AddExceptionCallback(fn func(ExceptionInfo)) (remove func()) {
	if fn == nil {
		// Calling it at the next fault would crash the process.
		return func() {}
	}
	r.mu.Lock()
	id := r.excNext
	r.excNext++
	r.excHooks[id] = fn
	r.mu.Unlock()
	return func() {
		r.mu.Lock()
		delete(r.excHooks, id)
		r.mu.Unlock()
	}
}

// onFault runs every exception callback for f.
func (r *Runtime) onFault(f hal.Fault) {
	r.mu.Lock()
	fns := make([]func(ExceptionInfo), 0, len(r.excHooks)+1)
	if r.excSet != nil {
		fns = append(fns, r.excSet)
	}
	for _, fn := range r.excHooks {
		fns = append(fns, fn)
	}
	r.mu.Unlock()
	if len(fns) == 0 {
		return
	}
	info := exceptionInfo(f)
	for _, fn := range fns {
		r.callException(fn, info)
	}
}

// callException runs one callback; a panic in it is logged, not allowed to
// take down the worker that reported the fault.
func (r *Runtime) callException(fn func(ExceptionInfo), info ExceptionInfo) {
	defer func() {
		if v := recover(); v != nil {
			r.logger().Error("exception callback panicked", "panic", v, "code", info.Code, "stream", info.StreamID)
		}
	}()
	fn(info)
}

// kernelOf is the API's view of a faulting task's kernel, nil for other
// tasks.
func kernelOf(k *kernel.Func) *Kernel {
	if k == nil {
		return nil
	}
	return NewKernel(k)
}
