package rt

import (
	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
	"github.com/gocann/gocann/kernel"
)

// Looking into a model after it is built or captured, and changing its
// tasks (aclmdlRIGetStreams, aclmdlRIGetTasksByStream, aclmdlRITask*,
// aclmdlRIUpdate).

// ModelStream is a stream of a model, as aclmdlRIGetStreams hands it out.
type ModelStream struct {
	m  *Model
	ms *mstream
}

// Streams lists m's streams in order.
func (m *Model) Streams() ([]ModelStream, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.readyLocked(); err != nil {
		return nil, err
	}
	out := make([]ModelStream, len(m.streams))
	for i, ms := range m.streams {
		out[i] = ModelStream{m, ms}
	}
	return out, nil
}

// Bound returns the model stream persistent stream s is bound to, once
// its model is built.
func (s *Stream) Bound() (ModelStream, error) {
	d := s.divert.Load()
	if d == nil || d.capture != nil || d.update != nil {
		return ModelStream{}, rterr.Errorf(rterr.KindStreamModel, "stream %d is not bound to a model", s.id)
	}
	m := d.ms.m
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.readyLocked(); err != nil {
		return ModelStream{}, err
	}
	return ModelStream{m, d.ms}, nil
}

// Index is the stream's position in its model.
func (s ModelStream) Index() int { return s.ms.idx }

// Model is the stream's model.
func (s ModelStream) Model() *Model { return s.m }

// Source is the user stream that was captured or bound, if any.
func (s ModelStream) Source() *Stream { return s.ms.src }

// ModelTask is a task of a model stream.
type ModelTask struct {
	s   ModelStream
	pos int
}

// Tasks lists the stream's tasks, control operations included.
func (s ModelStream) Tasks() []ModelTask {
	s.m.mu.Lock()
	defer s.m.mu.Unlock()
	ops := s.ops()
	out := make([]ModelTask, len(ops))
	for i := range out {
		out[i] = ModelTask{s, i}
	}
	return out
}

// ops returns the stream's operations, with pending edits. m.mu held.
func (s ModelStream) ops() []hal.Op {
	if p, ok := s.m.pending[s.ms.idx]; ok {
		return p
	}
	return s.ms.gs.Ops()
}

// Seq is the task's position in its stream (aclmdlRITaskGetSeqId).
func (t ModelTask) Seq() int { return t.pos }

// Stream is the task's stream.
func (t ModelTask) Stream() ModelStream { return t.s }

// Op returns the task's operation, with pending edits.
func (t ModelTask) Op() hal.Op {
	t.s.m.mu.Lock()
	defer t.s.m.mu.Unlock()
	return t.s.ops()[t.pos]
}

// Event is the event an event task records, waits for or resets; nil for
// other tasks.
func (t ModelTask) Event() *Event {
	t.s.m.mu.Lock()
	defer t.s.m.mu.Unlock()
	return t.s.ms.events[t.pos]
}

// edit changes the task in the model's pending edits; Update publishes
// them.
func (t ModelTask) edit(fn func(op *hal.Op) error) error {
	m := t.s.m
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.readyLocked(); err != nil {
		return err
	}
	ops, ok := m.pending[t.s.ms.idx]
	if !ok {
		ops = append([]hal.Op(nil), t.s.ms.gs.Ops()...)
	}
	if err := fn(&ops[t.pos]); err != nil {
		return err
	}
	if m.pending == nil {
		m.pending = map[int][]hal.Op{}
	}
	m.pending[t.s.ms.idx] = ops
	return nil
}

// SetKernel replaces a kernel task's kernel, block count and arguments:
// inline slots args, or, with argsDev != 0, nargs slots read from device
// memory when the task starts (aclmdlRITaskSetParams). Update makes it
// take effect.
func (t ModelTask) SetKernel(k *kernel.Func, blocks uint32, args []uint64, argsDev uint64, nargs int) error {
	d := t.s.m.c.d
	for _, n := range []int{len(args), nargs} {
		if err := checkLaunch(k, blocks, n); err != nil {
			return err
		}
	}
	if argsDev != 0 && nargs > 0 {
		if err := d.checkDevice("args", argsDev, 8*uint64(nargs)); err != nil {
			return err
		}
	} else if err := d.r.closed.checkSlots(args); err != nil {
		return err
	}
	return t.edit(func(op *hal.Op) error {
		if op.Kind != hal.OpTask || op.Task.Kind != hal.TaskKernel {
			return rterr.Errorf(rterr.KindInvalidParam, "task %d of stream %d is a %s, not a kernel", t.pos, t.s.ms.idx, opName(*op))
		}
		if sk := t.s.m.sks[op.Task.Kernel]; sk != nil { // m.mu held (edit)
			return rterr.Errorf(rterr.KindInvalidParam, "task %d of stream %d is SuperKernel %q of %d sub-kernels, whose kernel cannot be replaced", t.pos, t.s.ms.idx, sk.Name, len(sk.Subs))
		}
		op.Task.Kernel, op.Task.Blocks, op.Task.ArgsDev = k, blocks, argsDev
		if argsDev != 0 {
			op.Task.NArgs = uint32(nargs)
		} else {
			op.Task.NArgs = uint32(len(args))
			copy(op.Task.Args[:], args)
		}
		return nil
	})
}

// SetValue replaces a value write or wait task's word, value and (for a
// wait) comparison (aclmdlRITaskSetParams). Update makes it take effect.
func (t ModelTask) SetValue(addr, value uint64, flag uint32) error {
	d := t.s.m.c.d
	if err := d.checkDevice("devAddr", addr, 8); err != nil {
		return err
	}
	if addr%8 != 0 {
		return rterr.Errorf(rterr.KindUnaligned, "devAddr %#x is invalid, expected 8-byte alignment", addr)
	}
	return t.edit(func(op *hal.Op) error {
		if op.Kind != hal.OpTask || (op.Task.Kind != hal.TaskValueWrite && op.Task.Kind != hal.TaskValueWait) {
			return rterr.Errorf(rterr.KindInvalidParam, "task %d of stream %d is a %s, not a value write or wait", t.pos, t.s.ms.idx, opName(*op))
		}
		if op.Task.Kind == hal.TaskValueWait && flag > hal.WaitNOR {
			return rterr.Errorf(rterr.KindInvalidParam, "flag %d is invalid, expected 0 (GEQ), 1 (EQ), 2 (AND) or 3 (NOR)", flag)
		}
		if op.Task.Kind == hal.TaskValueWrite && flag != 0 {
			return rterr.Errorf(rterr.KindInvalidParam, "flag %d is invalid for a value write, expected 0", flag)
		}
		op.Task.Dst, op.Task.Value, op.Task.Flag = hal.DevLoc(addr), value, flag
		return nil
	})
}

// Group returns the task group holding the task, or nil.
func (t ModelTask) Group() *TaskGroup {
	m := t.s.m
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, g := range m.groups {
		if g.ms == t.s.ms && t.pos >= g.start && t.pos < g.end {
			return g
		}
	}
	return nil
}

// Disable takes the task out of later runs (aclmdlRITaskDisable); Update
// makes it take effect.
func (t ModelTask) Disable() error {
	return t.edit(func(op *hal.Op) error {
		op.Disabled = true
		return nil
	})
}

// Update publishes the pending task edits (aclmdlRIUpdate); refused while
// m runs.
func (m *Model) Update() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.readyLocked(); err != nil {
		return rterr.Wrap(rterr.KindModelUpdateFailed, err, "model %d cannot be updated", m.id)
	}
	if m.running() {
		return rterr.Errorf(rterr.KindModelUpdateFailed, "model %d is running; update it between runs", m.id)
	}
	for idx, ops := range m.pending {
		m.streams[idx].ops = ops
		m.streams[idx].gs.SetOps(ops)
	}
	m.pending = nil
	return nil
}

// Abort stops m's runs in progress (aclmdlRIAbort): each ends before its
// next operation, or in the wait it is in, and the stream running it
// reports ACL_ERROR_RT_MODEL_ABORT_NORMAL. Runs queued behind them start
// as usual. A conditional branch goes with its parent, which is the one to
// abort.
func (m *Model) Abort() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.readyLocked(); err != nil {
		return err
	}
	if m.kind == modelSub {
		return rterr.Errorf(rterr.KindNotSupported, "model %d is a conditional branch; abort model %d, which runs it", m.id, m.parent.id)
	}
	m.graph.Abort()
	return nil
}
