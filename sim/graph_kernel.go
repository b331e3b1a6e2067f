package sim

import (
	"fmt"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

// Kernels inside a graph: one at a time, or runs of one-block C kernels in
// batches, and how a block's panic becomes a fault.

// runKernel runs a kernel of a graph: one block in place, more spread
// over the AI cores with this worker taking its share.
func (w *worker) runKernel(r *graphRun, si, pc int, t *hal.Task) {
	if t.Kernel == nil || t.Blocks == 0 {
		r.fail(si, pc, t, hal.KindAICoreException, "kernel launch without a kernel or blocks", nil)
		return
	}
	if t.ArgsDev != 0 {
		// Load into a copy: the graph's task is shared by its runs.
		tc := *t
		t = &tc
		r.s.mu.Lock()
		err := r.s.loadArgs(t)
		r.s.mu.Unlock()
		if err != nil {
			r.fail(si, pc, t, hal.KindAICoreException, "kernel argument block unreadable", err)
			return
		}
	} else if err := r.s.dev.b.closedKernel(r.s.dev.id, t); err != nil {
		r.fail(si, pc, t, hal.KindAICoreException, "kernel arguments unusable", err)
		return
	}
	r.kernelStart(si, pc)
	defer r.kernelEnd(si)
	if t.Kernel.Parts {
		start := r.s.clock()
		defer w.traceParts(r, si, pc, t, start)
	}
	if t.Blocks == 1 {
		if err := w.block1(t); err != nil {
			r.fail(si, pc, t, r.s.dev.b.kernelFailure(t, err), err.Error(), err)
		}
		return
	}
	if isGang(t) {
		if f := w.runGraphGang(t); f != nil {
			r.fail(si, pc, t, f.Kind, f.Msg, f.Err)
		}
		return
	}
	s := r.s
	e := s.engines[engineOf(t)]
	sub := &item{t: t, prio: -1 << 30, parts: int32(t.Blocks), wake: make(chan struct{}), hidx: -1}
	sub.limit = limitOf(t, sub.parts)
	sub.pool = r.s.poolOf(t)
	s.mu.Lock()
	sub.ticket = s.ticket
	s.ticket++
	e.push(sub)
	// This worker takes parts while the item is in the heap: under a core
	// limit it may leave it with parts left, which others then run. An AI
	// CPU kernel's parts are the AI CPU engine's alone.
	for sub.hidx >= 0 && !t.Kernel.CPU {
		p := e.takeFrom(sub, 0)
		s.mu.Unlock()
		w.exec(sub, p)
		w.released(sub)
		if sub.done.Add(1) == sub.parts {
			close(sub.wake)
		}
		s.mu.Lock()
	}
	s.mu.Unlock()
	<-sub.wake
	sub.printed.emit(t)
	if f := sub.fault.Load(); f != nil {
		r.fail(si, pc, t, f.Kind, f.Msg, f.Err)
	}
}

// batchOf returns the Batcher that may run t, if any. A kernel on memory
// of a closed device takes none: it runs alone, and faults.
func (b *Backend) batchOf(dev int, t *hal.Task) kernel.Batcher {
	if t.Kind != hal.TaskKernel || t.Blocks != 1 || t.ArgsDev != 0 || t.Kernel == nil || t.Overflow != 0 || t.Kernel.CPU || b.closedKernel(dev, t) != nil {
		return nil
	}
	return t.Kernel.Batch
}

// runBatch runs the one-block kernels from operation pc on that share a
// Batcher (skipping disabled operations) in one call, as a run of C kernels
// then crosses from Go once. It returns how many operations it covered:
// up to and including a kernel that failed, and 0 when there is no batch
// of two or more.
func (w *worker) runBatch(r *graphRun, si, pc int, ops []hal.Op) int {
	sb := r.s.dev.b
	b := sb.batchOf(r.s.dev.id, &ops[pc].Task)
	if b == nil {
		return 0
	}
	n, end := 0, pc
	for ; end < len(ops) && n < kernel.MaxBatch; end++ {
		op := &ops[end]
		if op.Disabled {
			continue
		}
		if op.Kind != hal.OpTask || sb.batchOf(r.s.dev.id, &op.Task) != b {
			break
		}
		w.calls[n] = kernel.BatchCall{Kernel: op.Task.Kernel, Args: op.Task.Args[:op.Task.NArgs]}
		w.callPCs[n] = end
		n++
	}
	if n < 2 {
		return 0
	}
	done, failure := b.RunBatch(w.calls[:n])
	clear(w.calls[:n]) // drop references to the graph's tasks
	if failure == nil {
		return end - pc
	}
	fpc := w.callPCs[done]
	t := &ops[fpc].Task
	err := panicError(failure)
	r.fail(si, fpc, t, sb.kernelFailure(t, err), err.Error(), err)
	return fpc + 1 - pc
}

// panicError is what a kernel panicked with, as an error.
func panicError(v any) error {
	if e, ok := v.(error); ok {
		return e
	}
	return fmt.Errorf("%v", v)
}

// block1 runs block 0 of a one-block kernel on this worker.
func (w *worker) block1(t *hal.Task) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = panicError(v)
		}
		if out := w.block.TakeOutput(); out != nil {
			emitOut(t, out)
		}
	}()
	w.runBlock(t, 0)
	return nil
}
