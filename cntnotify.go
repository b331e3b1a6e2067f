package gocann

import (
	"context"
	"time"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/callsite"
	"github.com/gocann/gocann/internal/rt"
	"github.com/gocann/gocann/internal/rterr"
)

// CntRecordMode says how a record changes a CntNotify's count
// (aclrtCntNotifyRecordMode).
type CntRecordMode uint32

const (
	CntSet CntRecordMode = CntRecordMode(hal.CntRecordSet) // ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE: count = value
	CntAdd CntRecordMode = CntRecordMode(hal.CntRecordAdd) // ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE: count += value
	CntOr  CntRecordMode = CntRecordMode(hal.CntRecordOr)  // ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE: count |= value
	CntAnd CntRecordMode = CntRecordMode(hal.CntRecordAnd) // ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE: count &= value
)

// CntWaitMode says when a wait on a CntNotify ends (aclrtCntNotifyWaitMode).
type CntWaitMode uint32

const (
	CntLess    CntWaitMode = CntWaitMode(hal.CntWaitLess)    // ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE: count < value
	CntEqual   CntWaitMode = CntWaitMode(hal.CntWaitEqual)   // ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE: count == value
	CntBigger  CntWaitMode = CntWaitMode(hal.CntWaitBigger)  // ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE: count > value
	CntAtLeast CntWaitMode = CntWaitMode(hal.CntWaitAtLeast) // ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE: count >= value
	CntBits    CntWaitMode = CntWaitMode(hal.CntWaitBits)    // ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE: count & value == value
)

// CntWait is what Stream.WaitCntNotify waits for (aclrtCntNotifyWaitInfo).
type CntWait struct {
	Mode    CntWaitMode
	Value   uint32
	Timeout time.Duration // 0 waits forever; a wait that expires is a task fault (ACL_ERROR_RT_WAIT_TIMEOUT)
	Clear   bool          // the count becomes 0 when the wait ends (isClear)
}

// CntNotify is a counting notify: a 32-bit count on the device that
// records set, add to or mask, and that waits compare, in stream order.
type CntNotify struct {
	r *Runtime
	n *rt.Notify
}

// NewCntNotify creates a counting notify; flag is reserved and must be 0.
//
// CANN: aclrtCntNotifyCreate.
func (c *Context) NewCntNotify(flag uint64) (*CntNotify, error) {
	if err := c.r.require("aclrtCntNotifyCreate"); err != nil {
		return nil, err
	}
	n, err := c.c.NewCntNotify(flag)
	if err != nil {
		return nil, wrap("Context.NewCntNotify (aclrtCntNotifyCreate)", err)
	}
	f := &CntNotify{r: c.r, n: n}
	n.Front.Store(f)
	return f, nil
}

// ID is the counting notify's id.
//
// CANN: aclrtCntNotifyGetId.
func (n *CntNotify) ID() (uint32, error) {
	if err := n.r.require("aclrtCntNotifyGetId"); err != nil {
		return 0, err
	}
	return n.n.ID(), nil
}

// Close destroys the counting notify; tasks already queued that use it
// still run.
//
// CANN: aclrtCntNotifyDestroy.
func (n *CntNotify) Close() error {
	if err := n.r.require("aclrtCntNotifyDestroy"); err != nil {
		return err
	}
	return wrap("CntNotify.Close (aclrtCntNotifyDestroy)", n.n.Destroy())
}

// RecordCntNotify queues a record of n that changes its count by mode and
// value.
//
// CANN: aclrtCntNotifyRecord.
//
//go:noinline
func (s *Stream) RecordCntNotify(n *CntNotify, mode CntRecordMode, value uint32) error {
	const op = "Stream.RecordCntNotify (aclrtCntNotifyRecord)"
	if err := s.r.require("aclrtCntNotifyRecord"); err != nil {
		return err
	}
	if n == nil {
		return wrap(op, rterr.Errorf(rterr.KindBadArgument, "cntNotify is nil"))
	}
	return wrap(op, s.s.RecordCntNotify(n.n, rt.CntRecord{Mode: uint32(mode), Value: value}, callsite.Caller()))
}

// WaitCntNotify holds later tasks of the stream until n's count meets w.
//
// CANN: aclrtCntNotifyWaitWithTimeout.
//
//go:noinline
func (s *Stream) WaitCntNotify(n *CntNotify, w CntWait) error {
	const op = "Stream.WaitCntNotify (aclrtCntNotifyWaitWithTimeout)"
	if err := s.r.require("aclrtCntNotifyWaitWithTimeout"); err != nil {
		return err
	}
	if n == nil {
		return wrap(op, rterr.Errorf(rterr.KindBadArgument, "cntNotify is nil"))
	}
	return wrap(op, s.s.WaitCntNotify(n.n, rt.CntWait{Mode: uint32(w.Mode), Value: w.Value, Timeout: w.Timeout, Clear: w.Clear}, callsite.Caller()))
}

// ResetCntNotify queues a reset of n's count to 0.
//
// CANN: aclrtCntNotifyReset.
//
//go:noinline
func (s *Stream) ResetCntNotify(n *CntNotify) error {
	const op = "Stream.ResetCntNotify (aclrtCntNotifyReset)"
	if err := s.r.require("aclrtCntNotifyReset"); err != nil {
		return err
	}
	if n == nil {
		return wrap(op, rterr.Errorf(rterr.KindBadArgument, "cntNotify is nil"))
	}
	return wrap(op, s.s.ResetCntNotify(n.n, callsite.Caller()))
}

// ResetNotifies clears, at once and from the host, the records of ns that
// no wait has consumed yet. Every notify is checked before any is reset.
//
// CANN: aclrtNotifyBatchReset.
func (r *Runtime) ResetNotifies(ns ...*Notify) error {
	const op = "Runtime.ResetNotifies (aclrtNotifyBatchReset)"
	if err := r.require("aclrtNotifyBatchReset"); err != nil {
		return err
	}
	in := make([]*rt.Notify, len(ns))
	for i, n := range ns {
		if n == nil {
			return wrap(op, rterr.Errorf(rterr.KindBadArgument, "notifies[%d] is nil", i))
		}
		in[i] = n.n
	}
	return wrap(op, rt.ResetNotifies(in))
}

// SubscribeHostFunc makes the caller's thread named id run the host
// functions launched on s (Stream.LaunchHostFunc), each inside a call of
// ProcessHostFunc(id, ...); the stream waits for each. A thread serves
// streams of one device; a stream has one thread.
//
// CANN: aclrtSubscribeHostFunc.
func (r *Runtime) SubscribeHostFunc(id uint64, s *Stream) error {
	if err := r.require("aclrtSubscribeHostFunc"); err != nil {
		return err
	}
	if s == nil {
		return wrap("Runtime.SubscribeHostFunc (aclrtSubscribeHostFunc)", rterr.Errorf(rterr.KindBadArgument, "exeStream is nil, expected a stream"))
	}
	return wrap("Runtime.SubscribeHostFunc (aclrtSubscribeHostFunc)", r.rt.SubscribeHostFunc(id, s.s))
}

// ProcessHostFunc runs one host function handed to thread id, waiting for
// one up to timeout (< 0: until ctx ends).
//
// CANN: aclrtProcessHostFunc.
func (r *Runtime) ProcessHostFunc(ctx context.Context, id uint64, timeout time.Duration) error {
	if err := r.require("aclrtProcessHostFunc"); err != nil {
		return err
	}
	return wrap("Runtime.ProcessHostFunc (aclrtProcessHostFunc)", r.rt.ProcessHostFunc(ctx, id, timeout))
}

// UnsubscribeHostFunc ends thread id's service of s.
//
// CANN: aclrtUnSubscribeHostFunc.
func (r *Runtime) UnsubscribeHostFunc(id uint64, s *Stream) error {
	if err := r.require("aclrtUnSubscribeHostFunc"); err != nil {
		return err
	}
	if s == nil {
		return wrap("Runtime.UnsubscribeHostFunc (aclrtUnSubscribeHostFunc)", rterr.Errorf(rterr.KindBadArgument, "exeStream is nil, expected a stream"))
	}
	return wrap("Runtime.UnsubscribeHostFunc (aclrtUnSubscribeHostFunc)", r.rt.UnsubscribeHostFunc(id, s.s))
}
