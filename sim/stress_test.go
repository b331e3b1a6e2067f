package sim

import (
	"bytes"
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

// TestStressManyQueues has many goroutines each feed its own queue a mix of
// kernels, host functions, copies, memsets, value writes and event
// record/waits tied to the next queue, all at once. Every queue must run its
// tasks in order and every effect must land.
func TestStressManyQueues(t *testing.T) {
	const nq, nt, chunk = 16, 1200, 256
	d := openDev(t, hal.Props{AICores: 4})
	mem, err := d.Malloc(nq*(64+chunk), hal.MemPolicy{})
	if err != nil {
		t.Fatal(err)
	}
	counter := func(i int) uint64 { return mem.Addr + uint64(64*i) }
	last := func(i int) uint64 { return mem.Addr + uint64(64*i) + 8 }
	region := func(i int) uint64 { return mem.Addr + nq*64 + uint64(chunk*i) }
	qs := make([]hal.Queue, nq)
	evs := make([]hal.Event, nq)
	for i := range nq {
		qs[i] = newQ(t, d, i%8)
		if evs[i], err = d.NewEvent(hal.EventConfig{Counted: true}); err != nil {
			t.Fatal(err)
		}
	}
	kernel := &kernel.Func{Name: "stress", Fn: func(b *kernel.Block) {
		b.Add64(b.Arg(0), 1)
		if got := b.Load64(b.Arg(1)); got != b.Arg(2) {
			panic("the value write before this kernel has not landed")
		}
	}}
	var wrong atomic.Int64
	var wg sync.WaitGroup
	for i := range nq {
		wg.Go(func() {
			q := qs[i]
			src := bytes.Repeat([]byte{byte(i)}, chunk)
			hosts := 0 // host functions of queue i run so far; only they touch it
			kernels := 0
			for j := range nt {
				var task hal.Task
				switch j % 8 {
				case 0:
					task = hal.Task{Kind: hal.TaskValueWrite, Dst: hal.DevLoc(last(i)), Value: uint64(j)}
				case 1:
					task = hal.Task{Kind: hal.TaskKernel, Kernel: kernel, Blocks: 3, NArgs: 3}
					task.Args[0], task.Args[1], task.Args[2] = counter(i), last(i), uint64(j-1)
					kernels++
				case 2:
					task = hal.Task{Kind: hal.TaskMemset, Dst: hal.DevLoc(region(i)), Value: 0xff, Size: chunk}
				case 3:
					task = hal.Task{Kind: hal.TaskCopy, Dst: hal.DevLoc(region(i)), Src: hal.HostLoc(ptr(src)), Size: chunk}
				case 4:
					task = hal.Task{Kind: hal.TaskEventRecord, Event: evs[i]}
				case 5:
					task = hal.Task{Kind: hal.TaskEventWait, Event: evs[(i+1)%nq]}
				default:
					task = hal.Task{Kind: hal.TaskHostFunc, Host: func() {
						// Host functions are tasks 6 and 7 of every 8.
						want := 8*(hosts/2) + 6 + hosts%2
						hosts++
						p, err := d.Pointer(region(i), chunk)
						if err != nil || j != want || !bytes.Equal(unsafeBytes(p, chunk), src) {
							wrong.Add(1)
						}
					}}
				}
				if _, err := q.Submit(task); err != nil {
					t.Error(err)
					return
				}
			}
			if err := q.Wait(context.Background(), q.Submitted(), 10*time.Second); err != nil {
				t.Error(err)
			}
			if fs := q.TakeFaults(q.Submitted()); fs != nil {
				t.Errorf("queue %d faulted: %+v", i, fs)
			}
			if got := *(*uint64)(must(d.Pointer(counter(i), 8))); got != uint64(3*kernels) {
				t.Errorf("queue %d: kernels counted %d blocks, want %d", i, got, 3*kernels)
			}
		})
	}
	wg.Wait()
	if n := wrong.Load(); n != 0 {
		t.Errorf("%d host functions ran out of order or saw a copy missing", n)
	}
}
