package sim

import "time"

// Heads blocked on a notify or on device memory cannot be woken by the
// scheduler alone (a kernel may write the memory, another device may record
// the notify), so a poller goroutine rechecks them, backing off while
// nothing changes.
const (
	pollMin = 2 * time.Microsecond
	pollMax = time.Millisecond
)

// recheckPolled retries every polled head; those still blocked re-register.
// s.mu held.
func (s *scheduler) recheckPolled() {
	if len(s.polled) == 0 {
		return
	}
	qs := s.polled
	s.polled = nil
	for _, q := range qs {
		if q.state == qBlocked {
			q.state = qIdle
			s.advance(q)
		}
	}
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
		s.recheckPolled()
		waiting := len(s.polled) > 0
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
