package gocann

import (
	"unsafe"

	"github.com/gocann/gocann/internal/rt"
	"github.com/gocann/gocann/internal/rterr"
)

// Managed memory is one address for the host and every device: kernels
// take it as an argument, copies and memsets as device memory, and the
// host reads and writes its bytes in place (ManagedBytes). aclrtFree
// (Context.Free) frees it.

// ManagedLocation is aclrtMemManagedLocation.
type ManagedLocation struct {
	Type uint32 // ManagedLocDevice, ManagedLocHost, ...
	ID   int32
}

// Managed location types (aclrtMemManagedLocationType), advice
// (aclrtMemManagedAdviseType) and range attributes
// (aclrtMemManagedRangeAttribute), with the CANN values.
const (
	ManagedLocInvalid         = rt.ManagedLocInvalid
	ManagedLocDevice          = rt.ManagedLocDevice
	ManagedLocHost            = rt.ManagedLocHost
	ManagedLocHostNUMA        = rt.ManagedLocHostNUMA
	ManagedLocHostNUMACurrent = rt.ManagedLocHostNUMACurrent

	AdviseSetReadMostly          = rt.AdviseSetReadMostly
	AdviseUnsetReadMostly        = rt.AdviseUnsetReadMostly
	AdviseSetPreferredLocation   = rt.AdviseSetPreferredLocation
	AdviseUnsetPreferredLocation = rt.AdviseUnsetPreferredLoc
	AdviseSetAccessedBy          = rt.AdviseSetAccessedBy
	AdviseUnsetAccessedBy        = rt.AdviseUnsetAccessedBy

	RangeReadMostly               = rt.AttrReadMostly
	RangePreferredLocation        = rt.AttrPreferredLocation
	RangeAccessedBy               = rt.AttrAccessedBy
	RangePreferredLocationType    = rt.AttrPreferredLocationType
	RangePreferredLocationID      = rt.AttrPreferredLocationID
	RangeLastPrefetchLocation     = rt.AttrLastPrefetchLocation
	RangeLastPrefetchLocationType = rt.AttrLastPrefetchLocationTyp
	RangeLastPrefetchLocationID   = rt.AttrLastPrefetchLocationID

	// MemAttachGlobal is ACL_RT_MEM_ATTACH_GLOBAL, the flag managed memory
	// takes.
	MemAttachGlobal = rt.ManagedAttachGlobal
)

func (l ManagedLocation) rt() rt.ManagedLoc { return rt.ManagedLoc{Type: l.Type, ID: l.ID} }

// MallocManaged allocates n bytes of managed memory, rounded up to 2 MiB,
// backed by the context's device. flag is MemAttachGlobal.
//
// CANN: aclrtMemAllocManaged.
func (c *Context) MallocManaged(n uint64, flag uint32) (DevPtr, error) {
	if err := c.r.require("aclrtMemAllocManaged"); err != nil {
		return 0, err
	}
	a, err := c.c.AllocManaged(n, flag)
	return DevPtr(a), wrap("Context.MallocManaged (aclrtMemAllocManaged)", err)
}

// ManagedBytes is the host's view of n bytes of managed memory at p: the
// bytes kernels and copies see, with no copy. It stays valid until the
// memory is freed.
//
// CANN: none (the host dereferences managed memory).
func (r *Runtime) ManagedBytes(p DevPtr, n int) ([]byte, error) {
	const op = "Runtime.ManagedBytes"
	if n <= 0 {
		return nil, wrap(op, rterr.Errorf(rterr.KindInvalidParam, "n %d is invalid, expected > 0", n))
	}
	if err := r.rt.CheckManaged(uint64(p), uint64(n)); err != nil {
		return nil, wrap(op, err)
	}
	return unsafe.Slice((*byte)(managedPointer(uint64(p))), n), nil
}

// managedPointer is a managed address as a pointer; managed memory is
// never Go memory.
func managedPointer(addr uint64) unsafe.Pointer {
	p := uintptr(addr)
	return *(*unsafe.Pointer)(unsafe.Pointer(&p))
}

// ManagedAdvise sets or clears advice (aclrtMemManagedAdviseType) on
// [p, p+size) of managed memory, size a multiple of 2 MiB.
//
// CANN: aclrtMemManagedAdvise.
func (r *Runtime) ManagedAdvise(p DevPtr, size uint64, advise uint32, loc ManagedLocation) error {
	if err := r.require("aclrtMemManagedAdvise"); err != nil {
		return err
	}
	return wrap("Runtime.ManagedAdvise (aclrtMemManagedAdvise)", r.rt.ManagedAdvise(uint64(p), size, advise, loc.rt()))
}

// ManagedAttr reads a range attribute of [p, p+size) into out, as many
// words as the attribute needs (one, or the ids of RangeAccessedBy).
//
// CANN: aclrtMemManagedGetAttr.
func (r *Runtime) ManagedAttr(attr uint32, p DevPtr, size uint64, out []int32) error {
	if err := r.require("aclrtMemManagedGetAttr"); err != nil {
		return err
	}
	return wrap("Runtime.ManagedAttr (aclrtMemManagedGetAttr)", r.rt.ManagedAttr(attr, uint64(p), size, out))
}

// ManagedAttrs reads several range attributes, each into its own out.
//
// CANN: aclrtMemManagedGetAttrs.
func (r *Runtime) ManagedAttrs(attrs []uint32, p DevPtr, size uint64, outs [][]int32) error {
	const op = "Runtime.ManagedAttrs (aclrtMemManagedGetAttrs)"
	if err := r.require("aclrtMemManagedGetAttrs"); err != nil {
		return err
	}
	if len(attrs) == 0 || len(attrs) != len(outs) {
		return wrap(op, rterr.Errorf(rterr.KindInvalidParam, "numAttributes %d is invalid, expected > 0 with one output each (%d)", len(attrs), len(outs)))
	}
	for i, a := range attrs {
		if err := r.rt.ManagedAttr(a, uint64(p), size, outs[i]); err != nil {
			return wrap(op, err)
		}
	}
	return nil
}

// ManagedPrefetch is one range of a batch prefetch and where it goes.
type ManagedPrefetch struct {
	Ptr  DevPtr
	Size uint64
	Loc  ManagedLocation
}

// PrefetchManaged queues a prefetch of [p, p+size) of managed memory to
// loc: when the task runs, the range's last prefetch location is loc. The
// simulated memory is coherent, so no byte moves.
//
// CANN: aclrtMemManagedPrefetchAsync.
func (s *Stream) PrefetchManaged(p DevPtr, size uint64, loc ManagedLocation, flags uint32) error {
	if err := s.r.require("aclrtMemManagedPrefetchAsync"); err != nil {
		return err
	}
	return wrap("Stream.PrefetchManaged (aclrtMemManagedPrefetchAsync)",
		s.s.ManagedPrefetch([]rt.Prefetch{{Addr: uint64(p), Size: size, Loc: loc.rt()}}, uint64(flags), 0))
}

// PrefetchManagedBatch queues the prefetches of ps as one task.
//
// CANN: aclrtMemManagedPrefetchBatchAsync.
func (s *Stream) PrefetchManagedBatch(ps []ManagedPrefetch, flags uint64) error {
	const op = "Stream.PrefetchManagedBatch (aclrtMemManagedPrefetchBatchAsync)"
	if err := s.r.require("aclrtMemManagedPrefetchBatchAsync"); err != nil {
		return err
	}
	if len(ps) == 0 {
		return wrap(op, rterr.Errorf(rterr.KindBadArgument, "count 0 is invalid, expected > 0"))
	}
	rs := make([]rt.Prefetch, len(ps))
	for i, p := range ps {
		rs[i] = rt.Prefetch{Addr: uint64(p.Ptr), Size: p.Size, Loc: p.Loc.rt()}
	}
	return wrap(op, s.s.ManagedPrefetch(rs, flags, 0))
}
