package hal

// Reading a device's trace as it grows, for a profiler: every record in
// order, each once, and how many were lost when the reader fell behind.

// TraceReader is implemented by devices whose trace can be read from a
// position on.
type TraceReader interface {
	// TraceFrom appends to buf the records added since position from
	// (0: the first), oldest first, and returns the position after the
	// last and how many records between were overwritten before they
	// were read.
	TraceFrom(from uint64, buf []Record) (recs []Record, next, lost uint64)
	// TraceCapacity makes the trace keep at least n records, so a
	// reader polling it loses none between polls.
	TraceCapacity(n int)
	// ClockBase is CLOCK_MONOTONIC in ns at device clock 0, or 0 if the
	// device clock is not the host's.
	ClockBase() int64
}

// OpTracer is implemented by devices that can add a record of every
// operation of a graph run to their trace (Record.Op set), besides the
// record of the graph task itself.
type OpTracer interface {
	// TraceOps asks for those records (on) or withdraws one such request;
	// they are kept while any request stands.
	TraceOps(on bool)
}

// QueueDepth is how many tasks of a queue are submitted and not yet
// completed.
type QueueDepth struct {
	Queue int32
	Depth uint64
}

// Depther is implemented by devices that can tell their queues' depths.
type Depther interface {
	// Depths appends each open queue's depth to buf.
	Depths(buf []QueueDepth) []QueueDepth
}
