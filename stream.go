package gocann

import (
	"context"
	"time"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/callsite"
	"github.com/gocann/gocann/internal/rt"
	"github.com/gocann/gocann/internal/rterr"
)

// Stream is an in-order queue of device work. Calls that queue work return
// once it is queued; Synchronize, Query and event waits observe completion.
type Stream struct {
	r *Runtime
	s *rt.Stream
}

// stream returns the one *Stream for s.
func (r *Runtime) stream(s *rt.Stream) *Stream {
	if f, ok := s.Front.Load().(*Stream); ok {
		return f
	}
	s.Front.CompareAndSwap(nil, &Stream{r: r, s: s})
	return s.Front.Load().(*Stream)
}

// ID is the stream id.
//
// CANN: aclrtStreamGetId.
func (s *Stream) ID() int32 { return s.s.ID() }

// Context is the stream's context.
//
// CANN: none.
func (s *Stream) Context() *Context { return s.r.context(s.s.Context()) }

// IsDefault reports whether this is a context's default stream.
//
// CANN: none.
func (s *Stream) IsDefault() bool { return s.s.IsDefault() }

// Flags are the creation flags.
//
// CANN: aclrtStreamGetFlags.
func (s *Stream) Flags() StreamFlags { return StreamFlags(s.s.Flags()) }

// Synchronize waits for every task queued so far and reports the first task
// fault among them not reported before; a fault is reported once. Cancelling
// ctx ends the wait, not the work.
//
// CANN: aclrtSynchronizeStream.
func (s *Stream) Synchronize(ctx context.Context) error {
	return wrap("Stream.Synchronize (aclrtSynchronizeStream)", s.s.Synchronize(ctx, 0))
}

// SynchronizeTimeout is Synchronize bounded by timeout (0: no bound); an
// expired wait fails with ACL_ERROR_RT_STREAM_SYNC_TIMEOUT.
//
// CANN: aclrtSynchronizeStreamWithTimeout.
func (s *Stream) SynchronizeTimeout(timeout time.Duration) error {
	if err := s.r.require("aclrtSynchronizeStreamWithTimeout"); err != nil {
		return err
	}
	return wrap("Stream.SynchronizeTimeout (aclrtSynchronizeStreamWithTimeout)", s.s.Synchronize(context.Background(), timeout))
}

// Query reports whether every queued task is done, and the first fault
// among them not reported before.
//
// CANN: aclrtStreamQuery.
func (s *Stream) Query() (done bool, err error) {
	if err := s.r.require("aclrtStreamQuery"); err != nil {
		return false, err
	}
	done, err = s.s.Query()
	return done, wrap("Stream.Query (aclrtStreamQuery)", err)
}

// Close waits for the stream's tasks, then destroys it.
//
// CANN: aclrtDestroyStream.
func (s *Stream) Close() error { return wrap("Stream.Close (aclrtDestroyStream)", s.s.Destroy()) }

// CloseForce destroys the stream without waiting for its tasks. Tasks
// already submitted still run, as on hardware, where they are in the
// device's queue; only Abort drops tasks.
//
// CANN: aclrtDestroyStreamForce.
func (s *Stream) CloseForce() error {
	if err := s.r.require("aclrtDestroyStreamForce"); err != nil {
		return err
	}
	return wrap("Stream.CloseForce (aclrtDestroyStreamForce)", s.s.DestroyForce())
}

// Abort drops every task not yet started and clears a STOP_ON_FAILURE stop;
// waits in progress on the stream fail with ACL_ERROR_RT_STREAM_ABORT.
//
// CANN: aclrtStreamAbort.
func (s *Stream) Abort() error {
	if err := s.r.require("aclrtStreamAbort"); err != nil {
		return err
	}
	return wrap("Stream.Abort (aclrtStreamAbort)", s.s.Abort())
}

// FailureMode is what a task fault does to later tasks.
type FailureMode uint64

const (
	ContinueOnFailure FailureMode = 0 // ACL_CONTINUE_ON_FAILURE: later tasks run
	StopOnFailure     FailureMode = 1 // ACL_STOP_ON_FAILURE: every stream of the context stops until aborted or the device is reset
)

// SetFailureMode sets the failure mode; it applies to every stream of the
// context. It may be called once per stream (SetAttr may change the
// mode again with StreamAttrFailureMode).
//
// CANN: aclrtSetStreamFailureMode.
func (s *Stream) SetFailureMode(m FailureMode) error {
	if err := s.r.require("aclrtSetStreamFailureMode"); err != nil {
		return err
	}
	return wrap("Stream.SetFailureMode (aclrtSetStreamFailureMode)", s.s.SetFailureMode(uint64(m)))
}

// FailureMode reports the failure mode.
//
// CANN: aclrtGetStreamAttribute (ACL_STREAM_ATTR_FAILURE_MODE).
func (s *Stream) FailureMode() FailureMode {
	if s.s.StopOnFailure() {
		return StopOnFailure
	}
	return ContinueOnFailure
}

// Priority reports the stream's priority (lower runs first).
//
// CANN: aclrtStreamGetPriority.
func (s *Stream) Priority() int { return s.s.Priority() }

// SetPriority changes the priority of tasks not yet started.
//
// CANN: aclrtSetStreamAttribute (ACL_STREAM_ATTR_PRIORITY).
func (s *Stream) SetPriority(p int) error {
	if err := s.r.require("aclrtSetStreamAttribute"); err != nil {
		return err
	}
	return wrap("Stream.SetPriority (aclrtSetStreamAttribute)", s.s.SetPriority(p))
}

// StreamAttr names a stream attribute (aclrtStreamAttr), with the CANN values.
type StreamAttr int

const (
	StreamAttrFailureMode   StreamAttr = StreamAttr(rt.AttrFailureMode)   // ACL_STREAM_ATTR_FAILURE_MODE
	StreamAttrOverflowCheck StreamAttr = StreamAttr(rt.AttrOverflowCheck) // ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK
	StreamAttrUserTag       StreamAttr = StreamAttr(rt.AttrUserTag)       // ACL_STREAM_ATTR_USER_CUSTOM_TAG
	StreamAttrCacheOpInfo   StreamAttr = StreamAttr(rt.AttrCacheOpInfo)   // ACL_STREAM_ATTR_CACHE_OP_INFO
	StreamAttrPriority      StreamAttr = StreamAttr(rt.AttrPriority)      // ACL_STREAM_ATTR_PRIORITY
)

// SetAttr sets a stream attribute.
//
// CANN: aclrtSetStreamAttribute.
func (s *Stream) SetAttr(a StreamAttr, v uint64) error {
	if err := s.r.require("aclrtSetStreamAttribute"); err != nil {
		return err
	}
	return wrap("Stream.SetAttr (aclrtSetStreamAttribute)", s.s.SetAttr(rt.Attr(a), v))
}

// Attr reads a stream attribute.
//
// CANN: aclrtGetStreamAttribute.
func (s *Stream) Attr(a StreamAttr) (uint64, error) {
	if err := s.r.require("aclrtGetStreamAttribute"); err != nil {
		return 0, err
	}
	v, err := s.s.Attr(rt.Attr(a))
	return v, wrap("Stream.Attr (aclrtGetStreamAttribute)", err)
}

// Launch queues kernel k over blocks blocks with argument slots args. It
// allocates nothing; a kernel fault is reported asynchronously, naming this
// call's source line.
//
// CANN: aclrtLaunchKernel.
//
//go:noinline
func (s *Stream) Launch(k *Kernel, blocks uint32, args ...Arg) error {
	site := callsite.Caller()
	if len(args) > hal.MaxArgs {
		return wrap("Stream.Launch (aclrtLaunchKernel)", rterr.Errorf(rterr.KindInvalidParam,
			"%d argument slots is invalid, expected at most %d", len(args), hal.MaxArgs))
	}
	var slots [hal.MaxArgs]uint64
	for i, a := range args {
		slots[i] = uint64(a)
	}
	return wrap("Stream.Launch (aclrtLaunchKernel)", s.s.Launch(k.Raw(), blocks, slots[:len(args)], site))
}

// LaunchHostFunc queues fn to run on a runtime goroutine after every earlier
// task of the stream; later tasks wait for it. A panic in fn becomes a task
// fault, reported at the next synchronizing call. fn must not call the
// runtime.
//
// CANN: aclrtLaunchHostFunc.
//
//go:noinline
func (s *Stream) LaunchHostFunc(fn func()) error {
	if err := s.r.require("aclrtLaunchHostFunc"); err != nil {
		return err
	}
	return wrap("Stream.LaunchHostFunc (aclrtLaunchHostFunc)", s.s.LaunchHostFunc(fn, callsite.Caller()))
}

// CopyHostToDevice queues a copy of n bytes from src at offset off to
// device memory at dst.
//
// CANN: aclrtMemcpyAsync (ACL_MEMCPY_HOST_TO_DEVICE).
//
//go:noinline
func (s *Stream) CopyHostToDevice(dst DevPtr, src *HostBuffer, off, n int64) error {
	if err := s.r.require("aclrtMemcpyAsync"); err != nil {
		return err
	}
	const op = "Stream.CopyHostToDevice (aclrtMemcpyAsync)"
	site := callsite.Caller()
	from, err := src.region("src", off, n)
	if err != nil {
		return wrap(op, err)
	}
	return wrap(op, s.s.MemcpyAsync(rt.Caller{}, hal.DevLoc(uint64(dst)), uint64(n), from, uint64(n), rt.HostToDevice, site))
}

// CopyDeviceToHost queues a copy of n bytes from device memory at src into
// dst at offset off.
//
// CANN: aclrtMemcpyAsync (ACL_MEMCPY_DEVICE_TO_HOST).
//
//go:noinline
func (s *Stream) CopyDeviceToHost(dst *HostBuffer, off int64, src DevPtr, n int64) error {
	if err := s.r.require("aclrtMemcpyAsync"); err != nil {
		return err
	}
	const op = "Stream.CopyDeviceToHost (aclrtMemcpyAsync)"
	site := callsite.Caller()
	to, err := dst.region("dst", off, n)
	if err != nil {
		return wrap(op, err)
	}
	return wrap(op, s.s.MemcpyAsync(rt.Caller{}, to, uint64(n), hal.DevLoc(uint64(src)), uint64(n), rt.DeviceToHost, site))
}

// CopyDeviceToDevice queues a copy of n bytes between device memory.
//
// CANN: aclrtMemcpyAsync (ACL_MEMCPY_DEVICE_TO_DEVICE).
//
//go:noinline
func (s *Stream) CopyDeviceToDevice(dst, src DevPtr, n int64) error {
	if err := s.r.require("aclrtMemcpyAsync"); err != nil {
		return err
	}
	const op = "Stream.CopyDeviceToDevice (aclrtMemcpyAsync)"
	site := callsite.Caller()
	if n < 0 {
		return wrap(op, rterr.Errorf(rterr.KindInvalidParam, "count %d is invalid, expected >= 0", n))
	}
	return wrap(op, s.s.MemcpyAsync(rt.Caller{}, hal.DevLoc(uint64(dst)), uint64(n), hal.DevLoc(uint64(src)), uint64(n), rt.DeviceToDevice, site))
}

// CopyHostToHost queues a copy of n bytes between page-locked buffers.
//
// CANN: aclrtMemcpyAsync (ACL_MEMCPY_HOST_TO_HOST).
//
//go:noinline
func (s *Stream) CopyHostToHost(dst *HostBuffer, dstOff int64, src *HostBuffer, srcOff, n int64) error {
	if err := s.r.require("aclrtMemcpyAsync"); err != nil {
		return err
	}
	const op = "Stream.CopyHostToHost (aclrtMemcpyAsync)"
	site := callsite.Caller()
	to, err := dst.region("dst", dstOff, n)
	if err != nil {
		return wrap(op, err)
	}
	from, err := src.region("src", srcOff, n)
	if err != nil {
		return wrap(op, err)
	}
	return wrap(op, s.s.MemcpyAsync(rt.Caller{}, to, uint64(n), from, uint64(n), rt.HostToHost, site))
}

// Memset queues setting n bytes of device memory at dst to v.
//
// CANN: aclrtMemsetAsync.
//
//go:noinline
func (s *Stream) Memset(dst DevPtr, v byte, n int64) error {
	if err := s.r.require("aclrtMemsetAsync"); err != nil {
		return err
	}
	const op = "Stream.Memset (aclrtMemsetAsync)"
	site := callsite.Caller()
	if n < 0 {
		return wrap(op, rterr.Errorf(rterr.KindInvalidParam, "count %d is invalid, expected >= 0", n))
	}
	return wrap(op, s.s.MemsetAsync(hal.DevLoc(uint64(dst)), uint64(n), int32(v), uint64(n), site))
}

// Copy2DDeviceToDevice queues a pitched copy of height rows of width bytes
// between device memory.
//
// CANN: aclrtMemcpy2dAsync (ACL_MEMCPY_DEVICE_TO_DEVICE).
//
//go:noinline
func (s *Stream) Copy2DDeviceToDevice(dst DevPtr, dpitch int64, src DevPtr, spitch, width, height int64) error {
	if err := s.r.require("aclrtMemcpy2dAsync"); err != nil {
		return err
	}
	const op = "Stream.Copy2DDeviceToDevice (aclrtMemcpy2dAsync)"
	site := callsite.Caller()
	if dpitch < 0 || spitch < 0 || width < 0 || height < 0 {
		return wrap(op, rterr.Errorf(rterr.KindInvalidParam, "pitches %d/%d, width %d and height %d must not be negative", dpitch, spitch, width, height))
	}
	return wrap(op, s.s.Memcpy2DAsync(rt.Caller{}, rt.Copy2D{Dst: hal.DevLoc(uint64(dst)), DPitch: uint64(dpitch), Src: hal.DevLoc(uint64(src)),
		SPitch: uint64(spitch), Width: uint64(width), Height: uint64(height), Kind: rt.DeviceToDevice}, site))
}

// WaitCompare is the condition of a value wait (ACL_STREAM_WAIT_VALUE_*).
type WaitCompare uint32

const (
	WaitGEQ WaitCompare = WaitCompare(hal.WaitGEQ) // (int64)(*p - v) >= 0
	WaitEQ  WaitCompare = WaitCompare(hal.WaitEQ)  // *p == v
	WaitAND WaitCompare = WaitCompare(hal.WaitAND) // (*p & v) != 0
	WaitNOR WaitCompare = WaitCompare(hal.WaitNOR) // ^(*p | v) != 0
)

// WriteValue queues a store of v to the 64-bit word at p (8-byte aligned
// device memory).
//
// CANN: aclrtValueWrite.
//
//go:noinline
func (s *Stream) WriteValue(p DevPtr, v uint64) error {
	if err := s.r.require("aclrtValueWrite"); err != nil {
		return err
	}
	return wrap("Stream.WriteValue (aclrtValueWrite)", s.s.ValueWrite(uint64(p), v, 0, callsite.Caller()))
}

// WaitValue holds later tasks of the stream until the 64-bit word at p
// satisfies cmp against v. Kernels may write or poll the same word.
//
// CANN: aclrtValueWait.
//
//go:noinline
func (s *Stream) WaitValue(p DevPtr, v uint64, cmp WaitCompare) error {
	if err := s.r.require("aclrtValueWait"); err != nil {
		return err
	}
	return wrap("Stream.WaitValue (aclrtValueWait)", s.s.ValueWait(uint64(p), v, uint32(cmp), callsite.Caller()))
}

// CopyToDevice queues a copy of src to device memory at dst. src is
// pageable memory, so it is staged into page-locked memory before the call
// returns and may be reused at once; the device copy runs asynchronously.
//
// CANN: aclrtMemcpyAsync (ACL_MEMCPY_HOST_TO_DEVICE, pageable source).
//
//go:noinline
func (s *Stream) CopyToDevice(dst DevPtr, src []byte) error {
	if err := s.r.require("aclrtMemcpyAsync"); err != nil {
		return err
	}
	n := uint64(len(src))
	return wrap("Stream.CopyToDevice (aclrtMemcpyAsync)", s.s.MemcpyAsync(rt.Caller{}, hal.DevLoc(uint64(dst)), n, bytesLoc(src), n, rt.HostToDevice, callsite.Caller()))
}

// CopyFromDevice copies len(dst) bytes from device memory at src into dst
// after every earlier task of the stream. dst is pageable memory, so the
// call waits for the copy, as CANN's asynchronous copy does with pageable
// memory.
//
// CANN: aclrtMemcpyAsync (ACL_MEMCPY_DEVICE_TO_HOST, pageable destination).
//
//go:noinline
func (s *Stream) CopyFromDevice(dst []byte, src DevPtr) error {
	if err := s.r.require("aclrtMemcpyAsync"); err != nil {
		return err
	}
	n := uint64(len(dst))
	return wrap("Stream.CopyFromDevice (aclrtMemcpyAsync)", s.s.MemcpyAsync(rt.Caller{}, bytesLoc(dst), n, hal.DevLoc(uint64(src)), n, rt.DeviceToHost, callsite.Caller()))
}

// Stop stops the stream: no further task starts, nor a further block of
// the running kernel; submissions are refused and waits end with
// ACL_ERROR_RT_STREAM_ABORT. The queued tasks are kept until Abort drops
// them, which makes the stream usable again. The default stream and
// streams bound to a model cannot be stopped.
//
// CANN: aclrtStreamStop.
func (s *Stream) Stop() error {
	if err := s.r.require("aclrtStreamStop"); err != nil {
		return err
	}
	return wrap("Stream.Stop (aclrtStreamStop)", s.s.Stop())
}
