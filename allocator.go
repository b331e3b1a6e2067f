package gocann

import (
	"github.com/gocann/gocann/internal/rt"
	"github.com/gocann/gocann/internal/rterr"
)

// AllocatorDesc describes a custom allocator: an object of the program's
// and the C callbacks that allocate from it, as addresses. The runtime
// keeps what is registered and returns it as given; Handle names the C
// descriptor it came from (0 from Go). GetAddrFromBlock, Alloc and Free
// are required, AllocAdvise is optional.
//
// CANN: aclrtAllocatorDesc.
type AllocatorDesc struct {
	Handle           uintptr // aclrtAllocatorDesc
	Obj              uintptr // aclrtAllocator
	Alloc            uintptr // aclrtAllocatorAllocFunc
	Free             uintptr // aclrtAllocatorFreeFunc
	AllocAdvise      uintptr // aclrtAllocatorAllocAdviseFunc
	GetAddrFromBlock uintptr // aclrtAllocatorGetAddrFromBlockFunc
}

// RegisterAllocator registers a copy of d as the stream's allocator,
// replacing any earlier one. CANN's runtime calls it from single-operator
// and dynamic-shape model execution, which the simulator does not run; it
// is kept and returned.
//
// CANN: aclrtAllocatorRegister.
func (s *Stream) RegisterAllocator(d AllocatorDesc) error {
	if err := s.r.require("aclrtAllocatorRegister"); err != nil {
		return err
	}
	const op = "Stream.RegisterAllocator (aclrtAllocatorRegister)"
	for _, f := range []struct {
		name string
		v    uintptr
	}{{"allocatorDesc->obj", d.Obj}, {"allocatorDesc->allocFunc", d.Alloc}, {"allocatorDesc->freeFunc", d.Free},
		{"allocatorDesc->getAddrFromBlockFunc", d.GetAddrFromBlock}} {
		if f.v == 0 {
			return wrap(op, rterr.Errorf(rterr.KindBadArgument, "%s is NULL; set it in the descriptor before registering", f.name))
		}
	}
	return wrap(op, s.s.RegisterAllocator(rt.AllocatorDesc(d)))
}

// Allocator returns the stream's registered allocator, exactly as
// registered.
//
// CANN: aclrtAllocatorGetByStream.
func (s *Stream) Allocator() (AllocatorDesc, error) {
	if err := s.r.require("aclrtAllocatorGetByStream"); err != nil {
		return AllocatorDesc{}, err
	}
	const op = "Stream.Allocator (aclrtAllocatorGetByStream)"
	d, ok, err := s.s.Allocator()
	if err != nil {
		return AllocatorDesc{}, wrap(op, err)
	}
	if !ok {
		return AllocatorDesc{}, wrap(op, rterr.Errorf(rterr.KindBadArgument, "stream %d is not registered with any allocator", s.ID()))
	}
	return AllocatorDesc(d), nil
}

// UnregisterAllocator forgets the stream's allocator; with none it does
// nothing.
//
// CANN: aclrtAllocatorUnregister.
func (s *Stream) UnregisterAllocator() { s.s.UnregisterAllocator() }
