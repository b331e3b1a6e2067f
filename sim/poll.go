package sim

import (
	"time"

	"github.com/gocann/gocann/hal"
)

// Heads blocked on a notify or on device memory cannot be woken by the
// scheduler alone (a kernel may write the memory, another device may record
// the notify), so a poller goroutine rechecks them, backing off while
// nothing changes.
const (
	pollMin = 2 * time.Microsecond
	pollMax = time.Millisecond
)

// recheckPolled retries every polled head; those still blocked re-register.
// s.mu must be held.
func (s *scheduler) recheckPolled() {
	if len(s.polled) == 0 {
		return
	}
	// Swap in the spare list: heads still blocked re-register into it.
	qs := s.polled
	s.polled, s.pollSpare = s.pollSpare[:0], nil
	for _, q := range qs {
		if q.state == qBlocked {
			q.setState(qIdle)
			s.advance(q)
		}
	}
	clear(qs)
	s.pollSpare = qs[:0]
}

// needsTimer reports whether a polled head can be released by something
// the scheduler is not told about: a value wait (kernels write memory
// directly) or a notify wait's deadline. s.mu must be held.
func (s *scheduler) needsTimer() bool {
	for _, q := range s.polled {
		sl := q.slot(q.done + 1)
		if sl.t.Kind == hal.TaskValueWait || sl.deadline != 0 || exportedWait(&sl.t) {
			return true
		}
	}
	return false
}

// poll registers q, whose head sl is blocked, for rechecks, and starts the
// poller if the head needs timed polling. s.mu must be held.
func (s *scheduler) poll(q *queue, sl *slot) {
	s.polled = append(s.polled, q)
	if !s.polling && (sl.t.Kind == hal.TaskValueWait || sl.deadline != 0 || exportedWait(&sl.t)) {
		s.wakePoller()
	}
}

// exportedWait reports whether t waits on a notify other processes
// record, whose importers' exit only a look can find.
func exportedWait(t *hal.Task) bool {
	if t.Kind != hal.TaskNotifyWait {
		return false
	}
	n, ok := t.Notify.(*notify)
	if !ok {
		return false
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.ipc
}

// wakePoller makes the poller look now.
func (s *scheduler) wakePoller() {
	select {
	case s.poke <- struct{}{}:
	default:
	}
}

func (s *scheduler) poller() {
	defer s.wg.Done()
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	delay := pollMin
	for {
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			return
		}
		s.polling = true
		s.recheckPolled()
		s.polling = false
		waiting := s.needsTimer()
		faults := s.takeFaults()
		s.mu.Unlock()
		s.report(faults)
		if !waiting {
			<-s.poke
			delay = pollMin
			continue
		}
		timer.Reset(delay)
		select {
		case <-s.poke:
			timer.Stop()
			delay = pollMin
		case <-timer.C:
			delay = min(2*delay, pollMax)
		}
	}
}
