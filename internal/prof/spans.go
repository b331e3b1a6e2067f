package prof

import "github.com/gocann/gocann/hal"

// Matching a device task to the host call that submitted it: the call on
// the task's submitting thread whose span holds the task's submit time (a
// thread makes one call at a time). Each thread keeps its recent calls,
// in order, for as long as their tasks may still arrive.

// spanKeep is how long a call is kept for the tasks it submitted.
const spanKeep = 10e9 // ns

type threadSpans struct {
	calls []APICall // by start
}

func (t *threadSpans) add(c APICall) { t.calls = append(t.calls, c) }

// find returns the call holding time at.
func (t *threadSpans) find(at int64) (APICall, bool) {
	if t == nil {
		return APICall{}, false
	}
	lo, hi := 0, len(t.calls)
	for lo < hi {
		m := (lo + hi) / 2
		if t.calls[m].Start <= at {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo > 0 && t.calls[lo-1].End >= at {
		return t.calls[lo-1], true
	}
	return APICall{}, false
}

// pruneSpans forgets calls older than spanKeep. s.mu held.
func (s *Session) pruneSpans() {
	cut := s.cfg.Now() - spanKeep
	for _, t := range s.threads {
		n := 0
		for n < len(t.calls) && t.calls[n].End < cut {
			n++
		}
		if n > 0 {
			t.calls = append(t.calls[:0], t.calls[n:]...)
		}
	}
	s.pruneMarks(cut + spanKeep)
}

// callPending reports whether the call that submitted r may not have
// arrived yet: r's thread's last call ended before r was submitted, and r
// is recent. s.mu held.
func (s *Session) callPending(d *devState, r hal.Record) bool {
	if r.Thread == 0 || r.Op != 0 || s.api == nil {
		return false
	}
	submit := r.Submit + d.ClockBase
	if s.cfg.Now()-submit > callWait {
		return false
	}
	t := s.threads[r.Thread]
	return t == nil || len(t.calls) == 0 || t.calls[len(t.calls)-1].End < submit
}

// callWait is how long a task waits for the call that submitted it.
const callWait = 1e9 // ns
