package hal

import (
	"sync/atomic"
	"time"
)

// A Graph is a model run instance as the device runs it: streams of
// operations executed together as one task (TaskGraph) on the queue that
// launches them, so replaying a captured model costs about one task.
// Streams of a graph run concurrently and synchronize through graph events,
// which are private to each run. Control operations (labels, stream
// switches and activations, conditional sub-graphs) are evaluated on the
// device, reading device memory.
type Graph struct {
	Name    string
	Streams []*GraphStream
	Events  int // graph events used by OpRecord/OpWait/OpReset, numbered from 0
	Conds   []GraphCond
	// Records are device events that OpTask records of the graph record
	// (ACL_EVENT_RECORD_EXTERNAL), each at most once: a backend numbers
	// their records when the graph task is submitted, so a wait queued
	// after the graph task waits for the graph's record, as after any
	// record queued before it.
	Records []Event

	aborts atomic.Uint64 // Abort calls
}

// Abort ends the runs of g in progress: each stops before its next
// operation, or in the wait it is in, and its task takes a
// KindModelAborted fault. Runs that start later run whole.
func (g *Graph) Abort() { g.aborts.Add(1) }

// Aborts counts the Abort calls; a run reads it when it starts, and is
// aborted once it changes.
func (g *Graph) Aborts() uint64 { return g.aborts.Load() }

// GraphStream is one stream of a graph. Head streams start when the graph
// runs; the others when an OpActivate or a jump reaches them.
type GraphStream struct {
	Head bool
	ops  atomic.Pointer[[]Op] // replaced whole by SetOps, so a running graph sees updates between operations
}

// Ops returns the stream's operations; the slice must not be modified.
func (s *GraphStream) Ops() []Op {
	if p := s.ops.Load(); p != nil {
		return *p
	}
	return nil
}

// SetOps replaces the stream's operations. Runs in progress pick up the new
// slice at their next operation, so it must keep the operation count.
func (s *GraphStream) SetOps(ops []Op) { s.ops.Store(&ops) }

// GraphCond is a condition variable: a 64-bit word of device memory that
// conditional operations read. With Reset, it is set to Default each time
// the graph starts running.
type GraphCond struct {
	Addr    uint64
	Reset   bool
	Default uint64
}

// OpKind is the kind of a graph operation.
type OpKind uint8

const (
	OpTask         OpKind = iota // run Task (compute, copy, host function, value or notify operation)
	OpRecord                     // mark graph event Event recorded
	OpWait                       // hold this stream until graph event Event is recorded in this run
	OpReset                      // clear graph event Event
	OpActivate                   // start stream Target, if it is not running
	OpSwitchLabel                // read a uint32 index at Addr, jump to Labels[min(index, len-1)]
	OpSwitchStream               // if (*Addr Cmp *Addr2) holds, jump to the start of stream Target
	OpCond                       // run sub-graphs by condition Cond (CondIf, CondWhile, CondSwitch)
	OpEnd                        // end this stream
)

// Label is a position in a graph: stream and operation index.
type Label struct{ Stream, Pos int }

// Comparisons of OpSwitchStream, with the CANN values (aclrtCondition).
const (
	CmpEQ uint8 = iota
	CmpNE
	CmpGT
	CmpGE
	CmpLT
	CmpLE
)

// Conditional kinds of OpCond, with the CANN values.
const (
	CondIf     uint8 = 0 // Subs[0] if the value is non-zero, else Subs[1] if present
	CondWhile  uint8 = 1 // Subs[0] while the value is non-zero, checked before each run
	CondSwitch uint8 = 2 // Subs[value] if value < len(Subs)
)

// Op is one operation of a graph stream.
type Op struct {
	Kind     OpKind
	Task     Task    // OpTask
	Event    int     // OpRecord, OpWait, OpReset
	Target   int     // OpActivate, OpSwitchStream: stream index
	Labels   []Label // OpSwitchLabel
	Addr     uint64  // OpSwitchLabel index word; OpSwitchStream left value
	Addr2    uint64  // OpSwitchStream right value
	Cmp      uint8   // OpSwitchStream comparison
	Wide     bool    // OpSwitchStream compares int64 (else int32)
	Cond     int     // OpCond: index into Graph.Conds
	CondKind uint8   // OpCond
	Subs     []*Graph
	Timeout  time.Duration // OpWait: once reached, a wait fault after this long (0: never)
	Disabled bool          // skipped when the graph runs
	Diag     string        // added to the message of a fault of the operation
}

// Compare evaluates an OpSwitchStream comparison.
func Compare(left, right int64, cmp uint8) bool {
	switch cmp {
	case CmpEQ:
		return left == right
	case CmpNE:
		return left != right
	case CmpGT:
		return left > right
	case CmpGE:
		return left >= right
	case CmpLT:
		return left < right
	case CmpLE:
		return left <= right
	}
	return false
}
