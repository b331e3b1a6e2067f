package sim

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

// TestPrintedInBlockOrder: what a launch's blocks print comes out when the
// launch ends, blocks in order, through the kernel's Emit; launches in
// queue order, a failing block's lines included.
func TestPrintedInBlockOrder(t *testing.T) {
	b, err := New(Config{Devices: 1, Profile: hal.Props{HBMSize: 1 << 30, AICores: 4}})
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
	var (
		mu  sync.Mutex
		got []string
	)
	emit := func(out []byte) {
		mu.Lock()
		got = append(got, string(out))
		mu.Unlock()
	}
	say := &kernel.Func{Name: "say", Emit: emit, Fn: func(blk *kernel.Block) {
		// Later blocks end first.
		time.Sleep(time.Duration(blk.Num()-blk.Idx()) * time.Millisecond)
		blk.Print(fmt.Appendf(nil, "block %d\n", blk.Idx()))
		if blk.Idx() == 5 {
			blk.Trap("after printing")
		}
	}}
	one := &kernel.Func{Name: "one", Emit: emit, Fn: func(blk *kernel.Block) { blk.Print([]byte("one\n")) }}
	q.Submit(hal.Task{Kind: hal.TaskKernel, Kernel: say, Blocks: 8})
	q.Submit(hal.Task{Kind: hal.TaskKernel, Kernel: one, Blocks: 1})
	q.Submit(hal.Task{Kind: hal.TaskKernel, Kernel: one, Blocks: 1})
	if err := q.Wait(context.Background(), q.Submitted(), 10*time.Second); err != nil {
		t.Fatal(err)
	}
	q.TakeFaults(q.Submitted())
	want := []string{"block 0\nblock 1\nblock 2\nblock 3\nblock 4\nblock 5\nblock 6\nblock 7\n", "one\n", "one\n"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("emitted %q, want %q", got, want)
	}
}
