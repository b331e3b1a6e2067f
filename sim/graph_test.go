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

func graphDev(t *testing.T) (hal.Device, hal.Queue) {
	t.Helper()
	b, err := New(Config{Devices: 1, Profile: hal.Props{HBMSize: 1 << 30, AICores: 4}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	d, err := b.Open(0)
	if err != nil {
		t.Fatal(err)
	}
	q, err := d.NewQueue(hal.QueueConfig{})
	if err != nil {
		t.Fatal(err)
	}
	return d, q
}

func stream(head bool, ops ...hal.Op) *hal.GraphStream {
	s := &hal.GraphStream{Head: head}
	s.SetOps(ops)
	return s
}

func host(fn func()) hal.Op {
	return hal.Op{Kind: hal.OpTask, Task: hal.Task{Kind: hal.TaskHostFunc, Host: fn}}
}

func runGraph(t *testing.T, q hal.Queue, g *hal.Graph) {
	t.Helper()
	if _, err := q.Submit(hal.Task{Kind: hal.TaskGraph, Graph: g}); err != nil {
		t.Fatal(err)
	}
	if err := q.Wait(context.Background(), q.Submitted(), 10*time.Second); err != nil {
		t.Fatal(err)
	}
}

// Two streams of a graph run concurrently and order through graph events;
// the graph runs as one task of its queue, as often as it is submitted.
func TestGraphStreams(t *testing.T) {
	_, q := graphDev(t)
	var mu sync.Mutex
	var log []string
	note := func(s string) func() { return func() { mu.Lock(); log = append(log, s); mu.Unlock() } }
	var blocks atomic.Int32
	k := &kernel.Func{Name: "count", Fn: func(*kernel.Block) { blocks.Add(1) }}
	g := &hal.Graph{Name: "two", Events: 2, Streams: []*hal.GraphStream{
		stream(true, host(note("a1")), hal.Op{Kind: hal.OpRecord, Event: 0},
			hal.Op{Kind: hal.OpWait, Event: 1}, host(note("a2"))),
		stream(true, hal.Op{Kind: hal.OpWait, Event: 0}, host(note("b1")),
			hal.Op{Kind: hal.OpTask, Task: hal.Task{Kind: hal.TaskKernel, Kernel: k, Blocks: 8}},
			hal.Op{Kind: hal.OpRecord, Event: 1}),
	}}
	for range 3 {
		runGraph(t, q, g)
	}
	want := []string{"a1", "b1", "a2", "a1", "b1", "a2", "a1", "b1", "a2"}
	if len(log) != len(want) {
		t.Fatalf("log %v", log)
	}
	for i := range want {
		if log[i] != want[i] {
			t.Fatalf("log %v, want %v", log, want)
		}
	}
	if blocks.Load() != 24 {
		t.Fatalf("%d blocks ran, want 24", blocks.Load())
	}
	if q.Completed() != 3 {
		t.Fatalf("the graph ran as %d tasks, want 3", q.Completed())
	}
}

// Control operations read device memory when the graph runs.
func TestGraphControl(t *testing.T) {
	d, q := graphDev(t)
	a, err := d.Malloc(64, hal.MemPolicy{Page: hal.PageNormalOnly})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := d.Pointer(a.Addr, 64)
	words := (*[8]uint64)(p)
	var got []string
	note := func(s string) hal.Op { return host(func() { got = append(got, s) }) }
	sub := func(name string) *hal.Graph {
		return &hal.Graph{Name: name, Streams: []*hal.GraphStream{stream(true, note(name))}}
	}
	// Stream 0 switches on the uint32 at word 0 to a label on stream 1 or
	// 2; stream 1 runs an IF on word 1, stream 2 a WHILE decrementing it.
	dec := hal.Op{Kind: hal.OpTask, Task: hal.Task{Kind: hal.TaskHostFunc, Host: func() { words[1]-- }}}
	while := &hal.Graph{Name: "body", Streams: []*hal.GraphStream{stream(true, note("loop"), dec)}}
	g := &hal.Graph{Name: "ctl", Conds: []hal.GraphCond{{Addr: a.Addr + 8}}, Streams: []*hal.GraphStream{
		stream(true, note("start"), hal.Op{Kind: hal.OpSwitchLabel, Addr: a.Addr, Labels: []hal.Label{{Stream: 1}, {Stream: 2}}}, note("never")),
		stream(false, hal.Op{Kind: hal.OpCond, Cond: 0, CondKind: hal.CondIf, Subs: []*hal.Graph{sub("then"), sub("else")}}),
		stream(false, hal.Op{Kind: hal.OpCond, Cond: 0, CondKind: hal.CondWhile, Subs: []*hal.Graph{while}}, note("done")),
	}}
	words[0], words[1] = 0, 1
	runGraph(t, q, g)
	words[0], words[1] = 0, 0
	runGraph(t, q, g)
	words[0], words[1] = 7, 3 // past the last label: clamped to it
	runGraph(t, q, g)
	want := "start then start else start loop loop loop done"
	if s := join(got); s != want {
		t.Fatalf("got %q, want %q", s, want)
	}
}

func join(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += " "
		}
		out += x
	}
	return out
}
