package hal

import "time"

// IPCKey names an export to other processes of a shared simulated machine.
// It is random, so it cannot be guessed; ShortKey exports use only the
// first 8 bytes (the rest zero), for APIs whose handles are one uint64.
type IPCKey [32]byte

// ExportOpts are the options of an export.
type ExportOpts struct {
	// NoPidCheck lets any process import; otherwise only the processes on
	// the export's whitelist (AllowImport) may.
	NoPidCheck bool
	// ShortKey makes a key of 8 random bytes.
	ShortKey bool
}

// IPC is implemented by devices of a backend attached to a shared machine:
// their memory, physical allocations, events and notifies can be exported
// to the machine's other processes and imported there. Imports name the
// importing process by its bare tgid; a process's own exports always admit
// it. Every import of an export whose process has exited fails.
type IPC interface {
	// BareTgid is this process's id as the devices know it.
	BareTgid() int32
	// ExportMemory exports [addr, addr+size) of a live allocation of this
	// device; addr must be page aligned.
	ExportMemory(addr, size uint64, o ExportOpts) (IPCKey, error)
	// ExportPhysical exports physical allocation id of this device.
	ExportPhysical(id uint64, o ExportOpts) (IPCKey, error)
	// ExportEvent exports an event of this device: importers see its
	// records complete (OpenEvent).
	ExportEvent(e Event, o ExportOpts) (IPCKey, error)
	// ExportNotify exports a notify of this device: importers' records
	// signal it (ImportNotify).
	ExportNotify(n Notify, o ExportOpts) (IPCKey, error)
	// AllowImport adds processes to the whitelist of an export this
	// process made.
	AllowImport(k IPCKey, pids []int32) error
	// Withdraw ends an export this process made: later imports fail;
	// imports made before keep working.
	Withdraw(k IPCKey) error
	// Exported describes an export of this machine: its kind's device
	// (physical id) and size, for checks before an import.
	Exported(k IPCKey) (ExportInfo, error)

	// ImportMemory maps exported memory into this process, with read and
	// write access for this device, and returns its address and size.
	ImportMemory(k IPCKey) (addr, size uint64, err error)
	// CloseImport unmaps memory ImportMemory mapped at addr.
	CloseImport(addr uint64) error
	// ImportPhysical makes a physical allocation of this device backed by
	// an exported one (the same bytes), with one reference
	// (VMM.FreePhysical drops it).
	ImportPhysical(k IPCKey) (Physical, error)
	// OpenEvent opens an exported event on this device.
	OpenEvent(k IPCKey) (RemoteEvent, error)
	// ImportNotify returns a notify of this device whose records
	// (TaskNotifyRecord) signal the exporter's; a wait on it is refused.
	ImportNotify(k IPCKey) (Notify, error)
}

// ExportInfo describes an export.
type ExportInfo struct {
	Kind     ExportKind
	Pid      int32 // the exporting process
	Physical int   // physical id of the exporter's device
	Size     uint64
	PageSize uint64
}

// ExportKind is what an export is.
type ExportKind uint8

const (
	ExportMemory ExportKind = 1 + iota
	ExportPhysical
	ExportEvent
	ExportNotify
)

// RemoteEvent is an event opened from another process. Queues wait on it
// as on an event of their own (TaskEventWait), for the records its
// exporter had submitted when the wait was submitted; it cannot be
// recorded here.
type RemoteEvent interface {
	Event
	// Done reports whether every record submitted so far completed.
	Done() bool
	// Wait blocks until the records submitted by now completed; it fails
	// with KindWaitTimeout after timeout (if > 0) and with KindInvalidParam
	// once the exporter is gone.
	Wait(timeout time.Duration) error
}
