package main

/*
#include <stdlib.h>
#include "acl/acl.h"
#include "thread.h"

// The layout of CANN's rtGroupInfo_t, which the public headers leave
// opaque as aclrtGroupInfo.
struct tagRtGroupInfo {
	int32_t groupId;
	uint32_t flag;
	uint32_t aicoreNum;
	uint32_t aicpuNum;
	uint32_t aivectorNum;
	uint32_t sdmaNum;
	uint32_t activeStreamNum;
	void *extrPtr;
	uint32_t vfID;
	uint32_t poolID;
	uint32_t poolIDMax;
};
*/
import "C"

import (
	"sync"
	"unsafe"

	"github.com/gocann/gocann"
)

// Capability groups. aclrtCreateGroupInfo's arrays are C memory the
// program reads through aclrtGetGroupInfoDetail; the process keeps their
// lengths, so that a pointer it did not hand out is refused rather than
// written or freed.

// groupInfoTable is the live arrays of aclrtCreateGroupInfo, with their
// lengths.
type groupInfoTable struct {
	mu sync.Mutex
	m  map[*C.aclrtGroupInfo]int
}

func (g *groupInfoTable) add(p *C.aclrtGroupInfo, n int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.m == nil {
		g.m = make(map[*C.aclrtGroupInfo]int)
	}
	g.m[p] = n
}

func (g *groupInfoTable) len(p *C.aclrtGroupInfo) (int, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	n, ok := g.m[p]
	return n, ok
}

func (g *groupInfoTable) remove(p *C.aclrtGroupInfo) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	_, ok := g.m[p]
	delete(g.m, p)
	return ok
}

// groupInfos checks p is an array of aclrtCreateGroupInfo and returns
// its length. NULL arguments are checked first, the chip next, as CANN
// checks them.
func groupInfos(t *C.gocann_thread, fn string, p *C.aclrtGroupInfo) (int, C.aclError) {
	n, ok := proc.groupInfos.len(p)
	if !ok {
		return 0, failf(t, fn, gocann.KindBadArgument, "groupInfo %p is invalid, expected an array of aclrtCreateGroupInfo not yet destroyed", p)
	}
	return n, 0
}

// groupCall checks p as groupInfos does and finds the current context,
// for the calls reading or filling an array.
func groupCall(t *C.gocann_thread, fn string, p *C.aclrtGroupInfo) (int, *cContext, C.aclError) {
	n, code := groupInfos(t, fn, p)
	if code != 0 {
		return 0, nil, code
	}
	c, code := currentContext(t, fn)
	return n, c, code
}

//export gocann_aclrtCreateGroupInfo
func gocann_aclrtCreateGroupInfo(t *C.gocann_thread) *C.aclrtGroupInfo {
	const fn = "aclrtCreateGroupInfo"
	if unsupported(t, "aclrtCreateGroupInfo") != 0 {
		return nil
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return nil
	}
	n, err := c.c.GroupCount()
	if err != nil || n == 0 {
		// As in CANN: no array without groups, and no error either.
		fail(t, fn, err)
		return nil
	}
	p := (*C.aclrtGroupInfo)(C.calloc(C.size_t(n), C.sizeof_aclrtGroupInfo))
	if p == nil {
		failf(t, fn, gocann.KindOutOfMemory, "allocating %d group entries failed", n)
		return nil
	}
	proc.groupInfos.add(p, n)
	return p
}

//export gocann_aclrtDestroyGroupInfo
func gocann_aclrtDestroyGroupInfo(t *C.gocann_thread, p *C.aclrtGroupInfo) C.aclError {
	const fn = "aclrtDestroyGroupInfo"
	if p == nil {
		return nullArg(t, fn, "groupInfo")
	}
	if code := unsupported(t, "aclrtDestroyGroupInfo"); code != 0 {
		return code
	}
	if _, code := groupInfos(t, fn, p); code != 0 {
		return code
	}
	if proc.groupInfos.remove(p) {
		C.free(unsafe.Pointer(p))
	}
	return 0
}

//export gocann_aclrtGetAllGroupInfo
func gocann_aclrtGetAllGroupInfo(t *C.gocann_thread, p *C.aclrtGroupInfo) C.aclError {
	const fn = "aclrtGetAllGroupInfo"
	if p == nil {
		return nullArg(t, fn, "groupInfo")
	}
	if code := unsupported(t, "aclrtGetAllGroupInfo"); code != 0 {
		return code
	}
	n, c, code := groupCall(t, fn, p)
	if code != 0 {
		return code
	}
	gs, err := c.c.Groups()
	if err != nil {
		return fail(t, fn, err)
	}
	if len(gs) > n {
		return failf(t, fn, gocann.KindBadArgument, "groupInfo holds %d groups, expected room for the device's %d", n, len(gs))
	}
	out := unsafe.Slice(p, n)
	for i, g := range gs {
		e := &out[i]
		*e = C.aclrtGroupInfo{groupId: C.int32_t(g.ID), aicoreNum: C.uint32_t(g.AICores), aicpuNum: C.uint32_t(g.AICPUs),
			aivectorNum: C.uint32_t(g.VectorCores), sdmaNum: C.uint32_t(g.SDMAs), activeStreamNum: C.uint32_t(g.ActiveStreams)}
		if g.Default {
			e.flag = 1
		}
	}
	return 0
}

//export gocann_aclrtGetGroupInfoDetail
func gocann_aclrtGetGroupInfoDetail(t *C.gocann_thread, p *C.aclrtGroupInfo, index C.int32_t, attr C.aclrtGroupAttr,
	value unsafe.Pointer, valueLen C.size_t, retSize *C.size_t) C.aclError {
	const fn = "aclrtGetGroupInfoDetail"
	switch {
	case p == nil:
		return nullArg(t, fn, "groupInfo")
	case value == nil:
		return nullArg(t, fn, "attrValue")
	case retSize == nil:
		return nullArg(t, fn, "paramRetSize")
	}
	if code := unsupported(t, "aclrtGetGroupInfoDetail"); code != 0 {
		return code
	}
	n, c, code := groupCall(t, fn, p)
	if code != 0 {
		return code
	}
	count, err := c.c.GroupCount()
	if err != nil {
		return fail(t, fn, err)
	}
	if index < 0 || int(index) >= min(count, n) {
		return failf(t, fn, gocann.KindBadArgument, "groupIndex %d is invalid, expected [0, %d)", index, count)
	}
	e := &unsafe.Slice(p, n)[index]
	var v C.uint32_t
	switch attr {
	case C.ACL_GROUP_AICORE_INT:
		v = e.aicoreNum
	case C.ACL_GROUP_AIV_INT:
		v = e.aivectorNum
	case C.ACL_GROUP_AIC_INT:
		v = e.aicpuNum
	case C.ACL_GROUP_SDMANUM_INT:
		v = e.sdmaNum
	case C.ACL_GROUP_ASQNUM_INT:
		v = e.activeStreamNum
	case C.ACL_GROUP_GROUPID_INT:
		v = C.uint32_t(e.groupId)
	default:
		return failf(t, fn, gocann.KindBadArgument, "attr %d is invalid, expected an aclrtGroupAttr in [ACL_GROUP_AICORE_INT, ACL_GROUP_GROUPID_INT]", attr)
	}
	if valueLen < C.sizeof_uint32_t {
		return failf(t, fn, gocann.KindBadArgument, "valueLen %d is invalid, expected at least the value's %d bytes", valueLen, C.sizeof_uint32_t)
	}
	*(*C.uint32_t)(value) = v
	*retSize = C.sizeof_uint32_t
	return 0
}

//export gocann_aclrtGetGroupCount
func gocann_aclrtGetGroupCount(t *C.gocann_thread, count *C.uint32_t) C.aclError {
	const fn = "aclrtGetGroupCount"
	if count == nil {
		return nullArg(t, fn, "count")
	}
	// The chip before the context, as CANN checks them.
	if code := unsupported(t, "aclrtGetGroupCount"); code != 0 {
		return code
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	n, err := c.c.GroupCount()
	if err != nil {
		return fail(t, fn, err)
	}
	*count = C.uint32_t(n)
	return 0
}

//export gocann_aclrtSetGroup
func gocann_aclrtSetGroup(t *C.gocann_thread, id C.int32_t) C.aclError {
	const fn = "aclrtSetGroup"
	if code := unsupported(t, "aclrtSetGroup"); code != 0 {
		return code
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	return fail(t, fn, c.c.SetGroup(int(id)))
}
