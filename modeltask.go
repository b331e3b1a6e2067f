package gocann

import (
	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rt"
	"github.com/gocann/gocann/internal/rterr"
)

// ModelStream is a stream of a model, as the model holds it: for a captured
// model, one of the streams that took part in the capture; for a built
// model, a bound stream. Values compare equal when they name the same
// stream.
type ModelStream struct {
	r *Runtime
	s rt.ModelStream
}

// ModelTask is a task of a model stream. Values compare equal when they
// name the same task.
type ModelTask struct {
	r *Runtime
	t rt.ModelTask
}

// TaskType is aclmdlRITaskType, with the CANN values.
type TaskType int32

const (
	TaskDefault     TaskType = 0 // ACL_MODEL_RI_TASK_DEFAULT: any other task (copy, memset, host function, notify, control)
	TaskKernel      TaskType = 1 // ACL_MODEL_RI_TASK_KERNEL
	TaskEventRecord TaskType = 2 // ACL_MODEL_RI_TASK_EVENT_RECORD
	TaskEventWait   TaskType = 3 // ACL_MODEL_RI_TASK_EVENT_WAIT
	TaskEventReset  TaskType = 4 // ACL_MODEL_RI_TASK_EVENT_RESET
	TaskValueWrite  TaskType = 5 // ACL_MODEL_RI_TASK_VALUE_WRITE
	TaskValueWait   TaskType = 6 // ACL_MODEL_RI_TASK_VALUE_WAIT
)

// TaskParams are a model task's parameters (aclmdlRITaskParams). Type says
// which fields apply.
type TaskParams struct {
	Type  TaskType
	Group *TaskGroup // the task group holding the task, if any; ignored by SetParams

	// TaskKernel: the kernel, its block count and its argument slots,
	// either inline (Args) or NArgs slots in device memory at ArgsDev,
	// read when the task starts. Params reports inline slots in Args.
	Kernel  *Kernel
	Blocks  uint32
	Args    []Arg
	ArgsDev DevPtr
	NArgs   int

	// TaskEventRecord, TaskEventWait, TaskEventReset: the event, reported
	// only; SetParams leaves it.
	Event *Event

	// TaskValueWrite, TaskValueWait: the 64-bit word, the value and (for a
	// wait) the comparison (ACL_STREAM_WAIT_VALUE_*).
	Addr  DevPtr
	Value uint64
	Flag  uint32
}

// Streams lists the model's streams.
//
// CANN: aclmdlRIGetStreams.
func (m *ModelRI) Streams() ([]ModelStream, error) {
	if err := m.r.require("aclmdlRIGetStreams"); err != nil {
		return nil, err
	}
	ss, err := m.m.Streams()
	if err != nil {
		return nil, wrap("ModelRI.Streams (aclmdlRIGetStreams)", err)
	}
	out := make([]ModelStream, len(ss))
	for i, s := range ss {
		out[i] = ModelStream{m.r, s}
	}
	return out, nil
}

// Index is the stream's position in its model.
//
// CANN: none.
func (s ModelStream) Index() int { return s.s.Index() }

// Model is the stream's model.
//
// CANN: none.
func (s ModelStream) Model() *ModelRI { return s.r.model(s.s.Model()) }

// Source is the stream that was captured or bound.
//
// CANN: none.
func (s ModelStream) Source() *Stream { return s.r.stream(s.s.Source()) }

// Tasks lists the stream's tasks in order.
//
// CANN: aclmdlRIGetTasksByStream.
func (s ModelStream) Tasks() []ModelTask {
	ts := s.s.Tasks()
	out := make([]ModelTask, len(ts))
	for i, t := range ts {
		out[i] = ModelTask{s.r, t}
	}
	return out
}

// Stream is the task's stream.
//
// CANN: none.
func (t ModelTask) Stream() ModelStream { return ModelStream{t.r, t.t.Stream()} }

// Seq is the task's position in its stream.
//
// CANN: aclmdlRITaskGetSeqId.
func (t ModelTask) Seq() uint32 { return uint32(t.t.Seq()) }

// Type is the task's type.
//
// CANN: aclmdlRITaskGetType.
func (t ModelTask) Type() TaskType { return taskType(t.t.Op()) }

func taskType(op hal.Op) TaskType {
	switch op.Kind {
	case hal.OpRecord:
		return TaskEventRecord
	case hal.OpWait:
		return TaskEventWait
	case hal.OpReset:
		return TaskEventReset
	case hal.OpTask:
		switch op.Task.Kind {
		case hal.TaskKernel:
			return TaskKernel
		case hal.TaskEventRecord:
			return TaskEventRecord
		case hal.TaskEventWait:
			return TaskEventWait
		case hal.TaskEventReset:
			return TaskEventReset
		case hal.TaskValueWrite:
			return TaskValueWrite
		case hal.TaskValueWait:
			return TaskValueWait
		}
	}
	return TaskDefault
}

// Disabled reports whether the task is disabled, edits not yet published
// by ModelRI.Update included.
//
// CANN: none.
func (t ModelTask) Disabled() bool { return t.t.Op().Disabled }

// Params reports the task's parameters, edits not yet published by
// ModelRI.Update included.
//
// CANN: aclmdlRITaskGetParams.
func (t ModelTask) Params() TaskParams {
	op := t.t.Op()
	p := TaskParams{Type: taskType(op)}
	if g := t.t.Group(); g != nil {
		p.Group = taskGroup(g)
	}
	if e := t.t.Event(); e != nil {
		p.Event, _ = e.Front.Load().(*Event)
	}
	switch p.Type {
	case TaskKernel:
		tk := &op.Task
		p.Kernel, p.Blocks, p.NArgs, p.ArgsDev = NewKernel(tk.Kernel), tk.Blocks, int(tk.NArgs), DevPtr(tk.ArgsDev)
		if tk.ArgsDev == 0 {
			p.Args = make([]Arg, tk.NArgs)
			for i := range p.Args {
				p.Args[i] = Arg(tk.Args[i])
			}
		}
	case TaskValueWrite, TaskValueWait:
		p.Addr, p.Value, p.Flag = DevPtr(op.Task.Dst.Dev), op.Task.Value, op.Task.Flag
	}
	return p
}

// ArgsDevice returns device memory holding a kernel task's argument slots:
// its own argument block if it reads one, else a copy of its inline slots
// that the model owns (refreshed by each call). Pointer-level callers hand
// it out as aclmdlRITaskGetParams' args.
//
// CANN: aclmdlRITaskGetParams (args in device memory).
func (t ModelTask) ArgsDevice() (DevPtr, error) {
	if err := t.r.require("aclmdlRITaskGetParams"); err != nil {
		return 0, err
	}
	a, err := t.t.ArgsDevice()
	return DevPtr(a), wrap("ModelTask.ArgsDevice (aclmdlRITaskGetParams)", err)
}

// SetParams replaces the task's parameters with p, of the task's own type:
// a kernel task's kernel, blocks and arguments, or a value task's word,
// value and flag. Event tasks keep their event. The change takes effect at
// ModelRI.Update.
//
// CANN: aclmdlRITaskSetParams.
func (t ModelTask) SetParams(p TaskParams) error {
	if err := t.r.require("aclmdlRITaskSetParams"); err != nil {
		return err
	}
	const op = "ModelTask.SetParams (aclmdlRITaskSetParams)"
	if have := t.Type(); p.Type != have {
		return wrap(op, rterr.Errorf(rterr.KindInvalidParam, "type %d is invalid, expected the task's own type %d", p.Type, have))
	}
	switch p.Type {
	case TaskKernel:
		if p.Kernel == nil {
			return wrap(op, rterr.Errorf(rterr.KindBadArgument, "kernel is nil"))
		}
		args := make([]uint64, len(p.Args))
		for i, a := range p.Args {
			args[i] = uint64(a)
		}
		return wrap(op, t.t.SetKernel(&p.Kernel.k, p.Blocks, args, uint64(p.ArgsDev), p.NArgs))
	case TaskValueWrite, TaskValueWait:
		return wrap(op, t.t.SetValue(uint64(p.Addr), p.Value, p.Flag))
	case TaskEventRecord, TaskEventWait, TaskEventReset:
		return nil
	}
	return wrap(op, rterr.Errorf(rterr.KindTaskTypeNotSupport, "task %d has no settable parameters (type DEFAULT)", t.Seq()))
}

// Disable takes the task out of later runs, at ModelRI.Update.
//
// CANN: aclmdlRITaskDisable.
func (t ModelTask) Disable() error {
	if err := t.r.require("aclmdlRITaskDisable"); err != nil {
		return err
	}
	return wrap("ModelTask.Disable (aclmdlRITaskDisable)", t.t.Disable())
}
