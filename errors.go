package gocann

import (
	"errors"

	"github.com/gocann/gocann/hal"
)

// Error is the error every gocann call returns: the CANN code, the
// operation (Go name and CANN name), and a message naming the parameter, the
// value given and what was expected.
type Error struct {
	Code Code   // the aclError value
	Op   string // e.g. "Stream.Synchronize (aclrtSynchronizeStream)"
	Msg  string
	Err  error // cause: a context error, a kernel's panic value
	kind hal.Kind
}

func (e *Error) Error() string {
	s := e.Op + ": " + e.Code.Error()
	if e.Msg != "" {
		s += ": " + e.Msg
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// Is matches a Code by value and a class sentinel by class.
func (e *Error) Is(target error) bool {
	switch t := target.(type) {
	case Code:
		return e.Code == t
	case *sentinel:
		return t.match(e.kind)
	}
	return false
}

type sentinel struct {
	msg   string
	match func(hal.Kind) bool
}

func (s *sentinel) Error() string { return s.msg }

func kinds(ks ...hal.Kind) func(hal.Kind) bool {
	return func(k hal.Kind) bool {
		for _, x := range ks {
			if x == k {
				return true
			}
		}
		return false
	}
}

// Class sentinels for errors.Is.
var (
	// ErrInvalid: a bad argument, handle, address or call order.
	ErrInvalid error = &sentinel{"gocann: invalid argument", kinds(hal.KindBadArgument, hal.KindInvalidParam,
		hal.KindInvalidDevice, hal.KindInvalidHandle, hal.KindInvalidAddress, hal.KindUnaligned, hal.KindStreamContext,
		hal.KindContextNull, hal.KindUninitialized, hal.KindRepeatInit, hal.KindRepeatFinalize)}
	// ErrOutOfMemory: device or host memory exhausted.
	ErrOutOfMemory error = &sentinel{"gocann: out of memory", kinds(hal.KindOutOfMemory)}
	// ErrNoResource: a stream, event or notify pool is exhausted.
	ErrNoResource error = &sentinel{"gocann: no resource", kinds(hal.KindNoStream, hal.KindNoEvent, hal.KindNoNotify)}
	// ErrTimeout: a bounded wait ended before its condition.
	ErrTimeout error = &sentinel{"gocann: timeout", kinds(hal.KindStreamSyncTimeout, hal.KindEventSyncTimeout,
		hal.KindWaitTimeout, hal.KindReportTimeout)}
	// ErrClosed: the handle was destroyed, or its device reset.
	ErrClosed error = &sentinel{"gocann: closed", kinds(hal.KindInvalidHandle)}
	// ErrDevice: a task failed on the device (kernel exception or trap,
	// copy fault, host function panic, device-side wait timeout).
	ErrDevice error = &sentinel{"gocann: device task failed", kinds(hal.KindAICoreException, hal.KindAICoreTrap,
		hal.KindDMAFault, hal.KindHostFuncFault, hal.KindWaitTimeout)}
	// ErrCapture: the call is not allowed in a capture, or the capture
	// failed.
	ErrCapture error = &sentinel{"gocann: capture", kinds(hal.KindModelCaptured, hal.KindStreamCaptured,
		hal.KindEventCaptured, hal.KindStreamNotCaptured, hal.KindCaptureModeNotSupport, hal.KindCaptureImplicit,
		hal.KindCaptureConflict, hal.KindCaptureDependency, hal.KindStreamUnjoined, hal.KindCaptureUnmatched,
		hal.KindCaptureWrongThread, hal.KindCaptureInvalidated, hal.KindCaptureBlockAsync)}
	// ErrNotSupported: the feature is not supported.
	ErrNotSupported error = &sentinel{"gocann: not supported", kinds(hal.KindNotSupported)}
)

// codeFor is the one mapping from the runtime's error kinds to CANN codes.
func codeFor(k hal.Kind) Code {
	switch k {
	case hal.KindUninitialized:
		return CodeUninitialize
	case hal.KindRepeatInit:
		return CodeRepeatInitialize
	case hal.KindRepeatFinalize:
		return CodeRepeatFinalize
	case hal.KindInvalidFile:
		return CodeInvalidFile
	case hal.KindParseFile:
		return CodeParseFile
	case hal.KindFileAttrInvalid:
		return CodeFileAttrInvalid
	case hal.KindBadArgument:
		return CodeInvalidParam
	case hal.KindInvalidParam, hal.KindInvalidAddress:
		return CodeRTParamInvalid
	case hal.KindInvalidDevice:
		return CodeRTInvalidDeviceID
	case hal.KindContextNull:
		return CodeRTContextNull
	case hal.KindStreamContext:
		return CodeRTStreamContext
	case hal.KindInvalidHandle:
		return CodeRTInvalidHandle
	case hal.KindUnaligned:
		return CodeRTAddrUnaligned
	case hal.KindEventTimestamp:
		return CodeRTEventTimestampInvalid
	case hal.KindEventTimestampReversal:
		return CodeRTEventTimestampReversal
	case hal.KindEventNotComplete:
		return CodeRTEventNotComplete
	case hal.KindNotSupported:
		return CodeRTFeatureNotSupport
	case hal.KindOutOfMemory:
		return CodeRTMemoryAllocation
	case hal.KindNoStream:
		return CodeRTNoStreamResource
	case hal.KindNoEvent:
		return CodeRTNoEventResource
	case hal.KindNoNotify:
		return CodeRTNoNotifyResource
	case hal.KindStreamSyncTimeout:
		return CodeRTStreamSyncTimeout
	case hal.KindEventSyncTimeout:
		return CodeRTEventSyncTimeout
	case hal.KindWaitTimeout:
		return CodeRTWaitTimeout
	case hal.KindAICoreException:
		return CodeRTAICoreException
	case hal.KindAICoreTrap:
		return CodeRTAICoreTrapException
	case hal.KindDMAFault:
		return CodeRTSysDMA
	case hal.KindHostFuncFault, hal.KindInternal, hal.KindNotReady:
		return CodeRTInternalError
	case hal.KindStreamAborted:
		return CodeRTStreamAbort
	case hal.KindNotSubscribed:
		return CodeRTStreamNoCbReg
	case hal.KindThreadNotSubscribed:
		return CodeRTThreadSubscribe
	case hal.KindRepeatSubscribe:
		return CodeRepeatSubscribe
	case hal.KindReportTimeout:
		return CodeRTReportTimeout
	case hal.KindKernelDuplicate:
		return CodeKernelAlreadyRegistered
	case hal.KindKernelNotFound:
		return CodeKernelNotFound
	case hal.KindSymbolNotFound:
		return CodeRTSymbolNotFound
	case hal.KindStreamModel:
		return CodeRTStreamModel
	case hal.KindModelCaptured:
		return CodeRTModelCaptured
	case hal.KindStreamCaptured:
		return CodeRTStreamCaptured
	case hal.KindEventCaptured:
		return CodeRTEventCaptured
	case hal.KindStreamNotCaptured:
		return CodeRTStreamNotCaptured
	case hal.KindCaptureModeNotSupport:
		return CodeRTCaptureModeNotSupport
	case hal.KindCaptureImplicit:
		return CodeRTStreamCaptureImplicit
	case hal.KindCaptureConflict:
		return CodeStreamCaptureConflict
	case hal.KindCaptureDependency:
		return CodeRTCaptureDependency
	case hal.KindStreamUnjoined:
		return CodeRTStreamUnjoined
	case hal.KindCaptureUnmatched:
		return CodeRTStreamCaptureUnmatched
	case hal.KindCaptureWrongThread:
		return CodeRTStreamCaptureWrongThread
	case hal.KindCaptureInvalidated:
		return CodeRTStreamCaptureInvalidated
	case hal.KindCaptureBlockAsync:
		return CodeRTCaptureModeBlockAsync
	case hal.KindTaskGroupStatus:
		return CodeStreamTaskGroupStatus
	case hal.KindTaskGroupIntr:
		return CodeStreamTaskGroupIntr
	case hal.KindModelRunning:
		return CodeRTModelRunning
	case hal.KindModelUpdateFailed:
		return CodeRTModelUpdateFailed
	case hal.KindInsufficientArray:
		return CodeRTInsufficientInputArray
	case hal.KindTaskTypeNotSupport:
		return CodeRTTaskTypeNotSupport
	case hal.KindOverLimit:
		return CodeRTOverLimit
	case hal.KindModelContext:
		return CodeRTModelContext
	case hal.KindLabelContext:
		return CodeRTLabelContext
	}
	return CodeRTInternalError
}

// wrap turns an error from below into an *Error for operation op; nil stays
// nil. It allocates only when there is an error.
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	var he *hal.Error
	if errors.As(err, &he) {
		return &Error{Code: codeFor(he.Kind), Op: op, Msg: he.Msg, Err: he.Err, kind: he.Kind}
	}
	return &Error{Code: CodeRTInternalError, Op: op, Msg: err.Error(), Err: err, kind: hal.KindInternal}
}

// CodeOf returns err's CANN code: 0 for nil, ACL_ERROR_RT_INTERNAL_ERROR's
// value for errors that are not gocann errors.
//
// CANN: none.
func CodeOf(err error) Code {
	if err == nil {
		return CodeSuccess
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	var c Code
	if errors.As(err, &c) {
		return c
	}
	return CodeInternalError
}

// Wrap gives err the form every gocann call returns: an *Error with the
// CANN code gocann reports for it, for operation op. Layers above this
// package (the C ABI) use it for problems they find themselves; an error
// that already is an *Error keeps its code, and an error from no gocann
// layer is an internal error.
//
// CANN: none.
func Wrap(op string, err error) error {
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	return wrap(op, err)
}
