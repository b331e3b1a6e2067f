package sim

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

// peakKernel counts the blocks running at once: each holds its core for a
// millisecond, long enough for every block allowed to start to overlap.
type peakKernel struct {
	running, peak, ran atomic.Int32
}

func (p *peakKernel) kernel() *kernel.Func {
	return &kernel.Func{Name: "peak", Fn: func(*kernel.Block) {
		n := p.running.Add(1)
		for {
			m := p.peak.Load()
			if n <= m || p.peak.CompareAndSwap(m, n) {
				break
			}
		}
		time.Sleep(time.Millisecond)
		p.running.Add(-1)
		p.ran.Add(1)
	}}
}

// TestCoreLimitWaves: a kernel whose task is bounded to 4 cores never has
// more than 4 blocks running, on a queue and inside a graph, and runs all
// of them in waves; unbounded, the same kernel spreads over more cores.
func TestCoreLimitWaves(t *testing.T) {
	b, err := New(Config{Devices: 1, Profile: hal.Props{HBMSize: 1 << 30, AICores: 16}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	d, err := b.Open(0)
	if err != nil {
		t.Fatal(err)
	}
	q := newQ(t, d, 0)
	for _, tc := range []struct {
		name        string
		cores       uint32
		graph       bool
		lo, hi      int32
		concurrency string
	}{
		{"queue, 4 cores", 4, false, 4, 4, "exactly 4"},
		{"queue, 1 core", 1, false, 1, 1, "exactly 1"},
		{"graph, 4 cores", 4, true, 4, 4, "exactly 4"},
		{"queue, no bound", 0, false, 5, 16, "5..16"},
		{"queue, bound above the blocks", 64, false, 5, 16, "5..16"},
	} {
		var p peakKernel
		task := hal.Task{Kind: hal.TaskKernel, Kernel: p.kernel(), Blocks: 48, Cores: tc.cores}
		if tc.graph {
			g := &hal.Graph{Name: "limited", Streams: []*hal.GraphStream{stream(true, hal.Op{Kind: hal.OpTask, Task: task})}}
			runGraph(t, q, g)
		} else {
			submit(t, q, task)
			wait(t, q)
		}
		if got := p.ran.Load(); got != 48 {
			t.Fatalf("%s: %d blocks ran, want 48", tc.name, got)
		}
		if got := p.peak.Load(); got < tc.lo || got > tc.hi {
			t.Errorf("%s: %d blocks ran at once, want %s", tc.name, got, tc.concurrency)
		}
	}
}

// TestCoreLimitQueuesShareCores: two bounded kernels on two queues each
// keep to their own bound, and both finish.
func TestCoreLimitQueuesShareCores(t *testing.T) {
	d := openDev(t, hal.Props{AICores: 8})
	q1, q2 := newQ(t, d, 0), newQ(t, d, 0)
	var p1, p2 peakKernel
	submit(t, q1, hal.Task{Kind: hal.TaskKernel, Kernel: p1.kernel(), Blocks: 20, Cores: 2})
	submit(t, q2, hal.Task{Kind: hal.TaskKernel, Kernel: p2.kernel(), Blocks: 20, Cores: 3})
	wait(t, q1)
	wait(t, q2)
	if p1.ran.Load() != 20 || p2.ran.Load() != 20 {
		t.Fatalf("blocks ran: %d and %d, want 20 each", p1.ran.Load(), p2.ran.Load())
	}
	if p1.peak.Load() > 2 || p2.peak.Load() > 3 {
		t.Errorf("peaks %d and %d, want at most 2 and 3", p1.peak.Load(), p2.peak.Load())
	}
}
