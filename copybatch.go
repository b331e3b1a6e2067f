package gocann

import (
	"github.com/gocann/gocann/internal/callsite"
	"github.com/gocann/gocann/internal/rt"
)

// BatchCopy is one copy of a batch: Size bytes from Src to Dst (fields
// Dst, Src unsafe.Pointer; DestMax, Size uintptr), which has room for
// DestMax bytes. One end is host memory, the other device memory.
type BatchCopy = rt.BatchCopy

// Memory location types of MemLoc, with the values of aclrtMemLocationType.
const (
	MemLocHost         = rt.MemLocHost         // ACL_MEM_LOCATION_TYPE_HOST
	MemLocDevice       = rt.MemLocDevice       // ACL_MEM_LOCATION_TYPE_DEVICE
	MemLocUnregistered = rt.MemLocUnregistered // ACL_MEM_LOCATION_TYPE_UNREGISTERED
	MemLocManaged      = rt.MemLocManaged      // ACL_MEM_LOCATION_TYPE_MANAGED
	MemLocHostNUMA     = rt.MemLocHostNUMA     // ACL_MEM_LOCATION_TYPE_HOST_NUMA
)

// MemLoc is aclrtMemLocation: a location type and, for device memory, the
// device id.
type MemLoc = rt.MemLoc

// BatchAttr is aclrtMemcpyBatchAttr: where the ends of a run of a batch's
// copies are. Rsv must be zero.
type BatchAttr = rt.BatchAttr

// NoFailIndex is the failure index of an error that no one copy caused
// (SIZE_MAX in C).
const NoFailIndex = rt.NoFailIndex

// MemcpyBatch runs copies synchronously. attrs[k] describes the copies from
// attrIndexes[k] up to the next index; every copy is checked before any
// runs, and a copy whose ends do not match its attribute or that is not
// host to device or device to host is named by fail (NoFailIndex for other
// errors).
//
// CANN: aclrtMemcpyBatch.
func (x RawContext) MemcpyBatch(t CaptureThread, copies []BatchCopy, attrs []BatchAttr, attrIndexes []uint64) (fail int, err error) {
	if err := x.c.r.require("aclrtMemcpyBatch"); err != nil {
		return rt.NoFailIndex, err
	}
	c := x.c
	fail, err = c.c.MemcpyBatch(t.rt(), copies, attrs, attrIndexes)
	return fail, wrap("RawContext.MemcpyBatch (aclrtMemcpyBatch)", err)
}

// MemcpyBatchAsync queues copies as one task, checked as MemcpyBatch checks
// them. With pageable host memory among them the call waits for the copies.
//
// CANN: aclrtMemcpyBatchAsync.
//
//go:noinline
func (x RawStream) MemcpyBatchAsync(t CaptureThread, copies []BatchCopy, attrs []BatchAttr, attrIndexes []uint64) (fail int, err error) {
	if err := x.s.r.require("aclrtMemcpyBatchAsync"); err != nil {
		return rt.NoFailIndex, err
	}
	s := x.s
	fail, err = s.s.MemcpyBatchAsync(t.rt(), copies, attrs, attrIndexes, callsite.Caller())
	return fail, wrap("RawStream.MemcpyBatchAsync (aclrtMemcpyBatchAsync)", err)
}
