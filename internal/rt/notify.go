package rt

import (
	"sync/atomic"
	"time"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// Notify is a CANN notify: one record releases exactly one wait.
type Notify struct {
	// Front holds the API layer's object for this one, set once.
	Front atomic.Value

	c        *Context
	h        hal.Notify
	counting bool // a counting notify (aclrtCntNotify*)
	dead     atomic.Bool

	ipc notifyIPC // an exported or imported notify
}

// NewNotify creates a notify in c (aclrtCreateNotify).
func (c *Context) NewNotify() (*Notify, error) {
	c.d.r.waitUnlocked()
	if err := c.check(); err != nil {
		return nil, err
	}
	h, err := c.hd.NewNotify()
	if err != nil {
		return nil, err
	}
	return c.adoptNotify(&Notify{c: c, h: h})
}

// adoptNotify makes n one of c's notifies, destroyed with c.
func (c *Context) adoptNotify(n *Notify) (*Notify, error) {
	h := n.h
	c.mu.Lock()
	if c.notifies == nil {
		c.mu.Unlock()
		h.Close()
		return nil, rterr.Errorf(rterr.KindInvalidHandle, "context %d was destroyed", c.id)
	}
	c.notifies[n] = struct{}{}
	c.mu.Unlock()
	return n, nil
}

func (n *Notify) ID() uint32 { return n.h.ID() }

func (n *Notify) check() error {
	if n.dead.Load() {
		return rterr.Errorf(rterr.KindInvalidHandle, "notify was destroyed")
	}
	return nil
}

// Destroy destroys the notify (aclrtDestroyNotify); queued tasks using it
// still run.
func (n *Notify) Destroy() error {
	n.c.d.r.waitUnlocked()
	c := n.c
	c.mu.Lock()
	if _, ok := c.notifies[n]; !ok {
		c.mu.Unlock()
		return rterr.Errorf(rterr.KindInvalidHandle, "notify was already destroyed")
	}
	delete(c.notifies, n)
	c.mu.Unlock()
	n.release()
	return nil
}

func (n *Notify) release() {
	if !n.dead.Swap(true) {
		n.endIPC()
		n.h.Close()
	}
}

// RecordNotify queues a record of n (aclrtRecordNotify).
func (s *Stream) RecordNotify(n *Notify, site uintptr) error {
	if err := n.check(); err != nil {
		return err
	}
	_, err := s.submit(&hal.Task{Kind: hal.TaskNotifyRecord, Notify: n.h, Site: site})
	return err
}

// WaitNotify makes s wait for a record of n, then resets n
// (aclrtWaitAndResetNotify). timeout 0 waits forever; a wait that times out
// is a task fault reported at the next synchronizing call.
func (s *Stream) WaitNotify(n *Notify, timeout time.Duration, site uintptr) error {
	if err := n.check(); err != nil {
		return err
	}
	if err := s.ipcWaitable(n); err != nil {
		return err
	}
	if timeout < 0 {
		return rterr.Errorf(rterr.KindInvalidParam, "timeout %v is invalid, expected >= 0", timeout)
	}
	_, err := s.submit(&hal.Task{Kind: hal.TaskNotifyWait, Notify: n.h, Timeout: s.c.d.r.waitTimeout(timeout), Site: site})
	return err
}
