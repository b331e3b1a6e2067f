package rt

import (
	"sync/atomic"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// Conditional tasks (aclmdlRICondHandleCreate, aclmdlRIAddCondTask): a
// captured task that runs branch models by the value of a condition word
// in device memory. Semantics, which CANN leaves open, follow CUDA's
// conditional nodes: IF runs branch 0 when the value is non-zero and branch
// 1 (if given) otherwise; WHILE runs branch 0 while the value is non-zero,
// checking before each run (the branch changes it); SWITCH runs branch
// value if there is one.

// CondHandle is a condition variable of a model.
type CondHandle struct {
	// Front holds the API layer's object for this one, set once.
	Front atomic.Value

	m    *Model
	idx  int
	addr uint64
}

// Addr is the device address of the 64-bit condition value
// (aclmdlRICondHandleGetCondPtr).
func (h *CondHandle) Addr() uint64 { return h.addr }

// NewCond creates a condition variable of m, which must be capturing; with
// reset, the value is set to def each time m starts running
// (aclmdlRICondHandleCreate).
func (m *Model) NewCond(def uint64, reset bool) (*CondHandle, error) {
	m.mu.Lock()
	state, kind := m.state, m.kind
	m.mu.Unlock()
	switch {
	case state == modelDestroyed:
		return nil, errModelDestroyed(m)
	case state != modelBuilding || kind == modelBuilt:
		return nil, rterr.Errorf(rterr.KindInvalidParam, "model %d is not being captured; condition variables belong to a capture (between aclmdlRICaptureBegin and aclmdlRICaptureEnd)", m.id)
	}
	// The word is the runtime's, lent to the caller: aclrtFree refuses it.
	a, err := m.c.lend(8)
	if err != nil {
		return nil, err
	}
	if err := m.c.hd.Run(hal.Task{Kind: hal.TaskMemset, Dst: hal.DevLoc(a.Addr), Size: 8}); err != nil {
		_ = m.c.FreeInternal(a.Addr)
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	h := &CondHandle{m: m, idx: len(m.conds), addr: a.Addr}
	m.conds = append(m.conds, hal.GraphCond{Addr: a.Addr, Reset: reset, Default: def})
	return h, nil
}

// MaxCondBranches is the most branches a SWITCH takes, each a model made
// at once: as many as the other device-side switch, a label switch, has
// targets (aclrtCreateLabelList).
const MaxCondBranches = 65535

// AddCond records a conditional task on capturing stream s and returns its
// branch models, empty until captured with BeginCaptureInto
// (aclmdlRIAddCondTask).
func (s *Stream) AddCond(h *CondHandle, kind uint8, branches int) ([]*Model, error) {
	if h == nil {
		return nil, rterr.Errorf(rterr.KindBadArgument, "condition handle is nil")
	}
	switch {
	case kind == hal.CondIf && (branches < 1 || branches > 2),
		kind == hal.CondWhile && branches != 1,
		kind == hal.CondSwitch && (branches < 1 || branches > MaxCondBranches):
		return nil, rterr.Errorf(rterr.KindInvalidParam, "conditional task kind %d with %d branches is invalid, expected IF 1..2, WHILE 1, SWITCH 1..%d",
			kind, branches, MaxCondBranches)
	case kind > hal.CondSwitch:
		return nil, rterr.Errorf(rterr.KindInvalidParam, "conditional task kind %d is invalid, expected 0 (IF), 1 (WHILE) or 2 (SWITCH)", kind)
	}
	d := s.divert.Load()
	if d == nil || d.capture == nil {
		return nil, rterr.Errorf(rterr.KindStreamNotCaptured, "stream %d is not capturing; conditional tasks are captured", s.id)
	}
	if d.capture.m != h.m {
		return nil, rterr.Errorf(rterr.KindInvalidParam, "the condition belongs to model %d, the capture to model %d", h.m.id, d.capture.m.id)
	}
	parent := h.m
	subs := make([]*Model, branches)
	graphs := make([]*hal.Graph, branches)
	for i := range subs {
		sub := parent.c.newModel(modelSub)
		sub.state, sub.parent = modelEmpty, parent
		subs[i], graphs[i] = sub, sub.graph
	}
	if err := d.capture.add(s, d.ms, hal.Op{Kind: hal.OpCond, Cond: h.idx, CondKind: kind, Subs: graphs}, nil); err != nil {
		return nil, err
	}
	parent.mu.Lock()
	parent.subs = append(parent.subs, subs...)
	parent.mu.Unlock()
	return subs, nil
}
