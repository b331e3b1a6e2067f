package sim

import (
	"slices"
	"strings"
	"testing"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

// logBatcher runs batches of its kernels by logging their arguments; a
// launch with argument fail fails as a trap.
type logBatcher struct {
	got     []uint64
	batches []int
	fail    uint64
}

func (b *logBatcher) RunBatch(calls []kernel.BatchCall) (int, any) {
	b.batches = append(b.batches, len(calls))
	for i, c := range calls {
		if c.Args[0] == b.fail {
			return i, &kernel.TrapError{Msg: "trapped"}
		}
		b.got = append(b.got, c.Args[0])
	}
	return len(calls), nil
}

// TestGraphBatches: runs of one-block kernels sharing a Batcher run through
// it, at most kernel.MaxBatch a call, skipping disabled operations; a failing
// launch faults as its own operation and the rest of the stream runs on.
func TestGraphBatches(t *testing.T) {
	_, q := graphDev(t)
	b := &logBatcher{fail: 7}
	k := &kernel.Func{Name: "batched", Batch: b, Fn: func(blk *kernel.Block) { b.got = append(b.got, 1000+blk.Args()[0]) }}
	other := &kernel.Func{Name: "alone", Fn: func(blk *kernel.Block) { b.got = append(b.got, 2000+blk.Args()[0]) }}
	launch := func(k *kernel.Func, v uint64) hal.Op {
		return hal.Op{Kind: hal.OpTask, Task: hal.Task{Kind: hal.TaskKernel, Kernel: k, Blocks: 1, NArgs: 1, Args: [hal.MaxArgs]uint64{v}}}
	}
	var ops []hal.Op
	for i := range uint64(30) {
		ops = append(ops, launch(k, i))
	}
	ops[3].Disabled = true
	ops[20] = launch(other, 20)
	g := &hal.Graph{Name: "batches", Streams: []*hal.GraphStream{stream(true, ops...)}}
	runGraph(t, q, g)

	var want []uint64
	for i := range uint64(30) {
		switch i {
		case 3, 7:
		case 20:
			want = append(want, 2020)
		default:
			want = append(want, i)
		}
	}
	if !slices.Equal(b.got, want) {
		t.Fatalf("launches ran as %v, want %v (1000+: one by one, 2000+: the other kernel)", b.got, want)
	}
	// 0..16 minus 3: trap at 7 after 6; 8..19 (12); 21..29 (9).
	if !slices.Equal(b.batches, []int{16, 12, 9}) {
		t.Fatalf("batches of %v launches, want [16 12 9]", b.batches)
	}
	fs := q.TakeFaults(q.Submitted())
	if len(fs) != 1 || fs[0].Kind != hal.KindAICoreTrap || fs[0].Kernel != "batched" || !strings.Contains(fs[0].Msg, "operation 7") {
		t.Fatalf("faults %+v, want one trap of operation 7", fs)
	}
}
