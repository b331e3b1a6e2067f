package sim

import "github.com/gocann/gocann/hal"

// A graph's external event records (hal.Graph.Records) are numbered when
// its task is submitted, as a queue's own record is: a wait queued after
// the graph task, on any queue, waits for the graph's record. The run takes
// its numbers from its task's slot; a record the run never reaches is
// discarded, as a dropped record task is.

// numberGraphRecords numbers the records of the graph task in sl. s.mu must
// be held.
func (s *scheduler) numberGraphRecords(sl *slot) error {
	sl.recs = sl.recs[:0]
	for _, ev := range sl.t.Graph.Records {
		e, err := s.ownEvent(ev)
		if err != nil {
			return err
		}
		if e.flagMode {
			sl.recs = append(sl.recs, 0) // a flag needs no number
			continue
		}
		e.submitted++
		e.pending = append(e.pending, e.submitted)
		sl.recs = append(sl.recs, e.submitted)
	}
	return nil
}

// discardGraphRecords forgets the numbered records recs of graph g that
// will not run. s.mu must be held.
func discardGraphRecords(g *hal.Graph, recs []uint64) {
	if g == nil {
		return
	}
	for i, rec := range recs {
		if rec == 0 || i >= len(g.Records) {
			continue
		}
		if e, ok := g.Records[i].(*event); ok {
			e.discard(rec)
		}
		recs[i] = 0
	}
}

// takeRecords gives run r the numbers of its task's external records.
func (r *graphRun) takeRecords(top *item, g *hal.Graph) {
	r.recs = r.recs[:0]
	if top == nil || top.q == nil || len(g.Records) == 0 {
		return
	}
	r.s.mu.Lock()
	r.recs = append(r.recs, top.q.slot(top.seq).recs...)
	r.s.mu.Unlock()
}

// recordNumber is the number of the record of e that the run was given,
// or 0 if it has none (left). s.mu must be held.
func (r *graphRun) recordNumber(e *event) uint64 {
	for i, ev := range r.g.Records {
		if ev == hal.Event(e) && i < len(r.recs) && r.recs[i] != 0 {
			rec := r.recs[i]
			r.recs[i] = 0
			return rec
		}
	}
	return 0
}

// dropRecords discards the numbered records the run did not reach.
func (r *graphRun) dropRecords() {
	if len(r.recs) == 0 {
		return
	}
	r.s.mu.Lock()
	discardGraphRecords(r.g, r.recs)
	r.s.mu.Unlock()
}
