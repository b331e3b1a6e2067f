package gocann_test

import (
	"testing"
	"time"

	"github.com/gocann/gocann"
)

// Task groups and their update (aclmdlRICaptureTaskGrpBegin/End,
// aclmdlRICaptureTaskUpdateBegin/End): "The task count and task types
// between UpdateBegin and UpdateEnd must equal those between GrpBegin and
// GrpEnd."

// groupModel captures on s: p = 1, then a group of {q = 10, memset r to
// 0xAA}, then p += 1. It returns the model and the group.
func groupModel(t *testing.T, e env, k kernels, s *gocann.Stream, p, q, r gocann.DevPtr) (*gocann.ModelRI, *gocann.TaskGroup) {
	t.Helper()
	var g *gocann.TaskGroup
	m, err := s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		check(t, s.Launch(k.store, 1, gocann.Ptr(p), gocann.U64(1)))
		check(t, s.BeginTaskGroup())
		check(t, s.Launch(k.store, 1, gocann.Ptr(q), gocann.U64(10)))
		check(t, s.Memset(r, 0xAA, 8))
		var err error
		g, err = s.EndTaskGroup()
		check(t, err)
		return s.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(1))
	})
	check(t, err)
	closeModel(t, m)
	if g.Len() != 2 {
		t.Fatalf("group holds %d tasks, want 2", g.Len())
	}
	return m, g
}

func TestTaskGroupUpdate(t *testing.T) {
	e := setup(t)
	k := registerKernels(t, e)
	p, q, r := word(t, e, 0), word(t, e, 0), word(t, e, 0)
	m, g := groupModel(t, e, k, e.s, p, q, r)
	runOK(t, m, e.s)
	wantU64(t, e, q, 10, "group kernel before the update")
	wantU64(t, e, r, 0xAAAAAAAAAAAAAAAA, "group memset before the update")

	// The update's tasks replace the group's; they do not run themselves.
	upd := e.newStream(t)
	check(t, upd.BeginUpdate(g))
	if st, _ := upd.CaptureInfo(); st != gocann.CaptureNone {
		t.Fatalf("an updating stream reports capture status %v", st)
	}
	check(t, upd.Launch(k.store, 1, gocann.Ptr(q), gocann.U64(20)))
	check(t, upd.Memset(r, 0xBB, 8))
	check(t, upd.EndUpdate())
	syncOK(t, upd)
	wantU64(t, e, q, 10, "the update's kernel ran by itself")
	wantU64(t, e, r, 0xAAAAAAAAAAAAAAAA, "the update's memset ran by itself")
	for range 2 {
		writeU64(t, e.c, p, 0)
		runOK(t, m, e.s)
		wantU64(t, e, q, 20, "group kernel after the update")
		wantU64(t, e, r, 0xBBBBBBBBBBBBBBBB, "group memset after the update")
		wantU64(t, e, p, 2, "the tasks around the group")
	}
	// The update stream is an ordinary stream again.
	check(t, upd.Launch(k.store, 1, gocann.Ptr(q), gocann.U64(5)))
	syncOK(t, upd)
	wantU64(t, e, q, 5, "a task after the update")

	// An update is a task of its stream: runs queued after it on that
	// stream see it, and the parameters shown by inspection follow it.
	check(t, e.s.BeginUpdate(g))
	check(t, e.s.Launch(k.store, 1, gocann.Ptr(q), gocann.U64(30)))
	check(t, e.s.Memset(r, 0xCC, 8))
	check(t, e.s.EndUpdate())
	runOK(t, m, e.s)
	wantU64(t, e, q, 30, "a run queued behind the update on the same stream")
	ss, err := m.Streams()
	check(t, err)
	if ps := ss[0].Tasks()[1].Params(); ps.Type != gocann.TaskKernel || ps.Group != g || ps.Args[1] != gocann.U64(30) {
		t.Fatalf("the group's kernel task reports %+v, want the updated argument 30 in group %p", ps, g)
	}
}

func TestTaskGroupEmptyUpdate(t *testing.T) {
	// The guide's first iteration updates with no tasks: nothing changes.
	e := setup(t)
	k := registerKernels(t, e)
	p, q, r := word(t, e, 0), word(t, e, 0), word(t, e, 0)
	m, g := groupModel(t, e, k, e.s, p, q, r)
	upd := e.newStream(t)
	check(t, upd.BeginUpdate(g))
	check(t, upd.EndUpdate())
	syncOK(t, upd)
	runOK(t, m, e.s)
	wantU64(t, e, q, 10, "group kernel after an empty update")
	wantU64(t, e, r, 0xAAAAAAAAAAAAAAAA, "group memset after an empty update")
}

func TestTaskGroupUpdateMismatch(t *testing.T) {
	e := setup(t)
	k := registerKernels(t, e)
	p, q, r := word(t, e, 0), word(t, e, 0), word(t, e, 0)
	m, g := groupModel(t, e, k, e.s, p, q, r)
	upd := e.newStream(t)

	// Too few tasks.
	check(t, upd.BeginUpdate(g))
	check(t, upd.Launch(k.store, 1, gocann.Ptr(q), gocann.U64(20)))
	wantErr(t, upd.EndUpdate(), gocann.CodeRTModelUpdateFailed, "update has 1 tasks", "task group 2")
	// Too many: the extra task is refused as it is queued.
	check(t, upd.BeginUpdate(g))
	check(t, upd.Launch(k.store, 1, gocann.Ptr(q), gocann.U64(20)))
	check(t, upd.Memset(r, 0xBB, 8))
	wantErr(t, upd.Memset(r, 0xBB, 8), gocann.CodeRTModelUpdateFailed, "task group has 2 tasks", "stream "+itoa(upd.ID()), "one more")
	check(t, upd.EndUpdate())
	syncOK(t, upd)
	runOK(t, m, e.s)
	wantU64(t, e, q, 20, "the update whose extra task was refused")
	// Another kind of task.
	check(t, upd.BeginUpdate(g))
	wantErr(t, upd.Memset(q, 1, 8), gocann.CodeRTModelUpdateFailed, "task 0 of the update is a memset", "a kernel", "same kinds")
	check(t, upd.Launch(k.store, 1, gocann.Ptr(q), gocann.U64(40)))
	wantErr(t, upd.Launch(k.store, 1, gocann.Ptr(q), gocann.U64(40)), gocann.CodeRTModelUpdateFailed, "task 1 of the update is a kernel", "a memset")
	wantErr(t, upd.EndUpdate(), gocann.CodeRTModelUpdateFailed, "update has 1 tasks")
	// Event operations are no tasks of a group.
	ev := newEvents(t, e, 1)[0]
	check(t, upd.BeginUpdate(g))
	wantErr(t, upd.Record(ev), gocann.CodeRTTaskTypeNotSupport, "task-group update")
	check(t, upd.EndUpdate())

	// The failed updates changed nothing.
	syncOK(t, upd)
	runOK(t, m, e.s)
	wantU64(t, e, q, 20, "group kernel after the failed updates")
	wantU64(t, e, r, 0xBBBBBBBBBBBBBBBB, "group memset after the failed updates")
}

func TestTaskGroupStateErrors(t *testing.T) {
	e := setup(t)
	k := registerKernels(t, e)
	p := word(t, e, 0)
	wantErr(t, e.s.BeginTaskGroup(), gocann.CodeRTStreamNotCaptured, "stream "+itoa(e.s.ID()), "not capturing")
	_, err := e.s.EndTaskGroup()
	wantErr(t, err, gocann.CodeRTStreamNotCaptured, "not capturing")
	wantErr(t, e.s.EndUpdate(), gocann.CodeStreamTaskGroupStatus, "stream "+itoa(e.s.ID()), "not updating")
	wantErr(t, e.s.BeginUpdate(nil), gocann.CodeInvalidParam, "task group is nil")

	c, err := e.s.BeginCapture(gocann.CaptureGlobal)
	check(t, err)
	_, err = e.s.EndTaskGroup()
	wantErr(t, err, gocann.CodeStreamTaskGroupStatus, "no task group is open", "stream "+itoa(e.s.ID()))
	check(t, e.s.BeginTaskGroup())
	wantErr(t, e.s.BeginTaskGroup(), gocann.CodeStreamTaskGroupStatus, "already open", "stream "+itoa(e.s.ID()))
	check(t, e.s.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(1)))
	// A capture does not end with a group open.
	_, err = c.End()
	wantErr(t, err, gocann.CodeStreamTaskGroupStatus, "task group", "not ended")

	// A capturing stream does not update, nor does a group update twice at
	// once.
	var g *gocann.TaskGroup
	m, err := e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		check(t, s.BeginTaskGroup())
		check(t, s.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(1)))
		g, err = s.EndTaskGroup()
		return err
	})
	check(t, err)
	closeModel(t, m)
	c2, err := e.s.BeginCapture(gocann.CaptureGlobal)
	check(t, err)
	wantErr(t, e.s.BeginUpdate(g), gocann.CodeStreamTaskGroupStatus, "stream "+itoa(e.s.ID()), "capturing")
	m2, err := c2.End()
	check(t, err)
	closeModel(t, m2)
	u1, u2 := e.newStream(t), e.newStream(t)
	check(t, u1.BeginUpdate(g))
	wantErr(t, u2.BeginUpdate(g), gocann.CodeStreamTaskGroupStatus, "already being updated")
	wantErr(t, u1.BeginUpdate(g), gocann.CodeStreamTaskGroupStatus, "already being updated")
	_, err = u1.BeginCapture(gocann.CaptureGlobal)
	wantErr(t, err, gocann.CodeRTParamInvalid, "stream "+itoa(u1.ID()), "updating a task group")
	check(t, u1.EndUpdate())
	check(t, u2.BeginUpdate(g))
	check(t, u2.EndUpdate())

	// A destroyed model's group cannot be updated.
	check(t, m.Close())
	wantErr(t, u1.BeginUpdate(g), gocann.CodeRTInvalidHandle, "destroyed")
}

func TestTaskGroupInterrupted(t *testing.T) {
	// "In cross-stream capture, between GrpBegin and GrpEnd, other
	// capturing streams may not issue tasks" (ACL_ERROR_STREAM_TASK_GROUP_INTR),
	// and only single tasks go in a group (ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT).
	e := setup(t)
	k := registerKernels(t, e)
	p := word(t, e, 0)
	s1, s2, s3 := e.s, e.newStream(t), e.newStream(t)
	ev := newEvents(t, e, 4)
	c, err := s1.BeginCapture(gocann.CaptureGlobal)
	check(t, err)
	check(t, s1.Record(ev[0]))
	check(t, s2.WaitEvent(ev[0]))
	check(t, s2.Record(ev[1]))
	check(t, s1.BeginTaskGroup())
	wantErr(t, s2.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(1)), gocann.CodeStreamTaskGroupIntr,
		"stream "+itoa(s2.ID()), "task group is open on stream "+itoa(s1.ID()))
	wantErr(t, s2.Record(ev[2]), gocann.CodeStreamTaskGroupIntr, "stream "+itoa(s2.ID()))
	wantErr(t, s3.WaitEvent(ev[0]), gocann.CodeStreamTaskGroupIntr, "stream "+itoa(s3.ID()))
	if s3.Capturing() != nil {
		t.Fatal("a stream joined the capture while a task group was open on another")
	}
	for name, call := range map[string]func() error{
		"record":      func() error { return s1.Record(ev[3]) },
		"wait":        func() error { return s1.WaitEvent(ev[1]) },
		"host func":   func() error { return s1.LaunchHostFunc(func() {}) },
		"value write": func() error { return s1.WriteValue(p, 1) },
	} {
		wantErr(t, call(), gocann.CodeRTTaskTypeNotSupport, "task group", name)
	}
	check(t, s1.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(1)))
	g, err := s1.EndTaskGroup()
	check(t, err)
	if g.Len() != 1 {
		t.Fatalf("group holds %d tasks, want the one kernel", g.Len())
	}
	// Once the group is closed the other streams go on.
	check(t, s2.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(10)))
	check(t, s2.Record(ev[2]))
	check(t, s1.WaitEvent(ev[2]))
	m, err := c.End()
	check(t, err)
	closeModel(t, m)
	runOK(t, m, s3)
	wantU64(t, e, p, 11, "the run")
}

func TestTaskGroupUpdateWithExternalEvent(t *testing.T) {
	// The guide's concurrent flow: the model waits for an ACL_EVENT_EXTERNAL
	// event and resets it right before the group; each iteration runs the
	// model, updates the group on another stream and records the event
	// there, which releases the model to run the group with the new
	// parameters.
	e := setup(t)
	k := registerKernels(t, e)
	p, q := word(t, e, 0), word(t, e, 0)
	ev, err := e.c.NewEventWithFlag(gocann.EventExternal)
	check(t, err)
	exec := e.s
	var g *gocann.TaskGroup
	m, err := exec.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		check(t, s.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(1)))
		check(t, s.WaitEvent(ev))
		check(t, s.ResetEvent(ev))
		check(t, s.BeginTaskGroup())
		check(t, s.Launch(k.shift, 1, gocann.Ptr(q), gocann.U64(1)))
		g, err = s.EndTaskGroup()
		check(t, err)
		return s.Launch(k.add, 1, gocann.Ptr(p), gocann.U64(1))
	})
	check(t, err)
	closeModel(t, m)
	ss, err := m.Streams()
	check(t, err)
	types := []gocann.TaskType{gocann.TaskKernel, gocann.TaskEventWait, gocann.TaskEventReset, gocann.TaskKernel, gocann.TaskKernel}
	tasks := ss[0].Tasks()
	for i, tk := range tasks {
		if i >= len(types) || tk.Type() != types[i] {
			t.Fatalf("task %d is of type %d, want %v", i, tk.Type(), types)
		}
	}
	if pe := tasks[1].Params().Event; pe != ev {
		t.Fatalf("the wait task reports event %p, want the external event %p", pe, ev)
	}

	upd := e.newStream(t)
	for i := range 4 {
		writeU64(t, e.c, q, 0)
		check(t, m.Run(exec))
		// The model waits for the event: it has done its first task and
		// goes no further.
		eventually(t, "the model reaches its wait", func() bool { return readU64(t, e.c, p) == uint64(2*i+1) })
		stays(t, 10*time.Millisecond, "the model waits for the external event", func() bool { return readU64(t, e.c, q) == 0 })
		check(t, upd.BeginUpdate(g))
		want := uint64(1)
		if i > 0 { // the first iteration updates nothing, as in the guide
			want = uint64(i + 1)
			check(t, upd.Launch(k.shift, 1, gocann.Ptr(q), gocann.U64(want)))
		}
		check(t, upd.EndUpdate())
		check(t, upd.Record(ev))
		syncOK(t, upd)
		syncOK(t, exec)
		wantU64(t, e, q, want, "the group's kernel in this iteration")
		wantU64(t, e, p, uint64(2*i+2), "the tasks around the group")
	}
}

func TestTaskGroupUpdatesBackToBack(t *testing.T) {
	// Updates queued one after another, without waiting: each is a task of
	// the update stream, so the last one queued is what a later run uses,
	// and queueing the next while the device applies the previous is safe.
	e := setup(t)
	k := registerKernels(t, e)
	p, q, r := word(t, e, 0), word(t, e, 0), word(t, e, 0)
	m, g := groupModel(t, e, k, e.s, p, q, r)
	upd := e.newStream(t)
	for i := range 50 {
		check(t, upd.BeginUpdate(g))
		check(t, upd.Launch(k.store, 1, gocann.Ptr(q), gocann.U64(uint64(100+i))))
		check(t, upd.Memset(r, byte(i), 8))
		check(t, upd.EndUpdate())
	}
	check(t, m.Run(upd))
	syncOK(t, upd)
	wantU64(t, e, q, 149, "the group kernel after 50 updates")
	wantU64(t, e, r, 0x3131313131313131, "the group memset after 50 updates")
}

func TestTaskGroupUpdateAndTaskEdits(t *testing.T) {
	// A group update and edits of other tasks of the same stream (SetParams,
	// published by ModelRI.Update) do not undo each other, in either order.
	e := setup(t)
	k := registerKernels(t, e)
	p, q, r := word(t, e, 0), word(t, e, 0), word(t, e, 0)
	m, g := groupModel(t, e, k, e.s, p, q, r)
	ss, err := m.Streams()
	check(t, err)
	first := ss[0].Tasks()[0] // p = 1, outside the group
	upd := e.newStream(t)
	update := func(v uint64) {
		check(t, upd.BeginUpdate(g))
		check(t, upd.Launch(k.store, 1, gocann.Ptr(q), gocann.U64(v)))
		check(t, upd.Memset(r, byte(v), 8))
		check(t, upd.EndUpdate())
		syncOK(t, upd)
	}
	edit := func(v uint64) {
		check(t, first.SetParams(gocann.TaskParams{Type: gocann.TaskKernel, Kernel: k.store, Blocks: 1, Args: []gocann.Arg{gocann.Ptr(p), gocann.U64(v)}}))
	}

	edit(100)  // pending
	update(20) // applied now
	check(t, m.Update())
	runOK(t, m, e.s)
	wantU64(t, e, p, 101, "the edit published after a group update")
	wantU64(t, e, q, 20, "the group update after an edit was published")
	if got := ss[0].Tasks()[1].Params().Args[1]; got != gocann.U64(20) {
		t.Fatalf("the group's kernel reports argument %d, want the update's 20", got)
	}

	update(30)
	edit(200)
	check(t, m.Update())
	runOK(t, m, e.s)
	wantU64(t, e, p, 201, "an edit published after a group update")
	wantU64(t, e, q, 30, "the group update before an edit")
}
