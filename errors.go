package gocann

import (
	"errors"

	"github.com/gocann/gocann/internal/rterr"
)

// Error is the error every gocann call returns: the CANN code, the
// operation (Go name and CANN name), and a message naming the parameter, the
// value given and what was expected.
type Error struct {
	Code Code   // the aclError value
	Op   string // e.g. "Stream.Synchronize (aclrtSynchronizeStream)"
	Msg  string
	Err  error // cause: a context error, a kernel's panic value
	kind rterr.Kind
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
	match func(rterr.Kind) bool
}

func (s *sentinel) Error() string { return s.msg }

func kinds(ks ...rterr.Kind) func(rterr.Kind) bool {
	return func(k rterr.Kind) bool {
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
	ErrInvalid error = &sentinel{"gocann: invalid argument", kinds(rterr.KindBadArgument, rterr.KindInvalidParam,
		rterr.KindInvalidDevice, rterr.KindInvalidHandle, rterr.KindInvalidAddress, rterr.KindUnaligned, rterr.KindStreamContext,
		rterr.KindContextNull, rterr.KindUninitialized, rterr.KindRepeatInit, rterr.KindRepeatFinalize)}
	// ErrOutOfMemory: device or host memory exhausted.
	ErrOutOfMemory error = &sentinel{"gocann: out of memory", kinds(rterr.KindOutOfMemory)}
	// ErrNoResource: a stream, event or notify pool is exhausted.
	ErrNoResource error = &sentinel{"gocann: no resource", kinds(rterr.KindNoStream, rterr.KindNoEvent, rterr.KindNoNotify)}
	// ErrTimeout: a bounded wait ended before its condition.
	ErrTimeout error = &sentinel{"gocann: timeout", kinds(rterr.KindStreamSyncTimeout, rterr.KindEventSyncTimeout,
		rterr.KindWaitTimeout, rterr.KindReportTimeout, rterr.KindAICoreTimeout)}
	// ErrClosed: the handle was destroyed, or its device reset.
	ErrClosed error = &sentinel{"gocann: closed", kinds(rterr.KindInvalidHandle)}
	// ErrDevice: a task failed on the device (kernel exception, trap or
	// fault, copy fault, host function panic, device-side wait or kernel
	// timeout).
	ErrDevice error = &sentinel{"gocann: device task failed", kinds(rterr.KindAICoreException, rterr.KindAICoreTrap, rterr.KindAICPUException,
		rterr.KindDMAFault, rterr.KindHostFuncFault, rterr.KindWaitTimeout, rterr.KindAICoreTimeout,
		rterr.KindAICoreReadOverflow, rterr.KindAICoreWriteOverflow)}
	// ErrCapture: the call is not allowed in a capture, or the capture
	// failed.
	ErrCapture error = &sentinel{"gocann: capture", kinds(rterr.KindModelCaptured, rterr.KindStreamCaptured,
		rterr.KindEventCaptured, rterr.KindStreamNotCaptured, rterr.KindCaptureModeNotSupport, rterr.KindCaptureImplicit,
		rterr.KindCaptureConflict, rterr.KindCaptureDependency, rterr.KindStreamUnjoined, rterr.KindCaptureUnmatched,
		rterr.KindCaptureWrongThread, rterr.KindCaptureInvalidated, rterr.KindCaptureBlockAsync)}
	// ErrNotSupported: the feature is not supported.
	ErrNotSupported error = &sentinel{"gocann: not supported", kinds(rterr.KindNotSupported)}
)

// codeFor is the one mapping from the runtime's error kinds to CANN codes;
// a backend's kinds are among them with their own values.
func codeFor(k rterr.Kind) Code {
	switch k {
	case rterr.KindUninitialized:
		return CodeUninitialize
	case rterr.KindRepeatInit:
		return CodeRepeatInitialize
	case rterr.KindRepeatFinalize:
		return CodeRepeatFinalize
	case rterr.KindInvalidFile:
		return CodeInvalidFile
	case rterr.KindParseFile:
		return CodeParseFile
	case rterr.KindFileAttrInvalid:
		return CodeFileAttrInvalid
	case rterr.KindBadArgument:
		return CodeInvalidParam
	case rterr.KindInvalidParam, rterr.KindInvalidAddress:
		return CodeRTParamInvalid
	case rterr.KindInvalidDevice:
		return CodeRTInvalidDeviceID
	case rterr.KindContextNull:
		return CodeRTContextNull
	case rterr.KindStreamContext:
		return CodeRTStreamContext
	case rterr.KindInvalidHandle:
		return CodeRTInvalidHandle
	case rterr.KindUnaligned:
		return CodeRTAddrUnaligned
	case rterr.KindEventTimestamp:
		return CodeRTEventTimestampInvalid
	case rterr.KindEventTimestampReversal:
		return CodeRTEventTimestampReversal
	case rterr.KindEventNotComplete:
		return CodeRTEventNotComplete
	case rterr.KindNotSupported:
		return CodeRTFeatureNotSupport
	case rterr.KindOutOfMemory:
		return CodeRTMemoryAllocation
	case rterr.KindNoStream:
		return CodeRTNoStreamResource
	case rterr.KindNoEvent:
		return CodeRTNoEventResource
	case rterr.KindNoNotify:
		return CodeRTNoNotifyResource
	case rterr.KindStreamSyncTimeout:
		return CodeRTStreamSyncTimeout
	case rterr.KindEventSyncTimeout:
		return CodeRTEventSyncTimeout
	case rterr.KindWaitTimeout:
		return CodeRTWaitTimeout
	case rterr.KindAICoreException:
		return CodeRTAICoreException
	case rterr.KindAICoreTrap:
		return CodeRTAICoreTrapException
	case rterr.KindAICoreReadOverflow:
		return CodeRTAICoreTrapReadOverflow
	case rterr.KindAICoreWriteOverflow:
		return CodeRTAICoreTrapWriteOverflow
	case rterr.KindAICPUException:
		return CodeRTAICPUException
	case rterr.KindAICoreTimeout:
		return CodeRTAICoreTimeout
	case rterr.KindNoPermission:
		return CodeRTNoPermission
	case rterr.KindDMAFault:
		return CodeRTSysDMA
	case rterr.KindHostFuncFault, rterr.KindInternal, rterr.KindNotReady:
		return CodeRTInternalError
	case rterr.KindStreamAborted:
		return CodeRTStreamAbort
	case rterr.KindModelAborted:
		return CodeRTModelAbortNormal
	case rterr.KindNotSubscribed:
		return CodeRTStreamNoCbReg
	case rterr.KindThreadNotSubscribed:
		return CodeRTThreadSubscribe
	case rterr.KindRepeatSubscribe:
		return CodeRepeatSubscribe
	case rterr.KindReportTimeout:
		return CodeRTReportTimeout
	case rterr.KindKernelDuplicate:
		return CodeKernelAlreadyRegistered
	case rterr.KindKernelNotFound:
		return CodeKernelNotFound
	case rterr.KindSymbolNotFound:
		return CodeRTSymbolNotFound
	case rterr.KindInvalidSymbol:
		return CodeRTInvalidSymbol
	case rterr.KindStreamModel:
		return CodeRTStreamModel
	case rterr.KindModelCaptured:
		return CodeRTModelCaptured
	case rterr.KindStreamCaptured:
		return CodeRTStreamCaptured
	case rterr.KindEventCaptured:
		return CodeRTEventCaptured
	case rterr.KindStreamNotCaptured:
		return CodeRTStreamNotCaptured
	case rterr.KindCaptureModeNotSupport:
		return CodeRTCaptureModeNotSupport
	case rterr.KindCaptureImplicit:
		return CodeRTStreamCaptureImplicit
	case rterr.KindCaptureConflict:
		return CodeStreamCaptureConflict
	case rterr.KindCaptureDependency:
		return CodeRTCaptureDependency
	case rterr.KindStreamUnjoined:
		return CodeRTStreamUnjoined
	case rterr.KindCaptureUnmatched:
		return CodeRTStreamCaptureUnmatched
	case rterr.KindCaptureWrongThread:
		return CodeRTStreamCaptureWrongThread
	case rterr.KindCaptureInvalidated:
		return CodeRTStreamCaptureInvalidated
	case rterr.KindCaptureBlockAsync:
		return CodeRTCaptureModeBlockAsync
	case rterr.KindTaskGroupStatus:
		return CodeStreamTaskGroupStatus
	case rterr.KindTaskGroupIntr:
		return CodeStreamTaskGroupIntr
	case rterr.KindModelRunning:
		return CodeRTModelRunning
	case rterr.KindModelUpdateFailed:
		return CodeRTModelUpdateFailed
	case rterr.KindInsufficientArray:
		return CodeRTInsufficientInputArray
	case rterr.KindTaskTypeNotSupport:
		return CodeRTTaskTypeNotSupport
	case rterr.KindOverLimit:
		return CodeRTOverLimit
	case rterr.KindModelContext:
		return CodeRTModelContext
	case rterr.KindLabelContext:
		return CodeRTLabelContext
	case rterr.KindFeatureUnsupported:
		return CodeFeatureUnsupported
	case rterr.KindNoDevice:
		return CodeRTNoDevice
	case rterr.KindHostRegistered:
		return CodeHostMemoryAlreadyRegistered
	case rterr.KindHostNotRegistered:
		return CodeHostMemoryNotRegistered
	case rterr.KindLinkTypeNotSupported:
		return CodeRTLinkTypeNotSupported
	case rterr.KindACLInternal:
		return CodeInternalError
	case rterr.KindSysParamNotSet:
		return CodeRTSysParamOptNotSet
	case rterr.KindInvalidDumpConfig:
		return CodeInvalidDumpConfig
	case rterr.KindDumpNotRun:
		return CodeDumpNotRun
	case rterr.KindDumpAlreadyRun:
		return CodeDumpAlreadyRun
	case rterr.KindSnapshotLock:
		return CodeSnapshotLockFailed
	case rterr.KindSnapshotUnlock:
		return CodeSnapshotUnlockFailed
	case rterr.KindSnapshotBackup:
		return CodeSnapshotBackupFailed
	case rterr.KindSnapshotRestore:
		return CodeSnapshotRestoreFailed
	case rterr.KindSnapshotCallback:
		return CodeSnapshotCallbackFailed
	case rterr.KindSnapshotRegister:
		return CodeSnapshotRegisterCallbackFailed
	case rterr.KindGroupNotSet:
		return CodeRTGroupNotSet
	case rterr.KindInvalidProfilingConfig:
		return CodeInvalidProfilingConfig
	case rterr.KindProfAlreadyRun:
		return CodeProfAlreadyRun
	case rterr.KindProfNotRun:
		return CodeProfNotRun
	case rterr.KindProfilingFailure:
		return CodeProfilingFailure
	case rterr.KindProfRepeatSubscribe:
		return CodeProfRepeatSubscribe
	case rterr.KindProfAPIConflict:
		return CodeProfAPIConflict
	case rterr.KindInvalidModelID:
		return CodeInvalidModelID
	case rterr.KindProfModulesUnsupported:
		return CodeProfModulesUnsupported
	case rterr.KindGroupNotCreate:
		return CodeRTGroupNotCreate
	}
	return CodeRTInternalError
}

// wrap turns an error from below into an *Error for operation op; nil stays
// nil. It allocates only when there is an error.
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	if k, msg, cause, ok := rterr.Classify(err); ok {
		return &Error{Code: codeFor(k), Op: op, Msg: msg, Err: cause, kind: k}
	}
	return &Error{Code: CodeRTInternalError, Op: op, Msg: err.Error(), Err: err, kind: rterr.KindInternal}
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
