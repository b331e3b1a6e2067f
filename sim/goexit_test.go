package sim

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

// A host function or kernel calling runtime.Goexit (t.FailNow in a test
// callback, say) must not take its worker down with the queue: the task
// faults and later tasks run.
func TestGoexitInTask(t *testing.T) {
	b, err := New(Config{Devices: 1, Profile: hal.Props{HBMSize: 1 << 30, AICores: 2}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	d, err := b.Open(0)
	if err != nil {
		t.Fatal(err)
	}
	q, err := d.NewQueue(hal.QueueConfig{})
	if err != nil {
		t.Fatal(err)
	}
	k := &kernel.Func{Name: "quit", Fn: func(*kernel.Block) { runtime.Goexit() }}
	for range 3 {
		q.Submit(hal.Task{Kind: hal.TaskHostFunc, Host: runtime.Goexit})
		q.Submit(hal.Task{Kind: hal.TaskKernel, Kernel: k, Blocks: 4})
	}
	ran := make(chan struct{})
	q.Submit(hal.Task{Kind: hal.TaskHostFunc, Host: func() { close(ran) }})
	if err := q.Wait(context.Background(), q.Submitted(), 10*time.Second); err != nil {
		t.Fatal(err)
	}
	<-ran
	fs := q.TakeFaults(q.Submitted())
	if len(fs) != 6 || fs[0].Kind != hal.KindHostFuncFault || fs[1].Kind != hal.KindAICoreException {
		t.Fatalf("faults %+v", fs)
	}
}
