package sim

import "github.com/gocann/gocann/hal"

var _ hal.Stopper = (*queue)(nil)

// Stop stops the queue at the host's request (hal.Stopper): the stop a
// fault makes in StopOnFailure mode, with no fault behind it. The tasks not
// started stay queued until Abort drops them.
func (q *queue) Stop() error {
	s := q.s
	q.lockSubmit()
	s.mu.Lock()
	defer s.mu.Unlock()
	q.absorb()
	q.unlockSubmit()
	if q.closed {
		return hal.Errorf(hal.KindInvalidHandle, "queue %d is closed", q.id)
	}
	if q.stop.Load() != nil {
		return nil // stopped already, by a fault or a stop
	}
	q.setStop(&hal.Fault{Kind: hal.KindStreamAborted, Device: s.dev.id, Queue: q.id, Time: s.clock(),
		Msg: "stopped by the host"})
	q.unqueue()
	q.completed.interrupt()
	return nil
}
