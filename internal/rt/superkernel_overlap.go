package rt

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

// SuperKernels on the chips where SetNextTaskStart and WaitPreTaskEnd take
// effect (Atlas A3, Ascend 950): block 0 of the task runs the sub-kernels
// in order, each block of each on a goroutine of its own, and starts
// sub-kernel N+1 once every block of N has called SetNextTaskStart or
// ended, so N's tails run beside N+1 (the simulator runs more block
// threads than the chip has cores for it). WaitPreTaskEnd holds its block
// until the sub-kernel before has ended on every core. Once every block
// has ended, the calls are checked against the contract: each core of a
// sub-kernel calls each of them exactly once or none does, and an
// SK_BIND cap declares exactly the calls made.

// overlapChip reports whether the calls take effect on chip soc.
func overlapChip(soc string) bool {
	return strings.HasPrefix(soc, "Ascend910_93") || strings.HasPrefix(soc, "Ascend950")
}

// skRun is one sub-kernel's run in an overlapping SuperKernel.
type skRun struct {
	sk       *SuperKernel
	i        int
	t        *hal.Task
	prev     *skRun
	next     []atomic.Int32 // SetNextTaskStart calls, by block
	waits    []atomic.Int32 // WaitPreTaskEnd calls, by block
	released atomic.Int32   // blocks that called SetNextTaskStart or ended
	ended    atomic.Int32
	startAt  int64        // device clock when block 0 started it
	endAt    atomic.Int64 // and when its last block ended
	gang     kernel.Gang
	out      [][]byte // what each block printed
	over     atomic.Bool
	failed   *atomic.Bool // any block of the SuperKernel failed
	failure  *atomic.Pointer[any]
	outer    *kernel.Gang // the task's: failed once it timed out
}

// stopped reports whether the SuperKernel failed: a block of it, or the
// task (its timeout).
func (r *skRun) stopped() bool { return r.failed.Load() || r.outer != nil && r.outer.Failed() }

func (r *skRun) SetNextTaskStart(b *kernel.Block) {
	if r.next[b.Idx()].Add(1) == 1 {
		r.released.Add(1)
	}
}

func (r *skRun) WaitPreTaskEnd(b *kernel.Block) {
	r.waits[b.Idx()].Add(1)
	p := r.prev
	if p == nil {
		return
	}
	var pause skPause
	for p.ended.Load() < int32(p.t.Blocks) && !r.stopped() {
		pause.wait()
	}
}

// block runs block j of r's sub-kernel.
func (r *skRun) block(j uint32, mem kernel.Memory, wg *sync.WaitGroup) {
	var b kernel.Block
	failed := true
	defer func() {
		if v := recover(); v != nil {
			r.failure.CompareAndSwap(nil, &v)
		}
		if failed {
			r.failed.Store(true)
		}
		if r.t.Kernel.Gang && r.t.Blocks > 1 {
			r.gang.End(failed)
		}
		r.out[j] = b.TakeOutput()
		if b.Overflowed() {
			r.over.Store(true)
		}
		if r.next[j].Load() == 0 {
			r.released.Add(1)
		}
		if r.ended.Add(1) == int32(r.t.Blocks) {
			r.endAt.Store(b.Now())
		}
		wg.Done()
	}()
	t := r.t
	b.Reset(j, t.Blocks, t.Args[:t.NArgs], mem)
	b.SetSK(r)
	if t.Kernel.Gang && t.Blocks > 1 {
		b.SetGang(&r.gang)
	}
	if f := t.Kernel.SK; f != nil {
		f.Fn(&b)
	} else {
		t.Kernel.Fn(&b)
	}
	failed = false
}

// runOverlap is block 0's part of an overlapping SuperKernel: every
// sub-kernel, then the contract's check; a failure of a block, or a
// breach of the contract, is the task's.
func (sk *SuperKernel) runOverlap(b *kernel.Block) {
	var failed atomic.Bool
	var failure atomic.Pointer[any]
	var wg sync.WaitGroup
	runs := make([]*skRun, 0, len(sk.Subs))
	var prev *skRun
	for i := range sk.Subs {
		t := &sk.Subs[i]
		r := &skRun{sk: sk, i: i, t: t, prev: prev, next: make([]atomic.Int32, t.Blocks), waits: make([]atomic.Int32, t.Blocks),
			out: make([][]byte, t.Blocks), failed: &failed, failure: &failure, outer: b.Gang()}
		r.startAt = b.Now()
		runs = append(runs, r)
		wg.Add(int(t.Blocks))
		for j := uint32(0); j < t.Blocks; j++ {
			go r.block(j, b.Memory(), &wg)
		}
		var pause skPause
		for r.released.Load() < int32(t.Blocks) && !r.stopped() {
			pause.wait()
		}
		if r.stopped() {
			break
		}
		prev = r
	}
	wg.Wait()
	for _, r := range runs {
		for _, out := range r.out {
			if out != nil {
				b.Print(out)
			}
		}
		if r.over.Load() {
			b.ReportOverflow()
		}
	}
	if v := failure.Load(); v != nil {
		panic(*v)
	}
	for _, r := range runs {
		b.AddPart(kernel.Part{Name: r.t.Kernel.Name, Blocks: r.t.Blocks, Start: r.startAt, End: r.endAt.Load()})
	}
	for _, r := range runs {
		if err := r.check(); err != nil {
			panic(err)
		}
	}
}

// check applies the contract to r's calls.
func (r *skRun) check() error {
	t := r.t
	for _, c := range []struct {
		name  string
		calls []atomic.Int32
		bit   uint64
	}{{"SetNextTaskStart", r.next, 2}, {"WaitPreTaskEnd", r.waits, 1}} {
		var did, didNot, twice []int
		counts := make([]int32, len(c.calls))
		for j := range c.calls {
			n := c.calls[j].Load()
			counts[j] = n
			switch {
			case n == 0:
				didNot = append(didNot, j)
			case n > 1:
				twice = append(twice, j)
				did = append(did, j)
			default:
				did = append(did, j)
			}
		}
		what := fmt.Sprintf("SuperKernel %q sub-kernel %d (%q, %d blocks)", r.sk.Name, r.i, t.Kernel.Name, t.Blocks)
		switch {
		case len(twice) > 0:
			return fmt.Errorf("%s: cores %v called %s more than once (calls by core %v); each core calls it exactly once", what, twice, c.name, counts)
		case len(did) > 0 && len(didNot) > 0:
			return fmt.Errorf("%s: cores %v called %s and cores %v did not (calls by core %v); every core calls it, or none", what, did, c.name, didNot, counts)
		}
		if sk := t.Kernel.SK; sk != nil {
			declared := sk.SKCap&c.bit != 0
			switch {
			case declared && len(did) == 0:
				return fmt.Errorf("%s: its SK_BIND cap %d declares %s (cap & %d), which no core called (calls by core %v)", what, sk.SKCap, c.name, c.bit, counts)
			case !declared && len(did) > 0:
				return fmt.Errorf("%s: cores %v called %s, which its SK_BIND cap %d does not declare (cap & %d is 0; calls by core %v)", what, did, c.name, sk.SKCap, c.bit, counts)
			}
		}
	}
	return nil
}
