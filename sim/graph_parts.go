package sim

import (
	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

// traceParts adds the records of kernel t of a graph, which reports the
// parts of its run (a SuperKernel), to the trace: one for the kernel and
// one for each part its block 0, which ran on this worker, reported. A
// part ending with the kernel reports no end of its own.
func (w *worker) traceParts(r *graphRun, si, pc int, t *hal.Task, start int64) {
	s := r.s
	end := s.clock()
	rec := hal.Record{Queue: -1, Kind: hal.TaskKernel, Engine: engineOf(t), Start: start, End: end,
		Failed: r.top.fault.Load() != nil, Name: t.Kernel.Name, Blocks: t.Blocks, Stream: int32(si), Op: int32(pc) + 1}
	var parts []kernel.Part
	if t.Blocks == 1 || isGang(t) {
		parts = w.block.Parts()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if q := r.top.q; q != nil {
		rec.Queue, rec.Seq, rec.Submit = q.id, r.top.seq, q.slot(r.top.seq).submit
	}
	s.trace.add(rec)
	for i, p := range parts {
		sub := rec
		sub.Name, sub.Blocks, sub.Sub, sub.Start, sub.End = p.Name, p.Blocks, int32(i)+1, p.Start, p.End
		if sub.End == 0 {
			sub.End = end
		}
		s.trace.add(sub)
	}
}

// runTraced runs operation pc of stream si, one task, and adds its record
// to the trace, as TraceOps asks: kernels run one by one then, not in
// batches. A SuperKernel records its parts itself (traceParts).
func (w *worker) runTraced(r *graphRun, si, pc int, t *hal.Task) {
	s := r.s
	start := s.clock()
	w.runOp(r, si, pc, t)
	if t.Kind == hal.TaskKernel && t.Kernel.Parts {
		return
	}
	rec := hal.Record{Queue: -1, Kind: t.Kind, Engine: engineOf(t), Start: start, End: s.clock(),
		Failed: r.top.fault.Load() != nil, Bytes: bytesOf(t), Stream: int32(si), Op: int32(pc) + 1}
	if k := t.Kernel; k != nil {
		rec.Name, rec.Blocks, rec.Cores = k.Name, t.Blocks, k.Cores
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if q := r.top.q; q != nil {
		rec.Queue, rec.Seq, rec.Submit = q.id, r.top.seq, q.slot(r.top.seq).submit
	}
	s.trace.add(rec)
}
