package gocann

import (
	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rt"
	"github.com/gocann/gocann/internal/rterr"
)

// Building a model over persistent streams, and the control tasks such a
// model may hold: labels, label switches, stream activation and stream
// switches.

// BuildModel starts building a model: bind persistent streams (Bind), queue
// their tasks, end each (EndTask), then BuildEnd.
//
// CANN: aclmdlRIBuildBegin.
func (c *Context) BuildModel() (*ModelRI, error) {
	if err := c.r.require("aclmdlRIBuildBegin"); err != nil {
		return nil, err
	}
	m, err := c.c.BuildBegin()
	if err != nil {
		return nil, wrap("Context.BuildModel (aclmdlRIBuildBegin)", err)
	}
	return c.r.model(m), nil
}

// Bind binds persistent stream s to the model being built: its tasks are
// recorded into the model. A head stream starts when the model runs; any
// other starts when a task of the model activates it or jumps to it.
//
// CANN: aclmdlRIBindStream.
func (m *ModelRI) Bind(s *Stream, head bool) error {
	if err := m.r.require("aclmdlRIBindStream"); err != nil {
		return err
	}
	const op = "ModelRI.Bind (aclmdlRIBindStream)"
	if s == nil {
		return wrap(op, rterr.Errorf(rterr.KindBadArgument, "stream is nil"))
	}
	return wrap(op, m.m.Bind(s.s, head))
}

// EndTask ends bound stream s: when a run reaches this point, s stops.
//
// CANN: aclmdlRIEndTask.
func (m *ModelRI) EndTask(s *Stream) error {
	if err := m.r.require("aclmdlRIEndTask"); err != nil {
		return err
	}
	const op = "ModelRI.EndTask (aclmdlRIEndTask)"
	if s == nil {
		return wrap(op, rterr.Errorf(rterr.KindBadArgument, "stream is nil"))
	}
	return wrap(op, m.m.EndTask(s.s))
}

// BuildEnd finishes building; the model can run from now on and its
// streams take no more tasks.
//
// CANN: aclmdlRIBuildEnd.
func (m *ModelRI) BuildEnd() error {
	if err := m.r.require("aclmdlRIBuildEnd"); err != nil {
		return err
	}
	return wrap("ModelRI.BuildEnd (aclmdlRIBuildEnd)", m.m.BuildEnd())
}

// Unbind unbinds s from the model, which keeps what was recorded; refused
// while the model runs.
//
// CANN: aclmdlRIUnbindStream.
func (m *ModelRI) Unbind(s *Stream) error {
	if err := m.r.require("aclmdlRIUnbindStream"); err != nil {
		return err
	}
	const op = "ModelRI.Unbind (aclmdlRIUnbindStream)"
	if s == nil {
		return wrap(op, rterr.Errorf(rterr.KindBadArgument, "stream is nil"))
	}
	return wrap(op, m.m.Unbind(s.s))
}

// Label marks a position in a bound stream, for label switches. A process
// holds at most 65535 labels.
type Label struct{ l *rt.Label }

// NewLabel creates a label.
//
// CANN: aclrtCreateLabel.
func (r *Runtime) NewLabel() (*Label, error) {
	if err := r.require("aclrtCreateLabel"); err != nil {
		return nil, err
	}
	l, err := r.rt.NewLabel()
	if err != nil {
		return nil, wrap("Runtime.NewLabel (aclrtCreateLabel)", err)
	}
	f := &Label{l: l}
	l.Front.Store(f)
	return f, nil
}

// Close destroys the label; models built with it keep their jumps.
//
// CANN: aclrtDestroyLabel.
func (l *Label) Close() error { return wrap("Label.Close (aclrtDestroyLabel)", l.l.Destroy()) }

// SetLabel places l at the next task of bound stream s; a label is set
// once.
//
// CANN: aclrtSetLabel.
func (s *Stream) SetLabel(l *Label) error {
	if err := s.r.require("aclrtSetLabel"); err != nil {
		return err
	}
	const op = "Stream.SetLabel (aclrtSetLabel)"
	if l == nil {
		return wrap(op, rterr.Errorf(rterr.KindBadArgument, "label is nil"))
	}
	return wrap(op, l.l.Set(s.s))
}

// SwitchLabel queues, on bound stream s, a jump to labels[i], where i is
// the uint32 at ptr when the task runs; an i past the end takes the last
// label. The jump leaves s: the label's stream runs on from the label.
//
// CANN: aclrtSwitchLabelByIndex.
func (s *Stream) SwitchLabel(ptr DevPtr, labels []*Label) error {
	if err := s.r.require("aclrtSwitchLabelByIndex"); err != nil {
		return err
	}
	const op = "Stream.SwitchLabel (aclrtSwitchLabelByIndex)"
	ls := make([]*rt.Label, len(labels))
	for i, l := range labels {
		if l == nil {
			return wrap(op, rterr.Errorf(rterr.KindBadArgument, "label %d is nil", i))
		}
		ls[i] = l.l
	}
	return wrap(op, s.s.SwitchLabel(uint64(ptr), ls))
}

// ActivateStream queues, on bound stream s, the start of bound stream
// target of the same model, which then runs alongside s. An Atlas A3 does
// not offer it (ACL_ERROR_RT_FEATURE_NOT_SUPPORT).
//
// CANN: aclrtActiveStream.
func (s *Stream) ActivateStream(target *Stream) error {
	const op = "Stream.ActivateStream (aclrtActiveStream)"
	if err := s.r.require("aclrtActiveStream"); err != nil {
		return err
	}
	if target == nil {
		return wrap(op, rterr.Errorf(rterr.KindBadArgument, "activeStream is nil"))
	}
	return wrap(op, s.s.ActivateStream(target.s))
}

// Condition is aclrtCondition, with the CANN values.
type Condition uint8

const (
	CondEqual          Condition = Condition(hal.CmpEQ) // ACL_RT_EQUAL
	CondNotEqual       Condition = Condition(hal.CmpNE) // ACL_RT_NOT_EQUAL
	CondGreater        Condition = Condition(hal.CmpGT) // ACL_RT_GREATER
	CondGreaterOrEqual Condition = Condition(hal.CmpGE) // ACL_RT_GREATER_OR_EQUAL
	CondLess           Condition = Condition(hal.CmpLT) // ACL_RT_LESS
	CondLessOrEqual    Condition = Condition(hal.CmpLE) // ACL_RT_LESS_OR_EQUAL
)

// CompareType is aclrtCompareDataType, with the CANN values.
type CompareType uint32

const (
	CompareInt32 CompareType = 0 // ACL_RT_SWITCH_INT32
	CompareInt64 CompareType = 1 // ACL_RT_SWITCH_INT64
)

// SwitchStream queues, on bound stream s, a jump to the start of bound
// stream target if (*left cond *right) holds when the task runs, comparing
// the values in device memory as typ; otherwise s goes on. An Atlas A3
// does not offer it (ACL_ERROR_RT_FEATURE_NOT_SUPPORT).
//
// CANN: aclrtSwitchStream.
func (s *Stream) SwitchStream(left DevPtr, cond Condition, right DevPtr, typ CompareType, target *Stream) error {
	const op = "Stream.SwitchStream (aclrtSwitchStream)"
	if err := s.r.require("aclrtSwitchStream"); err != nil {
		return err
	}
	if target == nil {
		return wrap(op, rterr.Errorf(rterr.KindBadArgument, "trueStream is nil"))
	}
	if typ > CompareInt64 {
		return wrap(op, rterr.Errorf(rterr.KindInvalidParam, "dataType %d is invalid, expected 0 (INT32) or 1 (INT64)", typ))
	}
	return wrap(op, s.s.SwitchStream(uint64(left), uint8(cond), uint64(right), typ == CompareInt64, target.s))
}

// CleanTasks drops the tasks persistent stream s recorded into a model not
// yet built, so that they can be queued again; a built model keeps its own.
//
// CANN: aclrtPersistentTaskClean.
func (s *Stream) CleanTasks() error {
	if err := s.r.require("aclrtPersistentTaskClean"); err != nil {
		return err
	}
	return wrap("Stream.CleanTasks (aclrtPersistentTaskClean)", s.s.CleanTasks())
}

// BoundModelStream returns the model stream that persistent stream s is
// bound to, once its model is built.
//
// CANN: none.
func (s *Stream) BoundModelStream() (ModelStream, error) {
	ms, err := s.s.Bound()
	if err != nil {
		return ModelStream{}, wrap("Stream.BoundModelStream", err)
	}
	return ModelStream{s.r, ms}, nil
}
