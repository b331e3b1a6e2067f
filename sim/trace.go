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
