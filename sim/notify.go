package sim

import (
	"sync"

	"github.com/gocann/gocann/hal"
)

// notify is a one-shot device signal: a record sets it, a wait consumes it.
// A record and its wait may be on different devices, so a notify has its own
// lock, always taken after a scheduler's (never the other way round).
type notify struct {
	id    uint32
	owner *scheduler

	// mu guards the fields below.
	mu      sync.Mutex
	set     bool
	closed  bool
	waiting []*scheduler // schedulers with a queue blocked on this notify
}

func (s *scheduler) newNotify() (*notify, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, hal.Errorf(hal.KindInvalidDevice, "device %d is closed", s.dev.id)
	}
	if s.notifies >= s.dev.props.NotifyLimit {
		return nil, hal.Errorf(hal.KindNoNotify, "device %d has all %d notifies in use", s.dev.id, s.dev.props.NotifyLimit)
	}
	s.notifies++
	s.notifyID++
	return &notify{id: s.notifyID, owner: s}, nil
}

func (n *notify) ID() uint32 { return n.id }

func (n *notify) Close() error {
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		return hal.Errorf(hal.KindInvalidHandle, "notify %d is already closed", n.id)
	}
	n.closed = true
	n.mu.Unlock()
	n.owner.mu.Lock()
	n.owner.notifies--
	n.owner.mu.Unlock()
	return nil
}

// signal sets the notify and tells the schedulers of its waiters to look.
// from.mu must be held.
func (n *notify) signal(from *scheduler) {
	n.mu.Lock()
	n.set = true
	waiting := n.waiting
	n.waiting = nil
	n.mu.Unlock()
	for _, s := range waiting {
		if s == from {
			from.recheckPolled()
		} else {
			s.wakePoller()
		}
	}
}

// consume takes the signal if it is set; otherwise it registers s to be told
// of the next one. s.mu must be held.
func (n *notify) consume(s *scheduler) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.set {
		n.set = false
		return true
	}
	for _, w := range n.waiting {
		if w == s {
			return false
		}
	}
	n.waiting = append(n.waiting, s)
	return false
}

// Reset clears a record not yet consumed (aclrtNotifyBatchReset).
func (n *notify) Reset() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return hal.Errorf(hal.KindInvalidHandle, "notify %d is closed", n.id)
	}
	n.set = false
	return nil
}
