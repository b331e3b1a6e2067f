package hal

import (
	"errors"
	"fmt"
)

// Kind classifies what went wrong. Each kind maps to exactly one CANN error
// code at the API boundary; kinds exist only where the codes differ.
type Kind uint8

const (
	KindInternal          Kind = iota // runtime bug or unexpected OS failure
	KindUninitialized                 // runtime used before Init or after Finalize
	KindRepeatInit                    // Init twice without Finalize
	KindRepeatFinalize                // Finalize without Init
	KindBadConfig                     // unreadable or malformed configuration
	KindInvalidParam                  // an argument value is out of its documented range
	KindInvalidDevice                 // device id out of range
	KindInvalidHandle                 // destroyed, stale or foreign handle
	KindInvalidAddress                // pointer outside any live allocation, or on the wrong device
	KindUnaligned                     // address not aligned as required
	KindContextMismatch               // object used with a context it does not belong to
	KindNotSupported                  // feature not supported by this device or backend
	KindOutOfMemory                   // device or host memory exhausted
	KindNoStream                      // stream pool exhausted
	KindNoEvent                       // event pool exhausted
	KindNoNotify                      // notify pool exhausted
	KindStreamSyncTimeout             // stream or device synchronize timed out
	KindEventSyncTimeout              // event synchronize timed out
	KindWaitTimeout                   // a device-side or callback wait timed out
	KindAICoreException               // a kernel faulted
	KindAICoreTrap                    // a kernel raised a trap
	KindTaskFault                     // a non-kernel task (host function, copy) faulted
	KindStreamStopped                 // stream stopped by STOP_ON_FAILURE
	KindStreamAborted                 // tasks dropped by an abort
	KindNotSubscribed                 // report thread or stream not subscribed
	KindRepeatSubscribe               // stream already subscribed
	KindCallbackTimeout               // no callback arrived within the timeout
	KindNotReady                      // resource busy; try again later
	numKinds
)

var kindNames = [numKinds]string{
	"internal error", "not initialized", "repeated initialization", "repeated finalization",
	"bad configuration", "invalid parameter", "invalid device", "invalid handle",
	"invalid address", "unaligned address", "context mismatch", "not supported",
	"out of memory", "no stream resource", "no event resource", "no notify resource",
	"stream synchronize timeout", "event synchronize timeout", "wait timeout",
	"AI core exception", "AI core trap", "task fault", "stream stopped",
	"stream aborted", "not subscribed", "repeated subscription", "callback timeout",
	"not ready",
}

func (k Kind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

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
