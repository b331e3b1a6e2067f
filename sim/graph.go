package sim

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/gocann/gocann/hal"
)

// A TaskGraph runs on an AI-core worker: the worker runs the graph's first
// head stream itself and every other running stream gets a worker of its
// own, so the streams of a model run concurrently and single-block kernels
// run in place, without a hand-off per task. Graph events are private to
// each run. A worker blocked on a graph event holds its AI core, as a
// device's model scheduler holds its stream.

// graphRun is one run of a graph. Runs are pooled: a run goes back to the
// pool once no stream of it runs, and nothing touches it after its last
// stream is counted done.
type graphRun struct {
	s       *scheduler
	g       *hal.Graph
	top     *item // the TaskGraph task, which carries the run's faults
	events  []atomic.Bool
	started []atomic.Bool // stream started in this run
	active  atomic.Int32  // streams running
	recs    []uint64      // numbers of g.Records' records not yet run; s.mu guards them
	kern    []graphKernel // the kernel each stream runs (graph_timeout.go)
	// root is the graph whose task runs (g, or the graph a conditional
	// sub-graph belongs to) and aborts its Aborts count when the task
	// started: the run stops once the count changes.
	root   *hal.Graph
	aborts uint64
}

// aborted reports whether the run's graph was aborted since it started.
func (r *graphRun) aborted() bool { return r.root.Aborts() != r.aborts }

func (s *scheduler) newGraphRun(g *hal.Graph, top *item) *graphRun {
	r, _ := s.runs.Get().(*graphRun)
	if r == nil {
		r = &graphRun{}
	}
	r.s, r.g, r.top = s, g, top
	r.events = resetFlags(r.events, g.Events)
	r.started = resetFlags(r.started, len(g.Streams))
	r.kern = resetKernels(r.kern, len(g.Streams))
	return r
}

// resetFlags returns n cleared flags, reusing fs if it is big enough.
func resetFlags(fs []atomic.Bool, n int) []atomic.Bool {
	if cap(fs) < n {
		return make([]atomic.Bool, n)
	}
	fs = fs[:n]
	for i := range fs {
		fs[i].Store(false)
	}
	return fs
}

// runGraph runs g to completion on worker w.
func (w *worker) runGraph(top *item, g *hal.Graph) { w.runGraphIn(top, g, nil) }

// runGraphIn runs g, a conditional sub-graph of parent's if parent is set.
func (w *worker) runGraphIn(top *item, g *hal.Graph, parent *graphRun) {
	s := w.e.s
	for _, c := range g.Conds {
		if c.Reset {
			if p, err := s.dev.mem.pointer(c.Addr, 8); err == nil {
				atomic.StoreUint64((*uint64)(p), c.Default)
			}
		}
	}
	first, heads := -1, 0
	for i, st := range g.Streams {
		if st.Head {
			if first < 0 {
				first = i
			}
			heads++
		}
	}
	if heads == 0 {
		return
	}
	r := s.newGraphRun(g, top)
	if parent != nil {
		r.root, r.aborts = parent.root, parent.aborts
	} else {
		r.root, r.aborts = g, g.Aborts()
	}
	r.takeRecords(top, g)
	r.watch()
	r.active.Store(int32(heads))
	for i, st := range g.Streams {
		if st.Head {
			r.started[i].Store(true)
			if i != first {
				r.spawn(i)
			}
		}
	}
	w.runStream(r, first, 0)
	done := r.wait(func() bool { return r.active.Load() == 0 })
	r.unwatch()
	if r.aborted() {
		// Streams that were waiting when it came record nothing of their own.
		r.top.fault.CompareAndSwap(nil, s.newFault(top.q, top.seq, top.t, hal.KindModelAborted,
			fmt.Sprintf("graph %q: the model was aborted (aclmdlRIAbort)", g.Name), nil))
	}
	if done {
		r.dropRecords()
		r.g, r.top, r.root = nil, nil, nil
		s.runs.Put(r)
	}
}

// spawn starts stream si of r on a worker of its own.
func (r *graphRun) spawn(si int) {
	s := r.s
	it := &item{run: r, stream: si, prio: -1 << 30, parts: 1, hidx: -1}
	s.mu.Lock()
	it.ticket = s.ticket
	s.ticket++
	s.engines[hal.EngineAICore].push(it)
	s.mu.Unlock()
}

// activate starts stream si if it has not started in this run.
func (r *graphRun) activate(si int) {
	if si < 0 || si >= len(r.started) || r.started[si].Swap(true) {
		return
	}
	r.active.Add(1)
	r.spawn(si)
}

// streamDone counts a stream finished; the run may be reused at once.
func (r *graphRun) streamDone() { r.active.Add(-1) }

// wait blocks until cond holds, spinning briefly, then sleeping with a
// growing pause; a closing device ends the wait.
func (r *graphRun) wait(cond func() bool) bool { return r.waitUnless(cond, false) }

// waitOp is wait for an operation of the run: an abort ends it too.
func (r *graphRun) waitOp(cond func() bool) bool { return r.waitUnless(cond, true) }

func (r *graphRun) waitUnless(cond func() bool, abortable bool) bool {
	ended := func() bool { return r.s.closing.Load() || (abortable && r.aborted()) }
	if spinUntil(workerSpin, func() bool { return cond() || ended() }) {
		return cond()
	}
	pause := pollMin
	for !cond() {
		if ended() {
			return false
		}
		time.Sleep(pause)
		pause = min(2*pause, pollMax)
	}
	return true
}

// waitTimed is wait for a wait task that may time out (timeout > 0): once
// it has waited that long, the run takes a timeout fault and the stream
// moves on, as a queue's wait does. It reports false if the device is
// closing.
func (r *graphRun) waitTimed(si, pc int, t *hal.Task, what string, timeout time.Duration, cond func() bool) bool {
	if timeout <= 0 {
		return r.waitOp(cond)
	}
	var deadline waitDeadline
	expired := false
	ok := r.waitOp(func() bool {
		// The last evaluation decides: cond may take what it waits for
		// (a notify) on a later call than one that saw the deadline.
		expired = false
		if cond() {
			return true
		}
		expired = deadline.expired(r.s.clock(), timeout)
		return expired
	})
	if ok && expired {
		r.fail(si, pc, t, hal.KindWaitTimeout, timeoutMsg(what, timeout), nil)
	}
	return ok
}

// fail records a fault of operation pc of stream si; the first one wins.
func (r *graphRun) fail(si, pc int, t *hal.Task, k hal.Kind, msg string, err error) {
	r.top.fault.CompareAndSwap(nil, r.opFault(si, pc, t, k, msg, err))
}

// opFault is a fault of operation pc of stream si.
func (r *graphRun) opFault(si, pc int, t *hal.Task, k hal.Kind, msg string, err error) *hal.Fault {
	top := r.top
	if ops := r.g.Streams[si].Ops(); pc < len(ops) && ops[pc].Diag != "" {
		msg += "; " + ops[pc].Diag
	}
	f := r.s.newFault(top.q, top.seq, top.t, k, fmt.Sprintf("graph %q stream %d operation %d (%s): %s", r.g.Name, si, pc, t.Kind, msg), err)
	if t.Kind == hal.TaskKernel && t.Kernel != nil {
		f.Kernel, f.Func, f.NArgs, f.Args = t.Kernel.Name, t.Kernel, t.NArgs, t.Args
		f.Site = t.Site
	}
	return f
}

// runStream runs stream si of r from operation pc until it ends, following
// jumps. It counts the stream done at the end, after reporting a panic or
// runtime.Goexit of its own, since r may be reused from then on.
func (w *worker) runStream(r *graphRun, si, pc int) {
	returned := false
	defer func() {
		if v := recover(); v != nil || !returned {
			err, _ := v.(error)
			msg := fmt.Sprintf("graph stream runner: %v", v)
			if v == nil {
				msg = "graph stream runner: runtime.Goexit called"
			}
			r.fail(si, pc, &hal.Task{}, hal.KindInternal, msg, err)
		}
		r.streamDone()
	}()
	w.streamOps(r, si, pc)
	returned = true
}

// streamOps runs the operations of runStream.
func (w *worker) streamOps(r *graphRun, si, pc int) {
	for {
		ops := r.g.Streams[si].Ops()
		if pc >= len(ops) {
			return
		}
		op := &ops[pc]
		if r.aborted() {
			r.fail(si, pc, &hal.Task{}, hal.KindModelAborted, "the model was aborted (aclmdlRIAbort)", nil)
			return
		}
		if op.Disabled {
			pc++
			continue
		}
		switch op.Kind {
		case hal.OpTask:
			if r.s.opTraces.Load() > 0 {
				w.runTraced(r, si, pc, &op.Task)
				break
			}
			if n := w.runBatch(r, si, pc, ops); n > 0 {
				pc += n
				continue
			}
			w.runOp(r, si, pc, &op.Task)
		case hal.OpRecord:
			r.events[op.Event].Store(true)
		case hal.OpWait:
			ev := &r.events[op.Event]
			if !r.waitTimed(si, pc, &hal.Task{Kind: hal.TaskEventWait}, "event wait", op.Timeout, ev.Load) {
				return
			}
		case hal.OpReset:
			r.events[op.Event].Store(false)
		case hal.OpActivate:
			r.activate(op.Target)
		case hal.OpSwitchLabel:
			idx, ok := w.readWord(r, si, pc, op.Addr, false)
			if !ok || len(op.Labels) == 0 {
				return
			}
			l := op.Labels[min(uint64(uint32(idx)), uint64(len(op.Labels)-1))]
			si, pc = l.Stream, l.Pos
			continue
		case hal.OpSwitchStream:
			left, ok1 := w.readWord(r, si, pc, op.Addr, op.Wide)
			right, ok2 := w.readWord(r, si, pc, op.Addr2, op.Wide)
			if !ok1 || !ok2 {
				return
			}
			if hal.Compare(left, right, op.Cmp) {
				si, pc = op.Target, 0
				continue
			}
		case hal.OpCond:
			if !w.runCond(r, si, pc, op) {
				return
			}
		case hal.OpEnd:
			return
		}
		pc++
	}
}

// readWord reads an int32 or int64 of device memory, faulting the run if it
// is not readable.
func (w *worker) readWord(r *graphRun, si, pc int, addr uint64, wide bool) (int64, bool) {
	n := uint64(4)
	if wide {
		n = 8
	}
	p, err := r.s.dev.mem.Pointer(addr, n)
	if err != nil {
		r.fail(si, pc, &hal.Task{}, hal.KindDMAFault, "reading a control value", err)
		return 0, false
	}
	if wide {
		return int64(atomic.LoadUint64((*uint64)(p))), true
	}
	return int64(int32(atomic.LoadUint32((*uint32)(p)))), true
}

// runCond runs the sub-graphs of a conditional operation.
func (w *worker) runCond(r *graphRun, si, pc int, op *hal.Op) bool {
	c := r.g.Conds[op.Cond]
	read := func() (uint64, bool) {
		p, err := r.s.dev.mem.pointer(c.Addr, 8)
		if err != nil {
			r.fail(si, pc, &hal.Task{}, hal.KindDMAFault, "reading a condition", err)
			return 0, false
		}
		return atomic.LoadUint64((*uint64)(p)), true
	}
	v, ok := read()
	if !ok {
		return false
	}
	switch op.CondKind {
	case hal.CondIf:
		if v != 0 && len(op.Subs) > 0 {
			w.runSub(r, op.Subs[0])
		} else if v == 0 && len(op.Subs) > 1 {
			w.runSub(r, op.Subs[1])
		}
	case hal.CondWhile:
		for v != 0 && len(op.Subs) > 0 && !r.s.closing.Load() {
			w.runSub(r, op.Subs[0])
			if v, ok = read(); !ok {
				return false
			}
		}
	case hal.CondSwitch:
		if v < uint64(len(op.Subs)) {
			w.runSub(r, op.Subs[v])
		}
	}
	return true
}

// runSub runs a sub-graph to completion; its faults are the run's.
func (w *worker) runSub(r *graphRun, g *hal.Graph) {
	if g != nil {
		w.runGraphIn(r.top, g, r)
	}
}

// runOp runs one task of a graph in place.
func (w *worker) runOp(r *graphRun, si, pc int, t *hal.Task) {
	s := r.s
	switch t.Kind {
	case hal.TaskKernel:
		w.runKernel(r, si, pc, t)
	case hal.TaskCopy, hal.TaskCopy2D, hal.TaskMemset, hal.TaskCopyBatch, hal.TaskCopyIndirect, hal.TaskReduce, hal.TaskRandom:
		if err := s.dev.Run(*t); err != nil {
			r.fail(si, pc, t, hal.KindDMAFault, "transfer failed", err)
		}
	case hal.TaskHostFunc:
		w.runHost(r, si, pc, t)
	case hal.TaskValueWrite, hal.TaskValueWait:
		p, err := s.dev.kmem.Pointer(t.Dst.Dev, 8) // device memory, or host memory mapped for it
		if err != nil {
			r.fail(si, pc, t, hal.KindDMAFault, "value address unusable", err)
			return
		}
		word := (*uint64)(p)
		if t.Kind == hal.TaskValueWrite {
			atomic.StoreUint64(word, t.Value)
			s.mu.Lock()
			s.recheckPolled()
			s.mu.Unlock()
			return
		}
		r.waitTimed(si, pc, t, fmt.Sprintf("value wait at %#x", t.Dst.Dev), t.Timeout, func() bool {
			return hal.ValueMatches(atomic.LoadUint64(word), t.Value, t.Flag)
		})
	case hal.TaskNotifyRecord:
		if rn, ok := t.Notify.(*remoteNotify); ok {
			rn.signal()
			break
		}
		s.mu.Lock()
		t.Notify.(*notify).signal(s)
		s.mu.Unlock()
	case hal.TaskNotifyWait:
		n, ok := t.Notify.(*notify)
		if !ok {
			r.fail(si, pc, t, hal.KindInvalidParam, "a wait on an imported notify: only the process that created it waits on it", nil)
			return
		}
		r.waitTimed(si, pc, t, fmt.Sprintf("notify %d wait", n.ID()), t.Timeout, func() bool {
			s.mu.Lock()
			defer s.mu.Unlock()
			return n.consume(s)
		})
	case hal.TaskEventRecord, hal.TaskEventWait, hal.TaskEventReset:
		if _, ok := t.Event.(*event); !ok {
			r.fail(si, pc, t, hal.KindNotSupported, "an IPC event opened from another process in a model", nil)
			return
		}
		w.runEventOp(r, si, pc, t)
	case hal.TaskCntNotifyRecord, hal.TaskCntNotifyReset:
		n := t.Notify.(*cntNotify)
		v, mode := uint32(t.Value), t.Flag
		if t.Kind == hal.TaskCntNotifyReset {
			v, mode = 0, hal.CntRecordSet
		}
		s.mu.Lock()
		n.update(s, func(c uint32) uint32 { return hal.CntApply(c, v, mode) })
		s.mu.Unlock()
	case hal.TaskCntNotifyWait:
		n := t.Notify.(*cntNotify)
		r.waitTimed(si, pc, t, "count notify wait", t.Timeout, func() bool {
			return n.take(nil, uint32(t.Value), t.Flag)
		})
	case hal.TaskCmo:
		// Coherent memory: a cache operation keeps its place and changes
		// nothing.
	default:
		r.fail(si, pc, t, hal.KindInternal, "task kind not runnable in a graph", nil)
	}
}

// runEventOp runs an operation on a device event from inside a graph: the
// graph synchronizing with streams outside it.
func (w *worker) runEventOp(r *graphRun, si, pc int, t *hal.Task) {
	s := r.s
	e := t.Event.(*event)
	s.mu.Lock()
	switch t.Kind {
	case hal.TaskEventRecord:
		var rec uint64
		if !e.flagMode {
			if rec = r.recordNumber(e); rec == 0 {
				e.submitted++
				rec = e.submitted
			}
		}
		e.record(rec, s.clock())
		s.mu.Unlock()
		return
	case hal.TaskEventReset:
		if e.flagMode {
			e.reset()
		} else {
			e.resetAt = e.submitted
		}
		s.mu.Unlock()
		return
	}
	var rec uint64
	if !e.flagMode && e.submitted > e.resetAt {
		rec = e.submitted
	}
	s.mu.Unlock()
	r.waitTimed(si, pc, t, "event wait", t.Timeout, func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return e.satisfied(rec)
	})
}

// runHost runs a host function in place, a panic becoming a fault.
func (w *worker) runHost(r *graphRun, si, pc int, t *hal.Task) {
	defer func() {
		if v := recover(); v != nil {
			err, _ := v.(error)
			r.fail(si, pc, t, hal.KindHostFuncFault, fmt.Sprintf("host function panicked: %v", v), err)
		}
	}()
	if t.Host != nil {
		t.Host()
	} else {
		t.HostFn(t.HostArgs[0], t.HostArgs[1])
	}
}
