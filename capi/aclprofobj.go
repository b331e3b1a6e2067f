package main

/*
#include "acl/acl.h"
#include "thread.h"
*/
import "C"

import (
	"sync"
	"unsafe"

	"github.com/gocann/gocann"
)

// The objects of the aclprof calls that C code holds by pointer:
// configurations, subscription configurations, step information and
// stamps. They are plain data that outlive aclFinalize, as CANN's
// allocations do (stamps end with aclprofFinalize), so they live in a
// table of their own rather than in proc.handles, which aclFinalize
// empties. A handle is the kind in the top byte over a counter that never
// repeats.
type profTable struct {
	// mu guards the fields below.
	mu   sync.Mutex
	next uint64
	live map[handle]any
}

var profObjs profTable

// add stores obj under a new handle of kind k.
func (t *profTable) add(k kind, obj any) (handle, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.next == 1<<handleKindShift-1 {
		return 0, false
	}
	t.next++
	h := handle(uintptr(k)<<handleKindShift | uintptr(t.next))
	if t.live == nil {
		t.live = map[handle]any{}
	}
	t.live[h] = obj
	return h, true
}

// get returns the object of h if h is a live handle of kind k.
func (t *profTable) get(h handle, k kind) (any, bool) {
	if h.kind() != k {
		return nil, false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	obj, ok := t.live[h]
	return obj, ok
}

// remove ends h if it is a live handle of kind k.
func (t *profTable) remove(h handle, k kind) (any, bool) {
	if h.kind() != k {
		return nil, false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	obj, ok := t.live[h]
	delete(t.live, h)
	return obj, ok
}

// removeKind ends every handle of kind k.
func (t *profTable) removeKind(k kind) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for h := range t.live {
		if h.kind() == k {
			delete(t.live, h)
		}
	}
}

// profObj returns the object of kind k that C passed as param, or records
// the error: CANN answers ACL_ERROR_INVALID_PARAM for these parameters.
func profObj(t *C.gocann_thread, fn, param string, p unsafe.Pointer, k kind) (any, C.aclError) {
	if obj, ok := profObjs.get(handleOf(p), k); ok {
		return obj, 0
	}
	return nil, fail(t, fn, profObjError(fn, param, p, k))
}

// profObjError is the error for a parameter that is no live object of
// kind k.
func profObjError(fn, param string, p unsafe.Pointer, k kind) error {
	if p == nil {
		return nullArgError(fn, param)
	}
	return gocann.Errorf(fn, gocann.KindBadArgument, "%s %p is not a live %s (destroyed, or never created by its create call)", param, p, kindNames[k])
}
