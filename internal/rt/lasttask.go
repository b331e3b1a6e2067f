package rt

import (
	"sync"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// What the runtime knows of each OS thread's last task
// (aclrtGetThreadLastTaskId) and the information a thread attaches to it
// (aclrtCacheLastTaskOpInfo, aclrtCacheLastTaskExtendInfo). Only tasks that
// carry their submitting thread count: kernel launches, on explicit
// streams.

// Limits of the information attached to a task, as CANN's runtime has them.
const (
	MaxOpInfo     = 64 << 10 // operator information: (0, 64 KiB]
	MaxExtendInfo = 4 << 10  // extended information: longer is cut to 4 KiB
)

// lastTask is a thread's last task: queued on a stream, or an operation of
// a model stream (captured or built).
type lastTask struct {
	// mu guards the fields below.
	mu  sync.Mutex
	seq uint64   // queued: its sequence number on its stream
	ms  *mstream // model: its stream, nil for a queued task
	idx int      // model: its index in ms
}

// TaskInfo is what a thread attached to one task of a model stream.
type TaskInfo struct {
	Op     []byte // operator information, for profiling
	Extend []byte // extended information, JSON text
}

func (r *Runtime) lastOf(tid uint32) *lastTask {
	if v, ok := r.lastTasks.Load(tid); ok {
		return v.(*lastTask)
	}
	v, _ := r.lastTasks.LoadOrStore(tid, &lastTask{})
	return v.(*lastTask)
}

// noteQueued records a task queued by thread tid on explicit stream s.
func (r *Runtime) noteQueued(tid uint32, seq uint64) {
	l := r.lastOf(tid)
	l.mu.Lock()
	l.seq, l.ms, l.idx = seq, nil, 0
	l.mu.Unlock()
}

// noteModel records operation idx of ms, a task of thread tid.
func (r *Runtime) noteModel(tid uint32, ms *mstream, idx int) {
	l := r.lastOf(tid)
	l.mu.Lock()
	l.seq, l.ms, l.idx = 0, ms, idx
	l.mu.Unlock()
}

// ThreadLastTaskID is the id of thread tid's last task: its sequence
// number on its stream, or its index in its model stream; 0 if none.
func (r *Runtime) ThreadLastTaskID(tid uint32) uint32 {
	v, ok := r.lastTasks.Load(tid)
	if !ok {
		return 0
	}
	l := v.(*lastTask)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ms != nil {
		return uint32(l.idx)
	}
	return uint32(l.seq)
}

// CacheLastTaskInfo attaches op or extend information to thread tid's last
// task, which must be in a model: op information in a captured one
// (extend false), extended information in a captured or built one.
func (r *Runtime) CacheLastTaskInfo(tid uint32, info []byte, extend bool) error {
	var ms *mstream
	idx := 0
	if v, ok := r.lastTasks.Load(tid); ok {
		l := v.(*lastTask)
		l.mu.Lock()
		ms, idx = l.ms, l.idx
		l.mu.Unlock()
	}
	switch {
	case ms == nil:
		return rterr.Errorf(rterr.KindInternal, "the calling thread's last task is in no model: information is cached only for tasks being captured or built")
	case !extend && ms.m.kind != modelCaptured:
		return rterr.Errorf(rterr.KindInternal, "the calling thread's last task is in model %d, which is not being captured: operator information is cached only for captured tasks", ms.m.id)
	}
	b := append([]byte(nil), info...)
	ms.infoMu.Lock()
	defer ms.infoMu.Unlock()
	if ms.infos == nil {
		ms.infos = make(map[int]*TaskInfo)
	}
	ti := ms.infos[idx]
	if ti == nil {
		ti = &TaskInfo{}
		ms.infos[idx] = ti
	}
	if extend {
		ti.Extend = b
	} else {
		ti.Op = b
	}
	return nil
}

// infoAt returns the information attached to operation idx of ms.
func (ms *mstream) infoAt(idx int) *TaskInfo {
	ms.infoMu.Lock()
	defer ms.infoMu.Unlock()
	return ms.infos[idx]
}

// withInfo returns ms's operations with the extended information of each
// in its Diag, as the device reports it in a fault of the operation.
func (ms *mstream) withInfo(ops []hal.Op) []hal.Op {
	ms.infoMu.Lock()
	defer ms.infoMu.Unlock()
	for idx, ti := range ms.infos {
		if idx < len(ops) && len(ti.Extend) > 0 {
			ops[idx].Diag = "extend info: " + string(ti.Extend)
		}
	}
	return ops
}
