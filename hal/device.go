package hal

import (
	"context"
	"time"
	"unsafe"

	"github.com/gocann/gocann/kernel"
)

// Backend is one opened device backend, owned by one runtime.
type Backend interface {
	// DeviceCount is the number of devices; ids are 0..DeviceCount()-1.
	DeviceCount() int
	// Props returns a device's chip profile without opening it.
	Props(id int) (Props, error)
	// Open brings up device id: its memory, queues and engines. A device is
	// opened at most once at a time; Device.Close ends it.
	Open(id int) (Device, error)
	// Lookup finds the live allocation, device or pinned host, holding addr.
	// Memory of a device that is not open is not live.
	Lookup(addr uint64) (Allocation, bool)
	// Owner returns the device span holding addr, whether or not addr is
	// allocated and whether or not the device is open, so a freed device
	// pointer, or one into a closed device, is still known to be a device
	// pointer.
	Owner(addr uint64) (Span, bool)
	// Spans returns every device span reserved so far, with whether its
	// device is open. A device may hold more than one (Device.Close may
	// have to leave memory that a task still uses), at most one of them
	// open.
	Spans() []Span
	// MallocHost allocates page-locked host memory, 64-byte aligned.
	MallocHost(size uint64) (unsafe.Pointer, error)
	// FreeHost frees memory from MallocHost.
	FreeHost(p unsafe.Pointer) error
	// Close releases everything; devices must be closed first.
	Close() error
}

// Device is one opened device. Methods may be called from any goroutine.
type Device interface {
	ID() int
	Props() Props
	// Now is the device clock in nanoseconds, the time base of timestamps.
	Now() int64

	// Malloc allocates device memory. Never-used memory reads as zero.
	Malloc(size uint64, p MemPolicy) (Allocation, error)
	// Free frees the allocation starting at addr, which must carry tag
	// (MemPolicy.Tag); one with another tag is refused as not an
	// allocation, so the check and the free are one step.
	Free(addr uint64, tag uint8) error
	// Lookup finds the live allocation holding addr.
	Lookup(addr uint64) (Allocation, bool)
	// MemInfo reports free and total device memory in bytes.
	MemInfo() (free, total uint64)
	// Pointer maps device memory for direct host access, checking bounds.
	Pointer(addr, n uint64) (unsafe.Pointer, error)

	// NewQueue creates a hardware queue; it counts against StreamLimit.
	NewQueue(cfg QueueConfig) (Queue, error)
	// NewEvent creates an event.
	NewEvent(cfg EventConfig) (Event, error)
	// NewNotify creates a notify; it counts against NotifyLimit.
	NewNotify() (Notify, error)

	// Run executes a copy or memset task synchronously, outside any queue,
	// splitting large transfers across CPUs.
	Run(t Task) error
	// SetFaultHandler installs the function told of every task fault, on
	// the goroutine that ran the task. Install it before submitting work.
	// The handler may run after waiters see the faulting task complete.
	SetFaultHandler(func(Fault))
	// Close waits for running tasks, then releases the device. Its span
	// stays reserved (Span) with nothing live in it until the device opens
	// again. A copy there fails, and a kernel task whose argument slot
	// holds an address in the span of a device that is not open faults
	// when it is about to start instead of running.
	Close() error
}

// QueueConfig configures a hardware queue.
type QueueConfig struct {
	Priority int    // Props.GreatestPriority (most urgent) .. Props.LeastPriority
	Group    uint64 // queues sharing a group stop together on a fault in StopOnFailure mode
}

// Queue is an in-order hardware queue: tasks start in submission order, one
// at a time, each after the previous one completed.
type Queue interface {
	ID() int32
	// Submit appends a task and returns its sequence number (1, 2, ...).
	// It blocks while the queue is full. A stopped queue refuses tasks.
	Submit(t Task) (seq uint64, err error)
	// Submitted is the sequence number of the last task submitted.
	Submitted() uint64
	// Completed is the sequence number up to which every task is done.
	Completed() uint64
	// Wait blocks until every task up to seq is done, the queue is stopped
	// or aborted, the device closes, timeout passes (if > 0; < 0 checks
	// once) or ctx (if non-nil) ends. It returns nil at once if seq is
	// already done, stopped or not.
	Wait(ctx context.Context, seq uint64, timeout time.Duration) error
	// SetPriority changes the priority used for tasks not yet started.
	SetPriority(p int)
	// SetStopOnFailure selects STOP_ON_FAILURE (true) or CONTINUE_ON_FAILURE.
	SetStopOnFailure(stop bool)
	// TakeFaults returns, and forgets, the faults of tasks up to seq not
	// taken before, in task order; nil (no allocation) if there are none.
	TakeFaults(seq uint64) []Fault
	// Stopped reports the fault that stopped the queue, if it is stopped.
	Stopped() (Fault, bool)
	// Abort drops every task not yet started, waits for the running one,
	// and clears a stop; waiters see KindStreamAborted.
	Abort() error
	// Close releases the queue once its tasks are done or dropped. A
	// closed queue's SQ (Direct) is closed to producers too (Open 0).
	Close() error
}

// Event is a device event. Record, wait and reset are tasks; hosts wait for
// an event by waiting for the record task on its queue.
type Event interface {
	// Timestamp is the device time at which the most recent completed
	// record ran; ok is false if no record has completed.
	Timestamp() (ts int64, ok bool)
	// Close frees the event; tasks already queued keep working.
	Close() error
}

// EventConfig configures an event.
type EventConfig struct {
	Counted bool // counts against Props.EventLimit
	// Flag makes the event a flag, as ACL_EVENT_EXTERNAL events are: a
	// record sets it until a reset clears it, and a wait waits until it is
	// set, whenever the record was submitted. Other events number their
	// records and a wait waits for the latest record submitted before it.
	Flag bool
}

// Notify is a device notify: a one-shot signal that a wait consumes.
type Notify interface {
	ID() uint32
	Close() error
}

// Fault is an asynchronous task failure.
type Fault struct {
	Kind   Kind // KindAICoreException, KindAICoreTrap, KindAICore*Overflow, KindDMAFault, KindHostFuncFault, KindWaitTimeout, ...
	Device int
	Queue  int32
	Seq    uint64
	Task   TaskKind
	Kernel string // kernel name for kernel tasks
	// Kernel tasks: the kernel and its argument slots, as the task ran.
	Func   *kernel.Func
	NArgs  uint32
	Args   [MaxArgs]uint64
	Site   uintptr
	Thread uint32
	Time   int64 // device clock
	Msg    string
	Err    error // panic value or cause, if any
}

// Engine names the part of the device that ran a task.
type Engine uint8

const (
	EngineScheduler Engine = iota // sync operations handled by the scheduler itself
	EngineAICore
	EngineDMA
	EngineHost
	EngineAICPU // kernels of AI CPU functions (Kernel.CPU)
	numEngines
)

// NumEngines is the number of engines, for tables indexed by Engine.
const NumEngines = int(numEngines)

var engineNames = [numEngines]string{"scheduler", "aicore", "dma", "host", "aicpu"}

func (e Engine) String() string {
	if int(e) < len(engineNames) {
		return engineNames[e]
	}
	return "unknown"
}

// Record is one task's entry in the device trace. Operations inside a
// model run have no records of their own but for SuperKernels, which have
// one and one per sub-kernel.
type Record struct {
	Queue  int32
	Seq    uint64
	Kind   TaskKind
	Engine Engine
	Submit int64 // device clock at submission
	Start  int64 // when it started running
	End    int64 // when it completed
	Failed bool
	Name   string // a kernel's name; "" for the other kinds
	Blocks uint32 // a kernel's block count
	Cores  kernel.CoreKind
	Thread uint32 // the submitting OS thread, 0 if unknown
	Bytes  uint64 // bytes a copy or memset moved
	// Op is 0 for a queue task's record. A record of an operation inside
	// the model run that is task Queue/Seq has Op 1 + its index in the
	// run's model stream Stream; Sub is 0 for it, or for a SuperKernel's
	// sub-kernel 1 + its index in the SuperKernel (Op then the
	// SuperKernel's). Submit is then the model task's.
	Stream, Op, Sub int32
}

// Settler is implemented by devices that can hold a synchronous transfer
// until the device work submitted before it that touches its memory has
// run, as a device's head start over the driver's copy gives in practice.
type Settler interface {
	// Busy reports, cheaply, whether the device has submitted work not
	// yet completed; Settle has nothing to wait for otherwise.
	Busy() bool
	// Settle waits, at most limit, until every task submitted to the
	// device's queues before the call that reads or writes range a or b
	// (Size 0: none), or is a kernel with an argument pointing there, has
	// completed; it stops waiting on a queue that cannot progress without
	// the host (a wait not yet satisfied, a host function running, a stop).
	Settle(a, b Range, limit time.Duration)
}

// Tracer is implemented by devices that keep a task trace.
type Tracer interface {
	// Trace appends the retained records, oldest first, to buf.
	Trace(buf []Record) []Record
}

// Stopper is an optional capability of a Queue: stopping it from the host
// (aclrtStreamStop). A stopped queue starts no task, a running kernel
// starts no further block, submissions are refused and waits end, as after
// a fault in StopOnFailure mode, until Abort; no fault is reported.
type Stopper interface {
	Stop() error
}

// Sharer is implemented by devices whose memory lives in files another
// process can map.
type Sharer interface {
	// Share returns a path another process can open and the offset of addr
	// in it.
	Share(addr uint64) (path string, off int64, err error)
}
