package sim

import (
	"slices"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/sim/shared"
)

// event is a device event. Records are numbered in submission order; a wait
// waits for the record that was the latest when the wait was submitted.
// Fields are guarded by the owning scheduler's mu.
type event struct {
	s         *scheduler
	counted   bool
	flagMode  bool // set by a record until a reset (ACL_EVENT_EXTERNAL)
	flag      bool // flagMode: set
	closed    bool
	submitted uint64         // number of the last record submitted
	resetAt   uint64         // submitted as of the last reset: waits ignore records up to it
	done      uint64         // highest record number completed
	ts        int64          // device clock when record done completed
	pending   []uint64       // records submitted and not run, ascending: they may run out of order on different queues
	waiters   []*queue       // queues whose head waits on this event
	ipc       *shared.Export // the export other processes wait on, if exported
}

func (s *scheduler) newEvent(cfg hal.EventConfig) (*event, error) {
	counted := cfg.Counted
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, hal.Errorf(hal.KindInvalidDevice, "device %d is closed", s.dev.id)
	}
	if counted {
		if s.events >= s.dev.props.EventLimit {
			return nil, hal.Errorf(hal.KindNoEvent, "device %d has all %d events in use", s.dev.id, s.dev.props.EventLimit)
		}
		s.events++
	}
	return &event{s: s, counted: counted, flagMode: cfg.Flag}, nil
}

func (e *event) Timestamp() (int64, bool) {
	e.s.mu.Lock()
	defer e.s.mu.Unlock()
	return e.ts, e.done > 0
}

func (e *event) Close() error {
	e.s.mu.Lock()
	if e.closed {
		e.s.mu.Unlock()
		return hal.Errorf(hal.KindInvalidHandle, "event is already closed")
	}
	e.closed = true
	if e.counted {
		e.s.events--
	}
	ex := e.ipc
	e.s.mu.Unlock()
	if ex != nil {
		e.s.dev.b.ipc.withdrawKey(ex.Key)
	}
	return nil
}

// ran reports whether record rec has run; 0 stands for no record. s.mu must be held.
func (e *event) ran(rec uint64) bool {
	_, pending := slices.BinarySearch(e.pending, rec)
	return !pending
}

// satisfied reports whether a wait for record rec may proceed: the record
// ran, or for a flag event the flag is set. s.mu must be held.
func (e *event) satisfied(rec uint64) bool {
	if e.flagMode {
		return e.flag
	}
	return e.ran(rec)
}

// reset clears a flag event; numbered events are reset at submission.
// s.mu must be held.
func (e *event) reset() {
	if e.flagMode {
		e.flag = false
	}
}

// discard forgets record rec, which will not run, and releases its
// waiters; the event's time and last completed record stay as they were.
// s.mu must be held.
func (e *event) discard(rec uint64) {
	if i, ok := slices.BinarySearch(e.pending, rec); ok {
		e.pending = slices.Delete(e.pending, i, i+1)
	}
	e.publish()
	e.release()
}

// release lets the queues waiting on e look again. s.mu must be held.
func (e *event) release() {
	for i, q := range e.waiters {
		e.s.advance(q)
		e.waiters[i] = nil
	}
	e.waiters = e.waiters[:0]
}

// record completes record rec at time now and releases its waiters; for a
// flag event it sets the flag. s.mu must be held.
func (e *event) record(rec uint64, now int64) {
	if e.flagMode {
		e.flag = true
		e.done++
		e.ts = now
	}
	if i, ok := slices.BinarySearch(e.pending, rec); ok {
		e.pending = slices.Delete(e.pending, i, i+1)
	}
	if rec > e.done {
		e.done = rec
		e.ts = now
	}
	e.publish()
	e.release()
}

// publish tells importers the last record up to which every record
// completed. s.mu must be held.
func (e *event) publish() {
	if e.ipc == nil {
		return
	}
	upto := e.submitted
	if len(e.pending) > 0 {
		upto = e.pending[0] - 1
	}
	e.ipc.Completed(upto)
}
