package hal

import (
	"errors"
	"fmt"
)

// Kind classifies what went wrong. The root package maps every kind to one
// CANN error code; several kinds may share a code where the classification
// still helps callers (errors.Is sentinels, messages).
type Kind uint8

const (
	KindInternal               Kind = iota // runtime bug or unexpected OS failure
	KindUninitialized                      // runtime used before Init or after Finalize
	KindRepeatInit                         // Init twice without Finalize
	KindRepeatFinalize                     // Finalize without Init
	KindInvalidFile                        // configuration file missing or unreadable
	KindParseFile                          // configuration file is not valid JSON
	KindFileAttrInvalid                    // a configuration value is out of range
	KindBadArgument                        // an argument fails the API's own checks (NULL pointer, unsupported kind)
	KindInvalidParam                       // an argument value is out of its documented range
	KindInvalidDevice                      // device id out of range
	KindContextNull                        // no current context
	KindStreamContext                      // stream used outside its context
	KindInvalidHandle                      // destroyed, stale or foreign handle
	KindInvalidAddress                     // pointer outside any live allocation, or on the wrong device
	KindUnaligned                          // address not aligned as required
	KindEventTimestamp                     // event has no usable timestamp
	KindEventTimestampReversal             // end event completed before the start event
	KindEventNotComplete                   // event's record has not completed
	KindNotSupported                       // feature not supported by this device or backend
	KindOutOfMemory                        // device or host memory exhausted
	KindNoStream                           // stream pool exhausted
	KindNoEvent                            // event pool exhausted
	KindNoNotify                           // notify pool exhausted
	KindStreamSyncTimeout                  // stream or device synchronize timed out
	KindEventSyncTimeout                   // event synchronize timed out
	KindWaitTimeout                        // a device-side wait timed out
	KindAICoreException                    // a kernel faulted
	KindAICoreTrap                         // a kernel raised a trap
	KindDMAFault                           // a copy, memset or value operation faulted
	KindHostFuncFault                      // a host function panicked
	KindStreamAborted                      // the stream was aborted while waiting
	KindNotSubscribed                      // stream has no report thread
	KindThreadNotSubscribed                // thread is not a report thread
	KindRepeatSubscribe                    // stream already has a report thread
	KindReportTimeout                      // no callback arrived within the timeout
	KindNotReady                           // resource busy; try again later
	KindKernelDuplicate                    // kernel name already registered
	KindKernelNotFound                     // no kernel of that name
	KindSymbolNotFound                     // a binary exports no such symbol
	KindStreamModel                        // stream not bound to the model, or a persistent stream not bound
	KindModelCaptured                      // model is being captured
	KindStreamCaptured                     // stream is already capturing
	KindEventCaptured                      // event is used by an active capture
	KindStreamNotCaptured                  // stream is not capturing
	KindCaptureModeNotSupport              // call refused by the capture mode
	KindCaptureImplicit                    // the default stream cannot take part in a capture
	KindCaptureConflict                    // streams of two captures linked by an event
	KindCaptureDependency                  // captured wait on an event not recorded in the capture
	KindStreamUnjoined                     // captured stream does not join back to the origin
	KindCaptureUnmatched                   // capture not begun on this stream
	KindCaptureWrongThread                 // capture ended on another thread
	KindCaptureInvalidated                 // capture invalidated by a refused call
	KindCaptureBlockAsync                  // async call that would block is refused in capture
	KindTaskGroupStatus                    // task group begun, ended or updated out of order
	KindTaskGroupIntr                      // another captured stream queued a task during a task group
	KindModelRunning                       // model is executing
	KindModelUpdateFailed                  // model update refused
	KindInsufficientArray                  // output array too small
	KindTaskTypeNotSupport                 // task kind not supported here
	KindOverLimit                          // a per-process limit reached (labels)
	KindModelContext                       // model used outside its context
	KindLabelContext                       // label used outside its context
	numKinds
)

var kindNames = [numKinds]string{
	"internal error", "not initialized", "repeated initialization", "repeated finalization",
	"invalid file", "unparsable file", "invalid file attribute", "bad argument",
	"invalid parameter", "invalid device", "no current context", "stream not in context",
	"invalid handle", "invalid address", "unaligned address", "invalid event timestamp",
	"event timestamp reversal",
	"event not complete", "not supported", "out of memory", "no stream resource",
	"no event resource", "no notify resource", "stream synchronize timeout",
	"event synchronize timeout", "wait timeout", "AI core exception", "AI core trap",
	"DMA fault", "host function fault", "stream aborted", "stream not subscribed",
	"thread not subscribed", "repeated subscription", "report timeout", "not ready",
	"kernel already registered", "kernel not found", "symbol not found",
	"stream not in model", "model captured", "stream captured", "event captured",
	"stream not captured", "capture mode does not allow this call", "implicit capture of the default stream",
	"capture conflict", "capture dependency", "stream not joined", "capture not begun on this stream",
	"capture ended on another thread", "capture invalidated", "blocking async call in capture",
	"task group status", "task group interrupted", "model running", "model update failed",
	"array too small", "task type not supported", "over limit",
	"model not in context", "label not in context",
}

func (k Kind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// NumKinds is the number of kinds, for exhaustive tables.
const NumKinds = int(numKinds)

// Error is the error type of every layer below the public API.
type Error struct {
	Kind Kind
	Msg  string // names the parameter, the value given and what was expected
	Err  error  // underlying cause, if any
}

func (e *Error) Error() string {
	if e.Err != nil {
		return e.Msg + ": " + e.Err.Error()
	}
	return e.Msg
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error of kind k with a formatted message.
func Errorf(k Kind, format string, args ...any) *Error {
	return &Error{Kind: k, Msg: fmt.Sprintf(format, args...)}
}

// Wrap returns an *Error of kind k whose cause is err.
func Wrap(k Kind, err error, format string, args ...any) *Error {
	return &Error{Kind: k, Msg: fmt.Sprintf(format, args...), Err: err}
}

// KindOf reports the kind of err, or KindInternal for foreign errors.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return KindInternal
}
