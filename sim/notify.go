package sim

import (
	"sync"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/sim/shared"
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
	waiting []*scheduler   // schedulers with a queue blocked on this notify
	ipc     bool           // exported: other processes' records reach it
	ex      *shared.Export // the export, while ipc
	checked int64          // device time of the last look at its importers
}

func (s *scheduler) newNotify() (*notify, error) {
	id, err := s.takeNotify()
	if err != nil {
		return nil, err
	}
	return &notify{id: id, owner: s}, nil
}

// takeNotify counts one more of the device's notifies, plain or counting,
// and returns its id.
func (s *scheduler) takeNotify() (uint32, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return 0, hal.Errorf(hal.KindInvalidDevice, "device %d is closed", s.dev.id)
	}
	if s.notifies >= s.dev.props.NotifyLimit {
		return 0, hal.Errorf(hal.KindNoNotify, "device %d has all %d notifies in use", s.dev.id, s.dev.props.NotifyLimit)
	}
	s.notifies++
	s.notifyID++
	return s.notifyID, nil
}

// dropNotify closes a notify once (what names its kind) and gives its
// count back; mu guards closed.
func (s *scheduler) dropNotify(mu *sync.Mutex, closed *bool, what string, id uint32) error {
	mu.Lock()
	if *closed {
		mu.Unlock()
		return hal.Errorf(hal.KindInvalidHandle, "%s %d is already closed", what, id)
	}
	*closed = true
	mu.Unlock()
	s.mu.Lock()
	s.notifies--
	s.mu.Unlock()
	return nil
}

func (n *notify) ID() uint32 { return n.id }

func (n *notify) Close() error {
	if err := n.owner.dropNotify(&n.mu, &n.closed, "notify", n.id); err != nil {
		return err
	}
	n.mu.Lock()
	ex := n.ex
	n.mu.Unlock()
	if ex != nil {
		n.owner.dev.b.ipc.withdrawKey(ex.Key)
	}
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
	n.waiting = addWaiter(n.waiting, s)
	return false
}

// addWaiter adds s to the schedulers waiting on a notify, once.
func addWaiter(waiting []*scheduler, s *scheduler) []*scheduler {
	for _, w := range waiting {
		if w == s {
			return waiting
		}
	}
	return append(waiting, s)
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
