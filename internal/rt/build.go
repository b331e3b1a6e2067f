package rt

import (
	"sync"
	"sync/atomic"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// Building models over persistent streams (aclmdlRIBuildBegin ...
// aclmdlRIBuildEnd), and the control tasks such models may hold: labels,
// label switches, stream switches and stream activation.

// BuildBegin starts building a model in c (aclmdlRIBuildBegin).
func (c *Context) BuildBegin() (*Model, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	m := c.newModel(modelBuilt)
	m.events = map[*Event]int{}
	return m, nil
}

// Bind binds persistent stream s to m (aclmdlRIBindStream): its tasks are
// recorded into m. Head streams start when m runs; others when a task of
// m activates or jumps to them.
func (m *Model) Bind(s *Stream, head bool) error {
	if err := s.check(); err != nil {
		return err
	}
	switch {
	case !s.persistent:
		return rterr.Errorf(rterr.KindInvalidParam, "stream %d was not created with ACL_STREAM_PERSISTENT; only persistent streams can be bound", s.id)
	case s.c != m.c:
		return rterr.Errorf(rterr.KindInvalidParam, "stream %d belongs to context %d, model %d to context %d", s.id, s.c.id, m.id, m.c.id)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.kind != modelBuilt || m.state != modelBuilding {
		return rterr.Errorf(rterr.KindInvalidParam, "model %d is not being built (aclmdlRIBuildBegin); streams bind only before aclmdlRIBuildEnd", m.id)
	}
	ms := &mstream{m: m, idx: len(m.streams), head: head, src: s}
	if !s.swapDivert(nil, &divert{ms: ms}) {
		return rterr.Errorf(rterr.KindInvalidParam, "stream %d is already bound to a model", s.id)
	}
	m.streams = append(m.streams, ms)
	return nil
}

// boundTo returns the model stream s is bound to in m.
func (m *Model) boundTo(s *Stream) (*mstream, error) {
	if d := s.divert.Load(); d != nil && d.capture == nil && d.update == nil && d.ms.m == m {
		return d.ms, nil
	}
	return nil, rterr.Errorf(rterr.KindStreamModel, "stream %d is not bound to model %d", s.id, m.id)
}

// addBound records a task of a bound stream, an operation on event e if e
// is not nil.
func (m *Model) addBound(ms *mstream, op hal.Op, e *Event) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.state != modelBuilding {
		return rterr.Errorf(rterr.KindStreamModel, "model %d is built; its streams take no more tasks", m.id)
	}
	if ms.done {
		return rterr.Errorf(rterr.KindStreamModel, "stream %d of model %d was ended with aclmdlRIEndTask", ms.src.id, m.id)
	}
	ms.push(op, e)
	return nil
}

// EndTask ends stream s of m (aclmdlRIEndTask).
func (m *Model) EndTask(s *Stream) error {
	ms, err := m.boundTo(s)
	if err != nil {
		return err
	}
	if err := m.addBound(ms, hal.Op{Kind: hal.OpEnd}, nil); err != nil {
		return err
	}
	m.mu.Lock()
	ms.done = true
	m.mu.Unlock()
	return nil
}

// BuildEnd finishes building m (aclmdlRIBuildEnd); it can run from now on.
func (m *Model) BuildEnd() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.kind != modelBuilt || m.state != modelBuilding {
		return rterr.Errorf(rterr.KindInvalidParam, "model %d is not being built", m.id)
	}
	if len(m.streams) == 0 {
		return rterr.Errorf(rterr.KindInvalidParam, "model %d has no bound stream", m.id)
	}
	for _, ref := range m.labelRefs {
		op := &ref.ms.ops[ref.op]
		op.Labels = make([]hal.Label, len(ref.labels))
		for i, l := range ref.labels {
			l.mu.Lock()
			ms, pos, dead := l.ms, l.pos, l.dead
			l.mu.Unlock()
			if dead {
				return rterr.Errorf(rterr.KindInvalidHandle, "label %d of the switch on stream %d was destroyed", i, ref.ms.src.id)
			}
			if ms == nil || ms.m != m {
				return rterr.Errorf(rterr.KindInvalidParam, "label %d of the switch on stream %d is not set on a stream of model %d", i, ref.ms.src.id, m.id)
			}
			op.Labels[i] = hal.Label{Stream: ms.idx, Pos: pos}
		}
	}
	m.bindEvents()
	return m.finish(false)
}

// bindEvents turns waits and resets queued before their event's first
// record on a bound stream, taken then for events of the world outside the
// model, into operations on the model's event: streams are filled in any
// order, and a run's record satisfies the wait whichever came first. m.mu
// held.
func (m *Model) bindEvents() {
	for _, ms := range m.streams {
		for i, e := range ms.events {
			op := &ms.ops[i]
			if op.Kind != hal.OpTask {
				continue
			}
			ge, recorded := m.events[e]
			if !recorded {
				continue
			}
			switch op.Task.Kind {
			case hal.TaskEventWait:
				*op = hal.Op{Kind: hal.OpWait, Event: ge, Timeout: op.Task.Timeout}
			case hal.TaskEventReset:
				*op = hal.Op{Kind: hal.OpReset, Event: ge}
			}
		}
	}
}

// Unbind unbinds s from m (aclmdlRIUnbindStream); a built model keeps
// running what was recorded.
func (m *Model) Unbind(s *Stream) error {
	ms, err := m.boundTo(s)
	if err != nil {
		return err
	}
	m.mu.Lock()
	running := m.running()
	m.mu.Unlock()
	if running {
		return rterr.Errorf(rterr.KindModelRunning, "model %d is running; unbind its streams after it finishes", m.id)
	}
	s.unbind(ms)
	return nil
}

// unbind releases s from model stream ms.
func (s *Stream) unbind(ms *mstream) {
	if d := s.divert.Load(); d != nil && d.ms == ms {
		s.swapDivert(d, nil)
	}
}

// CleanTasks drops the tasks persistent stream s recorded into a model
// still being built, so that they can be queued again
// (aclrtPersistentTaskClean); a built model keeps its own copy.
func (s *Stream) CleanTasks() error {
	if err := s.check(); err != nil {
		return err
	}
	if !s.persistent {
		return rterr.Errorf(rterr.KindInvalidParam, "stream %d is not persistent (ACL_STREAM_PERSISTENT)", s.id)
	}
	d := s.divert.Load()
	if d == nil || d.capture != nil || d.update != nil {
		return nil
	}
	m := d.ms.m
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.state != modelBuilding {
		return nil
	}
	d.ms.ops, d.ms.events, d.ms.done = nil, nil, false
	kept := m.labelRefs[:0]
	for _, ref := range m.labelRefs {
		if ref.ms != d.ms {
			kept = append(kept, ref)
		}
	}
	m.labelRefs = kept
	return nil
}

// Label marks a position in a bound stream (aclrtCreateLabel).
type Label struct {
	// Front holds the API layer's object for this one, set once.
	Front atomic.Value

	r *Runtime

	// mu guards the fields below.
	mu   sync.Mutex
	ms   *mstream
	pos  int
	dead bool
}

// MaxLabels is how many labels a process may hold at once.
const MaxLabels = 65535

// NewLabel creates a label (aclrtCreateLabel).
func (r *Runtime) NewLabel() (*Label, error) {
	if r.labels.Add(1) > MaxLabels {
		r.labels.Add(-1)
		return nil, rterr.Errorf(rterr.KindOverLimit, "%d labels exist, the most a process may hold; destroy some first", MaxLabels)
	}
	return &Label{r: r}, nil
}

// Destroy destroys l (aclrtDestroyLabel); a model built with it keeps its
// jumps.
func (l *Label) Destroy() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.dead {
		return rterr.Errorf(rterr.KindInvalidHandle, "label was already destroyed")
	}
	l.dead = true
	l.r.labels.Add(-1)
	return nil
}

// Set places l at the next task of bound stream s (aclrtSetLabel); a label
// is set once.
func (l *Label) Set(s *Stream) error {
	d := s.divert.Load()
	if d == nil || d.capture != nil || d.update != nil {
		return rterr.Errorf(rterr.KindStreamModel, "stream %d is not bound to a model; labels go on bound streams", s.id)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.dead {
		return rterr.Errorf(rterr.KindInvalidHandle, "label was destroyed")
	}
	if l.ms != nil {
		return rterr.Errorf(rterr.KindInvalidParam, "label is already set on stream %d; a label is set once", l.ms.src.id)
	}
	m := d.ms.m
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.state != modelBuilding {
		return rterr.Errorf(rterr.KindStreamModel, "model %d is built; its streams take no more labels", m.id)
	}
	l.ms, l.pos = d.ms, len(d.ms.ops)
	return nil
}

// SwitchLabel queues a jump to labels[index], reading a uint32 index at
// ptr when it runs; indexes past the end take the last label
// (aclrtSwitchLabelByIndex).
func (s *Stream) SwitchLabel(ptr uint64, labels []*Label) error {
	d := s.divert.Load()
	if d == nil || d.capture != nil || d.update != nil {
		return rterr.Errorf(rterr.KindStreamModel, "stream %d is not bound to a model; label switches go on bound streams", s.id)
	}
	if len(labels) == 0 {
		return rterr.Errorf(rterr.KindInvalidParam, "label list is empty, expected 1..65535 labels")
	}
	if err := s.c.d.checkDevice("ptr", ptr, 4); err != nil {
		return err
	}
	if ptr%4 != 0 {
		return rterr.Errorf(rterr.KindUnaligned, "ptr %#x is invalid, expected 4-byte alignment", ptr)
	}
	return d.ms.m.addSwitch(d.ms, ptr, labels)
}

func (m *Model) addSwitch(ms *mstream, ptr uint64, labels []*Label) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.state != modelBuilding || ms.done {
		return rterr.Errorf(rterr.KindStreamModel, "model %d takes no more tasks on stream %d", m.id, ms.src.id)
	}
	ms.ops = append(ms.ops, hal.Op{Kind: hal.OpSwitchLabel, Addr: ptr})
	m.labelRefs = append(m.labelRefs, labelRef{ms: ms, op: len(ms.ops) - 1, labels: labels})
	return nil
}

// labelRef is a switch whose labels resolve at BuildEnd.
type labelRef struct {
	ms     *mstream
	op     int
	labels []*Label
}

// ActivateStream queues, on bound stream s, the start of bound stream
// target of the same model (aclrtActiveStream); target then runs alongside.
func (s *Stream) ActivateStream(target *Stream) error {
	ms, tms, err := boundPair(s, target)
	if err != nil {
		return err
	}
	return ms.m.addBound(ms, hal.Op{Kind: hal.OpActivate, Target: tms.idx}, nil)
}

// boundPair finds two streams bound to the same model.
func boundPair(s, target *Stream) (*mstream, *mstream, error) {
	d := s.divert.Load()
	if d == nil || d.capture != nil || d.update != nil {
		return nil, nil, rterr.Errorf(rterr.KindStreamModel, "stream %d is not bound to a model", s.id)
	}
	td := target.divert.Load()
	if td == nil || td.capture != nil || td.update != nil || td.ms.m != d.ms.m {
		return nil, nil, rterr.Errorf(rterr.KindStreamModel, "stream %d is not bound to model %d, which stream %d is", target.id, d.ms.m.id, s.id)
	}
	return d.ms, td.ms, nil
}

// SwitchStream queues, on bound stream s, a jump to the start of bound
// stream target when (left cmp right) holds, comparing the int32 (or int64
// if wide) values at two device addresses (aclrtSwitchStream).
func (s *Stream) SwitchStream(left uint64, cmp uint8, right uint64, wide bool, target *Stream) error {
	ms, tms, err := boundPair(s, target)
	if err != nil {
		return err
	}
	if cmp > hal.CmpLE {
		return rterr.Errorf(rterr.KindInvalidParam, "condition %d is invalid, expected 0..5 (ACL_RT_EQUAL .. ACL_RT_LESS_OR_EQUAL)", cmp)
	}
	n := uint64(4)
	if wide {
		n = 8
	}
	for _, a := range []struct {
		name string
		addr uint64
	}{{"leftValue", left}, {"rightValue", right}} {
		if err := s.c.d.checkDevice(a.name, a.addr, n); err != nil {
			return err
		}
	}
	return ms.m.addBound(ms, hal.Op{Kind: hal.OpSwitchStream, Addr: left, Addr2: right, Cmp: cmp, Wide: wide, Target: tms.idx}, nil)
}
