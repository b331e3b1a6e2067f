package hal

import (
	"sync/atomic"

	"github.com/gocann/gocann/kernel"
)

// SQEntries is the number of entries of an SQ: how many direct launches may
// be written ahead of the scheduler taking them in.
const SQEntries = 64

// SQ is a queue's submission area as producers outside Go write it. A
// host driver writes a launch into a hardware queue's ring and rings a
// doorbell only when the device has gone idle; the C ABI does the same
// here, so a kernel launch from C does not enter Go while the queue is
// busy. Go submitters take the same lock, so tasks keep one order.
//
// Every field is accessed atomically and the memory holds no Go pointer;
// C mirrors this layout. A backend keeps a queue's SQ in place, and gives
// it to no other queue, while the queue is reachable; a producer outside
// Go keeps the queue reachable for as long as it may use the address (the
// C ABI holds it by epochs, capi/epoch.go). A producer that read the
// address just before the queue closed may still take the lock, and
// leaves without writing once it sees that its stream is gone.
//
// Every producer, the backend's own submitter and a direct one, publishes
// through Produce, which states the protocol; a direct producer writes
// its entry with PutEntry.
//
// Fields are grouped by writer into cache lines of their own: the
// submitters' line, the rarely written state, and the scheduler's line.
type SQ struct {
	Lock      atomic.Uint32 // submitters' lock: 0 free, 1 held
	_         uint32
	Submitted atomic.Uint64 // last sequence number submitted
	_         [64 - 16]byte

	Open    atomic.Uint32 // 1 while the stream takes direct launches (it runs eagerly)
	Stopped atomic.Uint32 // 1 while stopped by STOP_ON_FAILURE
	RingLen atomic.Uint32 // tasks the queue's ring holds
	Direct  atomic.Uint32 // 1 once a direct producer wrote an entry
	// ClockBase is CLOCK_MONOTONIC, in ns, at device clock 0, when
	// ClockKnown is 1: a producer stamps Submit with it.
	ClockKnown atomic.Uint32
	_          uint32
	ClockBase  atomic.Int64
	// DevLo and DevHi bound the host addresses of the queue's device
	// memory, [DevLo, DevHi): a launch whose arguments lie in device
	// memory reads them when it starts, which a producer leaves to Go.
	DevLo atomic.Uint64
	DevHi atomic.Uint64
	_     [64 - 48]byte

	Busy      atomic.Uint32 // 1 while the scheduler will look at the queue again
	_         uint32
	Absorbed  atomic.Uint64 // last sequence number the scheduler took in
	Completed atomic.Uint64 // sequence number up to which every task is done
	_         [64 - 24]byte

	Entries [SQEntries]SQE
}

// SQE is one kernel launch written by a direct producer, which checks it
// as a submitter checks a Task: Blocks from 1, NArgs at most MaxArgs.
type SQE struct {
	Seq    uint64 // the sequence number the entry is for, written last
	Kernel uint32 // the kernel's number (KernelNumberer.KernelID)
	Blocks uint32
	NArgs  uint32
	Thread uint32 // submitting OS thread
	Submit int64  // device clock at submission, 0 if unknown
	Args   [MaxArgs]uint64
}

// Direct is implemented by queues that take launches written into an SQ.
type Direct interface {
	// SQ returns the queue's submission area.
	SQ() *SQ
	// Doorbell makes the scheduler take in entries written while the
	// queue was idle. The caller holds the SQ's Lock.
	Doorbell()
	// Update calls f with the SQ's Lock held and sets Open to whether f
	// returns true, so that what f changes and Open move together.
	Update(f func() bool)
}

// KernelNumberer is implemented by Direct queues whose SQ entries name
// kernels by number, as a producer outside Go cannot hold a *kernel.Func. A
// producer asks for a kernel's number before writing an entry for it.
type KernelNumberer interface {
	// KernelID numbers k for SQE.Kernel: never 0, and the same number
	// every time until ForgetKernel.
	KernelID(k *kernel.Func) uint32
	// ForgetKernel lets the numbering drop k (its code is being unloaded):
	// an entry still naming it faults when it runs.
	ForgetKernel(k *kernel.Func)
}
