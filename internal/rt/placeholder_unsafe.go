package rt

import (
	"encoding/binary"
	"unsafe"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
	"github.com/gocann/gocann/kernel"
)

// Placeholder is a pointer slot of a host argument block, at Slot, that
// points at the device copy of the block's bytes from Data on.
type Placeholder struct{ Slot, Data uint64 }

// LaunchPlaceholders queues k with a host argument block whose first
// params bytes are the kernel's parameters and whose placeholder slots
// point into a copy of the whole block in device memory
// (aclrtLaunchKernelWithHostArgs with placeholders). The copy is the
// runtime's own memory, never the caller's: it is written before the call
// returns, so the caller may reuse block at once, and freed after the
// kernel has run, or with the model when the stream records into one. A
// task-group update refuses it: the task it replaces may still be reading
// its own copy.
func (s *Stream) LaunchPlaceholders(k *kernel.Func, blocks uint32, block []byte, params int, phs []Placeholder, attrs hal.LaunchAttrs, thread uint32, site uintptr) error {
	if err := s.usable(); err != nil {
		return err
	}
	if len(phs) == 0 {
		return rterr.Errorf(rterr.KindInvalidParam, "no placeholders, expected at least one")
	}
	if params%8 != 0 || params > len(block) {
		return rterr.Errorf(rterr.KindInvalidParam, "the parameters take %d bytes of the %d-byte block, expected a multiple of 8 inside it", params, len(block))
	}
	if err := checkLaunch(k, blocks, params/8); err != nil {
		return err
	}
	for i, ph := range phs {
		if ph.Slot%8 != 0 || ph.Slot+8 > uint64(len(block)) || ph.Data >= uint64(len(block)) {
			return rterr.Errorf(rterr.KindInvalidParam, "placeholder %d {addrOffset %d, dataOffset %d} is invalid, expected an 8-byte aligned slot and data inside the %d-byte block",
				i, ph.Slot, ph.Data, len(block))
		}
	}
	var m *Model
	if d := s.divert.Load(); d != nil {
		if d.update != nil {
			return rterr.Errorf(rterr.KindCaptureBlockAsync, "a kernel launch with placeholders cannot update a captured task (stream %d); put the data in device memory and launch with aclrtLaunchKernel", s.id)
		}
		m = d.ms.m
	}
	a, err := s.c.MallocInternal(uint64(len(block)))
	if err != nil {
		return err
	}
	for _, ph := range phs {
		binary.LittleEndian.PutUint64(block[ph.Slot:], a.Addr+ph.Data)
	}
	// The copy is fresh and no task knows it yet: writing it now needs no
	// ordering on the stream.
	err = s.c.hd.Run(hal.Task{Kind: hal.TaskCopy, Dst: hal.DevLoc(a.Addr), Src: hal.HostLoc(unsafe.Pointer(&block[0])), Size: uint64(len(block))})
	if err == nil {
		slots := make([]uint64, params/8)
		for i := range slots {
			slots[i] = binary.LittleEndian.Uint64(block[8*i:])
		}
		err = s.LaunchSlots(k, blocks, slots, attrs, thread, site)
	}
	if err != nil {
		_ = s.c.FreeInternal(a.Addr)
		return err
	}
	if m != nil {
		m.keepBlock(a.Addr)
		return nil
	}
	c := s.c
	// If this fails the kernel may still run: the copy is left to it.
	return s.LaunchHostFuncArgs(func(addr, _ uintptr) { _ = c.FreeInternal(uint64(addr)) }, uintptr(a.Addr), 0, site)
}

// keepBlock makes m own device memory of the runtime's that one of its
// tasks reads, freed with m; at once if m is gone already.
func (m *Model) keepBlock(addr uint64) {
	m.mu.Lock()
	if m.state != modelDestroyed {
		m.blocks = append(m.blocks, addr)
		addr = 0
	}
	m.mu.Unlock()
	if addr != 0 {
		_ = m.c.FreeInternal(addr)
	}
}
