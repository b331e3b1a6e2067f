package sim

import (
	"fmt"
	"sync"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

// Gang kernels (kernel.Func.Gang): kernels whose blocks wait for one
// another, so that a launch must have all its blocks running at once or
// none. A launch wider than the cores it could ever have is refused when
// it is submitted (checkGang). On the AI core engine a gang item starts
// only with a worker for each of its parts: the first worker free to take
// it makes it the engine's collecting gang (engine.gang), off the heap,
// and waits; every worker freed after that joins it, and when it has
// enough (and its capability group enough cores) they all start at once.
// One gang collects at a time, so two gangs never each hold part of the
// cores while waiting for the rest; a gang's parts are taken in full by
// the time it runs, so the cores it waits for are busy with work that
// ends. A part runs per blocks at once: one on its worker, the others on
// goroutines of their own, when the launch has more blocks than the
// engine has workers (a vector kernel over every vector core, say).

// checkGang refuses a launch of a gang kernel wider than the cores of its
// kind it may have: the chip's, its capability group's, or its stream's
// core limit's.
func (s *scheduler) checkGang(t *hal.Task) error {
	if t.Blocks <= 1 {
		return nil
	}
	k, p := t.Kernel, &s.dev.props
	cores, of := uint32(p.AICores), "AI cores"
	switch k.Cores {
	case kernel.CoreVector:
		cores, of = uint32(p.VectorCores), "vector cores"
	case kernel.CoreCube:
		cores, of = uint32(p.CubeCores), "cube cores"
	}
	if g := t.Group; g != 0 && int(g) <= hal.MaxCoreGroups && p.Groups[g-1].Exists() {
		cores, of = p.Groups[g-1].AICores, fmt.Sprintf("AI cores of its capability group %d", g)
		if k.Cores == kernel.CoreVector {
			cores, of = p.Groups[g-1].VectorCores, fmt.Sprintf("vector cores of its capability group %d", g)
		}
	}
	if t.Cores != 0 && t.Cores < cores {
		cores, of = t.Cores, "cores its stream's core limit leaves it"
	}
	if t.Blocks > cores {
		return hal.Errorf(hal.KindInvalidParam,
			"kernel %q synchronizes its blocks, which must all run at once, but its launch has %d blocks and at most %d %s",
			k.Name, t.Blocks, cores, of)
	}
	return nil
}

// isGang reports whether t runs as a gang: a gang kernel's launch of more
// than one block on the AI cores.
func isGang(t *hal.Task) bool {
	return t.Kind == hal.TaskKernel && t.Kernel != nil && t.Kernel.Gang && t.Blocks > 1 && !t.Kernel.CPU
}

// gangRun is a gang item's state: the words its blocks share, the blocks
// a part runs at once, and the workers waiting for it to start while it
// collects them.
type gangRun struct {
	shared   kernel.Gang
	per      int32
	reserved []*worker
}

// initGang makes it, an item of a gang launch, a gang item: one part per
// core it needs, each running per blocks. s.mu must be held.
func (e *engine) initGang(it *item) {
	n := int32(it.t.Blocks)
	cores := int32(e.maxWorkers)
	if it.pool != nil {
		cores = min(cores, it.pool.cores)
	}
	parts := min(n, cores)
	it.parts, it.limit = parts, 0
	it.gang = &gangRun{per: (n + parts - 1) / parts}
}

// joinGang reserves w for the collecting gang, making the most urgent item
// (a gang) the collecting one if there is none; idle workers join too. It
// returns w's part if the gang starts now. s.mu must be held.
func (e *engine) joinGang(w *worker, now int64) (*item, int32) {
	g := e.gang
	if g == nil {
		g = e.heap[0]
		e.remove(g)
		e.gang = g
	}
	e.reserve(g, w)
	for int32(len(g.gang.reserved)) < g.parts && len(e.idle) > 0 {
		n := len(e.idle) - 1
		iw := e.idle[n]
		e.idle[n] = nil
		e.idle = e.idle[:n]
		e.reserve(g, iw) // it stays parked until the gang starts
	}
	for need := g.parts - int32(len(g.gang.reserved)); need > 0 && e.workers < e.maxWorkers; need-- {
		e.spawn() // it finds the gang collecting and joins
	}
	e.admit(g, w, now)
	if it := w.handed; it != nil {
		w.handed = nil
		e.busy(w, true)
		return it, w.handedPart
	}
	return nil, 0
}

func (e *engine) reserve(g *item, w *worker) {
	g.gang.reserved = append(g.gang.reserved, w)
	w.gangFor = g
	e.busy(w, false)
}

// admit starts g if it has its workers and its group the cores: each
// reserved worker gets a part, and all but w (which takes its own) are
// woken. s.mu must be held.
func (e *engine) admit(g *item, w *worker, now int64) {
	if int32(len(g.gang.reserved)) < g.parts {
		return
	}
	if p := g.pool; p != nil && p.cores-p.running < g.parts {
		return // releasePool admits it
	}
	e.gang = nil
	g.next = g.parts
	if now == 0 {
		now = e.s.clock()
	}
	g.start = now
	if g.q != nil {
		g.q.setState(qRunning)
		e.s.kernelStarted()
	}
	if p := g.pool; p != nil {
		if p.running += g.parts; p.full() {
			e.parkPool(p)
		}
	}
	for i, rw := range g.gang.reserved {
		rw.gangFor, rw.handed, rw.handedPart = nil, g, int32(i)
		if rw != w {
			rw.wake <- struct{}{}
		}
	}
	g.gang.reserved = nil
}

// dropGang gives the workers reserved for g back: it was withdrawn, or the
// device closes. s.mu must be held.
func (e *engine) dropGang(g *item) {
	for _, rw := range g.gang.reserved {
		rw.gangFor = nil
		rw.wake <- struct{}{}
	}
	g.gang.reserved = nil
	if e.gang == g {
		e.gang = nil
	}
}

// runGang runs part p of gang item it: its blocks at once, the first on
// this worker and the others on goroutines of their own.
func (w *worker) runGang(it *item, p int32) {
	lo := p * it.gang.per
	hi := min(lo+it.gang.per, int32(it.t.Blocks))
	var wg sync.WaitGroup
	for b := lo + 1; b < hi; b++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h := &worker{e: w.e}
			h.gangBlock(it, b)
		}()
	}
	w.gangBlock(it, lo)
	wg.Wait()
}

// gangBlock runs block b of gang item it, turning a panic into its fault;
// the gang learns that the block ended, and whether it failed.
func (w *worker) gangBlock(it *item, b int32) {
	t, failed := it.t, true
	defer func() {
		if v := recover(); v != nil {
			w.fail(it, b, v)
		}
		it.gang.shared.End(failed)
		if m := w.block.Moved(); m != 0 {
			it.moved.Add(m)
		}
		if out := w.block.TakeOutput(); out != nil {
			it.printed.keep(b, int32(t.Blocks), out)
		}
	}()
	dev := w.e.s.dev
	w.block.Reset(uint32(b), t.Blocks, t.Args[:t.NArgs], &dev.kmem)
	w.block.SetGang(&it.gang.shared)
	t.Kernel.Fn(&w.block)
	if w.block.Overflowed() && t.Overflow != 0 {
		if err := dev.b.flagOverflow(t.Overflow); err != nil {
			panic(err)
		}
	}
	failed = false
}

// runGraphGang runs a gang kernel of a graph: every block at once on
// goroutines of its own beside the engine's workers (this one, running the
// graph, waits), since a graph's kernel holds no place in the engine's
// heap to collect cores with. It returns the first block's failure.
func (w *worker) runGraphGang(t *hal.Task) *hal.Fault {
	s := w.e.s
	if err := s.checkGang(t); err != nil {
		return s.newFault(nil, 0, t, hal.KindAICoreException, "gang kernel refused", err)
	}
	it := &item{t: t, parts: 1, hidx: -1, gang: &gangRun{per: int32(t.Blocks)}}
	w.runGang(it, 0)
	it.printed.emit(t)
	return it.fault.Load()
}
