package main

/*
#include <string.h>
#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "thread.h"
*/
import "C"

import (
	"sync"
	"unsafe"

	"github.com/gocann/gocann"
)

// The msproftx calls: stamps carry a message; marks, pushed ranges (one
// stack per thread) and ranges by id become events of the running
// session's timeline, on the calling thread's track. They need a session
// that records marks (aclprofStart with ACL_PROF_MSPROFTX, or msproftx
// on in the profiling configuration); stamps live until aclprofDestroyStamp
// or aclprofFinalize.

// maxStamps is how many stamps may live at once, CANN's pool size.
const maxStamps = 100

// txStamp is a stamp: its message.
type txStamp struct{ msg string }

// txRange is a range started and not yet ended.
type txRange struct {
	msg   string
	tid   uint32
	start int64
	args  []gocann.MarkArg
}

// profTX is the msproftx state.
var profTX struct {
	// mu guards the fields below.
	mu     sync.Mutex
	stamps int                  // live stamps
	pushed map[uint32][]txRange // by OS thread, newest last: aclprofPush's
	ranges map[uint32]txRange   // by range id: aclprofRangeStart's
	nextID uint32
}

// endStamps ends every stamp and range, as aclprofFinalize does.
func endStamps() {
	profObjs.removeKind(kindProfStamp)
	profTX.mu.Lock()
	profTX.stamps, profTX.pushed, profTX.ranges = 0, nil, nil
	profTX.mu.Unlock()
	endPushEx()
}

// txSession is the running session that records marks, or the error.
func txSession(t *C.gocann_thread, fn string) (*gocann.Profiler, C.aclError) {
	if r := proc.runtime(); r != nil {
		if p := r.Profiling(); p != nil && !p.Config().NoMarks {
			return p, 0
		}
	}
	return nil, failf(t, fn, gocann.KindProfNotRun, "no profiling session records msproftx marks; call aclprofStart with ACL_PROF_MSPROFTX first")
}

// stampOf is the stamp C passed, or the error.
func stampOf(t *C.gocann_thread, fn string, p unsafe.Pointer) (*txStamp, C.aclError) {
	obj, code := profObj(t, fn, "stamp", p, kindProfStamp)
	if code != 0 {
		return nil, code
	}
	return obj.(*txStamp), 0
}

//export gocann_aclprofCreateStamp
func gocann_aclprofCreateStamp(t *C.gocann_thread) unsafe.Pointer {
	const fn = "aclprofCreateStamp"
	if unsupported(t, "aclprofCreateStamp") != 0 {
		return nil
	}
	if _, code := txSession(t, fn); code != 0 {
		return nil
	}
	profTX.mu.Lock()
	defer profTX.mu.Unlock()
	if profTX.stamps >= maxStamps {
		failf(t, fn, gocann.KindOverLimit, "%d stamps live, the most there may be; destroy one first", maxStamps)
		return nil
	}
	h, ok := profObjs.add(kindProfStamp, &txStamp{})
	if !ok {
		failf(t, fn, gocann.KindInternal, "too many stamps created")
		return nil
	}
	profTX.stamps++
	return C.gocann_handle(C.uintptr_t(h))
}

//export gocann_aclprofDestroyStamp
func gocann_aclprofDestroyStamp(t *C.gocann_thread, stamp unsafe.Pointer) {
	const fn = "aclprofDestroyStamp"
	if unsupported(t, "aclprofDestroyStamp") != 0 {
		return
	}
	if _, ok := profObjs.remove(handleOf(stamp), kindProfStamp); !ok {
		fail(t, fn, profObjError(fn, "stamp", stamp, kindProfStamp))
		return
	}
	profTX.mu.Lock()
	profTX.stamps--
	profTX.mu.Unlock()
}

//export gocann_aclprofSetStampTraceMessage
func gocann_aclprofSetStampTraceMessage(t *C.gocann_thread, stamp unsafe.Pointer, msg *C.char, n C.uint32_t) C.aclError {
	const fn = "aclprofSetStampTraceMessage"
	if code := unsupported(t, "aclprofSetStampTraceMessage"); code != 0 {
		return code
	}
	s, code := stampOf(t, fn, stamp)
	if code != 0 {
		return code
	}
	switch {
	case n >= 128:
		return failf(t, fn, gocann.KindBadArgument, "msgLen %d is invalid, expected under 128", n)
	case msg == nil:
		return nullArg(t, fn, "msg")
	}
	m := C.GoStringN(msg, C.int(C.strnlen(msg, C.size_t(n))))
	profTX.mu.Lock()
	s.msg = m
	profTX.mu.Unlock()
	return 0
}

// message is the message of stamp s.
func (s *txStamp) message() string {
	profTX.mu.Lock()
	defer profTX.mu.Unlock()
	return s.msg
}

//export gocann_aclprofMark
func gocann_aclprofMark(t *C.gocann_thread, stamp unsafe.Pointer) C.aclError {
	const fn = "aclprofMark"
	if code := unsupported(t, "aclprofMark"); code != 0 {
		return code
	}
	p, code := txSession(t, fn)
	if code != 0 {
		return code
	}
	s, code := stampOf(t, fn, stamp)
	if code != 0 {
		return code
	}
	now := p.Now()
	return fail(t, fn, p.Mark(s.message(), uint32(t.tid), now, now))
}

//export gocann_aclprofPush
func gocann_aclprofPush(t *C.gocann_thread, stamp unsafe.Pointer) C.aclError {
	const fn = "aclprofPush"
	if code := unsupported(t, "aclprofPush"); code != 0 {
		return code
	}
	s, code := stampOf(t, fn, stamp)
	if code != 0 {
		return code
	}
	p, code := txSession(t, fn)
	if code != 0 {
		return code
	}
	r := txRange{msg: s.message(), tid: uint32(t.tid), start: p.Now()}
	profTX.mu.Lock()
	defer profTX.mu.Unlock()
	if profTX.pushed == nil {
		profTX.pushed = map[uint32][]txRange{}
	}
	profTX.pushed[r.tid] = append(profTX.pushed[r.tid], r)
	return 0
}

//export gocann_aclprofPop
func gocann_aclprofPop(t *C.gocann_thread) C.aclError {
	const fn = "aclprofPop"
	if code := unsupported(t, "aclprofPop"); code != 0 {
		return code
	}
	p, code := txSession(t, fn)
	if code != 0 {
		return code
	}
	tid := uint32(t.tid)
	profTX.mu.Lock()
	stack := profTX.pushed[tid]
	if len(stack) == 0 {
		profTX.mu.Unlock()
		return failf(t, fn, gocann.KindProfNotRun, "no range was pushed on this thread (aclprofPush) and not popped")
	}
	r := stack[len(stack)-1]
	profTX.pushed[tid] = stack[:len(stack)-1]
	profTX.mu.Unlock()
	return fail(t, fn, p.Mark(r.msg, r.tid, r.start, max(p.Now(), r.start+1)))
}

//export gocann_aclprofRangeStart
func gocann_aclprofRangeStart(t *C.gocann_thread, stamp unsafe.Pointer, id *C.uint32_t) C.aclError {
	const fn = "aclprofRangeStart"
	if code := unsupported(t, "aclprofRangeStart"); code != 0 {
		return code
	}
	s, code := stampOf(t, fn, stamp)
	if code != 0 {
		return code
	}
	if id == nil {
		return nullArg(t, fn, "rangeId")
	}
	p, code := txSession(t, fn)
	if code != 0 {
		return code
	}
	r := txRange{msg: s.message(), tid: uint32(t.tid), start: p.Now()}
	profTX.mu.Lock()
	defer profTX.mu.Unlock()
	if profTX.ranges == nil {
		profTX.ranges = map[uint32]txRange{}
	}
	if len(profTX.ranges) >= 1<<16 {
		return failf(t, fn, gocann.KindOverLimit, "%d ranges started and not stopped, the most there may be", len(profTX.ranges))
	}
	profTX.nextID++
	for _, taken := profTX.ranges[profTX.nextID]; taken || profTX.nextID == 0; _, taken = profTX.ranges[profTX.nextID] {
		profTX.nextID++
	}
	profTX.ranges[profTX.nextID] = r
	*id = C.uint32_t(profTX.nextID)
	return 0
}

//export gocann_aclprofRangeStop
func gocann_aclprofRangeStop(t *C.gocann_thread, id C.uint32_t) C.aclError {
	const fn = "aclprofRangeStop"
	if code := unsupported(t, "aclprofRangeStop"); code != 0 {
		return code
	}
	p, code := txSession(t, fn)
	if code != 0 {
		return code
	}
	profTX.mu.Lock()
	r, ok := profTX.ranges[uint32(id)]
	delete(profTX.ranges, uint32(id))
	profTX.mu.Unlock()
	if !ok {
		return failf(t, fn, gocann.KindBadArgument, "rangeId %d is invalid, expected the id of a range aclprofRangeStart started and no aclprofRangeStop ended", id)
	}
	return fail(t, fn, p.Mark(r.msg, r.tid, r.start, max(p.Now(), r.start+1)))
}
