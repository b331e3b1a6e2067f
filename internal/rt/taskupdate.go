package rt

import (
	"encoding/binary"
	"unsafe"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
	"github.com/gocann/gocann/kernel"
)

// Updating a kernel task of a model from a stream (aclrtTaskUpdateAsync):
// a task of the updating stream reads the new kernel and block count from
// device memory when it runs and rewrites the model's task in place, as
// CANN's update task rewrites the task's descriptor, so the model's next
// operation of that stream sees it without aclmdlRIUpdate.

// KernelResolver finds the kernel an update names by the entry word it
// read from device memory.
type KernelResolver func(entry uint64) (*kernel.Func, error)

// QueueTaskUpdate queues on s an update of kernel task t: when it runs, the
// 64-bit words at entryAddr and blocksAddr give the entry that resolve
// turns into the new kernel and the new block count. The task's arguments
// stay. A word that cannot be read, an entry resolve does not know or a
// block count out of range faults the update task, leaving t as it was.
func (s *Stream) QueueTaskUpdate(t ModelTask, resolve KernelResolver, entryAddr, blocksAddr uint64, site uintptr) error {
	if err := s.check(); err != nil {
		return err
	}
	if resolve == nil {
		return rterr.Errorf(rterr.KindBadArgument, "resolve is nil")
	}
	if s.c.d != t.s.m.c.d {
		return rterr.Errorf(rterr.KindInvalidParam, "execStream %d is on device %d, the task's model on device %d", s.id, s.c.d.id, t.s.m.c.d.id)
	}
	for _, w := range []struct {
		name string
		addr uint64
	}{{"funcEntryAddr", entryAddr}, {"blockDimAddr", blocksAddr}} {
		if err := s.c.d.checkDevice(w.name, w.addr, 8); err != nil {
			return err
		}
	}
	op := t.Op()
	if op.Kind != hal.OpTask || op.Task.Kind != hal.TaskKernel {
		return rterr.Errorf(rterr.KindInvalidParam, "taskId %d of the stream's model stream %d is a %s, expected a kernel task", t.pos, t.s.ms.idx, opName(op))
	}
	c := s.c
	return s.LaunchHostFunc(func() {
		entry, err := c.readWord(entryAddr)
		if err == nil {
			var blocks uint64
			if blocks, err = c.readWord(blocksAddr); err == nil {
				err = t.applyKernel(resolve, entry, blocks)
			}
		}
		if err != nil {
			panic(err)
		}
	}, site)
}

// readWord reads the 64-bit word of device memory at addr.
func (c *Context) readWord(addr uint64) (uint64, error) {
	var b [8]byte
	if err := c.hd.Run(hal.Task{Kind: hal.TaskCopy, Dst: hal.HostLoc(unsafe.Pointer(&b[0])), Src: hal.DevLoc(addr), Size: 8}); err != nil {
		return 0, rterr.Wrap(rterr.KindDMAFault, err, "reading the word at %#x", addr)
	}
	return binary.LittleEndian.Uint64(b[:]), nil
}

// applyKernel rewrites kernel task t with the kernel at entry and blocks
// blocks, in the published operations and in pending edits alike.
func (t ModelTask) applyKernel(resolve KernelResolver, entry, blocks uint64) error {
	k, err := resolve(entry)
	if err != nil {
		return err
	}
	if blocks == 0 || blocks > MaxBlocks {
		return rterr.Errorf(rterr.KindInvalidParam, "the block count %d read for the update is invalid, expected 1..%d", blocks, MaxBlocks)
	}
	m := t.s.m
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.state == modelDestroyed {
		return errModelDestroyed(m)
	}
	set := func(ops []hal.Op) []hal.Op {
		ops = append([]hal.Op(nil), ops...)
		ops[t.pos].Task.Kernel, ops[t.pos].Task.Blocks = k, uint32(blocks)
		return ops
	}
	ms := t.s.ms
	ops := set(ms.gs.Ops())
	ms.ops = ops
	ms.gs.SetOps(ops)
	if p, ok := m.pending[ms.idx]; ok {
		m.pending[ms.idx] = set(p)
	}
	return nil
}
