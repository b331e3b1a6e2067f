package sim

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/gocann/gocann/hal"
)

// scheduler is a device's task scheduler: it owns the device's queues,
// engines, events and the trace, all under one mutex.
type scheduler struct {
	dev   *device
	clock func() int64
	wg    sync.WaitGroup // engine workers and the poller

	closing atomic.Bool // set first on close, read by spinners
	poke    chan struct{}
	watch   chan struct{} // wakes the kernel timeout watcher (kerneltimeout.go)
	runs    sync.Pool     // *graphRun, reused so a replay allocates nothing
	// watchParked: the watcher waits for a kernel to start; atomic, so a
	// kernel of a graph run tests it without the lock.
	watchParked atomic.Bool
	// opTraces counts the readers that asked for a record of every
	// operation of a graph run (TraceOps); atomic, read by graph runs.
	opTraces atomic.Int32

	// mu guards every field below and the scheduler-owned fields of queues,
	// engines, items and events.
	mu        sync.Mutex
	closed    bool
	engines   [hal.NumEngines]*engine // indexed by hal.Engine; [EngineScheduler] unused
	queues    map[int32]*queue
	open      atomic.Pointer[[]*queue] // the queues of queues, replaced whole: read without mu (settle.go)
	nextID    int32
	ticket    uint64
	polled    []*queue // heads blocked on a notify or a value, rechecked by the poller
	pollSpare []*queue // the other buffer of polled, so rechecks allocate nothing
	polling   bool     // the poller is rechecking polled heads
	kicks     []*queue // queues whose heads may progress; drained by advance
	running   bool     // advance is draining kicks
	events    int      // live counted events
	notifies  int      // live notifies
	notifyID  uint32   // last notify id handed out
	last      int64    // latest clock reading of a task run in place (stamp)
	trace     traceRing
	faults    []hal.Fault // faults to report once mu is released
	reports   faultReports

	kernelTimeout time.Duration               // of kernels without their own; 0: never
	pools         [hal.MaxCoreGroups]corePool // the capability groups' AI cores, by group id
	graphRuns     []*graphRun                 // the graph runs in progress, for the watcher
}

func newScheduler(d *device, dmaWorkers int) *scheduler {
	s := &scheduler{
		dev:    d,
		clock:  d.clock,
		poke:   make(chan struct{}, 1),
		watch:  make(chan struct{}, 1),
		queues: make(map[int32]*queue),
		nextID: 1,

		kernelTimeout: hal.OpTimeout(d.props.OpTimeoutInterval, 0),
	}
	s.reports.init()
	s.initPools(&d.props.Groups)
	s.trace.init(1 << 13)
	s.engines[hal.EngineAICore] = newEngine(s, hal.EngineAICore, d.props.AICores, d.props.AICores)
	s.engines[hal.EngineDMA] = newEngine(s, hal.EngineDMA, dmaWorkers, dmaWorkers)
	s.engines[hal.EngineHost] = newEngine(s, hal.EngineHost, 1, maxHostWorkers)
	s.engines[hal.EngineAICPU] = newEngine(s, hal.EngineAICPU, max(1, d.props.AICPUs), max(1, d.props.AICPUs))
	s.wg.Add(2)
	go s.poller()
	go s.watcher()
	return s
}

// maxHostWorkers bounds the goroutines running host functions at once; each
// blocked host function holds one.
const maxHostWorkers = 256

// engineOf says which engine runs a task.
func engineOf(t *hal.Task) hal.Engine {
	switch t.Kind {
	case hal.TaskKernel:
		if t.Kernel != nil && t.Kernel.CPU {
			return hal.EngineAICPU
		}
		return hal.EngineAICore
	case hal.TaskGraph:
		return hal.EngineAICore
	case hal.TaskCopy, hal.TaskCopy2D, hal.TaskMemset, hal.TaskCopyBatch, hal.TaskCopyIndirect, hal.TaskReduce, hal.TaskRandom:
		return hal.EngineDMA
	case hal.TaskHostFunc:
		return hal.EngineHost
	}
	return hal.EngineScheduler
}

// advance lets q's head make progress, and every queue that progress
// unblocks in turn. s.mu must be held.
func (s *scheduler) advance(q *queue) {
	s.kicks = append(s.kicks, q)
	if s.running {
		return
	}
	s.running = true
	for len(s.kicks) > 0 {
		n := len(s.kicks) - 1
		k := s.kicks[n]
		s.kicks[n] = nil
		s.kicks = s.kicks[:n]
		s.step(k)
	}
	s.running = false
}

// step runs q's head as far as it goes: synchronization tasks complete in
// place, the first engine task is handed to its engine. Tasks published
// without the lock (queue.Submit's fast path) are taken in first; a queue
// that runs dry says so (busy) and looks once more, so that a task
// published meanwhile is either seen here or kicked by its submitter.
// s.mu must be held.
func (s *scheduler) step(q *queue) {
	if q.state == qQueued || q.state == qRunning {
		return
	}
	if q.stop.Load() != nil {
		q.setState(q.state) // publish an idle head: nothing runs now
		return
	}
	start := q.done
	for {
		q.absorb()
		s.runHead(q)
		if q.state != qIdle || q.done != q.tail {
			break
		}
		q.setBusy(false)
		if q.sq.Submitted.Load() == q.tail {
			break
		}
		q.setBusy(true)
	}
	if q.done != start {
		q.setCompleted(q.done)
	}
}

// runHead is step's work on the tasks taken in. s.mu must be held.
func (s *scheduler) runHead(q *queue) {
	for q.done < q.tail {
		seq := q.done + 1
		sl := q.slot(seq)
		eng := engineOf(&sl.t)
		if sl.t.Kind == hal.TaskKernel {
			if err := s.startArgs(&sl.t); err != nil {
				now := s.stamp()
				f := s.newFault(q, seq, &sl.t, hal.KindAICoreException, "kernel arguments unusable", err)
				s.finish(q, seq, sl, hal.EngineAICore, now, now, f)
				continue
			}
		}
		if eng != hal.EngineScheduler {
			it := &q.cur
			*it = item{q: q, seq: seq, t: &sl.t, prio: q.prio, ticket: s.ticket, parts: partsOf(&sl.t, s.engines[eng].maxWorkers),
				last: seq, ran: seq}
			it.limit = limitOf(&sl.t, it.parts)
			it.pool = s.poolOf(&sl.t)
			if sl.t.Kernel != nil && sl.t.Kernel.Gang && isGang(&sl.t) {
				s.engines[eng].initGang(it)
			}
			s.ticket++
			if chainable(&sl.t) {
				// A kernel on memory of a closed device ends the chain: it
				// faults as the head of its own. So does one of another
				// group, whose core the worker does not hold.
				for it.last < q.tail && it.last-seq < maxChain-1 && chainable(&q.slot(it.last+1).t) &&
					q.slot(it.last+1).t.Group == sl.t.Group &&
					s.dev.b.closedKernel(s.dev.id, &q.slot(it.last+1).t) == nil {
					it.last++
				}
				it.ring = q.ring
			}
			q.setState(qQueued)
			s.engines[eng].push(it)
			return
		}
		now := s.stamp()
		ok, f := s.runSync(q, sl, now)
		if !ok {
			q.setState(qBlocked)
			return
		}
		s.finish(q, seq, sl, hal.EngineScheduler, now, now, f)
		if q.stop.Load() != nil {
			// It failed in STOP_ON_FAILURE mode: nothing after it runs.
			q.setState(qIdle)
			return
		}
	}
	q.setState(qIdle)
}

// startArgs readies a kernel's arguments to start: loaded from device
// memory if they live there, and none in memory of a closed device.
// s.mu must be held.
func (s *scheduler) startArgs(t *hal.Task) error {
	if t.ArgsDev != 0 {
		return s.loadArgs(t)
	}
	return s.dev.b.closedKernel(s.dev.id, t)
}

// chainable reports whether t may run in a chain (item.last): a one-block
// kernel whose arguments are in the task.
func chainable(t *hal.Task) bool {
	return t.Kind == hal.TaskKernel && t.Blocks == 1 && t.ArgsDev == 0 && !t.Kernel.CPU
}

// stamp reads the clock for a task run in place. s.mu must be held.
func (s *scheduler) stamp() int64 {
	now := s.clock()
	s.last = max(s.last, now)
	return now
}

// finish records the completion of task seq of q, with its fault f if it
// failed. A task that timed out failed already (timeOut): a fault of its
// own after that is not recorded. s.mu must be held.
func (s *scheduler) finish(q *queue, seq uint64, sl *slot, eng hal.Engine, start, end int64, f *hal.Fault) {
	rec := hal.Record{Queue: q.id, Seq: seq, Kind: sl.t.Kind, Engine: eng,
		Submit: sl.submit, Start: start, End: end, Failed: f != nil || sl.timedOut,
		Thread: sl.t.Thread, Bytes: bytesOf(&sl.t) + sl.moved}
	sl.moved = 0
	if k := sl.t.Kernel; k != nil {
		rec.Name, rec.Blocks, rec.Cores = k.Name, sl.t.Blocks, k.Cores
	}
	s.trace.add(rec)
	q.done = seq
	if f != nil && !sl.timedOut {
		s.recordFault(q, f)
	}
	sl.timedOut = false
	sl.t.Event, sl.t.Notify, sl.t.Kernel, sl.t.Host, sl.t.HostFn, sl.t.Graph = nil, nil, nil, nil, nil, nil
	sl.t.Dst, sl.t.Src = hal.Loc{}, hal.Loc{}
}

// recordFault records fault f of a task of q, to be reported and taken by
// the queue's next wait, and stops q's group in STOP_ON_FAILURE mode. s.mu
// must be held.
func (s *scheduler) recordFault(q *queue, f *hal.Fault) {
	q.faults = append(q.faults, *f)
	q.nfaults.Store(int32(len(q.faults)))
	s.faults = append(s.faults, *f)
	s.reports.record()
	if q.stopOnFailure {
		s.stopGroup(q.group, f)
	}
}

// complete is called by the worker that finished the last part of it.
// With a worker w, it also hands w the next part of its engine's most
// urgent work, if any: the task that completing it made ready, typically,
// which w then runs without another worker being woken for it and without
// taking the lock again.
func (s *scheduler) complete(it *item, w *worker) (*item, int32) {
	if it.q == nil {
		if it.wake != nil {
			close(it.wake)
		}
		return nil, 0
	}
	end := it.ends[0]
	if it.ran == it.seq {
		end = s.clock()
	}
	s.mu.Lock()
	if w != nil {
		w.e.handoff = true
	}
	q := it.q
	sl := q.slot(it.seq)
	sl.moved += it.moved.Swap(0)
	s.finish(q, it.seq, sl, engineOf(&sl.t), it.start, end, it.fault.Load())
	for seq := it.seq + 1; seq <= it.ran; seq++ {
		start := end
		end = it.ends[seq-it.seq]
		var f *hal.Fault
		if seq == it.ran {
			f = it.endFault
		}
		sl := q.slot(seq)
		if m := it.chainMoved; m != nil {
			sl.moved, m[seq-it.seq] = m[seq-it.seq], 0
		}
		s.finish(q, seq, sl, hal.EngineAICore, start, end, f)
	}
	if q.dropping {
		// An abort is waiting for this task; drop what follows it.
		q.dropping = false
		q.drop()
	}
	// The head is done; advance looks at the queue next, so producers
	// need not see it idle in between (sq.Busy stays as it is).
	q.state = qIdle
	s.advance(q)
	q.setCompleted(q.done)
	var next *item
	var part int32
	if w != nil {
		w.e.handoff = false
		if !s.closed {
			// What this worker takes next starts as the last one ends,
			// or as the last task the scheduler ran in place did.
			next, part = w.e.take(w, max(end, s.last))
		}
	}
	faults := s.takeFaults()
	s.mu.Unlock()
	s.report(faults)
	return next, part
}

// takeFaults returns the faults to report and clears the list. s.mu must be held.
func (s *scheduler) takeFaults() []hal.Fault {
	if len(s.faults) == 0 {
		return nil
	}
	f := s.faults
	s.faults = nil
	return f
}

// report hands faults to the device's fault handler. s.mu must not be held.
func (s *scheduler) report(faults []hal.Fault) {
	if len(faults) == 0 {
		return
	}
	var h func(hal.Fault)
	if p := s.dev.faultHandler.Load(); p != nil {
		h = *p
	}
	s.reports.report(h, faults)
}

// stopGroup stops every queue of group g after fault f. s.mu must be held.
func (s *scheduler) stopGroup(g uint64, f *hal.Fault) {
	for _, q := range s.queues {
		if q.group != g || q.stop.Load() != nil {
			continue
		}
		fc := *f
		q.setStop(&fc)
		q.unqueue()
		q.absorb()
		from := q.done + 1
		if q.state == qRunning {
			from++ // the running head, a graph's records included, goes on
		}
		q.discardRecords(from, q.tail)
		q.completed.interrupt()
	}
}

// newFault describes a failure of task seq of q.
func (s *scheduler) newFault(q *queue, seq uint64, t *hal.Task, k hal.Kind, msg string, err error) *hal.Fault {
	f := &hal.Fault{Kind: k, Device: s.dev.id, Seq: seq, Task: t.Kind, Site: t.Site,
		Thread: t.Thread, Time: s.clock(), Msg: msg, Err: err}
	if q != nil {
		f.Queue = q.id
	}
	if t.Kind == hal.TaskKernel && t.Kernel != nil {
		f.Kernel, f.Func, f.NArgs, f.Args = t.Kernel.Name, t.Kernel, t.NArgs, t.Args
	}
	return f
}
