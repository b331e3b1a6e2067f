package hal

import (
	"time"

	"github.com/gocann/gocann/kernel"
)

// MaxArgs is the number of 8-byte argument slots a kernel launch carries
// (the kernel contract's).
const MaxArgs = kernel.MaxArgs

// TaskKind is the kind of work a task descriptor describes.
type TaskKind uint8

const (
	TaskNone            TaskKind = iota
	TaskKernel                   // run Kernel over Blocks blocks
	TaskCopy                     // copy Size bytes from Src to Dst
	TaskCopy2D                   // copy Height rows of Width bytes between pitched buffers
	TaskMemset                   // set Size bytes at Dst to byte(Value)
	TaskHostFunc                 // call Host on a runtime-owned goroutine
	TaskEventRecord              // mark Event recorded once earlier tasks are done
	TaskEventWait                // hold the queue until Event's record Seq is done
	TaskEventReset               // return Event to its never-recorded state
	TaskNotifyRecord             // signal Notify once earlier tasks are done
	TaskNotifyWait               // hold the queue until Notify is signalled, then reset it
	TaskValueWrite               // store the 64-bit Value at Dst
	TaskValueWait                // hold the queue until the 64-bit word at Dst matches Value under Flag
	TaskGraph                    // run Graph once, as one task
	TaskCopyBatch                // run every copy of Copies, as one task
	TaskCmo                      // cache maintenance Value over [Dst, Dst+Size): orders, changes no bytes
	TaskCopyIndirect             // copy between addresses read from device memory when the task starts
	TaskCntNotifyRecord          // update counting notify Notify's count with Value under mode Flag (CntRecord*)
	TaskCntNotifyWait            // hold the queue until Notify's count meets Value under mode Flag (CntWait*)
	TaskCntNotifyReset           // set counting notify Notify's count to 0
	TaskReduce                   // Dst[i] = Dst[i] op Src[i] over Size bytes of elements (see Reduce)
	TaskRandom                   // fill device memory with random numbers (see Random)
	numTaskKinds
)

var taskKindNames = [numTaskKinds]string{
	"none", "kernel", "copy", "copy2d", "memset", "host func", "event record",
	"event wait", "event reset", "notify record", "notify wait", "value write", "value wait", "graph",
	"copy batch", "cmo", "copy indirect", "count notify record", "count notify wait", "count notify reset",
	"reduce", "random",
}

func (k TaskKind) String() string {
	if k < numTaskKinds {
		return taskKindNames[k]
	}
	return "unknown"
}

// Value-wait compare flags, with the CANN values.
const (
	WaitGEQ uint32 = 0 // (int64)(*addr - value) >= 0
	WaitEQ  uint32 = 1 // *addr == value
	WaitAND uint32 = 2 // (*addr & value) != 0
	WaitNOR uint32 = 3 // ^(*addr | value) != 0
)

// ValueMatches reports whether the word cur satisfies a value wait.
func ValueMatches(cur, value uint64, flag uint32) bool {
	switch flag {
	case WaitGEQ:
		return int64(cur-value) >= 0
	case WaitEQ:
		return cur == value
	case WaitAND:
		return cur&value != 0
	case WaitNOR:
		return ^(cur | value) != 0
	}
	return false
}

// Task is a task descriptor: everything a backend needs to run one unit of
// stream work, passed by value so submission allocates nothing. Which fields
// matter depends on Kind.
type Task struct {
	Kind TaskKind
	// TaskKernel: Group is 1 + the id of the capability group (Props.Groups)
	// whose cores its blocks run on, shared with the group's other
	// kernels; 0 runs them on any of the device's cores.
	Group uint8
	// TaskKernel: Cores bounds how many of the kernel's blocks run at once
	// (a core resource limit); 0 leaves the device's cores as the only
	// bound. Blocks past it run in waves as running ones finish. (Group and
	// Cores fill the padding after Kind.)
	Cores uint32

	// TaskKernel. The submitter checks a launch, once: Kernel and its Fn
	// set, Blocks from 1, NArgs at most MaxArgs. A backend takes them as
	// given.
	Kernel *kernel.Func
	Blocks uint32
	NArgs  uint32
	Args   [MaxArgs]uint64

	// TaskCopy, TaskCopy2D, TaskMemset, TaskValueWrite, TaskValueWait.
	Dst, Src       Loc
	Size           uint64 // bytes (TaskCopy, TaskMemset)
	DPitch, SPitch uint64 // TaskCopy2D
	Width, Height  uint64 // TaskCopy2D: bytes per row, rows
	Value          uint64 // memset byte, value to write or compare
	Flag           uint32 // value-wait compare flag
	// TaskMemset: Width 4 fills with the 32-bit little-endian pattern
	// uint32(Value) (Size a multiple of 4); 0 or 1 fills bytes.
	// TaskReduce: Value is the operation (ReduceSum...), Flag the element
	// type (a kernel.DType), Size a multiple of its size; Width 1 saturates float
	// results (SatSaturate) instead of producing inf and NaN.

	// TaskKernel, TaskReduce, TaskRandom: the device address of the
	// 64-byte overflow status area the task flags when it produces an inf
	// or NaN (a kernel: when it reports one); 0 when its stream does not
	// detect overflow.
	Overflow uint64

	// TaskRandom: what to generate, and where. The task owns it until it
	// completes.
	Random *Random

	// TaskCopyBatch: the copies, in no particular order. The task owns them
	// until it completes. (A pointer keeps every task one word longer,
	// not three.)
	Batch *Batch

	// TaskCopyIndirect: Dst.Dev and Src.Dev are the device addresses of
	// the 64-bit words holding the destination and source device
	// addresses, to which DPitch and SPitch are added; Size bytes are
	// copied, or, when Value is not 0, as many as the 64-bit word at
	// device address Value says. The words are read when the task starts,
	// as hardware reads a copy descriptor.

	// Sync objects.
	Event  Event
	Notify Notify
	// TaskNotifyWait, TaskEventWait, TaskCntNotifyWait, TaskValueWait: the
	// wait fails with a KindWaitTimeout fault once it has waited this long
	// at the head of its queue (not counting time spent queued behind other
	// tasks); 0 waits forever.
	Timeout time.Duration

	// TaskHostFunc: Host runs, or HostFn(HostArgs[0], HostArgs[1]) when
	// Host is nil (a C function and its argument, say).
	Host     func()
	HostFn   func(a, b uintptr)
	HostArgs [2]uintptr

	// TaskKernel: what its launch configuration set, kept to be read back.
	Launch LaunchAttrs

	// TaskKernel with ArgsDev != 0: the NArgs slots are read from device
	// memory at ArgsDev when the kernel is about to start, as hardware reads
	// an argument block that earlier tasks of the stream may have written.
	ArgsDev uint64

	// TaskGraph.
	Graph *Graph

	// Diagnosis.
	Site   uintptr // program counter of the submitting call, 0 if unknown
	Thread uint32  // submitting OS thread, 0 if unknown
}

// LaunchAttrs are the settings of a kernel launch's configuration
// (aclrtLaunchKernelCfg) that its task keeps, for aclmdlRIKernelTaskGetAttribute.
// A backend runs the kernel the same whatever they say.
type LaunchAttrs struct {
	TimeoutUS   uint64 // the launch's timeout in microseconds; 0: none set
	DynUBufSize uint32 // dynamic unified buffer per block, bytes
	SchemMode   uint8  // scheduling mode
	DataDump    bool   // data dump requested
}

// span2D bounds the pitches and sizes of a 2-D copy whose range Accesses
// reports, so the range arithmetic cannot wrap.
const span2D = 1 << 31

// Range is a span of device memory a task touches.
type Range struct {
	Addr, Size uint64
	Write      bool
}

// Accesses reports the device ranges t reads and writes. For kernels every
// argument slot that points into device memory counts as read and written
// from that address to the end of its allocation; lookup resolves slots to
// allocations (it may be nil, then kernels report nothing).
func (t *Task) Accesses(lookup func(addr uint64) (Allocation, bool), yield func(Range)) {
	switch t.Kind {
	case TaskCopy:
		if !t.Src.IsHost() {
			yield(Range{Addr: t.Src.Dev, Size: t.Size})
		}
		if !t.Dst.IsHost() {
			yield(Range{Addr: t.Dst.Dev, Size: t.Size, Write: true})
		}
	case TaskCopy2D:
		if t.Height == 0 || t.SPitch > span2D || t.DPitch > span2D || t.Width > span2D || t.Height > span2D {
			return // an impossible shape: the copy faults without touching memory
		}
		if !t.Src.IsHost() {
			yield(Range{Addr: t.Src.Dev, Size: t.SPitch*(t.Height-1) + t.Width})
		}
		if !t.Dst.IsHost() {
			yield(Range{Addr: t.Dst.Dev, Size: t.DPitch*(t.Height-1) + t.Width, Write: true})
		}
	case TaskMemset:
		if !t.Dst.IsHost() {
			yield(Range{Addr: t.Dst.Dev, Size: t.Size, Write: true})
		}
	case TaskCopyIndirect:
		yield(Range{Addr: t.Dst.Dev, Size: 8})
		yield(Range{Addr: t.Src.Dev, Size: 8})
		if t.Value != 0 {
			yield(Range{Addr: t.Value, Size: 8})
		}
	case TaskCopyBatch:
		for i := range t.Batch.copies() {
			c := &t.Batch.Copies[i]
			if !c.Src.IsHost() {
				yield(Range{Addr: c.Src.Dev, Size: c.Size})
			}
			if !c.Dst.IsHost() {
				yield(Range{Addr: c.Dst.Dev, Size: c.Size, Write: true})
			}
		}
	case TaskReduce:
		yield(Range{Addr: t.Src.Dev, Size: t.Size})
		yield(Range{Addr: t.Dst.Dev, Size: t.Size})
		yield(Range{Addr: t.Dst.Dev, Size: t.Size, Write: true})
	case TaskRandom:
		t.Random.accesses(yield)
	case TaskValueWrite:
		yield(Range{Addr: t.Dst.Dev, Size: 8, Write: true})
	case TaskValueWait:
		yield(Range{Addr: t.Dst.Dev, Size: 8})
	case TaskKernel:
		if lookup == nil {
			return
		}
		for _, a := range t.Args[:t.NArgs] {
			if al, ok := lookup(a); ok && !al.Host {
				end := al.Addr + al.Size
				yield(Range{Addr: a, Size: end - a})
				yield(Range{Addr: a, Size: end - a, Write: true})
			}
		}
	}
}
