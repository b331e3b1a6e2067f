package sim

import (
	"fmt"
	"math/bits"
	"unsafe"

	"github.com/gocann/gocann/hal"
)

// Copies and memsets below splitMin bytes run as one part; larger ones are
// split into chunks of at least chunkMin bytes, one per DMA worker at most,
// so they use every CPU.
const (
	splitMin = 512 << 10
	chunkMin = 256 << 10
)

// partsOf is the number of parts a task is split into on an engine with
// workers workers.
func partsOf(t *hal.Task, workers int) int32 {
	switch t.Kind {
	case hal.TaskKernel:
		return int32(t.Blocks)
	case hal.TaskGraph:
		return 1
	case hal.TaskCopy, hal.TaskMemset:
		if t.Kind == hal.TaskCopy && overlaps(t) {
			return 1
		}
		return splitCount(t.Size, workers)
	case hal.TaskCopyBatch:
		return batchParts(t, workers)
	case hal.TaskReduce:
		if overlaps(t) && t.Dst.Dev != t.Src.Dev {
			return 1 // one pass in element order, as a streaming engine makes
		}
		return splitCount(t.Size, workers)
	case hal.TaskCopy2D:
		if t.Height == 0 {
			return 1
		}
		return min(splitCount(t.Width*t.Height, workers), int32(min(t.Height, 1<<30)))
	}
	return 1
}

func splitCount(n uint64, workers int) int32 {
	if n < splitMin || workers < 2 {
		return 1
	}
	return int32(min(uint64(workers), n/chunkMin))
}

// share returns part p's slice [lo, hi) of n items split into parts parts,
// in multiples of align where possible.
func share(n uint64, p, parts int32, align uint64) (lo, hi uint64) {
	per := (n/uint64(parts) + align - 1) / align * align
	lo = min(n, uint64(p)*per)
	hi = min(n, lo+per)
	if p == parts-1 {
		hi = n
	}
	return lo, hi
}

func overlaps(t *hal.Task) bool {
	a, b := t.Dst.Addr(), t.Src.Addr()
	return a < b+t.Size && b < a+t.Size
}

// resolve maps a copy end of n bytes to host memory.
func (b *Backend) resolve(l hal.Loc, n uint64) (unsafe.Pointer, error) {
	if l.Host != nil {
		return l.Host, nil
	}
	for _, d := range *b.open.Load() {
		if d.mem.contains(l.Dev) {
			return d.mem.pointer(l.Dev, n)
		}
	}
	if sp, ok := b.spans.Load().find(l.Dev); ok {
		return nil, hal.Errorf(hal.KindInvalidAddress, "address %#x is memory of device %d, which is not open", l.Dev, sp.m.dev)
	}
	if b.vm.inWindow(l.Dev) {
		return b.vm.pointer(l.Dev, n)
	}
	return nil, hal.Errorf(hal.KindInvalidAddress, "address %#x is not device memory of any open device", l.Dev)
}

// exec runs part p of it on this worker, turning a panic into a fault.
func (w *worker) exec(it *item, p int32) {
	defer func() {
		if v := recover(); v != nil {
			w.fail(it, p, v)
		}
		if it.run == nil && it.t.Kind == hal.TaskKernel {
			w.output(it, p)
			if m := w.block.Moved(); m != 0 && it.gang == nil {
				it.moved.Add(m)
			}
		}
	}()
	if it.run != nil {
		w.runStream(it.run, it.stream, 0)
		return
	}
	t := it.t
	s := w.e.s
	switch t.Kind {
	case hal.TaskGraph:
		w.runGraph(it, t.Graph)
	case hal.TaskKernel:
		if it.gang != nil {
			w.runGang(it, p)
			return
		}
		w.runBlock(t, uint32(p))
	case hal.TaskHostFunc:
		if t.Host != nil {
			t.Host()
		} else {
			t.HostFn(t.HostArgs[0], t.HostArgs[1])
		}
	default:
		if err := s.dev.b.transfer(t, p, it.parts); err != nil {
			it.fault.CompareAndSwap(nil, s.newFault(it.q, it.seq, t, hal.KindDMAFault, t.Kind.String()+" failed", err))
		}
	}
}

// runChain runs the kernels chained behind it's own (item.last) until one
// fails, the queue is aborted or stopped, or the device closes; it.ran and
// it.ends say how far it got.
func (w *worker) runChain(it *item) {
	q, s := it.q, w.e.s
	gen := q.abortGen.Load()
	it.ends[0] = s.clock()
	for seq := it.seq + 1; seq <= it.last; seq++ {
		if it.fault.Load() != nil || q.abortGen.Load() != gen || q.stop.Load() != nil || s.closing.Load() {
			return
		}
		it.cur = seq
		it.chain.Store(it.ends[seq-1-it.seq]<<chainShift | int64(seq-it.seq))
		w.chained(it, &it.ring[seq&uint64(len(it.ring)-1)].t)
		if it.cur == 0 {
			return // it failed, which ends the chain
		}
		it.cur, it.ran, it.ends[seq-it.seq] = 0, seq, s.clock()
	}
}

// chained runs one chained kernel, turning a panic into its fault.
func (w *worker) chained(it *item, t *hal.Task) {
	defer func() {
		if v := recover(); v != nil {
			w.fail(it, 0, v)
		}
		if out := w.block.TakeOutput(); out != nil {
			emitOut(t, out)
		}
	}()
	w.runBlock(t, 0)
	if m := w.block.Moved(); m != 0 {
		if it.chainMoved == nil {
			it.chainMoved = new([maxChain]uint64)
		}
		it.chainMoved[it.cur-it.seq] = m
	}
}

// runBlock runs block idx of kernel task t on this worker and flags the
// task's overflow area if the block reported an overflow.
func (w *worker) runBlock(t *hal.Task, idx uint32) {
	dev := w.e.s.dev
	w.block.Reset(idx, t.Blocks, t.Args[:t.NArgs], &dev.kmem)
	t.Kernel.Fn(&w.block)
	if w.block.Overflowed() && t.Overflow != 0 {
		if err := dev.b.flagOverflow(t.Overflow); err != nil {
			panic(err)
		}
	}
}

// fail records that part p of it panicked with v, or, in a chain, the
// chained kernel running; that ends the chain.
func (w *worker) fail(it *item, p int32, v any) {
	if it.run != nil {
		return // runStream reported it before letting go of the run
	}
	if seq := it.cur; seq != 0 {
		it.endFault = w.faultOf(it.q, seq, &it.ring[seq&uint64(len(it.ring)-1)].t, 0, v)
		it.cur, it.ran, it.ends[seq-it.seq] = 0, seq, w.e.s.clock()
		return
	}
	it.fault.CompareAndSwap(nil, w.faultOf(it.q, it.seq, it.t, p, v))
}

// faultOf describes the failure of part p of task seq of q, which panicked
// with v.
func (w *worker) faultOf(q *queue, seq uint64, t *hal.Task, p int32, v any) *hal.Fault {
	s := w.e.s
	// An error panic value becomes the fault's cause; anything else is
	// described in the message. Never both, so it is reported once.
	err, _ := v.(error)
	what := func(prefix string) string {
		if err != nil {
			return prefix
		}
		return fmt.Sprintf("%s: %v", prefix, v)
	}
	switch t.Kind {
	case hal.TaskKernel:
		k := s.dev.b.kernelFailure(t, v)
		return s.newFault(q, seq, t, k, what(fmt.Sprintf("kernel %q block %d of %d", t.Kernel.Name, p, t.Blocks)), err)
	case hal.TaskHostFunc:
		return s.newFault(q, seq, t, hal.KindHostFuncFault, what("host function panicked"), err)
	}
	return s.newFault(q, seq, t, hal.KindDMAFault, what(t.Kind.String()+" failed"), err)
}

// transfer runs part p of parts of a copy, 2-D copy or memset.
func (b *Backend) transfer(t *hal.Task, p, parts int32) error {
	switch t.Kind {
	case hal.TaskCopy:
		dst, err := b.resolve(t.Dst, t.Size)
		if err != nil {
			return err
		}
		src, err := b.resolve(t.Src, t.Size)
		if err != nil {
			return err
		}
		lo, hi := share(t.Size, p, parts, 4096)
		if hi > lo {
			copy(unsafe.Slice((*byte)(unsafe.Add(dst, lo)), hi-lo), unsafe.Slice((*byte)(unsafe.Add(src, lo)), hi-lo))
		}
	case hal.TaskMemset:
		dst, err := b.resolve(t.Dst, t.Size)
		if err != nil {
			return err
		}
		lo, hi := share(t.Size, p, parts, 4096)
		if t.Width == 4 {
			fill32(unsafe.Slice((*byte)(unsafe.Add(dst, lo)), hi-lo), uint32(t.Value))
			break
		}
		fill(unsafe.Slice((*byte)(unsafe.Add(dst, lo)), hi-lo), byte(t.Value))
	case hal.TaskCopyBatch:
		return b.copyBatch(t, p, parts)
	case hal.TaskCopyIndirect:
		return b.copyIndirect(t)
	case hal.TaskReduce:
		return b.reduce(t, p, parts)
	case hal.TaskRandom:
		return b.random(t)
	case hal.TaskCopy2D:
		if t.Height == 0 || t.Width == 0 {
			return nil
		}
		dn, dok := extent2D(t.DPitch, t.Width, t.Height)
		sn, sok := extent2D(t.SPitch, t.Width, t.Height)
		if !dok || !sok {
			// A wrapped extent would pass the bounds check while the rows
			// land far outside it.
			return hal.Errorf(hal.KindInvalidParam,
				"2-D copy of %d rows of %d bytes at pitches %d (dst) and %d (src) overflows the address space",
				t.Height, t.Width, t.DPitch, t.SPitch)
		}
		dst, err := b.resolve(t.Dst, dn)
		if err != nil {
			return err
		}
		src, err := b.resolve(t.Src, sn)
		if err != nil {
			return err
		}
		lo, hi := share(t.Height, p, parts, 1)
		for r := lo; r < hi; r++ {
			copy(unsafe.Slice((*byte)(unsafe.Add(dst, r*t.DPitch)), t.Width),
				unsafe.Slice((*byte)(unsafe.Add(src, r*t.SPitch)), t.Width))
		}
	default:
		return hal.Errorf(hal.KindInvalidParam, "task kind %s is not a transfer", t.Kind)
	}
	return nil
}

// extent2D is the span pitch*(height-1)+width of a pitched buffer, which
// must have height >= 1; ok is false if it does not fit in 64 bits.
func extent2D(pitch, width, height uint64) (n uint64, ok bool) {
	hi, lo := bits.Mul64(pitch, height-1)
	n, carry := bits.Add64(lo, width, 0)
	return n, hi == 0 && carry == 0
}

// fill sets every byte of b to v, doubling copies so it runs at memmove speed.
func fill(b []byte, v byte) {
	if v == 0 {
		clear(b)
		return
	}
	if len(b) == 0 {
		return
	}
	b[0] = v
	for n := 1; n < len(b); n *= 2 {
		copy(b[n:], b[:n])
	}
}

// loadArgs reads a kernel's argument slots from device memory, now that the
// tasks before it (which may have written them) are done. s.mu must be held.
func (s *scheduler) loadArgs(t *hal.Task) error {
	if t.NArgs == 0 {
		return nil
	}
	p, err := s.dev.mem.pointer(t.ArgsDev, 8*uint64(t.NArgs))
	if err != nil {
		return err
	}
	copy(t.Args[:t.NArgs], unsafe.Slice((*uint64)(p), t.NArgs))
	return s.dev.b.closedIn(s.dev.id, t.Args[:t.NArgs])
}
