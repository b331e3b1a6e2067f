package sim

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

// groupedDev opens a 16-core device split into a 4-core group 0 and an
// 8-core group 1; 4 cores belong to no group.
func groupedDev(t *testing.T) hal.Device {
	t.Helper()
	p := hal.Props{AICores: 16}
	p.Groups[0] = hal.CoreGroup{AICores: 4, VectorCores: 4}
	p.Groups[1] = hal.CoreGroup{AICores: 8, VectorCores: 8, Default: true}
	return openDev(t, p)
}

func grouped(k *kernel.Func, blocks uint32, group uint8) hal.Task {
	return hal.Task{Kind: hal.TaskKernel, Kernel: k, Blocks: blocks, Group: group}
}

// TestGroupBoundsBlocks: a grouped kernel runs at most its group's cores
// of blocks at once, on a queue and inside a graph, under a tighter core
// limit the limit; without a group it spreads further.
func TestGroupBoundsBlocks(t *testing.T) {
	d := groupedDev(t)
	q := newQ(t, d, 0)
	for _, tc := range []struct {
		name   string
		group  uint8
		cores  uint32
		graph  bool
		lo, hi int32
	}{
		{"group 0", 1, 0, false, 4, 4},
		{"group 1", 2, 0, false, 8, 8},
		{"group 0 in a graph", 1, 0, true, 4, 4},
		{"group 1 under a 3-core limit", 2, 3, false, 3, 3},
		{"no group", 0, 0, false, 9, 16},
		{"a group that does not exist", 4, 0, false, 9, 16},
	} {
		var p peakKernel
		task := grouped(p.kernel(), 48, tc.group)
		task.Cores = tc.cores
		if tc.graph {
			runGraph(t, q, &hal.Graph{Name: "grouped", Streams: []*hal.GraphStream{stream(true, hal.Op{Kind: hal.OpTask, Task: task})}})
		} else {
			submit(t, q, task)
			wait(t, q)
		}
		if got := p.ran.Load(); got != 48 {
			t.Fatalf("%s: %d blocks ran, want 48", tc.name, got)
		}
		if got := p.peak.Load(); got < tc.lo || got > tc.hi {
			t.Errorf("%s: %d blocks ran at once, want %d..%d", tc.name, got, tc.lo, tc.hi)
		}
	}
}

// TestGroupSharedByQueues: the kernels of one group on three queues share
// its 4 cores, while a kernel of the other group, queued behind them,
// runs at once on its own.
func TestGroupSharedByQueues(t *testing.T) {
	d := groupedDev(t)
	var g0, g1 peakKernel
	var qs []hal.Queue
	for range 3 {
		q := newQ(t, d, 0)
		submit(t, q, grouped(g0.kernel(), 16, 1))
		qs = append(qs, q)
	}
	other := newQ(t, d, 0)
	submit(t, other, grouped(g1.kernel(), 32, 2))
	for _, q := range append(qs, other) {
		wait(t, q)
	}
	if g0.ran.Load() != 48 || g1.ran.Load() != 32 {
		t.Fatalf("ran %d and %d blocks, want 48 and 32", g0.ran.Load(), g1.ran.Load())
	}
	if got := g0.peak.Load(); got != 4 {
		t.Errorf("group 0's kernels on 3 queues ran %d blocks at once, want 4", got)
	}
	if got := g1.peak.Load(); got != 8 {
		t.Errorf("group 1's kernel ran %d blocks at once, want 8", got)
	}
}

// TestGroupParkedAbort: a kernel parked behind its full group is dropped
// by an abort of its queue and never runs; the group goes on.
func TestGroupParkedAbort(t *testing.T) {
	d := groupedDev(t)
	var started atomic.Int32
	release := make(chan struct{})
	hold := &kernel.Func{Name: "hold", Fn: func(*kernel.Block) { started.Add(1); <-release }}
	busy := newQ(t, d, 0)
	submit(t, busy, grouped(hold, 4, 1))
	for started.Load() < 4 {
		time.Sleep(time.Millisecond)
	}
	var ran atomic.Int32
	q := newQ(t, d, 0)
	submit(t, q, grouped(&kernel.Func{Name: "parked", Fn: func(*kernel.Block) { ran.Add(1) }}, 2, 1))
	time.Sleep(5 * time.Millisecond)
	if err := q.Abort(); err != nil {
		t.Fatal(err)
	}
	close(release)
	wait(t, busy)
	submit(t, q, grouped(&kernel.Func{Name: "after", Fn: func(*kernel.Block) { ran.Add(10) }}, 2, 1))
	wait(t, q)
	if got := ran.Load(); got != 20 {
		t.Errorf("blocks ran for %d, want 20: the aborted kernel's none, the next one's two", got)
	}
}

// TestGroupChecks: groups must fit the chip and have one default at most.
func TestGroupChecks(t *testing.T) {
	for _, tc := range []struct {
		groups [hal.MaxCoreGroups]hal.CoreGroup
		msg    string
	}{
		{[hal.MaxCoreGroups]hal.CoreGroup{{AICores: 10}, {AICores: 7}}, "take 17 AI cores, expected at most the chip's 16"},
		{[hal.MaxCoreGroups]hal.CoreGroup{{AICores: 1, VectorCores: 40}}, "take 40 vector cores"},
		{[hal.MaxCoreGroups]hal.CoreGroup{{AICores: 1, AICPUs: 9}}, "take 9 AI CPUs"},
		{[hal.MaxCoreGroups]hal.CoreGroup{{AICores: 1, Default: true}, {}, {AICores: 1, Default: true}}, "groups 0 and 2 are both the default"},
		{[hal.MaxCoreGroups]hal.CoreGroup{{VectorCores: 2}}, "group 0 has no AI cores"},
	} {
		p := hal.Props{AICores: 16, VectorCores: 32, AICPUs: 8, HBMSize: 1 << 30, Groups: tc.groups}
		_, err := Config{Profile: p}.withDefaults()
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("groups %+v: %v, want %q", tc.groups, err, tc.msg)
		}
	}
}
