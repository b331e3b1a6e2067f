package main

/*
#include <string.h>
#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "thread.h"
*/
import "C"

import (
	"fmt"
	"strings"
	"sync"
	"unsafe"

	"github.com/gocann/gocann"
)

// Marks queued on streams (aclprofMarkEx, aclprofGetStepTimestamp,
// aclrtProfTrace), the tensor ranges of aclprofRangePushEx and the string
// ids of aclprofStr2Id.

//export gocann_aclprofMarkEx
func gocann_aclprofMarkEx(t *C.gocann_thread, msg *C.char, n C.size_t, stream C.aclrtStream) C.aclError {
	const fn = "aclprofMarkEx"
	if code := unsupported(t, "aclprofMarkEx"); code != 0 {
		return code
	}
	p, code := txSession(t, fn)
	if code != 0 {
		return code
	}
	switch {
	case msg == nil:
		return nullArg(t, fn, "msg")
	case stream == nil:
		return nullArg(t, fn, "stream")
	case n < 1 || n > 127:
		return failf(t, fn, gocann.KindBadArgument, "msgLen %d is invalid, expected 1 to 127", n)
	}
	if l := C.strnlen(msg, n+1); l != n {
		return failf(t, fn, gocann.KindBadArgument, "msgLen %d is not the length of msg (%d bytes), expected equal", n, l)
	}
	s, code := queueStream(t, fn, stream)
	if code != 0 {
		return code
	}
	return fail(t, fn, p.MarkStream(C.GoStringN(msg, C.int(n)), uint32(t.tid), s.s))
}

//export gocann_aclrtProfTrace
func gocann_aclrtProfTrace(t *C.gocann_thread, data unsafe.Pointer, length C.int32_t, stream C.aclrtStream) C.aclError {
	const fn = "aclrtProfTrace"
	if data == nil {
		return nullArg(t, fn, "userdata")
	}
	if length <= 0 || length > gocann.ProfTraceSize {
		return failf(t, fn, gocann.KindInvalidParam, "length %d is invalid, expected 1 to %d bytes", length, gocann.ProfTraceSize)
	}
	s, code := queueStream(t, fn, stream)
	if code != 0 {
		return code
	}
	return fail(t, fn, s.s.ProfTrace(C.GoBytes(data, C.int(length))))
}

// stepInfo is an aclprofStepInfo: its step number and which ends were
// marked.
type stepInfo struct {
	step       uint64
	start, end bool
}

// steps numbers the step information from 1 and guards their marks.
var steps struct {
	mu   sync.Mutex
	next uint64
}

//export gocann_aclprofCreateStepInfo
func gocann_aclprofCreateStepInfo(t *C.gocann_thread) *C.aclprofStepInfo {
	const fn = "aclprofCreateStepInfo"
	if unsupported(t, "aclprofCreateStepInfo") != 0 {
		return nil
	}
	steps.mu.Lock()
	steps.next++
	si := &stepInfo{step: steps.next}
	steps.mu.Unlock()
	h, ok := profObjs.add(kindProfStepInfo, si)
	if !ok {
		failf(t, fn, gocann.KindInternal, "too many step information created")
		return nil
	}
	return (*C.aclprofStepInfo)(C.gocann_handle(C.uintptr_t(h)))
}

//export gocann_aclprofDestroyStepInfo
func gocann_aclprofDestroyStepInfo(t *C.gocann_thread, si *C.aclprofStepInfo) {
	const fn = "aclprofDestroyStepInfo"
	if unsupported(t, "aclprofDestroyStepInfo") != 0 {
		return
	}
	if _, ok := profObjs.remove(handleOf(unsafe.Pointer(si)), kindProfStepInfo); !ok {
		fail(t, fn, profObjError(fn, "stepInfo", unsafe.Pointer(si), kindProfStepInfo))
	}
}

//export gocann_aclprofGetStepTimestamp
func gocann_aclprofGetStepTimestamp(t *C.gocann_thread, si *C.aclprofStepInfo, tag C.aclprofStepTag, stream C.aclrtStream) C.aclError {
	const fn = "aclprofGetStepTimestamp"
	if code := unsupported(t, "aclprofGetStepTimestamp"); code != 0 {
		return code
	}
	obj, code := profObj(t, fn, "stepInfo", unsafe.Pointer(si), kindProfStepInfo)
	if code != 0 {
		return code
	}
	info := obj.(*stepInfo)
	if tag != C.ACL_STEP_START && tag != C.ACL_STEP_END {
		return failf(t, fn, gocann.KindBadArgument, "tag %d is invalid, expected ACL_STEP_START (0) or ACL_STEP_END (1)", tag)
	}
	end := tag == C.ACL_STEP_END
	steps.mu.Lock()
	done := info.start && !end || info.end && end
	steps.mu.Unlock()
	if done {
		return failf(t, fn, gocann.KindBadArgument, "step %d already has its %s marked; each end is marked once per step information", info.step, map[bool]string{false: "start", true: "end"}[end])
	}
	s, code := queueStream(t, fn, stream)
	if code != 0 {
		return code
	}
	if err := s.s.MarkStep(info.step, end); err != nil {
		return fail(t, fn, err)
	}
	steps.mu.Lock()
	info.start, info.end = info.start || !end, info.end || end
	steps.mu.Unlock()
	return 0
}

// nestedPtr checks a pointer found inside an argument, as the front
// checks the arguments themselves: NULL, or below 4096, is no address.
func nestedPtr(t *C.gocann_thread, fn, param string, p unsafe.Pointer) C.aclError {
	switch {
	case p == nil:
		return nullArg(t, fn, param)
	case uintptr(p) < 4096:
		return failf(t, fn, gocann.KindBadArgument, "%s is %p, expected a valid pointer", param, p)
	}
	return 0
}

// Tensor ranges: each thread's aclprofRangePushEx ranges, newest last,
// ended by aclprofRangePop; at most maxPushEx open per thread.
const maxPushEx = 1024

var pushEx struct {
	mu     sync.Mutex
	ranges map[uint32][]txRange
}

func endPushEx() {
	pushEx.mu.Lock()
	pushEx.ranges = nil
	pushEx.mu.Unlock()
}

//export gocann_aclprofRangePushEx
func gocann_aclprofRangePushEx(t *C.gocann_thread, attr *C.aclprofEventAttributes) C.aclError {
	const fn = "aclprofRangePushEx"
	if code := unsupported(t, "aclprofRangePushEx"); code != 0 {
		return code
	}
	if attr == nil {
		return nullArg(t, fn, "attr")
	}
	if attr.messageType != C.ACL_PROF_MESSAGE_TYPE_TENSOR_INFO {
		return failf(t, fn, gocann.KindBadArgument, "attr->messageType %d is invalid, expected ACL_PROF_MESSAGE_TYPE_TENSOR_INFO (0)", attr.messageType)
	}
	info := *(**C.aclprofTensorInfo)(unsafe.Pointer(&attr.message))
	if code := nestedPtr(t, fn, "attr->message.tensorInfo", unsafe.Pointer(info)); code != 0 {
		return code
	}
	if info.tensorNum > 0 {
		if code := nestedPtr(t, fn, "attr->message.tensorInfo->tensors", unsafe.Pointer(info.tensors)); code != 0 {
			return code
		}
	}
	var desc []string
	for i, ts := range unsafe.Slice(info.tensors, info.tensorNum) {
		if ts.shapeDim > C.ACL_PROF_TENSOR_DATA_SHAPE_LEN {
			return failf(t, fn, gocann.KindBadArgument, "tensors[%d].shapeDim %d is invalid, expected at most %d", i, ts.shapeDim, C.ACL_PROF_TENSOR_DATA_SHAPE_LEN)
		}
		dir := "input"
		if ts._type == 1 {
			dir = "output"
		}
		dims := make([]string, ts.shapeDim)
		for j := range dims {
			dims[j] = fmt.Sprint(ts.shape[j])
		}
		desc = append(desc, fmt.Sprintf("%s format %d type %d [%s]", dir, ts.format, ts.dataType, strings.Join(dims, ",")))
	}
	r := txRange{msg: idString(uint64(info.opNameId)), tid: uint32(t.tid), start: gocann.Monotonic(),
		args: []gocann.MarkArg{{Key: "Op Type", Val: idString(uint64(info.opTypeId))}, {Key: "Block Dim", Val: int64(info.blockNums)},
			{Key: "Tensors", Val: strings.Join(desc, "; ")}}}
	pushEx.mu.Lock()
	defer pushEx.mu.Unlock()
	if len(pushEx.ranges[r.tid]) >= maxPushEx {
		return failf(t, fn, gocann.KindOverLimit, "%d tensor ranges are open on this thread, the most there may be; pop one first", maxPushEx)
	}
	if pushEx.ranges == nil {
		pushEx.ranges = map[uint32][]txRange{}
	}
	pushEx.ranges[r.tid] = append(pushEx.ranges[r.tid], r)
	return 0
}

//export gocann_aclprofRangePop
func gocann_aclprofRangePop(t *C.gocann_thread) C.aclError {
	const fn = "aclprofRangePop"
	if code := unsupported(t, "aclprofRangePop"); code != 0 {
		return code
	}
	tid := uint32(t.tid)
	pushEx.mu.Lock()
	stack := pushEx.ranges[tid]
	if len(stack) == 0 {
		pushEx.mu.Unlock()
		return failf(t, fn, gocann.KindBadArgument, "no tensor range was pushed on this thread (aclprofRangePushEx) and not popped")
	}
	r := stack[len(stack)-1]
	pushEx.ranges[tid] = stack[:len(stack)-1]
	pushEx.mu.Unlock()
	if rt := proc.runtime(); rt != nil {
		if p := rt.Profiling(); p != nil && !p.Config().NoMarks {
			return fail(t, fn, p.Mark(r.msg, r.tid, r.start, max(p.Now(), r.start+1), r.args...))
		}
	}
	return 0 // no session records marks: the range goes nowhere, as in CANN
}
