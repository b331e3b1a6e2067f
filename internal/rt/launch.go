package rt

import (
	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
	"github.com/gocann/gocann/kernel"
)

// MaxBlocks is the largest block count a launch accepts.
const MaxBlocks = 65535

// Launch queues kernel k over blocks blocks with argument slots args, at
// most hal.MaxArgs (the caller checks), (aclrtLaunchKernel). It allocates
// nothing.
func (s *Stream) Launch(k *kernel.Func, blocks uint32, args []uint64, site uintptr) error {
	return s.LaunchSlots(k, blocks, args, hal.LaunchAttrs{}, 0, site)
}

// A launch's kernel and block count are checked here, once on the way to
// the device: the backend takes them as given. Its argument slots are
// bounded by whoever lays them out, in the terms of its own parameters
// (the Go API's argument count, an argument block's size); the calls that
// take slots so laid out say so.

// checkKernel checks the kernel and block count of a launch.
func checkKernel(k *kernel.Func, blocks uint32) error {
	switch {
	case k == nil:
		return rterr.Errorf(rterr.KindBadArgument, "kernel is nil, expected a kernel")
	case k.Fn == nil:
		return rterr.Errorf(rterr.KindInvalidParam, "kernel %q has no function, expected a kernel to run", k.Name)
	case blocks == 0 || blocks > MaxBlocks:
		return rterr.Errorf(rterr.KindInvalidParam, "numBlocks %d is invalid, expected 1..%d", blocks, MaxBlocks)
	}
	return nil
}

// checkLaunch checks a launch of k over blocks blocks with nargs slots.
func checkLaunch(k *kernel.Func, blocks uint32, nargs int) error {
	if err := checkKernel(k, blocks); err != nil {
		return err
	}
	if nargs < 0 || nargs > hal.MaxArgs {
		return rterr.Errorf(rterr.KindInvalidParam, "%d argument slots is invalid, expected at most %d", nargs, hal.MaxArgs)
	}
	return nil
}

// LaunchHostFunc queues fn to run on a runtime goroutine once every earlier
// task of s is done; later tasks wait for it (aclrtLaunchHostFunc).
func (s *Stream) LaunchHostFunc(fn func(), site uintptr) error {
	if fn == nil {
		return rterr.Errorf(rterr.KindBadArgument, "fn is nil, expected a function")
	}
	if th := s.c.d.r.hostThreadOf(s); th != nil {
		fn = th.viaThread(fn)
	}
	_, err := s.submit(&hal.Task{Kind: hal.TaskHostFunc, Host: fn, Site: site})
	return err
}

// LaunchHostFuncArgs is LaunchHostFunc for a function of two words, such
// as a trampoline calling a C function pointer with its argument; it
// allocates nothing.
func (s *Stream) LaunchHostFuncArgs(fn func(a, b uintptr), a, b uintptr, site uintptr) error {
	if fn == nil {
		return rterr.Errorf(rterr.KindBadArgument, "fn is nil, expected a function")
	}
	if th := s.c.d.r.hostThreadOf(s); th != nil {
		return s.LaunchHostFunc(func() { fn(a, b) }, site)
	}
	_, err := s.submit(&hal.Task{Kind: hal.TaskHostFunc, HostFn: fn, HostArgs: [2]uintptr{a, b}, Site: site})
	return err
}

// checkWord checks a 64-bit word of device memory for value write and wait.
func (s *Stream) checkWord(addr uint64) error {
	if err := s.c.d.checkDevice("devAddr", addr, 8); err != nil {
		return err
	}
	if addr%8 != 0 {
		return rterr.Errorf(rterr.KindUnaligned, "devAddr %#x is invalid, expected 8-byte alignment", addr)
	}
	return nil
}

// ValueWrite queues a store of value to the 64-bit word at addr
// (aclrtValueWrite); flag is reserved and must be 0.
func (s *Stream) ValueWrite(addr, value uint64, flag uint32, site uintptr) error {
	if err := s.check(); err != nil {
		return err
	}
	if flag != 0 {
		return rterr.Errorf(rterr.KindInvalidParam, "flag %d is invalid, expected 0", flag)
	}
	if err := s.checkWord(addr); err != nil {
		return err
	}
	_, err := s.submitOn(&hal.Task{Kind: hal.TaskValueWrite, Dst: hal.DevLoc(addr), Value: value, Site: site}, s.c.d.r.symbolsOf(hal.DevLoc(addr)))
	return err
}

// ValueWait holds s until the 64-bit word at addr satisfies flag against
// value (aclrtValueWait). Like an event or notify wait it is bounded by the
// process's wait timeout (SetOpWaitTimeout) in force when it is queued.
func (s *Stream) ValueWait(addr, value uint64, flag uint32, site uintptr) error {
	if err := s.check(); err != nil {
		return err
	}
	if flag > hal.WaitNOR {
		return rterr.Errorf(rterr.KindInvalidParam, "flag %d is invalid, expected 0 (GEQ), 1 (EQ), 2 (AND) or 3 (NOR)", flag)
	}
	if err := s.checkWord(addr); err != nil {
		return err
	}
	_, err := s.submitOn(&hal.Task{Kind: hal.TaskValueWait, Dst: hal.DevLoc(addr), Value: value, Flag: flag, Timeout: s.c.d.r.waitTimeout(0), Site: site}, s.c.d.r.symbolsOf(hal.DevLoc(addr)))
	return err
}

// LaunchDeviceArgs queues kernel k whose nargs argument slots, at most
// hal.MaxArgs (the caller checks), are in device memory at argsDev; they
// are read when the kernel is about to start, after every earlier task of
// s (aclrtLaunchKernel's argsData).
func (s *Stream) LaunchDeviceArgs(k *kernel.Func, blocks uint32, argsDev uint64, nargs int, attrs hal.LaunchAttrs, thread uint32, site uintptr) error {
	if err := s.check(); err != nil {
		return err
	}
	if err := checkKernel(k, blocks); err != nil {
		return err
	}
	if nargs > 0 {
		if err := s.c.d.checkDevice("argsData", argsDev, 8*uint64(nargs)); err != nil {
			return err
		}
	}
	t := hal.Task{Kind: hal.TaskKernel, Kernel: k, Blocks: blocks, NArgs: uint32(nargs), ArgsDev: argsDev, Launch: attrs, Thread: thread, Site: site}
	if d := s.dumpTarget(k); d != nil {
		return s.submitDumped(d, &t)
	}
	_, err := s.submit(&t)
	return err
}

// LaunchSlots is Launch for callers that know their OS thread, recorded in
// the task for exception reports. args holds at most hal.MaxArgs slots
// (the caller checks).
func (s *Stream) LaunchSlots(k *kernel.Func, blocks uint32, args []uint64, attrs hal.LaunchAttrs, thread uint32, site uintptr) error {
	if err := s.check(); err != nil {
		return err
	}
	if err := checkKernel(k, blocks); err != nil {
		return err
	}
	if err := s.c.d.r.closed.checkSlots(args); err != nil {
		return err
	}
	t := hal.Task{Kind: hal.TaskKernel, Kernel: k, Blocks: blocks, NArgs: uint32(len(args)), Launch: attrs, Thread: thread, Site: site}
	copy(t.Args[:], args)
	if d := s.dumpTarget(k); d != nil {
		return s.submitDumped(d, &t)
	}
	_, err := s.submit(&t)
	return err
}
