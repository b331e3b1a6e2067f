package hal

// Counting notifies (CANN's aclrtCntNotify*): a 32-bit count that records
// change and waits compare, on the device. A counting notify travels in a
// task's Notify field; TaskCntNotifyRecord carries its mode in Flag and its
// operand in Value, TaskCntNotifyWait its mode, and CntWaitClear, in Flag.

// Record modes, with the CANN values (aclrtCntNotifyRecordMode).
const (
	CntRecordSet uint32 = 0 // count = value
	CntRecordAdd uint32 = 1 // count += value (wrapping at 32 bits)
	CntRecordOr  uint32 = 2 // count |= value
	CntRecordAnd uint32 = 4 // count &= value
)

// Wait modes, with the CANN values (aclrtCntNotifyWaitMode).
const (
	CntWaitLess    uint32 = 0 // count < value
	CntWaitEqual   uint32 = 1 // count == value
	CntWaitBigger  uint32 = 2 // count > value
	CntWaitAtLeast uint32 = 3 // count >= value
	CntWaitBits    uint32 = 4 // count & value == value
	// CntWaitClear, or'ed into a wait's Flag, sets the count to 0 when the
	// wait is satisfied, in the same step.
	CntWaitClear uint32 = 1 << 31
)

// CntRecordValid reports whether mode is a record mode.
func CntRecordValid(mode uint32) bool {
	switch mode {
	case CntRecordSet, CntRecordAdd, CntRecordOr, CntRecordAnd:
		return true
	}
	return false
}

// CntApply is the count a record in mode leaves after count.
func CntApply(count, value, mode uint32) uint32 {
	switch mode {
	case CntRecordAdd:
		return count + value
	case CntRecordOr:
		return count | value
	case CntRecordAnd:
		return count & value
	}
	return value
}

// CntMatches reports whether count satisfies a wait in mode (CntWaitClear
// ignored) for value.
func CntMatches(count, value, mode uint32) bool {
	switch mode &^ CntWaitClear {
	case CntWaitLess:
		return count < value
	case CntWaitEqual:
		return count == value
	case CntWaitBigger:
		return count > value
	case CntWaitAtLeast:
		return count >= value
	case CntWaitBits:
		return count&value == value
	}
	return false
}

// CntNotifier is an optional capability of a Device: counting notifies.
// The notifies it makes go in Task.Notify of the TaskCntNotify* kinds;
// they count against Props.NotifyLimit.
type CntNotifier interface {
	NewCntNotify() (Notify, error)
}

// NotifyResetter is an optional capability of a Notify: clearing a
// record not yet consumed, from the host, at once (aclrtNotifyBatchReset).
type NotifyResetter interface {
	Reset() error
}

// EventCounter is an optional capability of a Device: how many events
// counted against Props.EventLimit are live.
type EventCounter interface {
	EventsInUse() int
}
