package gocann

import "github.com/gocann/gocann/internal/rterr"

// Kind classifies a problem more finely than its Code: codeFor, the one
// mapping from kinds to codes, gives every Error its Code, and the class
// sentinels (ErrInvalid, ...) match by kind. Layers above this package
// (the C ABI) name the kinds of the problems they find themselves, with
// Errorf, so that their codes come from the same mapping.
type Kind = rterr.Kind

// The kinds the C ABI reports for problems it finds itself.
const (
	KindInternal            = rterr.KindInternal            // a bug, an unexpected OS failure or a full internal table
	KindBadArgument         = rterr.KindBadArgument         // an argument fails the API's own checks (NULL pointer, unsupported kind)
	KindInvalidParam        = rterr.KindInvalidParam        // an argument value is out of its documented range
	KindInvalidHandle       = rterr.KindInvalidHandle       // destroyed, stale or foreign handle
	KindInvalidFile         = rterr.KindInvalidFile         // a file missing, unreadable or unwritable
	KindOutOfMemory         = rterr.KindOutOfMemory         // device or host memory exhausted
	KindNoStream            = rterr.KindNoStream            // no stream left
	KindNoEvent             = rterr.KindNoEvent             // no event left
	KindNoNotify            = rterr.KindNoNotify            // no notify left
	KindUninitialized       = rterr.KindUninitialized       // runtime used before Init or after Finalize
	KindRepeatInit          = rterr.KindRepeatInit          // Init twice without Finalize
	KindRepeatFinalize      = rterr.KindRepeatFinalize      // Finalize without Init
	KindContextNull         = rterr.KindContextNull         // no current context
	KindStreamContext       = rterr.KindStreamContext       // stream used outside its context
	KindModelContext        = rterr.KindModelContext        // model used outside its context
	KindLabelContext        = rterr.KindLabelContext        // label used outside its context
	KindNotSubscribed       = rterr.KindNotSubscribed       // stream has no report thread
	KindThreadNotSubscribed = rterr.KindThreadNotSubscribed // thread is not a report thread
	KindRepeatSubscribe     = rterr.KindRepeatSubscribe     // stream already has a report thread
	KindReportTimeout       = rterr.KindReportTimeout       // no callback arrived within the timeout
	KindOverLimit           = rterr.KindOverLimit           // a per-process limit reached
	KindInsufficientArray   = rterr.KindInsufficientArray   // output array too small
	KindNotSupported        = rterr.KindNotSupported        // a feature the device or backend lacks
	KindSymbolNotFound      = rterr.KindSymbolNotFound      // a binary exports no such symbol
	KindFileAttrInvalid     = rterr.KindFileAttrInvalid     // a configuration value is out of range
	KindNoPermission        = rterr.KindNoPermission        // the process is not on an export's whitelist

	KindInvalidProfilingConfig = rterr.KindInvalidProfilingConfig // a profiling configuration CANN refuses
	KindProfAlreadyRun         = rterr.KindProfAlreadyRun         // profiling already running, or configured another way
	KindProfNotRun             = rterr.KindProfNotRun             // a profiling call out of order
	KindProfilingFailure       = rterr.KindProfilingFailure       // the profiling output could not be written
	KindProfAPIConflict        = rterr.KindProfAPIConflict        // subscription and collection calls mixed
	KindProfRepeatSubscribe    = rterr.KindProfRepeatSubscribe    // a model subscribed twice
	KindProfModulesUnsupported = rterr.KindProfModulesUnsupported // profiling data types not offered
	KindInvalidModelID         = rterr.KindInvalidModelID         // no model of that id, or not subscribed
)

// Errorf returns the *Error of kind k, with a formatted message, for
// operation op.
//
// CANN: none.
func Errorf(op string, k Kind, format string, args ...any) error {
	return wrap(op, rterr.Errorf(k, format, args...))
}
