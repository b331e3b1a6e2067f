package gocann

import (
	"github.com/gocann/gocann/internal/callsite"
	"github.com/gocann/gocann/internal/rt"
	"github.com/gocann/gocann/internal/rterr"
)

// TaskGroup is a range of captured tasks that can be replaced after the
// capture, while the model is in use: BeginUpdate on a stream that is not
// capturing, queue the same number and kinds of task with new arguments,
// EndUpdate. The replacement is itself a task of that stream, so runs queued
// behind it (or ordered after it by an EventExternal event) use the new
// tasks.
type TaskGroup struct{ g *rt.TaskGroup }

func taskGroup(g *rt.TaskGroup) *TaskGroup {
	if f, ok := g.Front.Load().(*TaskGroup); ok {
		return f
	}
	g.Front.CompareAndSwap(nil, &TaskGroup{g: g})
	return g.Front.Load().(*TaskGroup)
}

// Len is the number of tasks in the group.
//
// CANN: none.
func (g *TaskGroup) Len() int { return g.g.Len() }

// BeginTaskGroup opens a task group on capturing stream s; until
// EndTaskGroup, only s may queue tasks in the capture, and only single
// tasks (kernels, copies, memsets, value operations), no event operations.
//
// CANN: aclmdlRICaptureTaskGrpBegin.
func (s *Stream) BeginTaskGroup() error {
	if err := s.r.require("aclmdlRICaptureTaskGrpBegin"); err != nil {
		return err
	}
	return wrap("Stream.BeginTaskGroup (aclmdlRICaptureTaskGrpBegin)", s.s.BeginTaskGroup())
}

// EndTaskGroup closes the task group open on s and returns it.
//
// CANN: aclmdlRICaptureTaskGrpEnd.
func (s *Stream) EndTaskGroup() (*TaskGroup, error) {
	if err := s.r.require("aclmdlRICaptureTaskGrpEnd"); err != nil {
		return nil, err
	}
	g, err := s.s.EndTaskGroup()
	if err != nil {
		return nil, wrap("Stream.EndTaskGroup (aclmdlRICaptureTaskGrpEnd)", err)
	}
	return taskGroup(g), nil
}

// BeginUpdate makes s, which must not be capturing, collect the tasks that
// will replace g's; they do not run.
//
// CANN: aclmdlRICaptureTaskUpdateBegin.
func (s *Stream) BeginUpdate(g *TaskGroup) error {
	if err := s.r.require("aclmdlRICaptureTaskUpdateBegin"); err != nil {
		return err
	}
	const op = "Stream.BeginUpdate (aclmdlRICaptureTaskUpdateBegin)"
	if g == nil {
		return wrap(op, rterr.Errorf(rterr.KindBadArgument, "task group is nil"))
	}
	return wrap(op, s.s.BeginUpdate(g.g))
}

// EndUpdate ends the update begun on s and queues, as a task of s, the
// replacement of the group's tasks. It fails if the update's tasks differ
// in number or kind from the group's; an update of no tasks changes
// nothing.
//
// CANN: aclmdlRICaptureTaskUpdateEnd.
//
//go:noinline
func (s *Stream) EndUpdate() error {
	if err := s.r.require("aclmdlRICaptureTaskUpdateEnd"); err != nil {
		return err
	}
	return wrap("Stream.EndUpdate (aclmdlRICaptureTaskUpdateEnd)", s.s.EndUpdate(callsite.Caller()))
}
