package rt

import (
	"sync"
	"sync/atomic"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// Task groups and their update (aclmdlRICaptureTaskGrpBegin/End,
// aclmdlRICaptureTaskUpdateBegin/End): a group marks captured tasks whose
// parameters can be replaced later by capturing the same kinds of task on
// another stream.

// TaskGroup is a range of captured tasks on one model stream.
type TaskGroup struct {
	// Front holds the API layer's object for this one, set once.
	Front atomic.Value

	ms         *mstream
	start, end int // ops [start, end)

	// mu guards updating.
	mu       sync.Mutex
	updating bool
}

// BeginTaskGroup opens a task group on capturing stream s.
func (s *Stream) BeginTaskGroup() error {
	d := s.divert.Load()
	if d == nil || d.capture == nil {
		return rterr.Errorf(rterr.KindStreamNotCaptured, "stream %d is not capturing; task groups are captured", s.id)
	}
	c := d.capture
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.live(); err != nil {
		return err
	}
	if c.group != nil {
		return rterr.Errorf(rterr.KindTaskGroupStatus, "a task group is already open on stream %d; end it first", c.group.ms.src.id)
	}
	if r := d.ms.sk; r != nil {
		return rterr.Errorf(rterr.KindTaskGroupStatus, "SuperKernel %q is open on stream %d; a task group cannot begin inside it", r.name, s.id)
	}
	c.group = &TaskGroup{ms: d.ms, start: len(d.ms.ops)}
	return nil
}

// EndTaskGroup closes the task group open on s and returns it.
func (s *Stream) EndTaskGroup() (*TaskGroup, error) {
	d := s.divert.Load()
	if d == nil || d.capture == nil {
		return nil, rterr.Errorf(rterr.KindStreamNotCaptured, "stream %d is not capturing", s.id)
	}
	c := d.capture
	c.mu.Lock()
	defer c.mu.Unlock()
	g := c.group
	if g == nil || g.ms != d.ms {
		return nil, rterr.Errorf(rterr.KindTaskGroupStatus, "no task group is open on stream %d", s.id)
	}
	c.group = nil
	g.end = len(d.ms.ops)
	m := c.m
	m.mu.Lock()
	m.groups = append(m.groups, g)
	m.mu.Unlock()
	return g, nil
}

// Len is the number of tasks in the group.
func (g *TaskGroup) Len() int { return g.end - g.start }

// update collects the replacement tasks of a task group.
type update struct {
	g     *TaskGroup
	kinds []hal.TaskKind // the group's task kinds, which updates keep
	ops   []hal.Op
}

func (u *update) add(s *Stream, t *hal.Task) error {
	if len(u.ops) >= u.g.Len() {
		return rterr.Errorf(rterr.KindModelUpdateFailed, "task group has %d tasks; stream %d queued one more for its update", u.g.Len(), s.id)
	}
	want := u.kinds[len(u.ops)]
	if t.Kind != want {
		return rterr.Errorf(rterr.KindModelUpdateFailed, "task %d of the update is a %s, the group's task %d a %s; an update replaces tasks of the same kinds", len(u.ops), t.Kind, len(u.ops), want)
	}
	u.ops = append(u.ops, hal.Op{Kind: hal.OpTask, Task: *t})
	return nil
}

// BeginUpdate makes s, which is not capturing, collect replacement tasks
// for group g (aclmdlRICaptureTaskUpdateBegin).
func (s *Stream) BeginUpdate(g *TaskGroup) error {
	if err := s.check(); err != nil {
		return err
	}
	if g == nil {
		return rterr.Errorf(rterr.KindBadArgument, "task group is nil")
	}
	// The kinds are read under the model's lock: an earlier update of the
	// group may be replacing its tasks on the device right now.
	m := g.ms.m
	m.mu.Lock()
	err := m.readyLocked()
	kinds := make([]hal.TaskKind, g.Len())
	for i := range kinds {
		kinds[i] = g.ms.ops[g.start+i].Task.Kind
	}
	m.mu.Unlock()
	if err != nil {
		return err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.updating {
		return rterr.Errorf(rterr.KindTaskGroupStatus, "the task group is already being updated; end that update first")
	}
	if !s.swapDivert(nil, &divert{update: &update{g: g, kinds: kinds}}) {
		return rterr.Errorf(rterr.KindTaskGroupStatus, "stream %d is capturing, bound or already updating; updates are made on a plain stream", s.id)
	}
	g.updating = true
	return nil
}

// EndUpdate ends the update on s (aclmdlRICaptureTaskUpdateEnd): a task of
// s, in its order, puts the new tasks in place, so a run that reaches the
// group after it uses them. An update of no tasks changes nothing.
func (s *Stream) EndUpdate(site uintptr) error {
	d := s.divert.Load()
	if d == nil || d.update == nil {
		return rterr.Errorf(rterr.KindTaskGroupStatus, "stream %d is not updating a task group", s.id)
	}
	u := d.update
	s.dropUpdate(u)
	if len(u.ops) == 0 {
		return nil
	}
	if len(u.ops) != u.g.Len() {
		return rterr.Errorf(rterr.KindModelUpdateFailed, "update has %d tasks, the task group %d; an update replaces every task", len(u.ops), u.g.Len())
	}
	g := u.g
	apply := func() {
		m := g.ms.m
		m.mu.Lock()
		defer m.mu.Unlock()
		replace := func(ops []hal.Op) {
			for i, op := range u.ops {
				op.Disabled = ops[g.start+i].Disabled
				ops[g.start+i] = op
			}
		}
		ops := append([]hal.Op(nil), g.ms.gs.Ops()...)
		replace(ops)
		g.ms.ops = ops
		g.ms.gs.SetOps(ops)
		// Task edits not yet published hold a copy of the stream's tasks;
		// publishing them must not bring the old group back.
		if p, ok := m.pending[g.ms.idx]; ok {
			replace(p)
		}
	}
	_, err := s.submit(&hal.Task{Kind: hal.TaskHostFunc, Host: apply, Site: site})
	return err
}

// dropUpdate ends s's update without applying it.
func (s *Stream) dropUpdate(u *update) {
	s.clearDivert()
	u.g.mu.Lock()
	u.g.updating = false
	u.g.mu.Unlock()
}
