package rt

import (
	"time"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// CntRecord is how a counting notify's record changes its count
// (aclrtCntNotifyRecordInfo).
type CntRecord struct {
	Mode  uint32 // hal.CntRecord*
	Value uint32
}

// CntWait is what a counting notify's wait waits for
// (aclrtCntNotifyWaitInfo).
type CntWait struct {
	Mode    uint32 // hal.CntWait* (without hal.CntWaitClear)
	Value   uint32
	Timeout time.Duration // 0: forever
	Clear   bool          // the count becomes 0 when the wait is satisfied
}

// NewCntNotify creates a counting notify in c (aclrtCntNotifyCreate);
// flag is reserved and must be 0.
func (c *Context) NewCntNotify(flag uint64) (*Notify, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	if flag != 0 {
		return nil, rterr.Errorf(rterr.KindInvalidParam, "flag %#x is invalid, expected 0 (reserved)", flag)
	}
	cn, ok := c.hd.(hal.CntNotifier)
	if !ok {
		return nil, rterr.Errorf(rterr.KindNotSupported, "device %d has no counting notifies", c.d.id)
	}
	h, err := cn.NewCntNotify()
	if err != nil {
		return nil, err
	}
	return c.adoptNotify(&Notify{c: c, h: h, counting: true})
}

// Counting reports whether n is a counting notify.
func (n *Notify) Counting() bool { return n.counting }

func (n *Notify) checkCounting() error {
	if err := n.check(); err != nil {
		return err
	}
	if !n.counting {
		return rterr.Errorf(rterr.KindInvalidParam, "notify %d is not a counting notify (aclrtCntNotifyCreate)", n.ID())
	}
	return nil
}

// RecordCntNotify queues a record of counting notify n (aclrtCntNotifyRecord).
func (s *Stream) RecordCntNotify(n *Notify, rec CntRecord, site uintptr) error {
	if err := n.checkCounting(); err != nil {
		return err
	}
	if !hal.CntRecordValid(rec.Mode) {
		return rterr.Errorf(rterr.KindInvalidParam, "record mode %d is invalid, expected SET_VALUE (0), ADD (1), BIT_OR (2) or BIT_AND (4)", rec.Mode)
	}
	_, err := s.submit(&hal.Task{Kind: hal.TaskCntNotifyRecord, Notify: n.h, Value: uint64(rec.Value), Flag: rec.Mode, Site: site})
	return err
}

// WaitCntNotify makes s wait until counting notify n's count meets w
// (aclrtCntNotifyWaitWithTimeout). A wait that times out is a task fault
// reported at the next synchronizing call.
func (s *Stream) WaitCntNotify(n *Notify, w CntWait, site uintptr) error {
	if err := n.checkCounting(); err != nil {
		return err
	}
	if w.Mode > hal.CntWaitBits {
		return rterr.Errorf(rterr.KindInvalidParam, "wait mode %d is invalid, expected LESS (0), EQUAL (1), BIGGER (2), BIGGER_OR_EQUAL (3) or EQUAL_WITH_BITMASK (4)", w.Mode)
	}
	if w.Timeout < 0 {
		return rterr.Errorf(rterr.KindInvalidParam, "timeout %v is invalid, expected >= 0", w.Timeout)
	}
	flag := w.Mode
	if w.Clear {
		flag |= hal.CntWaitClear
	}
	_, err := s.submit(&hal.Task{Kind: hal.TaskCntNotifyWait, Notify: n.h, Value: uint64(w.Value), Flag: flag, Timeout: w.Timeout, Site: site})
	return err
}

// ResetCntNotify queues a reset of counting notify n's count to 0
// (aclrtCntNotifyReset).
func (s *Stream) ResetCntNotify(n *Notify, site uintptr) error {
	if err := n.checkCounting(); err != nil {
		return err
	}
	_, err := s.submit(&hal.Task{Kind: hal.TaskCntNotifyReset, Notify: n.h, Site: site})
	return err
}

// ResetNotifies clears the records not yet consumed of notifies ns, at
// once, from the host (aclrtNotifyBatchReset). Every notify is checked
// before any is reset.
func ResetNotifies(ns []*Notify) error {
	if len(ns) == 0 {
		return rterr.Errorf(rterr.KindInvalidParam, "num is 0, expected at least one notify")
	}
	rs := make([]hal.NotifyResetter, len(ns))
	for i, n := range ns {
		if err := n.check(); err != nil {
			return rterr.Wrap(rterr.KindOf(err), err, "notifies[%d]", i)
		}
		if n.counting {
			return rterr.Errorf(rterr.KindInvalidParam, "notifies[%d] is a counting notify; reset it with aclrtCntNotifyReset", i)
		}
		if err := n.ipcResettable(); err != nil {
			return rterr.Wrap(rterr.KindOf(err), err, "notifies[%d]", i)
		}
		r, ok := n.h.(hal.NotifyResetter)
		if !ok {
			return rterr.Errorf(rterr.KindNotSupported, "notifies[%d]: this device cannot reset notifies from the host", i)
		}
		rs[i] = r
	}
	for i, r := range rs {
		if err := r.Reset(); err != nil {
			return rterr.Wrap(rterr.KindOf(err), err, "notifies[%d]", i)
		}
	}
	return nil
}
