package sim

import (
	"context"
	"testing"

	"github.com/gocann/gocann/hal"
)

// TestLongTasks: copies, memsets and batches of at least parkBytes are
// what a waiting host parks behind at once; smaller ones leave it
// spinning. The copies still move their bytes.
func TestLongTasks(t *testing.T) {
	d := openDev(t, hal.Props{})
	q := newQ(t, d, 0)
	const big = parkBytes + 4096
	a, err := d.Malloc(2*big, hal.MemPolicy{Page: hal.PageHugeFirst})
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := hal.DevLoc(a.Addr), hal.DevLoc(a.Addr+big)
	small := []hal.Copy{{Dst: hi, Src: lo, Size: 4096}}
	many := make([]hal.Copy, big/4096)
	for i := range many {
		many[i] = hal.Copy{Dst: hal.DevLoc(a.Addr + big + uint64(i)*4096), Src: hal.DevLoc(a.Addr + uint64(i)*4096), Size: 4096}
	}
	long := func() uint64 { return q.(*queue).long.Load() }
	for _, c := range []struct {
		name string
		task hal.Task
		long bool
	}{
		{"a 4 KiB memset", hal.Task{Kind: hal.TaskMemset, Dst: lo, Size: 4096, Value: 1}, false},
		{"a memset of parkBytes", hal.Task{Kind: hal.TaskMemset, Dst: lo, Size: parkBytes, Value: 7}, true},
		{"a 4 KiB copy", hal.Task{Kind: hal.TaskCopy, Dst: hi, Src: lo, Size: 4096}, false},
		{"a copy past parkBytes", hal.Task{Kind: hal.TaskCopy, Dst: hi, Src: lo, Size: big}, true},
		{"a batch of one 4 KiB copy", hal.Task{Kind: hal.TaskCopyBatch, Batch: &hal.Batch{Copies: small}}, false},
		{"a batch of 4 KiB copies past parkBytes", hal.Task{Kind: hal.TaskCopyBatch, Batch: &hal.Batch{Copies: many}}, true},
	} {
		before := long()
		seq, err := q.Submit(c.task)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := long(); (got == seq) != c.long || (!c.long && got != before) {
			t.Errorf("%s (task %d): the last long task is %d, was %d; want it long %v", c.name, seq, got, before, c.long)
		}
		if err := q.Wait(context.Background(), seq, 0); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
	}
	buf := make([]byte, big)
	if err := d.Run(hal.Task{Kind: hal.TaskCopy, Dst: hal.HostLoc(ptr(buf)), Src: hi, Size: big}); err != nil {
		t.Fatal(err)
	}
	for i, v := range buf[:parkBytes] {
		if v != 7 {
			t.Fatalf("byte %d after the copies = %d, want 7 (the memset's)", i, v)
		}
	}
}
