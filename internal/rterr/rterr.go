// Package rterr is the runtime's error taxonomy: a Kind for every problem
// the runtime core, its configuration reader and the kernel loader report,
// and the Error type carrying one.
//
// Kind extends hal.Kind: the device-level kinds a backend reports keep
// their values (Kind(k) for a hal.Kind k), and the runtime-level kinds
// (initialization, configuration, capture, models, task groups, report
// threads, labels, ...) follow them. So a backend's *hal.Error passes up
// unchanged and KindOf reads its kind as the same Kind. The root package
// maps every Kind to one CANN code, in one function.
//
// rterr is a leaf: it imports only hal and the standard library, so
// internal/config, internal/rt and ckernel can all report kinds without
// importing one another.
package rterr

import (
	"errors"
	"fmt"

	"github.com/gocann/gocann/hal"
)

// Kind classifies what went wrong. Several kinds may share a CANN code
// where the classification still helps callers (errors.Is sentinels,
// messages).
type Kind uint8

// The device-level kinds, with hal's values.
const (
	KindInternal            = Kind(hal.KindInternal)
	KindInvalidParam        = Kind(hal.KindInvalidParam)
	KindInvalidDevice       = Kind(hal.KindInvalidDevice)
	KindInvalidHandle       = Kind(hal.KindInvalidHandle)
	KindInvalidAddress      = Kind(hal.KindInvalidAddress)
	KindUnaligned           = Kind(hal.KindUnaligned)
	KindNotSupported        = Kind(hal.KindNotSupported)
	KindOutOfMemory         = Kind(hal.KindOutOfMemory)
	KindNoStream            = Kind(hal.KindNoStream)
	KindNoEvent             = Kind(hal.KindNoEvent)
	KindNoNotify            = Kind(hal.KindNoNotify)
	KindNotReady            = Kind(hal.KindNotReady)
	KindStreamSyncTimeout   = Kind(hal.KindStreamSyncTimeout)
	KindWaitTimeout         = Kind(hal.KindWaitTimeout)
	KindAICoreException     = Kind(hal.KindAICoreException)
	KindAICoreTrap          = Kind(hal.KindAICoreTrap)
	KindDMAFault            = Kind(hal.KindDMAFault)
	KindHostFuncFault       = Kind(hal.KindHostFuncFault)
	KindStreamAborted       = Kind(hal.KindStreamAborted)
	KindModelAborted        = Kind(hal.KindModelAborted)
	KindAICPUException      = Kind(hal.KindAICPUException)
	KindAICoreTimeout       = Kind(hal.KindAICoreTimeout)
	KindNoPermission        = Kind(hal.KindNoPermission)
	KindAICoreReadOverflow  = Kind(hal.KindAICoreReadOverflow)
	KindAICoreWriteOverflow = Kind(hal.KindAICoreWriteOverflow)
)

// The runtime-level kinds, numbered after hal's.
const (
	KindUninitialized          = Kind(hal.NumKinds) + iota // runtime used before Init or after Finalize
	KindRepeatInit                                         // Init twice without Finalize
	KindRepeatFinalize                                     // Finalize without Init
	KindInvalidFile                                        // configuration file or kernel binary missing or unreadable
	KindParseFile                                          // configuration file is not valid JSON
	KindFileAttrInvalid                                    // a configuration value is out of range
	KindBadArgument                                        // an argument fails the API's own checks (NULL pointer, unsupported kind)
	KindContextNull                                        // no current context
	KindStreamContext                                      // stream used outside its context
	KindEventTimestamp                                     // event has no usable timestamp
	KindEventTimestampReversal                             // end event completed before the start event
	KindEventNotComplete                                   // event's record has not completed
	KindEventSyncTimeout                                   // event synchronize timed out
	KindNotSubscribed                                      // stream has no report thread
	KindThreadNotSubscribed                                // thread is not a report thread
	KindRepeatSubscribe                                    // stream already has a report thread
	KindReportTimeout                                      // no callback arrived within the timeout
	KindKernelDuplicate                                    // kernel name already registered
	KindKernelNotFound                                     // no kernel of that name
	KindSymbolNotFound                                     // a binary exports no such symbol
	KindStreamModel                                        // stream not bound to the model, or a persistent stream not bound
	KindModelCaptured                                      // model is being captured
	KindStreamCaptured                                     // stream is already capturing
	KindEventCaptured                                      // event is used by an active capture
	KindStreamNotCaptured                                  // stream is not capturing
	KindCaptureModeNotSupport                              // call refused by the capture mode
	KindCaptureImplicit                                    // the default stream cannot take part in a capture
	KindCaptureConflict                                    // streams of two captures linked by an event
	KindCaptureDependency                                  // captured wait on an event not recorded in the capture
	KindStreamUnjoined                                     // captured stream does not join back to the origin
	KindCaptureUnmatched                                   // capture not begun on this stream
	KindCaptureWrongThread                                 // capture ended on another thread
	KindCaptureInvalidated                                 // capture invalidated by a refused call
	KindCaptureBlockAsync                                  // async call that would block is refused in capture
	KindTaskGroupStatus                                    // task group begun, ended or updated out of order
	KindTaskGroupIntr                                      // another captured stream queued a task during a task group
	KindModelRunning                                       // model is executing
	KindModelUpdateFailed                                  // model update refused
	KindInsufficientArray                                  // output array too small
	KindTaskTypeNotSupport                                 // task kind not supported here
	KindOverLimit                                          // a per-process limit reached (labels)
	KindModelContext                                       // model used outside its context
	KindLabelContext                                       // label used outside its context
	KindFeatureUnsupported                                 // a reserved argument is not its required value (ACL_ERROR_FEATURE_UNSUPPORTED)
	KindNoDevice                                           // no device is visible (ASCEND_RT_VISIBLE_DEVICES)
	// Registered host memory.
	KindHostRegistered       // a host range overlaps one already registered
	KindHostNotRegistered    // a host address is not the start of a registration
	KindInvalidSymbol        // an address that is no device symbol
	KindLinkTypeNotSupported // a memory link type the device topology does not have
	// Process-level configuration.
	KindACLInternal       // ACL's own bookkeeping refused: a duplicate or unknown init callback, a dump file not written
	KindSysParamNotSet    // a context's system parameter was never set
	KindInvalidDumpConfig // a dump configuration CANN refuses
	KindDumpNotRun        // a dump call before aclmdlInitDump
	KindDumpAlreadyRun    // aclmdlInitDump while aclInit's configuration dumps
	// Process snapshots.
	KindSnapshotLock     // the process cannot be locked in its state
	KindSnapshotUnlock   // the process is not locked
	KindSnapshotBackup   // a backup refused or failed
	KindSnapshotRestore  // a restore refused or failed
	KindSnapshotCallback // a snapshot callback returned non-zero
	KindSnapshotRegister // a snapshot callback is already registered for the stage
	// Capability groups.
	KindGroupNotSet    // several capability groups, none the default, and none set
	KindGroupNotCreate // no capability group of that id, or none at all
	// Profiling.
	KindInvalidProfilingConfig // a profiling configuration CANN refuses
	KindProfAlreadyRun         // profiling already running, or configured another way
	KindProfNotRun             // a profiling call out of order
	KindProfilingFailure       // the profiling output could not be written
	KindProfRepeatSubscribe    // a model subscribed twice
	KindProfAPIConflict        // subscription and collection calls mixed
	KindInvalidModelID         // no model of that id, or not subscribed
	KindProfModulesUnsupported // profiling data types the chip does not offer
	numKinds
)

// NumKinds is the number of kinds, device-level ones included, for
// exhaustive tables.
const NumKinds = int(numKinds)

var kindNames = [numKinds - Kind(hal.NumKinds)]string{
	"not initialized", "repeated initialization", "repeated finalization",
	"invalid file", "unparsable file", "invalid file attribute", "bad argument",
	"no current context", "stream not in context",
	"invalid event timestamp", "event timestamp reversal", "event not complete",
	"event synchronize timeout", "stream not subscribed",
	"thread not subscribed", "repeated subscription", "report timeout",
	"kernel already registered", "kernel not found", "symbol not found",
	"stream not in model", "model captured", "stream captured", "event captured",
	"stream not captured", "capture mode does not allow this call", "implicit capture of the default stream",
	"capture conflict", "capture dependency", "stream not joined", "capture not begun on this stream",
	"capture ended on another thread", "capture invalidated", "blocking async call in capture",
	"task group status", "task group interrupted", "model running", "model update failed",
	"array too small", "task type not supported", "over limit",
	"model not in context", "label not in context",
	"feature unsupported", "no device",
	"host memory already registered", "host memory not registered",
	"invalid symbol",
	"link type not supported",
	"refused by ACL", "system parameter not set",
	"invalid dump configuration", "dump not initialized", "dump already running",
	"snapshot lock failed", "snapshot unlock failed", "snapshot backup failed",
	"snapshot restore failed", "snapshot callback failed", "snapshot callback already registered",
	"capability group not set", "capability group not created",
	"invalid profiling configuration", "profiling already running", "profiling not running",
	"profiling failure", "repeated profiling subscription", "profiling API conflict",
	"invalid model id", "profiling data type unsupported",
}

func (k Kind) String() string {
	switch {
	case int(k) < hal.NumKinds:
		return hal.Kind(k).String()
	case k < numKinds:
		return kindNames[k-Kind(hal.NumKinds)]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Error is the error type of the runtime below the public API. A backend's
// errors are *hal.Error values instead; KindOf and Classify read both.
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

// Classify returns the kind, message and cause of the first *Error in
// err's chain or, failing that, of the first *hal.Error, whose kind keeps
// its value; ok is false if err holds neither. An *Error may wrap a
// backend's error but never the reverse, so the first found is the
// outermost.
func Classify(err error) (k Kind, msg string, cause error, ok bool) {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind, e.Msg, e.Err, true
	}
	var he *hal.Error
	if errors.As(err, &he) {
		return Kind(he.Kind), he.Msg, he.Err, true
	}
	return KindInternal, "", nil, false
}

// KindOf reports the kind of err, or KindInternal for foreign errors.
func KindOf(err error) Kind {
	k, _, _, _ := Classify(err)
	return k
}
