package sim

import (
	"sync"

	"github.com/gocann/gocann/hal"
)

// cntNotify is a counting notify: records change a 32-bit count, waits
// compare it. Like a notify it may be recorded from another device than
// the one waiting, so it has its own lock, taken after a scheduler's.
type cntNotify struct {
	id    uint32
	owner *scheduler

	// mu guards the fields below.
	mu      sync.Mutex
	count   uint32
	closed  bool
	waiting []*scheduler // schedulers with a queue blocked on this notify
}

func (d *device) NewCntNotify() (hal.Notify, error) { return d.s.newCntNotify() }

func (s *scheduler) newCntNotify() (*cntNotify, error) {
	id, err := s.takeNotify()
	if err != nil {
		return nil, err
	}
	return &cntNotify{id: id, owner: s}, nil
}

func (n *cntNotify) ID() uint32 { return n.id }

func (n *cntNotify) Close() error { return n.owner.dropNotify(&n.mu, &n.closed, "count notify", n.id) }

// update applies a record or a reset and tells the schedulers of its
// waiters to look. from.mu must be held.
func (n *cntNotify) update(from *scheduler, f func(uint32) uint32) {
	n.mu.Lock()
	n.count = f(n.count)
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

// take reports whether the count satisfies the wait (value, flag),
// clearing it if the wait asks; otherwise it registers s to be told of the
// next change. s.mu must be held, or s nil (a graph run, which polls).
func (n *cntNotify) take(s *scheduler, value, flag uint32) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	if hal.CntMatches(n.count, value, flag) {
		if flag&hal.CntWaitClear != 0 {
			n.count = 0
		}
		return true
	}
	if s == nil {
		return false
	}
	n.waiting = addWaiter(n.waiting, s)
	return false
}

// runCnt runs a counting-notify task at the head of q. It reports false if
// the wait must go on; otherwise the task is done, with fault f if it
// failed. s.mu must be held.
func (s *scheduler) runCnt(q *queue, sl *slot, now int64) (bool, *hal.Fault) {
	t := &sl.t
	n := t.Notify.(*cntNotify)
	switch t.Kind {
	case hal.TaskCntNotifyRecord:
		v, mode := uint32(t.Value), t.Flag
		n.update(s, func(c uint32) uint32 { return hal.CntApply(c, v, mode) })
	case hal.TaskCntNotifyReset:
		n.update(s, func(uint32) uint32 { return 0 })
	case hal.TaskCntNotifyWait:
		if !n.take(s, uint32(t.Value), t.Flag) {
			if f := s.expired(q, sl, now, "count notify wait"); f != nil {
				return true, f
			}
			s.poll(q, sl)
			return false, nil
		}
	}
	return true, nil
}
