package gocann

import (
	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rt"
	"github.com/gocann/gocann/internal/rterr"
)

// CondHandle is a condition variable of a captured model: a 64-bit word of
// device memory that its conditional tasks read.
type CondHandle struct {
	r *Runtime
	h *rt.CondHandle
}

// CondKind is aclmdlRICondTaskType, with the CANN values. CANN leaves the
// branch semantics open; gocann follows conditional nodes of other graph
// runtimes: IF runs branch 0 when the value is non-zero, else branch 1 if
// there is one; WHILE runs branch 0 while the value is non-zero, checking
// before each run (the branch changes the value); SWITCH runs branch
// value, if there is one.
type CondKind uint8

const (
	CondIf     CondKind = CondKind(hal.CondIf)     // ACL_MODEL_RI_COND_TYPE_IF
	CondWhile  CondKind = CondKind(hal.CondWhile)  // ACL_MODEL_RI_COND_TYPE_WHILE
	CondSwitch CondKind = CondKind(hal.CondSwitch) // ACL_MODEL_RI_COND_TYPE_SWITCH
)

// NewCond creates a condition variable of the model, which must be being
// captured. With reset, the value is set to def each time the model starts
// a run; without, the program keeps it (write it at Ptr).
//
// CANN: aclmdlRICondHandleCreate.
func (m *ModelRI) NewCond(def uint32, reset bool) (*CondHandle, error) {
	if err := m.r.require("aclmdlRICondHandleCreate"); err != nil {
		return nil, err
	}
	h, err := m.m.NewCond(uint64(def), reset)
	if err != nil {
		return nil, wrap("ModelRI.NewCond (aclmdlRICondHandleCreate)", err)
	}
	f := &CondHandle{r: m.r, h: h}
	h.Front.Store(f)
	return f, nil
}

// Ptr is the device address of the 64-bit value; the model owns it.
//
// CANN: aclmdlRICondHandleGetCondPtr.
func (h *CondHandle) Ptr() DevPtr { return DevPtr(h.h.Addr()) }

// MaxCondBranches is the most branches a SWITCH conditional task takes.
const MaxCondBranches = rt.MaxCondBranches

// AddCond records a conditional task on capturing stream s and returns its
// branch models, empty until each is captured with BeginCaptureInto: IF
// takes 1 or 2 branches, WHILE 1, SWITCH 1 to 65535. The branches run only
// as part of the model and are destroyed with it.
//
// CANN: aclmdlRIAddCondTask.
func (s *Stream) AddCond(h *CondHandle, kind CondKind, branches int) ([]*ModelRI, error) {
	if err := s.r.require("aclmdlRIAddCondTask"); err != nil {
		return nil, err
	}
	const op = "Stream.AddCond (aclmdlRIAddCondTask)"
	if h == nil {
		return nil, wrap(op, rterr.Errorf(rterr.KindBadArgument, "condition handle is nil"))
	}
	subs, err := s.s.AddCond(h.h, uint8(kind), branches)
	if err != nil {
		return nil, wrap(op, err)
	}
	out := make([]*ModelRI, len(subs))
	for i, m := range subs {
		out[i] = s.r.model(m)
	}
	return out, nil
}
