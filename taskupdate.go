package gocann

import (
	"github.com/gocann/gocann/internal/rterr"
	"github.com/gocann/gocann/kernel"
)

// UpdateKernelTask queues on s an update of kernel task t of a model: when
// the update runs, in s's order, it reads two 64-bit words of device
// memory, entryWord (a kernel entry, which resolve turns into a kernel) and
// blocksWord (the new block count), and rewrites t with that kernel and
// block count, keeping its arguments. The change is in place: the model's
// next run, or the rest of a run in progress, uses it without
// ModelRI.Update. An unreadable word, an entry resolve refuses or a block
// count outside 1..MaxBlocks faults the update task on s and leaves t
// alone.
//
// CANN: aclrtTaskUpdateAsync (ACL_RT_UPDATE_AIC_AIV_TASK).
func (s *Stream) UpdateKernelTask(t ModelTask, resolve func(entry uint64) (*Kernel, error), entryWord, blocksWord DevPtr) error {
	if err := s.r.require("aclrtTaskUpdateAsync"); err != nil {
		return err
	}
	const op = "Stream.UpdateKernelTask (aclrtTaskUpdateAsync)"
	if resolve == nil {
		return wrap(op, rterr.Errorf(rterr.KindBadArgument, "resolve is nil, expected a function"))
	}
	r := func(entry uint64) (*kernel.Func, error) {
		k, err := resolve(entry)
		if err != nil {
			return nil, err
		}
		if k == nil {
			return nil, rterr.Errorf(rterr.KindSymbolNotFound, "no kernel has entry %#x", entry)
		}
		return k.Raw(), nil
	}
	return wrap(op, s.s.QueueTaskUpdate(t.t, r, uint64(entryWord), uint64(blocksWord), 0))
}
