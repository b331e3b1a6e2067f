package hal

// Produce is the producer protocol of an SQ: every producer of a queue
// publishes a task through it, the backend's own Submit and a direct
// producer alike, so that their tasks keep one order and none is lost
// between them. capi/direct.c (produce) mirrors it line for line.
//
// The caller holds sq.Lock, which orders it with the other producers and
// with what the backend does to the queue under that lock (abort, close,
// ring growth, Update). Produce refuses the task, returning 0, while Open
// is 0 or Stopped is 1, and when the task would not fit: its sequence
// number seq = Submitted+1 must satisfy seq-Completed <= RingLen (the
// backend's ring) and seq-Absorbed <= ahead (the entries not yet taken
// in; a producer writing Entries passes at most SQEntries, so that it
// never overwrites one). Otherwise write puts task seq where the backend
// finds it, Submitted = seq publishes it, and Produce returns seq.
//
// The Busy/Submitted handshake: the backend stores Busy = 0 before its
// last look at Submitted when the queue goes idle, and a producer loads
// Busy after storing Submitted. All four are sequentially consistent, so
// either the backend sees the task or the producer sees Busy = 0 and
// calls doorbell, still holding the lock, to have the backend take the
// task in. A doorbell for a task the backend has already seen does
// nothing.
//
// write and doorbell are called at most once each, with sq.Lock held.
func Produce(sq *SQ, ahead uint64, write func(seq uint64), doorbell func()) uint64 {
	if sq.Open.Load() == 0 || sq.Stopped.Load() != 0 {
		return 0
	}
	seq := sq.Submitted.Load() + 1
	if seq-sq.Completed.Load() > uint64(sq.RingLen.Load()) || seq-sq.Absorbed.Load() > ahead {
		return 0
	}
	write(seq)
	sq.Submitted.Store(seq)
	if sq.Busy.Load() == 0 {
		doorbell()
	}
	return seq
}

// PutEntry is a direct producer's write for Produce: it fills
// Entries[seq%SQEntries] from e, Seq last, and marks the SQ as one a
// direct producer writes. capi/direct.c (put_entry) mirrors it.
func (sq *SQ) PutEntry(seq uint64, e *SQE) {
	d := &sq.Entries[seq%SQEntries]
	d.Kernel, d.Blocks, d.NArgs, d.Thread, d.Submit = e.Kernel, e.Blocks, e.NArgs, e.Thread, e.Submit
	n := min(e.NArgs, MaxArgs)
	copy(d.Args[:n], e.Args[:n])
	d.Seq = seq
	if sq.Direct.Load() == 0 {
		sq.Direct.Store(1)
	}
}
