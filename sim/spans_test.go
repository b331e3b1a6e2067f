package sim

import (
	"slices"
	"strings"
	"testing"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

// staleAddr opens device 1 of b, allocates on it and closes it, returning
// an address in its memory.
func staleAddr(t *testing.T, b *Backend) uint64 {
	t.Helper()
	d1, err := b.Open(1)
	if err != nil {
		t.Fatal(err)
	}
	a, err := d1.Malloc(4096, hal.MemPolicy{Page: normalOnly})
	if err != nil {
		t.Fatal(err)
	}
	if err := d1.Close(); err != nil {
		t.Fatal(err)
	}
	return a.Addr + 16
}

// TestGraphClosedDeviceArgs: graph kernels holding an address of a closed
// device fault as their operation, batched or not, and never run.
func TestGraphClosedDeviceArgs(t *testing.T) {
	b, err := New(Config{Devices: 2, Profile: hal.Props{HBMSize: 1 << 30, AICores: 4}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	stale := staleAddr(t, b)
	d, err := b.Open(0)
	if err != nil {
		t.Fatal(err)
	}
	q, err := d.NewQueue(hal.QueueConfig{})
	if err != nil {
		t.Fatal(err)
	}
	lb := &logBatcher{fail: ^uint64(0)}
	k := &kernel.Func{Name: "batched", Batch: lb, Fn: func(blk *kernel.Block) { lb.got = append(lb.got, blk.Args()[0]) }}
	launch := func(blocks uint32, args ...uint64) hal.Op {
		t := hal.Task{Kind: hal.TaskKernel, Kernel: k, Blocks: blocks, NArgs: uint32(len(args))}
		copy(t.Args[:], args)
		return hal.Op{Kind: hal.OpTask, Task: t}
	}
	var ops []hal.Op
	for i := range uint64(6) {
		ops = append(ops, launch(1, i))
	}
	ops[0] = launch(1, 0, stale) // the first of a batch
	ops[3] = launch(1, 3, stale) // inside one
	ops = append(ops, launch(2, 6, stale))
	runGraph(t, q, &hal.Graph{Name: "stale", Streams: []*hal.GraphStream{stream(true, ops...)}})
	if want := []uint64{1, 2, 4, 5}; !slices.Equal(lb.got, want) || !slices.Equal(lb.batches, []int{2, 2}) {
		t.Errorf("launches ran as %v in batches %v, want %v in [2 2]", lb.got, lb.batches, want)
	}
	fs := q.TakeFaults(q.Submitted())
	if len(fs) != 1 || fs[0].Kind != hal.KindAICoreException || !strings.Contains(fs[0].Msg, "operation 0") ||
		fs[0].Err == nil || !strings.Contains(fs[0].Err.Error(), "memory of device 1, which is not open") {
		t.Errorf("faults %+v, want the first, an AI core exception of operation 0 naming device 1", fs)
	}
}

// TestMemoryLeftMappedIsRetired: memory whose close could not finish is
// not reused; the device opens on a new range and the old one stays
// reserved, reported as the device's and closed.
func TestMemoryLeftMappedIsRetired(t *testing.T) {
	b, err := New(Config{Devices: 1, Profile: hal.Props{HBMSize: 1 << 30}})
	if err != nil {
		t.Fatal(err)
	}
	d, err := b.Open(0)
	if err != nil {
		t.Fatal(err)
	}
	old := d.(*device).mem
	b.detach(d.(*device)) // as a close whose tasks never returned leaves it
	d2, err := b.Open(0)
	if err != nil {
		t.Fatal(err)
	}
	if m := d2.(*device).mem; m == old || m.base == old.base {
		t.Fatalf("reopened on the memory still mapped (%#x)", old.base)
	}
	sp, ok := b.Owner(old.base)
	if !ok || sp.Open || sp.Device != 0 {
		t.Errorf("Owner of the retired range = %+v, %v; want device 0's, closed", sp, ok)
	}
	if n := len(b.Spans()); n != 2 {
		t.Errorf("Spans() lists %d ranges, want 2", n)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if err := d2.Close(); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
}
