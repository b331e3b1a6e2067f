package sim

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

// admit checks a task at submission and notes what the scheduler must know
// about it then: event record numbers. s.mu must be held.
func (s *scheduler) admit(q *queue, sl *slot) error {
	t := &sl.t
	switch t.Kind {
	case hal.TaskGraph:
		if err := staticCheck(t); err != nil {
			return err
		}
		return s.numberGraphRecords(sl)
	case hal.TaskKernel, hal.TaskCopy, hal.TaskMemset, hal.TaskCopy2D, hal.TaskHostFunc, hal.TaskCopyBatch, hal.TaskCopyIndirect, hal.TaskReduce, hal.TaskRandom:
		return staticCheck(t)
	case hal.TaskCmo:
		// Simulated memory is coherent: the operation only keeps its place
		// in the queue (runSync completes it).
	case hal.TaskEventRecord, hal.TaskEventWait, hal.TaskEventReset:
		if re, ok := t.Event.(*remoteEvent); ok {
			return s.admitRemote(sl, re)
		}
		e, err := s.ownEvent(t.Event)
		if err != nil {
			return err
		}
		sl.rec, sl.deadline = 0, 0
		switch {
		case e.flagMode:
			// A flag needs no numbering: the task reads it when it runs.
		case t.Kind == hal.TaskEventRecord:
			e.submitted++
			sl.rec = e.submitted
			e.pending = append(e.pending, sl.rec)
			if e.ipc != nil {
				e.ipc.Submitted(sl.rec)
			}
		case t.Kind == hal.TaskEventWait:
			if e.submitted > e.resetAt {
				sl.rec = e.submitted
			}
		case t.Kind == hal.TaskEventReset:
			e.resetAt = e.submitted
		}
	case hal.TaskNotifyRecord, hal.TaskNotifyWait:
		if rn, ok := t.Notify.(*remoteNotify); ok {
			return admitRemoteNotify(t, rn)
		}
		n, ok := t.Notify.(*notify)
		if !ok || n == nil {
			return hal.Errorf(hal.KindInvalidHandle, "notify %v does not belong to this backend", t.Notify)
		}
		sl.deadline = 0
	case hal.TaskCntNotifyRecord, hal.TaskCntNotifyWait, hal.TaskCntNotifyReset:
		if n, ok := t.Notify.(*cntNotify); !ok || n == nil {
			return hal.Errorf(hal.KindInvalidHandle, "count notify %v does not belong to this backend", t.Notify)
		}
		if t.Kind == hal.TaskCntNotifyRecord && !hal.CntRecordValid(t.Flag) {
			return hal.Errorf(hal.KindInvalidParam, "count notify record mode %d is invalid, expected 0, 1, 2 or 4", t.Flag)
		}
		sl.deadline = 0
	case hal.TaskValueWrite, hal.TaskValueWait:
		if t.Dst.IsHost() || t.Dst.Dev%8 != 0 {
			return hal.Errorf(hal.KindUnaligned, "value address %#x is invalid, expected 8-byte aligned device memory", t.Dst.Addr())
		}
		if t.Kind == hal.TaskValueWait && t.Flag > hal.WaitNOR {
			return hal.Errorf(hal.KindInvalidParam, "value wait flag %d is invalid, expected 0..3", t.Flag)
		}
		sl.deadline = 0
	default:
		return hal.Errorf(hal.KindInvalidParam, "task kind %d is invalid", t.Kind)
	}
	return nil
}

// staticCheck checks an engine task on its own; such a task needs nothing
// else at submission. A kernel launch was checked by its submitter
// (hal.Task).
func staticCheck(t *hal.Task) error {
	switch t.Kind {
	case hal.TaskGraph:
		if t.Graph == nil {
			return hal.Errorf(hal.KindInvalidParam, "graph task without a graph")
		}
	case hal.TaskHostFunc:
		if t.Host == nil && t.HostFn == nil {
			return hal.Errorf(hal.KindInvalidParam, "host function task without a function")
		}
	case hal.TaskReduce:
		if es := kernel.DType(t.Flag).Size(); es == 0 || t.Size%es != 0 {
			return hal.Errorf(hal.KindInvalidParam, "reduce of %d bytes of element type %d is invalid", t.Size, t.Flag)
		}
	case hal.TaskRandom:
		if t.Random == nil {
			return hal.Errorf(hal.KindInvalidParam, "random task without its description")
		}
	}
	return nil
}

func (s *scheduler) ownEvent(ev hal.Event) (*event, error) {
	e, ok := ev.(*event)
	if !ok || e == nil {
		return nil, hal.Errorf(hal.KindInvalidHandle, "event %v does not belong to this backend", ev)
	}
	if e.s != s {
		return nil, hal.Errorf(hal.KindInvalidParam, "event belongs to device %d, the stream to device %d", e.s.dev.id, s.dev.id)
	}
	return e, nil
}

// runSync runs a synchronization task at the head of q. It reports false if
// the task must wait; otherwise the task is done, with fault f if it failed.
// s.mu must be held.
func (s *scheduler) runSync(q *queue, sl *slot, now int64) (ok bool, f *hal.Fault) {
	t := &sl.t
	switch t.Kind {
	case hal.TaskEventRecord:
		t.Event.(*event).record(sl.rec, now)
	case hal.TaskEventWait:
		if re, ok := t.Event.(*remoteEvent); ok {
			return s.runRemoteWait(q, sl, re, now)
		}
		e := t.Event.(*event)
		if !e.satisfied(sl.rec) {
			if f := s.expired(q, sl, now, "event wait"); f != nil {
				return true, f
			}
			e.waiters = append(e.waiters, q)
			if t.Timeout > 0 {
				s.poll(q, sl) // the poller watches the deadline
			}
			return false, nil
		}
	case hal.TaskEventReset:
		t.Event.(*event).reset()
	case hal.TaskNotifyRecord:
		if rn, ok := t.Notify.(*remoteNotify); ok {
			rn.signal()
			break
		}
		t.Notify.(*notify).signal(s)
	case hal.TaskNotifyWait:
		if n := t.Notify.(*notify); !n.consume(s) {
			if f := s.expired(q, sl, now, fmt.Sprintf("notify %d wait", t.Notify.ID())); f != nil {
				return true, f
			}
			if f := s.abandoned(q, sl, n, now); f != nil {
				return true, f
			}
			s.poll(q, sl)
			return false, nil
		}
	case hal.TaskCntNotifyRecord, hal.TaskCntNotifyWait, hal.TaskCntNotifyReset:
		return s.runCnt(q, sl, now)
	case hal.TaskValueWrite, hal.TaskValueWait:
		p, err := s.dev.kmem.Pointer(t.Dst.Dev, 8) // device memory, or host memory mapped for it
		if err != nil {
			return true, s.newFault(q, q.done+1, t, hal.KindDMAFault, t.Kind.String()+" failed", err)
		}
		w := (*uint64)(p)
		if t.Kind == hal.TaskValueWrite {
			atomic.StoreUint64(w, t.Value)
			s.recheckPolled()
			break
		}
		if !hal.ValueMatches(atomic.LoadUint64(w), t.Value, t.Flag) {
			if f := s.expired(q, sl, now, fmt.Sprintf("value wait at %#x", t.Dst.Dev)); f != nil {
				return true, f
			}
			s.poll(q, sl)
			return false, nil
		}
	}
	return true, nil
}

// expired starts the deadline of a blocked wait with a timeout, or returns
// its timeout fault once the deadline passed. s.mu must be held.
func (s *scheduler) expired(q *queue, sl *slot, now int64, what string) *hal.Fault {
	t := &sl.t
	if !sl.deadline.expired(now, t.Timeout) {
		return nil
	}
	return s.newFault(q, q.done+1, t, hal.KindWaitTimeout, timeoutMsg(what, t.Timeout), nil)
}

// waitDeadline is the timeout rule of every device-side wait, a queue
// head's (expired) and a model operation's (graphRun.waitTimed): the
// timeout counts from the first check that finds the wait unsatisfied, as
// on hardware, not from its submission. It holds the device clock at which
// the wait times out, 0 until then.
type waitDeadline int64

// expired starts d at the first check and reports whether now is past it;
// a timeout <= 0 never expires.
func (d *waitDeadline) expired(now int64, timeout time.Duration) bool {
	switch {
	case timeout <= 0:
		return false
	case *d == 0:
		*d = waitDeadline(now + int64(timeout))
		return false
	}
	return now >= int64(*d)
}

// timeoutMsg is the message of a wait's timeout fault.
func timeoutMsg(what string, timeout time.Duration) string {
	return fmt.Sprintf("%s timed out after %v", what, timeout)
}
