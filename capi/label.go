package main

/*
#include "acl/acl.h"
#include "thread.h"
*/
import "C"

import (
	"unsafe"

	"github.com/gocann/gocann"
)

// Control tasks of models built over persistent streams: labels, label
// switches, stream activation and stream switches; and cleaning a
// persistent stream.

// maxLabelList is the longest label list aclrtCreateLabelList accepts.
const maxLabelList = 65535

// cLabel is a label and the context it was created in.
type cLabel struct {
	l   *gocann.Label
	ctx *cContext
}

func labelOf(t *C.gocann_thread, fn, param string, p C.aclrtLabel) (*cLabel, C.aclError) {
	if obj, ok := proc.handles.get(handleOf(unsafe.Pointer(p)), kindLabel); ok {
		return obj.(*cLabel), 0
	}
	return nil, badHandle(t, fn, param, unsafe.Pointer(p), kindLabel)
}

// inContext checks that the labels belong to the thread's current context.
func inContext(t *C.gocann_thread, fn string, labels ...*cLabel) C.aclError {
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	for i, l := range labels {
		if l.ctx != c {
			return failf(t, fn, gocann.KindLabelContext, "label %d was created in a context of device %d, not in the thread's current context (device %d)", i, l.ctx.dev, c.dev)
		}
	}
	return 0
}

//export gocann_aclrtCreateLabel
func gocann_aclrtCreateLabel(t *C.gocann_thread, out *C.aclrtLabel) C.aclError {
	const fn = "aclrtCreateLabel"
	if out == nil {
		return nullArg(t, fn, "label")
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	l, err := r.NewLabel()
	if err != nil {
		return fail(t, fn, err)
	}
	h, ok := proc.handles.add(kindLabel, &cLabel{l: l, ctx: c})
	if !ok {
		l.Close()
		return failf(t, fn, gocann.KindInternal, "too many live handles")
	}
	*out = C.aclrtLabel(C.gocann_handle(C.uintptr_t(h)))
	return 0
}

//export gocann_aclrtDestroyLabel
func gocann_aclrtDestroyLabel(t *C.gocann_thread, p C.aclrtLabel) C.aclError {
	const fn = "aclrtDestroyLabel"
	if code := unsupported(t, "aclrtDestroyLabel"); code != 0 {
		return code
	}
	l, code := labelOf(t, fn, "label", p)
	if code != 0 {
		return code
	}
	if err := l.l.Close(); err != nil {
		return fail(t, fn, err)
	}
	proc.handles.remove(handleOf(unsafe.Pointer(p)), kindLabel)
	return 0
}

//export gocann_aclrtSetLabel
func gocann_aclrtSetLabel(t *C.gocann_thread, p C.aclrtLabel, sp C.aclrtStream) C.aclError {
	const fn = "aclrtSetLabel"
	l, code := labelOf(t, fn, "label", p)
	if code != 0 {
		return code
	}
	if code := inContext(t, fn, l); code != 0 {
		return code
	}
	s, code := stream(t, fn, sp)
	if code != 0 {
		return code
	}
	return fail(t, fn, s.s.SetLabel(l.l))
}

//export gocann_aclrtCreateLabelList
func gocann_aclrtCreateLabelList(t *C.gocann_thread, labels *C.aclrtLabel, num C.size_t, out *C.aclrtLabelList) C.aclError {
	const fn = "aclrtCreateLabelList"
	if code := unsupported(t, "aclrtCreateLabelList"); code != 0 {
		return code
	}
	if labels == nil || out == nil {
		return nullArg(t, fn, "labels or labelList")
	}
	if num == 0 || num > maxLabelList {
		return failf(t, fn, gocann.KindInvalidParam, "num %d is invalid, expected 1..%d", num, maxLabelList)
	}
	list := make([]*cLabel, num)
	for i, p := range unsafe.Slice(labels, num) {
		l, code := labelOf(t, fn, "labels[i]", p)
		if code != 0 {
			return code
		}
		list[i] = l
	}
	h, ok := proc.handles.add(kindLabelList, list)
	if !ok {
		return failf(t, fn, gocann.KindInternal, "too many live handles")
	}
	*out = C.aclrtLabelList(C.gocann_handle(C.uintptr_t(h)))
	return 0
}

//export gocann_aclrtDestroyLabelList
func gocann_aclrtDestroyLabelList(t *C.gocann_thread, p C.aclrtLabelList) C.aclError {
	const fn = "aclrtDestroyLabelList"
	if code := unsupported(t, "aclrtDestroyLabelList"); code != 0 {
		return code
	}
	if !proc.handles.remove(handleOf(unsafe.Pointer(p)), kindLabelList) {
		return badHandle(t, fn, "labelList", unsafe.Pointer(p), kindLabelList)
	}
	return 0
}

//export gocann_aclrtSwitchLabelByIndex
func gocann_aclrtSwitchLabelByIndex(t *C.gocann_thread, ptr unsafe.Pointer, maxValue C.uint32_t, lp C.aclrtLabelList, sp C.aclrtStream) C.aclError {
	const fn = "aclrtSwitchLabelByIndex"
	if ptr == nil {
		return nullArg(t, fn, "ptr")
	}
	obj, ok := proc.handles.get(handleOf(unsafe.Pointer(lp)), kindLabelList)
	if !ok {
		return badHandle(t, fn, "labelList", unsafe.Pointer(lp), kindLabelList)
	}
	list := obj.([]*cLabel)
	if maxValue == 0 || int(maxValue) > len(list) {
		return failf(t, fn, gocann.KindInvalidParam, "maxValue %d is invalid, expected 1..%d (the labels in the list)", maxValue, len(list))
	}
	list = list[:maxValue]
	if code := inContext(t, fn, list...); code != 0 {
		return code
	}
	s, code := stream(t, fn, sp)
	if code != 0 {
		return code
	}
	labels := make([]*gocann.Label, len(list))
	for i, l := range list {
		labels[i] = l.l
	}
	return fail(t, fn, s.s.SwitchLabel(gocann.DevPtr(uintptr(ptr)), labels))
}

//export gocann_aclrtActiveStream
func gocann_aclrtActiveStream(t *C.gocann_thread, ap C.aclrtStream, sp C.aclrtStream) C.aclError {
	const fn = "aclrtActiveStream"
	if ap == nil {
		return nullArg(t, fn, "activeStream")
	}
	target, code := stream(t, fn, ap)
	if code != 0 {
		return code
	}
	s, code := stream(t, fn, sp)
	if code != 0 {
		return code
	}
	return fail(t, fn, s.s.ActivateStream(target.s))
}

//export gocann_aclrtSwitchStream
func gocann_aclrtSwitchStream(t *C.gocann_thread, left unsafe.Pointer, cond C.aclrtCondition, right unsafe.Pointer, typ C.aclrtCompareDataType,
	tp, fp, sp C.aclrtStream) C.aclError {
	const fn = "aclrtSwitchStream"
	switch {
	case left == nil || right == nil:
		return nullArg(t, fn, "leftValue or rightValue")
	case tp == nil:
		return nullArg(t, fn, "trueStream")
	case fp != nil:
		return failf(t, fn, gocann.KindInvalidParam, "falseStream %p is invalid, expected NULL (reserved)", unsafe.Pointer(fp))
	case cond > C.ACL_RT_LESS_OR_EQUAL:
		return failf(t, fn, gocann.KindInvalidParam, "cond %d is invalid, expected ACL_RT_EQUAL (0) .. ACL_RT_LESS_OR_EQUAL (5)", cond)
	}
	target, code := stream(t, fn, tp)
	if code != 0 {
		return code
	}
	s, code := stream(t, fn, sp)
	if code != 0 {
		return code
	}
	return fail(t, fn, s.s.SwitchStream(gocann.DevPtr(uintptr(left)), gocann.Condition(cond), gocann.DevPtr(uintptr(right)), gocann.CompareType(typ), target.s))
}

//export gocann_aclrtPersistentTaskClean
func gocann_aclrtPersistentTaskClean(t *C.gocann_thread, sp C.aclrtStream) C.aclError {
	const fn = "aclrtPersistentTaskClean"
	s, code := stream(t, fn, sp)
	if code != 0 {
		return code
	}
	return fail(t, fn, s.s.CleanTasks())
}
