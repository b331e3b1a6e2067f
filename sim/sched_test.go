package sim

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

func openDev(t *testing.T, p hal.Props) hal.Device {
	t.Helper()
	if p.HBMSize == 0 {
		p.HBMSize = 1 << 30
	}
	b, err := New(Config{Devices: 2, Profile: p})
	if err != nil {
		t.Fatal(err)
	}
	d, err := b.Open(0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return d
}

func newQ(t *testing.T, d hal.Device, prio int) hal.Queue {
	t.Helper()
	q, err := d.NewQueue(hal.QueueConfig{Priority: prio})
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func submit(t *testing.T, q hal.Queue, task hal.Task) uint64 {
	t.Helper()
	seq, err := q.Submit(task)
	if err != nil {
		t.Fatal(err)
	}
	return seq
}

func wait(t *testing.T, q hal.Queue) {
	t.Helper()
	if err := q.Wait(context.Background(), q.Submitted(), 10*time.Second); err != nil {
		t.Fatal(err)
	}
}

func TestKernelBlocksBoundedByCores(t *testing.T) {
	d := openDev(t, hal.Props{AICores: 4})
	q := newQ(t, d, 0)
	var running, peak, ran atomic.Int32
	k := &kernel.Func{Name: "probe", Fn: func(b *kernel.Block) {
		n := running.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		time.Sleep(time.Millisecond)
		ran.Add(1)
		running.Add(-1)
	}}
	submit(t, q, hal.Task{Kind: hal.TaskKernel, Kernel: k, Blocks: 64})
	wait(t, q)
	if ran.Load() != 64 {
		t.Fatalf("ran %d blocks, want 64", ran.Load())
	}
	if p := peak.Load(); p > 4 || p < 2 {
		t.Fatalf("peak concurrency %d, want 2..4 (4 AI cores)", p)
	}
}

func TestQueueOrder(t *testing.T) {
	d := openDev(t, hal.Props{})
	q := newQ(t, d, 0)
	var mu sync.Mutex
	var got []int
	for i := range 200 {
		kind := hal.TaskHostFunc
		task := hal.Task{Kind: kind, Host: func() { mu.Lock(); got = append(got, i); mu.Unlock() }}
		if i%2 == 1 {
			task = hal.Task{Kind: hal.TaskKernel, Blocks: 3, Kernel: &kernel.Func{Name: "k", Fn: func(b *kernel.Block) {
				if b.Idx() == 0 {
					mu.Lock()
					got = append(got, i)
					mu.Unlock()
				}
			}}}
		}
		submit(t, q, task)
	}
	wait(t, q)
	for i, v := range got {
		if v != i {
			t.Fatalf("task %d ran at position %d", v, i)
		}
	}
	if len(got) != 200 {
		t.Fatalf("ran %d tasks", len(got))
	}
}

func TestEventAcrossQueues(t *testing.T) {
	d := openDev(t, hal.Props{})
	q1, q2 := newQ(t, d, 0), newQ(t, d, 0)
	ev, err := d.NewEvent(hal.EventConfig{Counted: true})
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	var mu sync.Mutex
	note := func(s string) func() { return func() { mu.Lock(); order = append(order, s); mu.Unlock() } }
	gate := make(chan struct{})
	submit(t, q1, hal.Task{Kind: hal.TaskHostFunc, Host: func() { <-gate; note("q1")() }})
	submit(t, q1, hal.Task{Kind: hal.TaskEventRecord, Event: ev})
	submit(t, q2, hal.Task{Kind: hal.TaskEventWait, Event: ev})
	submit(t, q2, hal.Task{Kind: hal.TaskHostFunc, Host: note("q2")})
	time.Sleep(5 * time.Millisecond)
	if q2.Completed() != 0 {
		t.Fatal("q2 passed the wait before the record")
	}
	close(gate)
	wait(t, q2)
	if len(order) != 2 || order[0] != "q1" || order[1] != "q2" {
		t.Fatalf("order %v", order)
	}
	if _, ok := ev.Timestamp(); !ok {
		t.Fatal("no timestamp")
	}
}

func TestCopyLarge(t *testing.T) {
	d := openDev(t, hal.Props{})
	const n = 8 << 20
	a, err := d.Malloc(n, hal.MemPolicy{Page: hal.PageHugeFirst})
	if err != nil {
		t.Fatal(err)
	}
	src := make([]byte, n)
	for i := range src {
		src[i] = byte(i * 7)
	}
	dst := make([]byte, n)
	if err := d.Run(hal.Task{Kind: hal.TaskCopy, Dst: hal.DevLoc(a.Addr), Src: hal.HostLoc(ptr(src)), Size: n}); err != nil {
		t.Fatal(err)
	}
	q := newQ(t, d, 0)
	submit(t, q, hal.Task{Kind: hal.TaskCopy, Dst: hal.HostLoc(ptr(dst)), Src: hal.DevLoc(a.Addr), Size: n})
	wait(t, q)
	for i := range dst {
		if dst[i] != src[i] {
			t.Fatalf("byte %d: %d != %d", i, dst[i], src[i])
		}
	}
}

func TestKernelFault(t *testing.T) {
	d := openDev(t, hal.Props{})
	var got []hal.Fault
	var mu sync.Mutex
	d.SetFaultHandler(func(f hal.Fault) { mu.Lock(); got = append(got, f); mu.Unlock() })
	q := newQ(t, d, 0)
	k := &kernel.Func{Name: "bad", Fn: func(b *kernel.Block) {
		if b.Idx() == 1 {
			panic("boom")
		}
	}}
	submit(t, q, hal.Task{Kind: hal.TaskKernel, Kernel: k, Blocks: 4})
	ran := false
	submit(t, q, hal.Task{Kind: hal.TaskHostFunc, Host: func() { ran = true }})
	wait(t, q)
	if !ran {
		t.Fatal("CONTINUE mode stopped after a fault")
	}
	fs := q.TakeFaults(q.Submitted())
	if len(fs) != 1 || fs[0].Kind != hal.KindAICoreException || fs[0].Kernel != "bad" || fs[0].Seq != 1 {
		t.Fatalf("faults %+v", fs)
	}
	if q.TakeFaults(q.Submitted()) != nil {
		t.Fatal("fault reported twice")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 1 {
		t.Fatalf("handler saw %d faults", len(got))
	}
}
