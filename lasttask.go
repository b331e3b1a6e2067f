package gocann

import (
	"github.com/gocann/gocann/internal/rt"
	"github.com/gocann/gocann/internal/rterr"
)

// ThreadLastTaskID is the id of the last task thread th queued on an
// explicit stream: its sequence number on the stream, or, for a stream
// being captured or built into a model, its index in the model stream; 0
// if it queued none. The tasks that count are kernel launches, which
// carry their submitting thread.
//
// CANN: aclrtGetThreadLastTaskId.
func (x RawRuntime) ThreadLastTaskID(th CaptureThread) uint32 {
	return x.r.rt.ThreadLastTaskID(uint32(th.ID))
}

// CacheLastTaskOpInfo attaches operator information, 1 byte to 64 KiB, to
// the last task thread th queued, which must be a task being captured; it
// shows in the model's JSON description (ModelRI.WriteJSON).
//
// CANN: aclrtCacheLastTaskOpInfo.
func (x RawRuntime) CacheLastTaskOpInfo(th CaptureThread, info []byte) error {
	const op = "RawRuntime.CacheLastTaskOpInfo (aclrtCacheLastTaskOpInfo)"
	if err := x.r.require("aclrtCacheLastTaskOpInfo"); err != nil {
		return err
	}
	if len(info) == 0 {
		return Errorf(op, KindBadArgument, "infoSize 0 is invalid, expected 1..%d", rt.MaxOpInfo)
	}
	if len(info) > rt.MaxOpInfo {
		return Errorf(op, KindInvalidParam, "infoSize %d is invalid, expected 1..%d", len(info), rt.MaxOpInfo)
	}
	return wrap(op, x.r.rt.CacheLastTaskInfo(uint32(th.ID), info, false))
}

// CacheLastTaskExtendInfo attaches extended information, UTF-8 JSON text
// of which the first 4 KiB are kept, to the last task thread th queued,
// which must be a task being captured or built into a model. It shows in
// the model's JSON description and in the message of a fault of the task.
//
// CANN: aclrtCacheLastTaskExtendInfo.
func (x RawRuntime) CacheLastTaskExtendInfo(th CaptureThread, info []byte) error {
	const op = "RawRuntime.CacheLastTaskExtendInfo (aclrtCacheLastTaskExtendInfo)"
	if err := x.r.require("aclrtCacheLastTaskExtendInfo"); err != nil {
		return err
	}
	if len(info) == 0 {
		return wrap(op, rterr.Errorf(rterr.KindInvalidParam, "infoSize 0 is invalid, expected at least 1"))
	}
	return wrap(op, x.r.rt.CacheLastTaskInfo(uint32(th.ID), info[:min(len(info), rt.MaxExtendInfo)], true))
}
