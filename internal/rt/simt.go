package rt

import (
	"sync"
	"sync/atomic"

	"github.com/gocann/gocann/internal/rterr"
	"github.com/gocann/gocann/kernel"
)

// SIMT launches. A SIMT kernel's launch runs each block as blockDim
// threads, each a goroutine with its own view of the block (its thread
// index), meeting at the block's barrier; the block ends when its last
// thread does. A thread that fails leaves the barrier, so the others do
// not wait for it, and its failure is the block's.

// MaxSIMTThreads is the most threads a SIMT block may have.
const MaxSIMTThreads = 2048

// SIMTKernel returns the kernel one SIMT launch of k over grid × block
// runs, and its block count, checked as CANN checks a SIMT launch.
func SIMTKernel(k *kernel.Func, grid, block kernel.Dim3) (*kernel.Func, uint32, error) {
	switch {
	case !k.SIMT:
		return nil, 0, rterr.Errorf(rterr.KindInvalidParam, "kernel %q is not a SIMT kernel: this launch only takes SIMT kernels (GOCANN_SIMT_KERNEL, RegisterSIMTKernel)", k.Name)
	case grid.X == 0 || grid.Y == 0 || grid.Z == 0:
		return nil, 0, rterr.Errorf(rterr.KindInvalidParam, "gridDim [%d,%d,%d] is invalid: every extent must be greater than 0", grid.X, grid.Y, grid.Z)
	case block.X == 0 || block.Y == 0 || block.Z == 0:
		return nil, 0, rterr.Errorf(rterr.KindInvalidParam, "blockDim [%d,%d,%d] is invalid: every extent must be greater than 0", block.X, block.Y, block.Z)
	case block.Count() > MaxSIMTThreads:
		return nil, 0, rterr.Errorf(rterr.KindInvalidParam, "blockDim [%d,%d,%d] is invalid: %d threads, expected at most %d", block.X, block.Y, block.Z, block.Count(), MaxSIMTThreads)
	case grid.Count() > MaxBlocks:
		return nil, 0, rterr.Errorf(rterr.KindInvalidParam, "gridDim [%d,%d,%d] is invalid: %d blocks, expected at most %d", grid.X, grid.Y, grid.Z, grid.Count(), MaxBlocks)
	}
	fn := k.Fn
	run := func(b *kernel.Block) { runThreads(fn, b, grid, block) }
	return &kernel.Func{Name: k.Name, Fn: run, CPU: k.CPU, SIMT: true, Emit: k.Emit}, uint32(grid.Count()), nil
}

// runThreads runs block b of a SIMT launch: its threads at once, then the
// first failure, if any, as the block's.
func runThreads(fn func(*kernel.Block), b *kernel.Block, grid, block kernel.Dim3) {
	n := uint32(block.Count())
	bar := newBarrier(int(n))
	s := &kernel.SIMT{Grid: grid, Block: block, Barrier: bar}
	var (
		wg         sync.WaitGroup
		failure    atomic.Pointer[any]
		overflowed atomic.Bool
	)
	for i := range n {
		wg.Go(func() {
			defer bar.Leave()
			defer func() {
				if v := recover(); v != nil {
					failure.CompareAndSwap(nil, &v)
				}
			}()
			t := b.Thread(s, i)
			fn(&t)
			if t.Overflowed() {
				overflowed.Store(true)
			}
		})
	}
	wg.Wait()
	if overflowed.Load() {
		b.ReportOverflow()
	}
	if v := failure.Load(); v != nil {
		panic(*v)
	}
}

// barrier is a block's thread barrier (kernel.Barrier): a generation count
// under a mutex, for a set of threads that shrinks as they leave.
type barrier struct {
	mu      sync.Mutex
	cond    sync.Cond
	live    int    // threads still running
	waiting int    // of those, waiting in this generation
	gen     uint64 // generation, bumped on each release
}

func newBarrier(n int) *barrier {
	b := &barrier{live: n}
	b.cond.L = &b.mu
	return b
}

func (b *barrier) Wait() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.waiting++
	if b.waiting == b.live {
		b.release()
		return
	}
	for gen := b.gen; gen == b.gen; {
		b.cond.Wait()
	}
}

func (b *barrier) Leave() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.live--
	if b.waiting > 0 && b.waiting == b.live {
		b.release()
	}
}

// release lets the waiting threads go. b.mu held.
func (b *barrier) release() {
	b.waiting = 0
	b.gen++
	b.cond.Broadcast()
}
