package rt

import (
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

// runSK runs sk's blocks at once, as the device runs a gang launch.
func runSK(sk *SuperKernel) {
	var g kernel.Gang
	var wg sync.WaitGroup
	for b := uint32(0); b < sk.Width; b++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var blk kernel.Block
			blk.Reset(b, sk.Width, nil, nil)
			blk.SetGang(&g)
			failed := true
			defer func() {
				recover() // a failing block, as the device's worker recovers it
				g.End(failed)
			}()
			sk.fn.Fn(&blk)
			failed = false
		}()
	}
	wg.Wait()
}

// TestSuperKernelRunners checks the barrier between sub-kernels for every
// runner count, the host's cores aside: the second sub-kernel's block j
// reads what the first one's block j+1 wrote.
func TestSuperKernelRunners(t *testing.T) {
	var a, b [64]atomic.Int64
	fill := &kernel.Func{Name: "fill", Fn: func(blk *kernel.Block) {
		if blk.Idx() == 1 {
			time.Sleep(time.Millisecond)
		}
		a[blk.Idx()].Store(100 + int64(blk.Idx()))
	}}
	shift := &kernel.Func{Name: "shift", Fn: func(blk *kernel.Block) {
		b[blk.Idx()].Store(a[blk.Idx()+1].Load())
	}}
	for _, n := range [][2]uint32{{2, 1}, {8, 7}, {5, 4}, {3, 8}} {
		for runners := uint32(1); runners <= max(n[0], n[1]); runners++ {
			r := &superRange{name: "pair", subs: []hal.Task{
				{Kind: hal.TaskKernel, Kernel: fill, Blocks: n[0]},
				{Kind: hal.TaskKernel, Kernel: shift, Blocks: n[1]},
			}}
			sk, err := newSuperKernel(r)
			if err != nil {
				t.Fatal(err)
			}
			sk.runners = runners
			for i := range a {
				a[i].Store(0)
				b[i].Store(0)
			}
			runSK(sk)
			for j := uint32(0); j < n[1]; j++ {
				want := int64(0)
				if j+1 < n[0] {
					want = 100 + int64(j) + 1
				}
				if got := b[j].Load(); got != want {
					t.Fatalf("%v blocks, %d runners: block %d read %d, want %d", n, runners, j, got, want)
				}
			}
		}
	}
}

// TestSuperKernelGangSub checks that a sub-kernel whose blocks wait for
// one another makes every block a runner, and that one narrower than the
// SuperKernel is refused.
func TestSuperKernelGangSub(t *testing.T) {
	var seen atomic.Int32
	syncK := &kernel.Func{Name: "sync", Gang: true, Fn: func(blk *kernel.Block) {
		seen.Add(1)
		if !blk.Gang().Sync(blk.Num(), func() { time.Sleep(time.Microsecond) }) {
			panic("sync failed")
		}
	}}
	nop := &kernel.Func{Name: "nop", Fn: func(*kernel.Block) {}}
	sk, err := newSuperKernel(&superRange{name: "g", subs: []hal.Task{
		{Kind: hal.TaskKernel, Kernel: nop, Blocks: 2},
		{Kind: hal.TaskKernel, Kernel: syncK, Blocks: 6},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if sk.runners != 6 {
		t.Fatalf("runners %d, want 6", sk.runners)
	}
	runSK(sk)
	if seen.Load() != 6 {
		t.Fatalf("%d blocks of the gang sub-kernel ran, want 6", seen.Load())
	}
	_, err = newSuperKernel(&superRange{name: "narrow", subs: []hal.Task{
		{Kind: hal.TaskKernel, Kernel: nop, Blocks: 8},
		{Kind: hal.TaskKernel, Kernel: syncK, Blocks: 4},
	}})
	if err == nil || !contains(err.Error(), `"narrow"`, `"sync"`, "4 blocks", "8") {
		t.Fatalf("a narrower gang sub-kernel: %v", err)
	}
}

func contains(s string, subs ...string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}

// TestSuperKernelFailedBarrier checks that a block failing in one
// sub-kernel releases the runners waiting at the barrier after it.
func TestSuperKernelFailedBarrier(t *testing.T) {
	var later atomic.Int32
	boom := &kernel.Func{Name: "boom", Fn: func(blk *kernel.Block) {
		if blk.Idx() == 4 {
			time.Sleep(time.Millisecond)
			panic("boom")
		}
	}}
	after := &kernel.Func{Name: "after", Fn: func(*kernel.Block) { later.Add(1) }}
	sk, err := newSuperKernel(&superRange{name: "f", subs: []hal.Task{
		{Kind: hal.TaskKernel, Kernel: boom, Blocks: 6},
		{Kind: hal.TaskKernel, Kernel: after, Blocks: 6},
	}})
	if err != nil {
		t.Fatal(err)
	}
	sk.runners = 3
	done := make(chan struct{})
	go func() { runSK(sk); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("runners still wait at the barrier after a block failed")
	}
	if n := later.Load(); n != 0 {
		t.Fatalf("%d blocks of the sub-kernel after the failure ran", n)
	}
}
