package rt

import (
	"unsafe"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// ArgsDevice returns the device address of the kernel task's argument
// slots, as aclmdlRITaskGetParams reports them: the task's own argument
// block if it reads one, else a block of device memory the model owns,
// refreshed from the inline slots on every call and freed with the model.
func (t ModelTask) ArgsDevice() (uint64, error) {
	op := t.Op()
	if op.Kind != hal.OpTask || op.Task.Kind != hal.TaskKernel {
		return 0, rterr.Errorf(rterr.KindInvalidParam, "task %d of stream %d is a %s, not a kernel", t.pos, t.s.ms.idx, opName(op))
	}
	if op.Task.ArgsDev != 0 {
		return op.Task.ArgsDev, nil
	}
	m := t.s.m
	key := [2]int{t.s.ms.idx, t.pos}
	m.mu.Lock()
	addr, ok := m.argBufs[key]
	m.mu.Unlock()
	if !ok {
		a, err := m.c.lend(8 * hal.MaxArgs)
		if err != nil {
			return 0, err
		}
		m.mu.Lock()
		if m.state == modelDestroyed {
			m.mu.Unlock()
			_ = m.c.FreeInternal(a.Addr)
			return 0, errModelDestroyed(m)
		}
		if m.argBufs == nil {
			m.argBufs = map[[2]int]uint64{}
		}
		addr, ok = m.argBufs[key]
		if !ok {
			addr = a.Addr
			m.argBufs[key] = addr
		}
		m.mu.Unlock()
		if ok { // another call made the block first
			_ = m.c.FreeInternal(a.Addr)
		}
	}
	if op.Task.NArgs > 0 {
		err := m.c.hd.Run(hal.Task{Kind: hal.TaskCopy, Dst: hal.DevLoc(addr), Src: hal.HostLoc(unsafe.Pointer(&op.Task.Args[0])), Size: 8 * uint64(op.Task.NArgs)})
		if err != nil {
			return 0, err
		}
	}
	return addr, nil
}
