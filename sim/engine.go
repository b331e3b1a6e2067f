package sim

import (
	"sync/atomic"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

// item is one task on an engine: parts are handed to workers one at a time
// (a kernel's blocks, a large copy's chunks) and the worker that finishes the
// last part completes the task. Each queue embeds the item of its head task,
// so dispatch allocates nothing.
type item struct {
	q      *queue    // nil for a synchronous Device.Run
	seq    uint64    // the task's sequence number on q
	t      *hal.Task // the descriptor, in q's ring (or the Run caller's copy)
	prio   int
	ticket uint64 // submission order, breaks priority ties
	start  int64

	// Guarded by the scheduler's mu.
	parts int32
	next  int32 // next part to hand out
	hidx  int   // index in the engine heap, -1 when not in it
	// A kernel under a core limit: at most limit parts run at once, and
	// the item leaves the heap while that many do (release puts it back).
	// 0 for every other item, which then never takes the lock per part.
	limit   int32
	running int32
	// A kernel of a capability group: the pool of cores it shares with
	// the group's other kernels, and whether it is parked there.
	pool   *corePool
	parked bool
	// A gang kernel's state (gang.go); nil for every other item, which
	// so pays one word for it.
	gang *gangRun

	done  atomic.Int32  // parts finished
	moved atomic.Uint64 // global memory its blocks' copies reached (kernel.Block.Moved)
	fault atomic.Pointer[hal.Fault]
	wake  chan struct{} // Run only: closed when the last part finishes

	run    *graphRun // a graph stream to run (with stream), not a task
	stream int

	// A chain: the one-block kernels queued right behind a one-block
	// kernel, which the worker running it runs too before completing them
	// all at once (runChain). Written by that worker only.
	ring []slot // the ring they are in; it may be replaced meanwhile, never rewritten
	last uint64 // the last task the chain may run; seq if none
	ran  uint64 // the last task run, seq when only the item's own
	cur  uint64 // the chained task running now, 0 if none
	ends [maxChain]int64
	// chainMoved is each chained kernel's global memory traffic
	// (kernel.Block.Moved), for its trace record; made when a chained
	// kernel first reports some, so items stay small.
	chainMoved *[maxChain]uint64
	endFault   *hal.Fault // the fault of task ran, if it is chained
	// The chained kernel running, for the timeout watcher: its start time
	// << chainShift | its offset from seq; 0 while the item's own runs.
	chain atomic.Int64

	printed printed // what a kernel's blocks printed (printed.go)
}

// maxChain bounds a chain, so one queue holds a worker for a few
// microseconds at most before the engine's priorities are looked at again.
const maxChain = 16

func (it *item) before(o *item) bool {
	if it.prio != o.prio {
		return it.prio < o.prio
	}
	return it.ticket < o.ticket
}

// engine is a pool of workers of one kind pulling parts of ready items in
// priority order. Its fields are guarded by the scheduler's mu except the
// atomics, which spinning workers read without the lock.
type engine struct {
	s    *scheduler
	kind hal.Engine

	heap       []*item // ready and partly dispatched items, most urgent first
	idle       []*worker
	workers    int
	maxWorkers int // workers are started on demand up to this many

	load     engineLoad   // how busy the workers are (aclrtGetDeviceUtilizationRate)
	avail    atomic.Int32 // len(heap), for spinners
	spinning atomic.Int32 // workers spinning for work (at most one)
	handoff  bool         // a worker of this engine completing a task takes the next itself: push wakes no one
	gang     *item        // the gang kernel collecting workers (gang.go), off the heap; nil if none
}

func newEngine(s *scheduler, kind hal.Engine, start, max int) *engine {
	e := &engine{s: s, kind: kind, maxWorkers: max}
	for range start {
		e.spawn()
	}
	return e
}

// spawn starts a worker. s.mu must be held, or before the scheduler is shared.
func (e *engine) spawn() {
	w := &worker{e: e, wake: make(chan struct{}, 1)}
	e.workers++
	e.s.wg.Add(1)
	go w.run()
}

// push makes it available to workers. s.mu must be held.
func (e *engine) push(it *item) {
	if it.pool != nil && it.pool.full() {
		it.parked = true
		it.pool.parked = append(it.pool.parked, it)
		return
	}
	it.hidx = len(e.heap)
	e.heap = append(e.heap, it)
	e.up(it.hidx)
	e.avail.Store(int32(len(e.heap)))
	if !e.handoff {
		e.wakeOne()
	}
}

// wakeOne gets a worker looking for work unless one already is. s.mu must be held.
func (e *engine) wakeOne() {
	if e.spinning.Load() > 0 {
		return
	}
	if n := len(e.idle); n > 0 {
		w := e.idle[n-1]
		e.idle[n-1] = nil
		e.idle = e.idle[:n-1]
		w.wake <- struct{}{}
		return
	}
	if e.workers < e.maxWorkers {
		e.spawn()
	}
}

// take hands out to w the next part of the most urgent item; an item
// starting now starts at device time now, or at the clock's reading if now
// is 0. While a gang kernel collects workers, or is the most urgent, w
// joins it instead (gang.go). s.mu must be held.
func (e *engine) take(w *worker, now int64) (*item, int32) {
	if len(e.heap) == 0 {
		if e.gang == nil {
			return nil, 0
		}
		return e.joinGang(w, now)
	}
	it := e.heap[0]
	if e.gang != nil || it.gang != nil {
		return e.joinGang(w, now)
	}
	p := e.takeFrom(it, now)
	if len(e.heap) > 0 {
		e.wakeOne()
	}
	return it, p
}

// takeFrom hands out the next part of it, which must be in the heap; see
// take for now. s.mu must be held.
func (e *engine) takeFrom(it *item, now int64) int32 {
	p := it.next
	it.next++
	if it.limit > 0 {
		it.running++
	}
	if it.next == it.parts || (it.limit > 0 && it.running == it.limit) {
		e.remove(it)
	}
	if p := it.pool; p != nil {
		if p.running++; p.full() {
			e.parkPool(p)
		}
	}
	if p == 0 {
		if now == 0 {
			now = e.s.clock()
		}
		it.start = now
		if it.q != nil {
			it.q.setState(qRunning)
			if it.t.Kind == hal.TaskKernel {
				e.s.kernelStarted()
			}
		}
	}
	return p
}

// release counts a part of a limited or grouped item finished, putting
// the item back in the heap if its limit took it out with parts left, and
// its group's parked items if it was full. s.mu must be held.
func (e *engine) release(it *item) {
	if it.limit > 0 {
		it.running--
		if it.hidx < 0 && !it.parked && it.next < it.parts {
			e.push(it)
		}
	}
	if it.pool != nil {
		e.releasePool(it.pool)
	}
}

// limitOf is the limit of an item running t in parts parts: the task's
// core bound, when it is tighter than the parts themselves.
func limitOf(t *hal.Task, parts int32) int32 {
	if t.Kind != hal.TaskKernel || t.Cores == 0 || int64(t.Cores) >= int64(parts) {
		return 0
	}
	return int32(t.Cores)
}

// remove takes it out of the heap. s.mu must be held.
func (e *engine) remove(it *item) {
	i := it.hidx
	last := len(e.heap) - 1
	if i != last {
		e.swap(i, last)
	}
	e.heap[last] = nil
	e.heap = e.heap[:last]
	if i != last {
		e.down(i)
		e.up(i)
	}
	it.hidx = -1
	e.avail.Store(int32(len(e.heap)))
}

func (e *engine) swap(i, j int) {
	e.heap[i], e.heap[j] = e.heap[j], e.heap[i]
	e.heap[i].hidx = i
	e.heap[j].hidx = j
}

func (e *engine) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !e.heap[i].before(e.heap[p]) {
			return
		}
		e.swap(i, p)
		i = p
	}
}

func (e *engine) down(i int) {
	n := len(e.heap)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && e.heap[r].before(e.heap[l]) {
			m = r
		}
		if !e.heap[m].before(e.heap[i]) {
			return
		}
		e.swap(i, m)
		i = m
	}
}

// worker is one engine goroutine: an AI core, a DMA channel or a host
// function thread.
type worker struct {
	e     *engine
	wake  chan struct{}
	block kernel.Block // reused for every kernel block this worker runs
	busy  bool         // counted in e.load.active; guarded by the scheduler's mu

	// A gang kernel (gang.go): the one this worker waits for while it
	// collects workers, then the part handed to it. Guarded by the
	// scheduler's mu.
	gangFor    *item
	handed     *item
	handedPart int32

	// A batch of graph kernels (runBatch): the launches and their
	// operations' positions.
	calls   [kernel.MaxBatch]kernel.BatchCall
	callPCs [kernel.MaxBatch]int
}

func (w *worker) run() {
	defer w.e.s.wg.Done()
	for {
		it, part := w.next()
		if it == nil {
			return
		}
		for it != nil {
			it, part = w.runPart(it, part)
		}
	}
}

// runPart runs part p of it and counts it done. It returns the next part
// for this worker to run, if completing it handed one over.
func (w *worker) runPart(it *item, p int32) (*item, int32) {
	// Read parts before counting this one done: once the last part is
	// counted, the item may be reused for the queue's next task.
	parts := it.parts
	exited := true
	defer func() {
		if !exited {
			return
		}
		// The part called runtime.Goexit, which no recover stops. Count it
		// done with a fault and start a worker in this one's place.
		w.fail(it, p, "runtime.Goexit called")
		w.released(it)
		if it.done.Add(1) == parts {
			w.e.s.complete(it, nil)
		}
		s := w.e.s
		s.mu.Lock()
		w.e.busy(w, false)
		w.e.workers--
		if !s.closed {
			w.e.spawn()
		}
		s.mu.Unlock()
	}()
	w.exec(it, p)
	if it.last != it.seq {
		w.runChain(it)
		it.chain.Store(0)
	}
	exited = false
	w.released(it)
	if it.done.Add(1) == parts {
		it.printed.emit(it.t)
		return w.e.s.complete(it, w)
	}
	return nil, 0
}

// released tells a limited or grouped item's engine that a part of it
// finished.
func (w *worker) released(it *item) {
	if it.limit == 0 && it.pool == nil {
		return
	}
	s := w.e.s
	s.mu.Lock()
	w.e.release(it)
	s.mu.Unlock()
}

// next returns the next part to run, spinning and then parking while there
// is none; nil when the scheduler closes.
func (w *worker) next() (*item, int32) {
	e, s := w.e, w.e.s
	for {
		s.mu.Lock()
		if it := w.handed; it != nil {
			// A gang kernel's part: its other parts run, so this one
			// does, device closing or not.
			w.handed = nil
			e.busy(w, true)
			s.mu.Unlock()
			return it, w.handedPart
		}
		if s.closed {
			// Work not started when the device closed is dropped.
			s.mu.Unlock()
			return nil, 0
		}
		if w.gangFor != nil {
			// Reserved for a gang kernel: it hands this worker a part.
			s.mu.Unlock()
			<-w.wake
			continue
		}
		if it, p := e.take(w, 0); it != nil {
			e.busy(w, true)
			s.mu.Unlock()
			return it, p
		}
		joined := w.gangFor != nil
		s.mu.Unlock()
		if joined {
			continue // it waits for a gang kernel
		}
		if e.spinning.CompareAndSwap(0, 1) {
			found := spinUntil(workerSpin, func() bool { return e.avail.Load() > 0 || s.closing.Load() })
			e.spinning.Store(0)
			if found {
				continue
			}
		}
		s.mu.Lock()
		if len(e.heap) > 0 || e.gang != nil || s.closed {
			s.mu.Unlock()
			continue
		}
		// Idle from here: a worker between tasks of a busy stream spins
		// and finds the next without a transition to count (and pay a
		// clock read for) in the utilization.
		e.busy(w, false)
		e.idle = append(e.idle, w)
		s.mu.Unlock()
		<-w.wake
	}
}
