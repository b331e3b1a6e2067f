package gocann

import (
	"context"
	"io"
	"time"

	"github.com/gocann/gocann/internal/callsite"
	"github.com/gocann/gocann/internal/rt"
	"github.com/gocann/gocann/internal/rterr"
)

// ModelRI is a model run instance: streams of tasks recorded once — by
// capture (Stream.BeginCapture) or by building over persistent streams
// (Context.BuildModel) — and run as a whole any number of times. A run is
// one task of the stream that launches it; the model's streams run
// concurrently inside it. Each model holds streams of the device's pool
// while it lives, as on hardware.
type ModelRI struct {
	r *Runtime
	m *rt.Model
}

// model returns the one *ModelRI for m.
func (r *Runtime) model(m *rt.Model) *ModelRI {
	if f, ok := m.Front.Load().(*ModelRI); ok {
		return f
	}
	m.Front.CompareAndSwap(nil, &ModelRI{r: r, m: m})
	return m.Front.Load().(*ModelRI)
}

// Context is the context the model was captured or built in.
//
// CANN: none.
func (m *ModelRI) Context() *Context { return m.r.context(m.m.Context()) }

// ID is the model's id, unique in the runtime.
//
// CANN: aclmdlRIGetId.
func (m *ModelRI) ID() uint32 { return m.m.ID() }

// Name is the model's name, "" until set.
//
// CANN: aclmdlRIGetName.
func (m *ModelRI) Name() string { return m.m.Name() }

// SetName names the model; names longer than 512 bytes are cut.
//
// CANN: aclmdlRISetName.
func (m *ModelRI) SetName(name string) error {
	if err := m.r.require("aclmdlRISetName"); err != nil {
		return err
	}
	return wrap("ModelRI.SetName (aclmdlRISetName)", m.m.SetName(name))
}

// Run queues one run of the model on s: it starts after s's earlier tasks
// and s's later tasks wait for it.
//
// CANN: aclmdlRIExecuteAsync.
//
//go:noinline
func (m *ModelRI) Run(s *Stream) error {
	if err := m.r.require("aclmdlRIExecuteAsync"); err != nil {
		return err
	}
	const op = "ModelRI.Run (aclmdlRIExecuteAsync)"
	if s == nil {
		return wrap(op, rterr.Errorf(rterr.KindBadArgument, "stream is nil"))
	}
	return wrap(op, m.m.ExecuteAsync(s.s, callsite.Caller()))
}

// Execute runs the model on its context's default stream and waits for
// it; cancelling ctx ends the wait, not the run.
//
// CANN: aclmdlRIExecute.
func (m *ModelRI) Execute(ctx context.Context) error {
	if err := m.r.require("aclmdlRIExecute"); err != nil {
		return err
	}
	return wrap("ModelRI.Execute (aclmdlRIExecute)", m.m.Execute(ctx, 0))
}

// ExecuteTimeout is Execute bounded by timeout (0: no bound); an expired
// wait fails with ACL_ERROR_RT_STREAM_SYNC_TIMEOUT and the run goes on.
//
// CANN: aclmdlRIExecute (timeout).
func (m *ModelRI) ExecuteTimeout(timeout time.Duration) error {
	if err := m.r.require("aclmdlRIExecute"); err != nil {
		return err
	}
	return wrap("ModelRI.ExecuteTimeout (aclmdlRIExecute)", m.m.Execute(context.Background(), timeout))
}

// Close destroys the model and gives its streams back to the device's
// pool. It is refused while a run may be going (synchronize the stream
// first) and for branch models, which go with their parent. Destroy
// callbacks run before it returns.
//
// CANN: aclmdlRIDestroy.
func (m *ModelRI) Close() error {
	if err := m.r.require("aclmdlRIDestroy"); err != nil {
		return err
	}
	return wrap("ModelRI.Close (aclmdlRIDestroy)", m.m.Destroy())
}

// OnDestroy registers fn to run when the model is destroyed.
//
// CANN: aclmdlRIDestroyRegisterCallback.
func (m *ModelRI) OnDestroy(fn func()) error {
	if err := m.r.require("aclmdlRIDestroyRegisterCallback"); err != nil {
		return err
	}
	return m.OnDestroyKey(0, fn)
}

// OnDestroyKey is OnDestroy with a key that RemoveOnDestroy matches, such
// as a C function's address.
//
// CANN: aclmdlRIDestroyRegisterCallback (by key).
func (m *ModelRI) OnDestroyKey(key uintptr, fn func()) error {
	if err := m.r.require("aclmdlRIDestroyRegisterCallback"); err != nil {
		return err
	}
	return wrap("ModelRI.OnDestroy (aclmdlRIDestroyRegisterCallback)", m.m.OnDestroy(key, fn))
}

// RemoveOnDestroy forgets the destroy callbacks registered with key.
//
// CANN: aclmdlRIDestroyUnregisterCallback.
func (m *ModelRI) RemoveOnDestroy(key uintptr) error {
	if err := m.r.require("aclmdlRIDestroyUnregisterCallback"); err != nil {
		return err
	}
	const op = "ModelRI.RemoveOnDestroy (aclmdlRIDestroyUnregisterCallback)"
	if key == 0 {
		return wrap(op, rterr.Errorf(rterr.KindInvalidParam, "key 0 is invalid, expected the key a callback was registered with"))
	}
	return wrap(op, m.m.RemoveOnDestroy(key))
}

// Describe describes the model: its streams, their tasks in order and the
// dependencies between streams; verbose adds kernel arguments and the
// source lines that queued each task.
//
// CANN: aclmdlRIDebugPrint.
func (m *ModelRI) Describe(verbose bool) (string, error) {
	if err := m.r.require("aclmdlRIDebugPrint"); err != nil {
		return "", err
	}
	d, err := m.m.Describe(verbose)
	if err != nil {
		return "", wrap("ModelRI.Describe (aclmdlRIDebugPrint)", err)
	}
	return d.String(), nil
}

// WriteJSON writes the description as JSON.
//
// CANN: aclmdlRIDebugJsonPrint.
func (m *ModelRI) WriteJSON(w io.Writer, verbose bool) error {
	if err := m.r.require("aclmdlRIDebugJsonPrint"); err != nil {
		return err
	}
	const op = "ModelRI.WriteJSON (aclmdlRIDebugJsonPrint)"
	d, err := m.m.Describe(verbose)
	if err != nil {
		return wrap(op, err)
	}
	if err := d.WriteJSON(w); err != nil {
		return wrap(op, rterr.Wrap(rterr.KindInvalidFile, err, "writing the description failed"))
	}
	return nil
}

// Abort stops the model's runs in progress: each ends before its next
// task, or in the wait it is in, and the stream that runs it reports
// CodeRTModelAbortNormal at its next synchronization. Runs queued after
// them start as usual, so the model can be run again at once. A
// conditional branch is refused: abort the model that runs it.
//
// CANN: aclmdlRIAbort.
func (m *ModelRI) Abort() error {
	if err := m.r.require("aclmdlRIAbort"); err != nil {
		return err
	}
	return wrap("ModelRI.Abort (aclmdlRIAbort)", m.m.Abort())
}

// Update makes the task edits made with ModelTask.SetParams and
// ModelTask.Disable take effect; it is refused while the model runs.
//
// CANN: aclmdlRIUpdate.
func (m *ModelRI) Update() error {
	if err := m.r.require("aclmdlRIUpdate"); err != nil {
		return err
	}
	return wrap("ModelRI.Update (aclmdlRIUpdate)", m.m.Update())
}
