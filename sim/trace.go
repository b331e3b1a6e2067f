package sim

import "github.com/gocann/gocann/hal"

// traceRing keeps the most recent task records of a device. Guarded by the
// scheduler's mu; writing one record costs a few stores, so it is always on.
type traceRing struct {
	recs []hal.Record
	n    uint64 // records ever added
}

func (r *traceRing) init(size int) { r.recs = make([]hal.Record, size) }

func (r *traceRing) add(rec hal.Record) {
	r.recs[r.n%uint64(len(r.recs))] = rec
	r.n++
}

// appendTo appends the retained records, oldest first, to buf.
func (r *traceRing) appendTo(buf []hal.Record) []hal.Record {
	size := uint64(len(r.recs))
	first := uint64(0)
	if r.n > size {
		first = r.n - size
	}
	for i := first; i < r.n; i++ {
		buf = append(buf, r.recs[i%size])
	}
	return buf
}

// from appends the records added since position from, oldest first, and
// returns the next position and how many of them were overwritten.
func (r *traceRing) from(from uint64, buf []hal.Record) ([]hal.Record, uint64, uint64) {
	size := uint64(len(r.recs))
	lost := uint64(0)
	if r.n > size && from < r.n-size {
		lost, from = r.n-size-from, r.n-size
	}
	for i := from; i < r.n; i++ {
		buf = append(buf, r.recs[i%size])
	}
	return buf, r.n, lost
}

// grow makes the ring hold at least n records, keeping the ones it holds.
func (r *traceRing) grow(n int) {
	if n <= len(r.recs) {
		return
	}
	recs := make([]hal.Record, n)
	first := uint64(0)
	if size := uint64(len(r.recs)); r.n > size {
		first = r.n - size
	}
	for i := first; i < r.n; i++ {
		recs[i%uint64(n)] = r.recs[i%uint64(len(r.recs))]
	}
	r.recs = recs
}

// TraceFrom implements hal.TraceReader.
func (d *device) TraceFrom(from uint64, buf []hal.Record) ([]hal.Record, uint64, uint64) {
	d.s.mu.Lock()
	defer d.s.mu.Unlock()
	return d.s.trace.from(from, buf)
}

// TraceCapacity implements hal.TraceReader.
func (d *device) TraceCapacity(n int) {
	d.s.mu.Lock()
	defer d.s.mu.Unlock()
	d.s.trace.grow(n)
}

// TraceOps implements hal.OpTracer.
func (d *device) TraceOps(on bool) {
	if on {
		d.s.opTraces.Add(1)
	} else if d.s.opTraces.Add(-1) < 0 {
		d.s.opTraces.Add(1)
	}
}

// Depths implements hal.Depther.
func (d *device) Depths(buf []hal.QueueDepth) []hal.QueueDepth {
	if l := d.s.open.Load(); l != nil {
		for _, q := range *l {
			sub, done := q.sq.Submitted.Load(), q.completed.v.Load()
			buf = append(buf, hal.QueueDepth{Queue: q.id, Depth: sub - min(done, sub)})
		}
	}
	return buf
}

// bytesOf is what a transfer task moves, for its trace record.
func bytesOf(t *hal.Task) uint64 {
	switch t.Kind {
	case hal.TaskCopy, hal.TaskMemset:
		return t.Size
	case hal.TaskCopy2D:
		return t.Width * t.Height
	}
	return 0
}

// ClockBase implements hal.TraceReader.
func (d *device) ClockBase() int64 {
	base, _ := d.b.cfg.clockBase()
	return base
}
