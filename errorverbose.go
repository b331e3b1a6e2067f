package gocann

import (
	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/support"
)

// ErrorType is the class of a device fault (aclrtErrorType).
type ErrorType uint32

const (
	ErrorNone   ErrorType = 0      // ACL_RT_NO_ERROR
	ErrorMemory ErrorType = 1      // ACL_RT_ERROR_MEMORY
	ErrorL2     ErrorType = 2      // ACL_RT_ERROR_L2
	ErrorAICore ErrorType = 3      // ACL_RT_ERROR_AICORE
	ErrorLink   ErrorType = 4      // ACL_RT_ERROR_LINK
	ErrorL3Port ErrorType = 5      // ACL_RT_ERROR_L3_PORT
	ErrorOthers ErrorType = 0xFFFF // ACL_RT_ERROR_OTHERS
)

// AICoreErrorType says where an AI core fault most likely comes from
// (aclrtAicoreErrorType).
type AICoreErrorType uint32

const (
	AICoreErrorUnknown  AICoreErrorType = 0 // ACL_RT_AICORE_ERROR_UNKNOWN
	AICoreErrorSoftware AICoreErrorType = 1 // ACL_RT_AICORE_ERROR_SW
	AICoreErrorHardware AICoreErrorType = 2 // ACL_RT_AICORE_ERROR_HW_LOCAL
)

// ErrorVerbose is the detail of the device's latest fault.
type ErrorVerbose struct {
	Type      ErrorType
	TryRepair bool            // the fault calls for aclrtRepairError; never, for simulated faults
	HasDetail bool            // AICore is set
	AICore    AICoreErrorType // for ErrorAICore
}

// ErrorVerbose describes the latest task fault on the device since it was
// set or its tasks were last aborted (TaskAbort clears it). A copy, memset
// or kernel touching memory it may not is ErrorMemory; on an Ascend 950 a
// failing kernel is ErrorAICore, a software fault; other faults are
// ErrorOthers, the classes the Atlas A2 and A3 report.
//
// CANN: aclrtGetErrorVerbose.
func (d *Device) ErrorVerbose() (ErrorVerbose, error) {
	if err := d.r.require("aclrtGetErrorVerbose"); err != nil {
		return ErrorVerbose{}, err
	}
	f, ok := d.d.LastFault()
	if !ok {
		return ErrorVerbose{Type: ErrorNone}, nil
	}
	switch f.Kind {
	case hal.KindDMAFault, hal.KindInvalidAddress, hal.KindAICoreReadOverflow, hal.KindAICoreWriteOverflow:
		return ErrorVerbose{Type: ErrorMemory}, nil
	case hal.KindAICoreException, hal.KindAICoreTrap:
		if p, ok := support.ProductOf(d.SoCName()); ok && (p == support.Ascend950PR || p == support.Ascend950DT) {
			return ErrorVerbose{Type: ErrorAICore, HasDetail: true, AICore: AICoreErrorSoftware}, nil
		}
	}
	return ErrorVerbose{Type: ErrorOthers}, nil
}
