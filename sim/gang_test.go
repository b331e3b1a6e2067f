package sim

import (
	"errors"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

// gangKernel is a gang kernel whose blocks meet at a barrier rounds times;
// a block that finds the barrier broken fails. It counts the blocks past
// the last barrier, and the most blocks running at once.
type gangKernel struct {
	rounds        int
	running, peak atomic.Int32
	done          atomic.Int32
	failBlock     int // the block that panics before the barrier; -1 for none
	cores         kernel.CoreKind
	name          string
}

func (g *gangKernel) kernel() *kernel.Func {
	return &kernel.Func{Name: g.name, Gang: true, Cores: g.cores, Fn: func(b *kernel.Block) {
		n := g.running.Add(1)
		defer g.running.Add(-1)
		for {
			m := g.peak.Load()
			if n <= m || g.peak.CompareAndSwap(m, n) {
				break
			}
		}
		if b.Idx() == g.failBlock {
			panic("block fails")
		}
		for range g.rounds {
			if !b.Gang().Sync(b.Num(), runtime.Gosched) {
				panic("barrier broken")
			}
		}
		g.done.Add(1)
	}}
}

func gangTask(k *kernel.Func, blocks uint32) hal.Task {
	return hal.Task{Kind: hal.TaskKernel, Kernel: k, Blocks: blocks}
}

// TestGangTwoQueues: two gang kernels as wide as the chip, on two queues
// at once, round after round, never each hold part of the cores waiting
// for the rest: every launch finishes, each with all its blocks at once.
func TestGangTwoQueues(t *testing.T) {
	d := openDev(t, hal.Props{AICores: 8, CubeCores: 8, VectorCores: 16})
	qa, qb := newQ(t, d, 0), newQ(t, d, 0)
	ka := &gangKernel{name: "a", rounds: 3, failBlock: -1}
	kb := &gangKernel{name: "b", rounds: 3, failBlock: -1}
	const launches = 20
	for range launches {
		submit(t, qa, gangTask(ka.kernel(), 8))
		submit(t, qb, gangTask(kb.kernel(), 7))
		// A plain kernel between them takes cores the gangs wait for.
		submit(t, qa, gangTask(&kernel.Func{Name: "plain", Fn: func(*kernel.Block) {}}, 5))
	}
	wait(t, qa)
	wait(t, qb)
	if a, b := ka.done.Load(), kb.done.Load(); a != 8*launches || b != 7*launches {
		t.Errorf("%d and %d blocks passed every barrier, want %d and %d", a, b, 8*launches, 7*launches)
	}
}

// TestGangWiderThanWorkers: a vector gang kernel over every vector core,
// twice the engine's workers, runs all its blocks at once.
func TestGangWiderThanWorkers(t *testing.T) {
	d := openDev(t, hal.Props{AICores: 4, CubeCores: 4, VectorCores: 8})
	q := newQ(t, d, 0)
	g := &gangKernel{name: "wide", rounds: 2, failBlock: -1, cores: kernel.CoreVector}
	submit(t, q, gangTask(g.kernel(), 8))
	wait(t, q)
	if got := g.done.Load(); got != 8 {
		t.Errorf("%d blocks passed every barrier, want 8", got)
	}
	if got := g.peak.Load(); got != 8 {
		t.Errorf("%d blocks ran at once, want 8", got)
	}
}

// TestGangRefused: a gang launch wider than the cores it may have is
// refused when it is submitted, naming the kernel, its blocks and the
// cores; a plain kernel as wide runs in waves.
func TestGangRefused(t *testing.T) {
	p := hal.Props{AICores: 8, CubeCores: 8, VectorCores: 16}
	p.Groups[0] = hal.CoreGroup{AICores: 2, VectorCores: 4}
	d := openDev(t, p)
	q := newQ(t, d, 0)
	k := func(c kernel.CoreKind) *kernel.Func {
		return (&gangKernel{name: "sync_all", failBlock: -1, cores: c}).kernel()
	}
	for _, tc := range []struct {
		name string
		task hal.Task
		want string
	}{
		{"AI cores", gangTask(k(kernel.CoreAI), 9), "9 blocks and at most 8 AI cores"},
		{"cube cores", gangTask(k(kernel.CoreCube), 9), "at most 8 cube cores"},
		{"vector cores", gangTask(k(kernel.CoreVector), 17), "17 blocks and at most 16 vector cores"},
		{"core limit", hal.Task{Kind: hal.TaskKernel, Kernel: k(kernel.CoreVector), Blocks: 5, Cores: 4}, "at most 4 cores its stream's core limit"},
		{"group", hal.Task{Kind: hal.TaskKernel, Kernel: k(kernel.CoreAI), Blocks: 3, Group: 1}, "at most 2 AI cores of its capability group 1"},
	} {
		_, err := q.Submit(tc.task)
		var he *hal.Error
		if !errors.As(err, &he) || he.Kind != hal.KindInvalidParam || !strings.Contains(err.Error(), tc.want) ||
			!strings.Contains(err.Error(), `"sync_all"`) {
			t.Errorf("%s: %v, want an invalid-parameter error naming the kernel and saying %q", tc.name, err, tc.want)
		}
	}
	ok := &gangKernel{name: "fits", rounds: 1, failBlock: -1, cores: kernel.CoreVector}
	submit(t, q, hal.Task{Kind: hal.TaskKernel, Kernel: ok.kernel(), Blocks: 4, Group: 1})
	submit(t, q, gangTask(ok.kernel(), 16))
	wait(t, q)
	if got := ok.done.Load(); got != 20 {
		t.Errorf("%d blocks of the launches that fit passed the barrier, want 20", got)
	}
}

// TestGangBlockFails: when a block of a gang launch fails, the blocks
// waiting for it give up instead of waiting forever; the task faults.
func TestGangBlockFails(t *testing.T) {
	d := openDev(t, hal.Props{AICores: 4, CubeCores: 4, VectorCores: 8})
	q := newQ(t, d, 0)
	g := &gangKernel{name: "fails", rounds: 1, failBlock: 2}
	submit(t, q, gangTask(g.kernel(), 4))
	wait(t, q)
	fs := q.TakeFaults(q.Submitted())
	if len(fs) != 1 || !strings.Contains(fs[0].Msg, "block 2 of 4") {
		t.Fatalf("faults %+v, want the fault of block 2", fs)
	}
	if got := g.done.Load(); got != 0 {
		t.Errorf("%d blocks passed a barrier a failed block never reached", got)
	}
}

// TestGangInGraph: a gang kernel inside a graph runs its blocks at once.
func TestGangInGraph(t *testing.T) {
	d := openDev(t, hal.Props{AICores: 2, CubeCores: 2, VectorCores: 4})
	q := newQ(t, d, 0)
	g := &gangKernel{name: "graphed", rounds: 2, failBlock: -1, cores: kernel.CoreVector}
	task := gangTask(g.kernel(), 4)
	runGraph(t, q, &hal.Graph{Name: "gang", Streams: []*hal.GraphStream{stream(true, hal.Op{Kind: hal.OpTask, Task: task})}})
	if got := g.done.Load(); got != 4 {
		t.Errorf("%d blocks passed every barrier, want 4", got)
	}
}
