package sim

import (
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

// chainKernel logs its argument, and fails as told for some arguments:
// "panic" panics, "exit" calls runtime.Goexit.
func chainKernel(l *logKernel, fail map[uint64]string) *kernel.Func {
	return &kernel.Func{Name: "chained", Fn: func(b *kernel.Block) {
		v := b.Args()[0]
		switch fail[v] {
		case "panic":
			panic(fmt.Sprintf("task %d fails", v))
		case "exit":
			runtime.Goexit()
		}
		l.mu.Lock()
		l.got = append(l.got, v)
		l.mu.Unlock()
	}}
}

// queueChain holds q, queues n one-block kernels of k with arguments 0..n-1
// behind the hold, so they run as chains, and releases it; it returns the
// sequence number of the first.
func queueChain(t *testing.T, d hal.Device, q hal.Queue, k *kernel.Func, n int) uint64 {
	t.Helper()
	release := hold(t, d, q)
	first := q.Submitted() + 1
	for i := range n {
		submit(t, q, hal.Task{Kind: hal.TaskKernel, Kernel: k, Blocks: 1, NArgs: 1, Args: [hal.MaxArgs]uint64{uint64(i)}})
	}
	release()
	return first
}

// TestChainFaults: kernels failing inside a chain fault as themselves, and
// the kernels after them still run, in order.
func TestChainFaults(t *testing.T) {
	d := openDev(t, hal.Props{})
	q := newQ(t, d, 0)
	l := newLogKernel()
	fail := map[uint64]string{5: "panic", 20: "exit", 21: "panic"}
	first := queueChain(t, d, q, chainKernel(l, fail), 40)
	wait(t, q)
	var want []uint64
	for i := range uint64(40) {
		if fail[i] == "" {
			want = append(want, i)
		}
	}
	if !slices.Equal(l.got, want) {
		t.Fatalf("kernels ran with arguments %v, want %v", l.got, want)
	}
	fs := q.TakeFaults(q.Submitted())
	var seqs []uint64
	for _, f := range fs {
		if f.Kind != hal.KindAICoreException || f.Kernel != "chained" {
			t.Errorf("fault %+v, want an AI core exception of kernel chained", f)
		}
		seqs = append(seqs, f.Seq-first)
	}
	if !slices.Equal(seqs, []uint64{5, 20, 21}) {
		t.Fatalf("faults are for tasks %v of the chain, want [5 20 21]", seqs)
	}
}

// TestChainStops: in STOP_ON_FAILURE mode nothing after a failing chained
// kernel runs.
func TestChainStops(t *testing.T) {
	d := openDev(t, hal.Props{})
	q := newQ(t, d, 0)
	q.SetStopOnFailure(true)
	l := newLogKernel()
	queueChain(t, d, q, chainKernel(l, map[uint64]string{7: "panic"}), 30)
	q.Wait(t.Context(), q.Submitted(), 0)
	if _, stopped := q.Stopped(); !stopped {
		t.Fatal("the queue did not stop")
	}
	l.check(t, 7)
}

// TestChainTrace: chained tasks keep a trace record each, in order, each
// starting when the one before ended.
func TestChainTrace(t *testing.T) {
	d := openDev(t, hal.Props{})
	q := newQ(t, d, 0)
	l := newLogKernel()
	first := queueChain(t, d, q, chainKernel(l, nil), 50)
	wait(t, q)
	l.check(t, 50)
	var recs []hal.Record
	for _, r := range d.(hal.Tracer).Trace(nil) {
		if r.Queue == q.ID() && r.Seq >= first {
			recs = append(recs, r)
		}
	}
	if len(recs) != 50 {
		t.Fatalf("%d trace records for 50 kernels", len(recs))
	}
	for i, r := range recs {
		if r.Seq != first+uint64(i) || r.Kind != hal.TaskKernel || r.Failed {
			t.Fatalf("record %d is %+v, want kernel task %d", i, r, first+uint64(i))
		}
		if r.Submit > r.Start || r.Start > r.End || (i > 0 && r.Start < recs[i-1].End) {
			t.Fatalf("record %d times: submit %d start %d end %d, the one before ended at %d",
				i, r.Submit, r.Start, r.End, recs[max(i-1, 0)].End)
		}
	}
}

// TestChainStopsWithGroup: a fault on another queue of the group stops a
// chain between two of its kernels.
func TestChainStopsWithGroup(t *testing.T) {
	d := openDev(t, hal.Props{})
	a, err := d.NewQueue(hal.QueueConfig{Group: 9})
	if err != nil {
		t.Fatal(err)
	}
	b, err := d.NewQueue(hal.QueueConfig{Group: 9})
	if err != nil {
		t.Fatal(err)
	}
	a.SetStopOnFailure(true)
	b.SetStopOnFailure(true)
	l := newLogKernel()
	gate := make(chan struct{})
	k := &kernel.Func{Name: "gated", Fn: func(blk *kernel.Block) {
		v := blk.Args()[0]
		if v == 3 {
			<-gate
		}
		l.mu.Lock()
		l.got = append(l.got, v)
		l.mu.Unlock()
	}}
	first := queueChain(t, d, a, k, 10)
	submit(t, b, hal.Task{Kind: hal.TaskKernel, Blocks: 1, Kernel: &kernel.Func{Name: "bad", Fn: func(*kernel.Block) { panic("bad") }}})
	b.Wait(t.Context(), b.Submitted(), 0)
	if _, stopped := a.Stopped(); !stopped {
		t.Fatal("a fault on a queue of the group did not stop the other")
	}
	close(gate)
	// The chain completes what it ran once it stops.
	deadline := time.Now().Add(10 * time.Second)
	for a.Completed() < first+3 {
		if time.Now().After(deadline) {
			t.Fatalf("task 3 of the chain not completed after 10s (completed %d, first %d)", a.Completed(), first)
		}
		runtime.Gosched()
	}
	l.check(t, 4)
}
