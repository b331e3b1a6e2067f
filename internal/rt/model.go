package rt

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
	"github.com/gocann/gocann/kernel"
)

// modelKind says how a model came to be.
type modelKind uint8

const (
	modelBuilt    modelKind = iota // aclmdlRIBuildBegin over persistent streams
	modelCaptured                  // aclmdlRICaptureBegin
	modelSub                       // a conditional task's branch, filled by aclmdlRICaptureToModelRIBegin
)

// modelState is where a model is in its life.
type modelState uint8

const (
	modelBuilding modelState = iota // streams bound or captured, taking tasks
	modelEmpty                      // a branch not captured yet
	modelReady                      // runnable
	modelDestroyed
)

// Model is a model run instance (aclmdlRI): streams of tasks recorded once
// and run as a whole, any number of times, as one task of the stream that
// launches it.
type Model struct {
	// Front holds the API layer's object for this one, set once.
	Front atomic.Value

	c    *Context
	id   uint32
	kind modelKind

	// mu guards the fields below.
	mu        sync.Mutex
	state     modelState
	name      string
	graph     *hal.Graph // allocated at creation; filled when the model becomes ready
	streams   []*mstream
	queues    []hal.Queue // streams held from the device's pool while the model lives
	nEvents   int         // graph events allocated
	conds     []hal.GraphCond
	subs      []*Model // branch models, destroyed with this one
	parent    *Model
	callbacks []destroyCallback
	runs      []modelRun // executions that may still be running
	groups    []*TaskGroup
	pending   map[int][]hal.Op  // task setters' edits per stream, published by Update
	events    map[*Event]int    // built models: events recorded on bound streams, as graph events
	labelRefs []labelRef        // built models: label switches to resolve
	argBufs   map[[2]int]uint64 // device copies of kernel tasks' arguments handed out by ArgsDevice
	blocks    []uint64          // device copies of argument blocks with placeholders that tasks read
	// extRecords are the events recorded with ACL_EVENT_RECORD_EXTERNAL:
	// each run is their latest record.
	extRecords []*Event
	sks        map[*kernel.Func]*SuperKernel // the kernels of captured SuperKernels
}

// mstream is one stream of a model.
type mstream struct {
	m     *Model
	idx   int
	head  bool
	src   *Stream // the persistent stream bound, or the stream captured
	ops   []hal.Op
	gs    *hal.GraphStream // the stream as the device runs it, once ready
	view  *Stream          // what GetStreams hands out for a captured stream
	done  bool             // EndTask was called
	waits []waitRef        // captured waits, to check join-back
	sk    *superRange      // the SuperKernel range open while capturing

	// events names the runtime event each event operation of ops stands
	// for, by index: the device's graph knows only device events and graph
	// event numbers. Edits keep an operation's index and event.
	events map[int]*Event

	// infoMu guards infos, what threads attached to its tasks by index
	// (lasttask.go).
	infoMu sync.Mutex
	infos  map[int]*TaskInfo
}

// push appends op, an operation on event e if e is not nil. The lock that
// guards ms.ops must be held.
func (ms *mstream) push(op hal.Op, e *Event) {
	if e != nil {
		if ms.events == nil {
			ms.events = map[int]*Event{}
		}
		ms.events[len(ms.ops)] = e
	}
	ms.ops = append(ms.ops, op)
	if op.Kind == hal.OpTask && op.Task.Thread != 0 {
		ms.m.c.d.r.noteModel(op.Task.Thread, ms, len(ms.ops)-1)
	}
}

type destroyCallback struct {
	key uintptr // what RemoveOnDestroy matches; 0 for none
	fn  func()
}

type modelRun struct {
	s   *Stream
	seq uint64
}

func (c *Context) newModel(kind modelKind) *Model {
	m := &Model{c: c, id: uint32(c.d.r.nextModelID.Add(1)), kind: kind, graph: &hal.Graph{}}
	m.graph.Name = fmt.Sprintf("model%d", m.id)
	if kind != modelSub {
		c.mu.Lock()
		if c.models != nil {
			c.models[m] = struct{}{}
		}
		c.mu.Unlock()
		c.d.r.models.Store(m.id, m)
	}
	return m
}

func (m *Model) Context() *Context { return m.c }

// ID is the model's id (aclmdlRIGetId).
func (m *Model) ID() uint32 { return m.id }

// SetName names the model (aclmdlRISetName).
func (m *Model) SetName(name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.state == modelDestroyed {
		return errModelDestroyed(m)
	}
	if len(name) > maxModelName {
		name = name[:maxModelName] // CANN keeps at most this many bytes
	}
	m.name = name
	m.graph.Name = name
	return nil
}

// maxModelName is the longest name a model keeps.
const maxModelName = 512

// Name returns the model's name, "" if never set (aclmdlRIGetName).
func (m *Model) Name() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.name
}

func errModelDestroyed(m *Model) error {
	return rterr.Errorf(rterr.KindInvalidHandle, "model %d was destroyed", m.id)
}

// ready checks m can run. m.mu held.
func (m *Model) readyLocked() error {
	switch m.state {
	case modelDestroyed:
		return errModelDestroyed(m)
	case modelReady:
		return nil
	case modelEmpty:
		return rterr.Errorf(rterr.KindModelUpdateFailed, "model %d is a conditional branch that was never captured", m.id)
	}
	return rterr.Errorf(rterr.KindModelCaptured, "model %d is still being built or captured; end it first (aclmdlRIBuildEnd or aclmdlRICaptureEnd)", m.id)
}

// ExecuteAsync queues one run of m on s (aclmdlRIExecuteAsync): it starts
// after s's earlier tasks and s's later tasks wait for it.
func (m *Model) ExecuteAsync(s *Stream, site uintptr) error {
	_, err := m.executeAsync(s, site)
	return err
}

// executeAsync queues a run and returns its sequence number on s.
func (m *Model) executeAsync(s *Stream, site uintptr) (uint64, error) {
	if err := s.check(); err != nil {
		return 0, err
	}
	if s.c.d != m.c.d {
		return 0, rterr.Errorf(rterr.KindInvalidParam, "model %d is on device %d, stream %d on device %d", m.id, m.c.d.id, s.id, s.c.d.id)
	}
	if s.diverted() {
		return 0, rterr.Errorf(rterr.KindCaptureModeNotSupport, "stream %d is capturing or bound to a model; launch model %d on another stream", s.id, m.id)
	}
	if s.persistent {
		// A run is a task like any other; an unbound persistent stream
		// takes none (and its Synchronize could not wait for it).
		return 0, rterr.Errorf(rterr.KindStreamModel, "persistent stream %d is not bound to a model; launch model %d on another stream", s.id, m.id)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.readyLocked(); err != nil {
		return 0, err
	}
	if m.kind == modelSub {
		return 0, rterr.Errorf(rterr.KindInvalidParam, "model %d is a conditional branch; it runs as part of model %d", m.id, m.parent.id)
	}
	seq, err := s.q.Submit(hal.Task{Kind: hal.TaskGraph, Graph: m.graph, Site: site})
	if err != nil {
		return 0, err
	}
	m.noteRun(s, seq)
	m.noteExternalRecords(s, seq)
	m.tellRun(s, seq)
	return seq, nil
}

// noteRun remembers a run, forgetting finished ones. m.mu held.
func (m *Model) noteRun(s *Stream, seq uint64) {
	kept := m.runs[:0]
	for _, r := range m.runs {
		if r.s.q.Completed() < r.seq {
			kept = append(kept, r)
		}
	}
	m.runs = append(kept, modelRun{s, seq})
}

// running reports whether a run of m may still be going. m.mu held.
func (m *Model) running() bool {
	for _, r := range m.runs {
		if r.s.q.Completed() < r.seq && !r.s.dead.Load() {
			return true
		}
	}
	return false
}

// Execute runs m on its context's default stream and waits for it, up to
// timeout if > 0 (aclmdlRIExecute).
func (m *Model) Execute(ctx context.Context, timeout time.Duration) error {
	s, err := m.c.DefaultStream()
	if err != nil {
		return err
	}
	seq, err := m.executeAsync(s, 0)
	if err != nil {
		return err
	}
	if err := s.q.Wait(ctx, seq, timeout); err != nil {
		return err
	}
	return s.takeFault(seq)
}

// OnDestroy registers fn to run when m is destroyed
// (aclmdlRIDestroyRegisterCallback); a non-zero key lets RemoveOnDestroy
// forget it.
func (m *Model) OnDestroy(key uintptr, fn func()) error {
	if fn == nil {
		return rterr.Errorf(rterr.KindBadArgument, "callback is nil")
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.state == modelDestroyed {
		return errModelDestroyed(m)
	}
	m.callbacks = append(m.callbacks, destroyCallback{key, fn})
	return nil
}

// RemoveOnDestroy forgets the callbacks registered with key
// (aclmdlRIDestroyUnregisterCallback).
func (m *Model) RemoveOnDestroy(key uintptr) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.state == modelDestroyed {
		return errModelDestroyed(m)
	}
	kept := m.callbacks[:0]
	for _, cb := range m.callbacks {
		if key == 0 || cb.key != key {
			kept = append(kept, cb)
		}
	}
	if len(kept) == len(m.callbacks) {
		return rterr.Errorf(rterr.KindInvalidParam, "no destroy callback of model %d is registered with that function", m.id)
	}
	clear(m.callbacks[len(kept):])
	m.callbacks = kept
	return nil
}

// Destroy destroys m (aclmdlRIDestroy): refused while it runs, and for a
// conditional branch, which goes with its parent. Its streams return to
// the device's pool; bound persistent streams are unbound.
func (m *Model) Destroy() error {
	m.mu.Lock()
	switch {
	case m.state == modelDestroyed:
		m.mu.Unlock()
		return errModelDestroyed(m)
	case m.kind == modelSub:
		m.mu.Unlock()
		return rterr.Errorf(rterr.KindInvalidParam, "model %d is a conditional branch of model %d and is destroyed with it", m.id, m.parent.id)
	case m.state == modelBuilding && m.kind == modelCaptured:
		m.mu.Unlock()
		return rterr.Errorf(rterr.KindModelCaptured, "model %d is being captured; end the capture first", m.id)
	case m.running():
		m.mu.Unlock()
		return rterr.Errorf(rterr.KindModelRunning, "model %d is still running; synchronize its streams first", m.id)
	}
	m.mu.Unlock()
	return m.release()
}

// release frees everything m holds and runs its destroy callbacks.
func (m *Model) release() error {
	m.mu.Lock()
	if m.state == modelDestroyed {
		m.mu.Unlock()
		return nil
	}
	m.state = modelDestroyed
	queues, subs, cbs, streams, conds, bufs, blocks := m.queues, m.subs, m.callbacks, m.streams, m.conds, m.argBufs, m.blocks
	m.queues, m.subs, m.callbacks, m.argBufs, m.blocks = nil, nil, nil, nil, nil
	m.mu.Unlock()
	m.c.mu.Lock()
	delete(m.c.models, m)
	m.c.mu.Unlock()
	m.c.d.r.models.CompareAndDelete(m.id, m)
	var first error
	for _, q := range queues {
		if err := q.Close(); err != nil && first == nil {
			first = err
		}
	}
	for _, ms := range streams {
		if ms.src != nil && m.kind == modelBuilt {
			ms.src.unbind(ms)
		}
		if ms.view != nil {
			ms.view.dead.Store(true)
		}
	}
	// Memory of a device that closed since is gone already.
	for _, c := range conds {
		_ = m.c.FreeInternal(c.Addr)
	}
	for _, a := range bufs {
		_ = m.c.FreeInternal(a)
	}
	for _, a := range blocks {
		_ = m.c.FreeInternal(a)
	}
	for _, sub := range subs {
		sub.release()
	}
	for _, cb := range cbs {
		cb.fn()
	}
	return first
}

// finish turns the recorded streams into the graph the device runs and,
// for captured models, takes a pool stream per model stream. m.mu held.
func (m *Model) finish(hold bool) error {
	if hold {
		for range m.streams {
			q, err := m.c.hd.NewQueue(hal.QueueConfig{Priority: m.c.d.props.GreatestPriority, Group: m.c.id})
			if err != nil {
				for _, q := range m.queues {
					q.Close()
				}
				m.queues = nil
				return err
			}
			m.queues = append(m.queues, q)
		}
	}
	g := m.graph
	g.Streams = make([]*hal.GraphStream, len(m.streams))
	for i, ms := range m.streams {
		ms.gs = &hal.GraphStream{Head: ms.head}
		ms.gs.SetOps(ms.withInfo(ms.ops))
		g.Streams[i] = ms.gs
	}
	g.Events = m.nEvents
	g.Conds = m.conds
	g.Records = g.Records[:0]
	for _, e := range m.extRecords {
		g.Records = append(g.Records, e.h)
	}
	m.state = modelReady
	return nil
}
