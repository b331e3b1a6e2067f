package haltest

import (
	"bytes"
	"fmt"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

// run executes a transfer through a queue (q != nil) or Device.Run.
func (e *env) run(q hal.Queue, task hal.Task) {
	e.t.Helper()
	if q == nil {
		if err := e.d.Run(task); err != nil {
			e.t.Fatalf("Run(%s): %v", task.Kind, err)
		}
		return
	}
	e.submit(q, task)
	e.wait(q)
}

func mode(q hal.Queue) string {
	if q == nil {
		return "Run"
	}
	return "queue"
}

// testCopyDirections moves bytes host→device→device→host and host→host,
// through a queue and through Device.Run, with pageable and pinned host
// memory, at unaligned device offsets and sizes on both sides of the point
// where a backend may split a transfer.
func testCopyDirections(e *env) {
	t := e.t
	for _, n := range []int{1, 4096, 3<<20 + 7} {
		for _, q := range []hal.Queue{e.queue(), nil} {
			for _, pin := range []bool{false, true} {
				name := fmt.Sprintf("%d bytes via %s, pinned %v", n, mode(q), pin)
				src, dst, dst2 := make([]byte, n), make([]byte, n), make([]byte, n)
				if pin {
					src, dst, dst2 = e.pinned(n), e.pinned(n), e.pinned(n)
				}
				copy(src, pattern(n, byte(n)))
				a, b := e.malloc(e.d, uint64(n)+8), e.malloc(e.d, uint64(n)+8)
				e.run(q, copyTask(hal.DevLoc(a.Addr+3), hostLoc(src), uint64(n)))
				if !bytes.Equal(devBytes(t, e.d, a.Addr+3, uint64(n)), src) {
					t.Fatalf("%s: host to device copy wrong", name)
				}
				e.run(q, copyTask(hal.DevLoc(b.Addr+5), hal.DevLoc(a.Addr+3), uint64(n)))
				if !bytes.Equal(devBytes(t, e.d, b.Addr+5, uint64(n)), src) {
					t.Fatalf("%s: device to device copy wrong", name)
				}
				e.run(q, copyTask(hostLoc(dst), hal.DevLoc(b.Addr+5), uint64(n)))
				if !bytes.Equal(dst, src) {
					t.Fatalf("%s: device to host copy wrong", name)
				}
				e.run(q, copyTask(hostLoc(dst2), hostLoc(src), uint64(n)))
				if !bytes.Equal(dst2, src) {
					t.Fatalf("%s: host to host copy wrong", name)
				}
				for _, x := range []hal.Allocation{a, b} {
					if err := e.d.Free(x.Addr, 0); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
}

// check2D checks that rows of width bytes at dpitch in dst match rows at
// spitch in src and that the bytes between rows still hold fill.
func check2D(e *env, what string, dst, src []byte, dpitch, spitch, width, height int, fill byte) {
	e.t.Helper()
	for r := range height {
		row := dst[r*dpitch : r*dpitch+width]
		if !bytes.Equal(row, src[r*spitch:r*spitch+width]) {
			e.t.Fatalf("%s: row %d wrong", what, r)
		}
		if r < height-1 {
			for i, v := range dst[r*dpitch+width : (r+1)*dpitch] {
				if v != fill {
					e.t.Fatalf("%s: byte %d after row %d changed to %#x", what, i, r, v)
				}
			}
		}
	}
}

func copy2DTask(dst, src hal.Loc, dpitch, spitch, width, height int) hal.Task {
	return hal.Task{Kind: hal.TaskCopy2D, Dst: dst, Src: src, DPitch: uint64(dpitch), SPitch: uint64(spitch),
		Width: uint64(width), Height: uint64(height)}
}

func testCopy2D(e *env) {
	t := e.t
	const width, height, spitch, dpitch, hpitch = 7, 5, 13, 11, 16
	for _, q := range []hal.Queue{e.queue(), nil} {
		src := pattern(spitch*height, 3)
		a := e.malloc(e.d, dpitch*height)
		e.run(q, memsetTask(a.Addr, 0xee, dpitch*height))
		e.run(q, copy2DTask(hal.DevLoc(a.Addr), hostLoc(src), dpitch, spitch, width, height))
		dev := devBytes(t, e.d, a.Addr, dpitch*height)
		check2D(e, "2-D host to device via "+mode(q), dev, src, dpitch, spitch, width, height, 0xee)
		back := bytes.Repeat([]byte{0xcc}, hpitch*height)
		e.run(q, copy2DTask(hostLoc(back), hal.DevLoc(a.Addr), hpitch, dpitch, width, height))
		check2D(e, "2-D device to host via "+mode(q), back, dev, hpitch, dpitch, width, height, 0xcc)
	}
}

// testCopy2DLarge copies enough rows that a backend may split the copy.
func testCopy2DLarge(e *env) {
	t := e.t
	const width, height, spitch, dpitch = 4096 + 3, 300, 5000, 4200
	src := e.malloc(e.d, spitch*height)
	copy(devBytes(t, e.d, src.Addr, spitch*height), pattern(spitch*height, 4))
	for _, q := range []hal.Queue{e.queue(), nil} {
		dst := e.malloc(e.d, dpitch*height)
		e.run(q, memsetTask(dst.Addr, 0x77, dpitch*height))
		e.run(q, copy2DTask(hal.DevLoc(dst.Addr), hal.DevLoc(src.Addr), dpitch, spitch, width, height))
		check2D(e, "large 2-D device to device via "+mode(q), devBytes(t, e.d, dst.Addr, dpitch*height),
			devBytes(t, e.d, src.Addr, spitch*height), dpitch, spitch, width, height, 0x77)
	}
}

func testMemset(e *env) {
	t := e.t
	const guard = 100
	for _, n := range []uint64{1, 4097, 3<<20 + 7} {
		for _, q := range []hal.Queue{e.queue(), nil} {
			a := e.malloc(e.d, n+2*guard)
			all := devBytes(t, e.d, a.Addr, n+2*guard)
			e.run(q, memsetTask(a.Addr, 0x11, n+2*guard))
			// Only the low byte of Value is stored.
			task := memsetTask(a.Addr+guard, 0, n)
			task.Value = 0x1a5
			e.run(q, task)
			if !bytes.Equal(all[guard:guard+n], bytes.Repeat([]byte{0xa5}, int(n))) {
				t.Fatalf("memset of %d bytes via %s to 0x1a5 did not store 0xa5 everywhere", n, mode(q))
			}
			for _, g := range [][]byte{all[:guard], all[guard+n:]} {
				if !bytes.Equal(g, bytes.Repeat([]byte{0x11}, guard)) {
					t.Fatalf("memset of %d bytes via %s wrote outside its range", n, mode(q))
				}
			}
			e.run(q, memsetTask(a.Addr+guard, 0, n))
			if !bytes.Equal(all[guard:guard+n], make([]byte, n)) {
				t.Fatalf("memset of %d bytes via %s to 0 left nonzero bytes", n, mode(q))
			}
		}
	}
}

// testCopyOverlapping checks that a device to device copy between
// overlapping ranges behaves like memmove in both directions.
func testCopyOverlapping(e *env) {
	t := e.t
	for _, n := range []int{4096 + 5, 3<<20 + 7} {
		for _, q := range []hal.Queue{e.queue(), nil} {
			for _, shift := range []int{100, -100, 4096, -4096} {
				a := e.malloc(e.d, uint64(n+8192))
				dev := devBytes(t, e.d, a.Addr, uint64(n+8192))
				copy(dev, pattern(n+8192, byte(shift)))
				want := append([]byte(nil), dev...)
				srcOff, dstOff := 4096, 4096+shift
				copy(want[dstOff:dstOff+n], want[srcOff:srcOff+n])
				e.run(q, copyTask(hal.DevLoc(a.Addr+uint64(dstOff)), hal.DevLoc(a.Addr+uint64(srcOff)), uint64(n)))
				if !bytes.Equal(dev, want) {
					t.Fatalf("overlapping copy of %d bytes shifted by %d via %s differs from memmove", n, shift, mode(q))
				}
				if err := e.d.Free(a.Addr, 0); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// testCopyFault checks that a copy touching freed device memory fails: Run
// returns an error, a queued copy faults with KindDMAFault and the queue
// goes on.
func testCopyFault(e *env) {
	t := e.t
	a := e.malloc(e.d, 4096)
	freed := e.malloc(e.d, 4096)
	if err := e.d.Free(freed.Addr, 0); err != nil {
		t.Fatal(err)
	}
	host := make([]byte, 4096)
	if err := e.d.Run(copyTask(hostLoc(host), hal.DevLoc(freed.Addr), 4096)); err == nil {
		t.Error("Run of a copy from freed memory succeeded")
	}
	if err := e.d.Run(copyTask(hal.DevLoc(a.Addr), hal.DevLoc(a.Addr+2048), 4096)); err == nil {
		t.Error("Run of a copy reading past its allocation succeeded")
	}
	// A pitch so large that the extent of the rows wraps around: the
	// wrapped extent fits the allocation, the rows do not.
	wrap := copy2DTask(hal.DevLoc(a.Addr), hal.DevLoc(a.Addr+2048), 16, 16, 8, 3)
	wrap.DPitch = 1 << 63
	if err := e.d.Run(wrap); err == nil {
		t.Error("Run of a 2-D copy whose rows overflow the address space succeeded")
	}
	q := e.queue()
	e.submit(q, wrap)
	if err := waitSeq(q, q.Submitted(), patience); err != nil {
		t.Fatal(err)
	}
	if fs := q.TakeFaults(q.Submitted()); len(fs) != 1 || fs[0].Kind != hal.KindDMAFault || fs[0].Task != hal.TaskCopy2D {
		t.Errorf("faults %+v, want one %s for the 2-D copy", fs, hal.KindDMAFault)
	}
	seq := e.submit(q, copyTask(hal.DevLoc(freed.Addr), hal.DevLoc(a.Addr), 4096))
	var ran atomic.Bool
	e.submit(q, hostTask(func() { ran.Store(true) }))
	if err := waitSeq(q, q.Submitted(), patience); err != nil {
		t.Fatal(err)
	}
	fs := q.TakeFaults(q.Submitted())
	if len(fs) != 1 || fs[0].Kind != hal.KindDMAFault || fs[0].Seq != seq || fs[0].Task != hal.TaskCopy {
		t.Errorf("faults %+v, want one %s at seq %d", fs, hal.KindDMAFault, seq)
	}
	if !ran.Load() {
		t.Error("the task after a faulting copy did not run")
	}
	e.waitHandled(2)
}

func testRunRefuses(e *env) {
	for _, task := range []hal.Task{
		hostTask(func() { e.t.Error("Run ran a host function") }),
		kernelTask("haltest_run", 1, func(*kernel.Block) { e.t.Error("Run ran a kernel") }),
	} {
		if err := e.d.Run(task); err == nil {
			e.t.Errorf("Run accepted a %s task", task.Kind)
		}
	}
}

// testCopyOverlapsKernel checks that a copy on one queue runs while a
// kernel on another queue is running: the kernel waits, while it runs, for
// the copy to complete, and the copy starts only once the kernel started.
func testCopyOverlapsKernel(e *env) {
	t := e.t
	const n = 8 << 20
	src, dst := e.malloc(e.d, n), e.malloc(e.d, n)
	copy(devBytes(t, e.d, src.Addr, n), pattern(n, 9))
	qc, qk := e.queue(), e.queue()
	var started, sawCopy atomic.Bool
	e.submit(qc, hostTask(func() {
		if !e.until(started.Load) {
			t.Error("the kernel never started")
		}
	}))
	seqCopy := e.submit(qc, copyTask(hal.DevLoc(dst.Addr), hal.DevLoc(src.Addr), n))
	e.submit(qk, kernelTask("haltest_overlap", 1, func(b *kernel.Block) {
		started.Store(true)
		deadline := time.Now().Add(patience)
		for qc.Completed() < seqCopy {
			if e.quit.Load() || time.Now().After(deadline) {
				return
			}
			runtime.Gosched()
		}
		sawCopy.Store(true)
	}))
	e.wait(qk)
	e.wait(qc)
	if !sawCopy.Load() {
		t.Fatal("a copy did not run while a kernel on another queue was running")
	}
	if !bytes.Equal(devBytes(t, e.d, dst.Addr, n), devBytes(t, e.d, src.Addr, n)) {
		t.Error("the copy's bytes are wrong")
	}
	tr, ok := e.d.(hal.Tracer)
	if !ok {
		return
	}
	var cp, kr *hal.Record
	recs := tr.Trace(nil)
	for i := range recs {
		r := &recs[i]
		switch {
		case r.Queue == qc.ID() && r.Seq == seqCopy:
			cp = r
		case r.Queue == qk.ID() && r.Seq == 1:
			kr = r
		}
	}
	if cp == nil || kr == nil {
		t.Fatalf("trace lacks the copy (%v) or the kernel (%v)", cp, kr)
	}
	if !(cp.Start < kr.End && kr.Start < cp.End) {
		t.Errorf("trace: copy ran [%d, %d], kernel [%d, %d]; want them to overlap", cp.Start, cp.End, kr.Start, kr.End)
	}
}
