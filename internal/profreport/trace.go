package profreport

import "fmt"

// Trace is what one or more timelines recorded, sorted out by process and
// track: the host's threads and API calls, the devices' tasks and counters.
// Times are nanoseconds on the timelines' clock.
type Trace struct {
	Files []*File
	// Start and End bound every timed event.
	Start, End int64
	Hosts      []*Host   // by pid
	Devices    []*Device // by device number
}

// Host is a host process: process name CANN, one track per OS thread.
type Host struct {
	Pid     int64
	Name    string
	Threads []*Track
	Calls   []Call // the AscendCL@ calls of all its threads
}

// Call is one host API call.
type Call struct {
	Func       string // aclrtLaunchKernel of AscendCL@aclrtLaunchKernel
	Tid        int64
	Start, Dur int64
}

// Device is one device, across the processes that used it.
type Device struct {
	ID      int
	Info    DeviceInfo
	HasInfo bool // a gocann_device event said what the chip is
	Pids    []int64
	Streams []*Track // one per (process, stream)
	Engines []*Track // one per (process, engine)
	Tasks   []Task   // the stream tracks' events: each device task once
	Depth   []Sample // the Queue Depth counters, summed over streams
}

// DeviceInfo is a gocann_device event's args: what turns busy time into
// utilization.
type DeviceInfo struct {
	SoC           string
	AICores       int
	VectorCores   int
	CubeCores     int
	CopyBandwidth float64 // GB/s, 1 GB = 1e9 bytes
}

// Task is one device task, from its stream track's event.
type Task struct {
	Name     string
	Type     string // Task Type: AI_CORE, MEMCPY_ASYNC, ...
	CoreKind string // vector, cube or mixed, for kernels
	Pid      int64
	Stream   int64
	Start    int64
	Dur      int64
	// Submit is when the task was submitted (HasSubmit), from
	// Submit Time(us), else Start - Wait Time(us).
	Submit    int64
	HasSubmit bool
	BlockDim  int64
	Bytes     float64
	// ModelOp marks an operation inside a model run (it has an Op Index):
	// it keeps cores busy but was never queued on its own.
	ModelOp bool
	Failed  bool
}

// End is when the task ended.
func (t *Task) End() int64 { return t.Start + t.Dur }

// Kernel reports whether the task is a kernel: the unit the top-kernel
// tables group by name.
func (t *Task) Kernel() bool {
	switch t.Type {
	case "AI_CORE", "AI_VECTOR_CORE", "AI_CUBE_CORE", "AI_CPU":
		return true
	}
	return t.CoreKind != ""
}

// kind is which AI cores the task keeps busy: vector, cube, mixed, or ""
// for a task that runs on none (copies, AI CPU kernels, events, ...).
func (t *Task) kind() string {
	if t.Type == "AI_CPU" {
		return ""
	}
	switch t.CoreKind {
	case "vector", "cube", "mixed":
		return t.CoreKind
	}
	switch t.Type {
	case "AI_VECTOR_CORE":
		return "vector"
	case "AI_CUBE_CORE":
		return "cube"
	case "AI_CORE":
		return "mixed"
	}
	return ""
}

// Track is one row of the timeline: a host thread, a stream or an engine.
type Track struct {
	Pid, Tid int64
	Name     string
	Sort     int64 // thread_sort_index, else the tid
	Slices   []Slice
}

// Slice is one event drawn on a track.
type Slice struct {
	Name       string
	Class      string // what it is, for colour: api, tx, vector, cube, dma, ...
	Start, Dur int64
	Instant    bool // an msproftx mark
	Failed     bool
}

// Sample is one point of a counter: Value from At on.
type Sample struct {
	At    int64
	Value float64
}

// engineBase is the first engine track's tid.
const engineBase = 100000

// engineName is the name of engine track engineBase + n.
func engineName(n int64) string {
	names := [...]string{"AI Core", "AI Vector Core", "AI Cube Core", "DMA", "AI CPU", "Scheduler", "Host Function"}
	if n >= 0 && n < int64(len(names)) {
		return names[n]
	}
	return fmt.Sprintf("Engine %d", n)
}

// sliceClass is the colour class of a device task.
func sliceClass(t *Task) string {
	if k := t.kind(); k != "" {
		return k
	}
	switch t.Type {
	case "AI_CPU":
		return "aicpu"
	case "MEMCPY_ASYNC", "MEMSET_ASYNC":
		return "dma"
	case "HOST_FUNC":
		return "hostfn"
	case "":
		return "other"
	}
	return "sched"
}
