package hal

import (
	"errors"
	"fmt"
)

// Kind classifies what went wrong in a device call or a device task: the
// kinds a backend itself reports. The runtime's own kinds (configuration,
// capture, models, ...) extend these in internal/rterr, keeping these
// values, and the root package maps every kind to one CANN code.
type Kind uint8

const (
	KindInternal            Kind = iota // backend bug or unexpected OS failure
	KindInvalidParam                    // an argument value is out of its documented range
	KindInvalidDevice                   // device id out of range
	KindInvalidHandle                   // closed or foreign queue, event or notify
	KindInvalidAddress                  // pointer outside any live allocation, or on the wrong device
	KindUnaligned                       // address not aligned as required
	KindNotSupported                    // feature not supported by this device or backend
	KindOutOfMemory                     // device or host memory exhausted
	KindNoStream                        // the device's queues (StreamLimit) are all in use
	KindNoEvent                         // the device's events (EventLimit) are all in use
	KindNoNotify                        // the device's notifies (NotifyLimit) are all in use
	KindNotReady                        // resource busy; try again later
	KindStreamSyncTimeout               // a wait for a queue timed out
	KindWaitTimeout                     // a device-side wait timed out
	KindAICoreException                 // a kernel faulted
	KindAICoreTrap                      // a kernel raised a trap
	KindDMAFault                        // a copy, memset or value operation faulted
	KindHostFuncFault                   // a host function panicked
	KindStreamAborted                   // the queue was aborted while waiting
	KindModelAborted                    // a running graph was aborted (Graph.Abort)
	KindAICPUException                  // a kernel on the AI CPU engine faulted or trapped
	KindAICoreTimeout                   // a kernel ran past its execute timeout
	KindNoPermission                    // the process is not allowed the object (an IPC whitelist)
	KindAICoreReadOverflow              // a kernel read memory outside what is mapped for it
	KindAICoreWriteOverflow             // a kernel wrote memory outside what is mapped for it
	numKinds
)

var kindNames = [numKinds]string{
	"internal error", "invalid parameter", "invalid device", "invalid handle",
	"invalid address", "unaligned address", "not supported", "out of memory",
	"no stream resource", "no event resource", "no notify resource", "not ready",
	"stream synchronize timeout", "wait timeout", "AI core exception", "AI core trap",
	"DMA fault", "host function fault", "stream aborted", "model aborted", "AI CPU exception",
	"AI core timeout", "no permission", "AI core trap read overflow", "AI core trap write overflow",
}

func (k Kind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// NumKinds is the number of kinds, for exhaustive tables.
const NumKinds = int(numKinds)

// Error is the error type of a backend.
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
