package haltest

import (
	"errors"
	"runtime"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

func testKernelBlocksAndArgs(e *env) {
	t := e.t
	q := e.queue()
	n := min(3*e.props.AICores+1, 200)
	out := e.malloc(e.d, uint64(8*n))
	const magic1, magic2 = 0x0123456789abcdef, 0xfedcba9876543210
	var ran atomic.Int64
	e.submit(q, kernelTask("haltest_blocks", n, func(b *kernel.Block) {
		ran.Add(1)
		if b.Num() != n || b.NArgs() != 3 || b.Arg(1) != magic1 || b.Arg(2) != magic2 {
			t.Errorf("block %d sees Num %d, NArgs %d, args %#x %#x", b.Idx(), b.Num(), b.NArgs(), b.Arg(1), b.Arg(2))
			return
		}
		b.Store64(b.Arg(0)+8*uint64(b.Idx()), uint64(b.Idx())+1000)
	}, out.Addr, magic1, magic2))
	e.wait(q)
	if ran.Load() != int64(n) {
		t.Errorf("%d blocks ran, want %d", ran.Load(), n)
	}
	for i := range n {
		if v := loadWord(t, e.d, out.Addr+8*uint64(i)); v != uint64(i)+1000 {
			t.Errorf("block %d wrote %d, want %d (a block index ran twice or not at all)", i, v, i+1000)
		}
	}
}

func testKernelCoreBound(e *env) {
	t := e.t
	cores := e.props.AICores
	blocks := min(4*cores, 256)
	q := e.queue()
	var running, peak, ran atomic.Int64
	e.submit(q, kernelTask("haltest_cores", blocks, func(b *kernel.Block) {
		n := running.Add(1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		time.Sleep(2 * time.Millisecond)
		ran.Add(1)
		running.Add(-1)
	}))
	e.wait(q)
	if ran.Load() != int64(blocks) {
		t.Errorf("%d blocks ran, want %d", ran.Load(), blocks)
	}
	if p := peak.Load(); p > int64(cores) || p < int64(min(cores, 2)) {
		t.Errorf("%d blocks ran at once on %d AI cores, want 2..%d", p, cores, cores)
	}
}

// testKernelPoll runs a kernel whose blocks poll device memory until a value
// write on another queue sets it: the blocks must not starve the writer.
func testKernelPoll(e *env) {
	t := e.t
	nb := min(e.props.AICores, 4)
	w := e.malloc(e.d, 8).Addr
	q1, q2 := e.queue(), e.queue()
	var polling, released atomic.Int64
	e.submit(q1, kernelTask("haltest_poll", nb, func(b *kernel.Block) {
		polling.Add(1)
		deadline := time.Now().Add(patience)
		for b.Load64(b.Arg(0)) != 7 {
			if e.quit.Load() || time.Now().After(deadline) {
				b.Trap("the polled word was never written")
			}
			runtime.Gosched()
		}
		released.Add(1)
	}, w))
	e.submit(q2, hostTask(func() {
		if !e.until(func() bool { return polling.Load() == int64(nb) }) {
			t.Errorf("only %d of %d polling blocks started", polling.Load(), nb)
		}
	}))
	e.submit(q2, valueWrite(w, 7))
	e.wait(q2)
	e.wait(q1)
	if released.Load() != int64(nb) {
		t.Errorf("%d of %d polling blocks saw the write", released.Load(), nb)
	}
}

var errKernel = errors.New("haltest kernel error")

func testKernelFaults(e *env) {
	t := e.t
	q := e.queue()
	if fs := q.TakeFaults(0); fs != nil {
		t.Errorf("TakeFaults on a new queue = %+v, want nil", fs)
	}
	before := e.d.Now()
	// Every block panics: still one fault for the task.
	seqPanic := e.submit(q, kernelTask("haltest_panic", 4, func(b *kernel.Block) { panic(errKernel) }))
	var ran1, ran2 atomic.Bool
	e.submit(q, hostTask(func() { ran1.Store(true) }))
	seqTrap := e.submit(q, kernelTask("haltest_trap", 3, func(b *kernel.Block) {
		if b.Idx() == 1 {
			b.Trap("stop here")
		}
	}))
	e.submit(q, hostTask(func() { ran2.Store(true) }))
	if err := waitSeq(q, q.Submitted(), patience); err != nil {
		t.Fatalf("Wait in CONTINUE_ON_FAILURE mode: %v", err)
	}
	after := e.d.Now()
	if !ran1.Load() || !ran2.Load() {
		t.Error("CONTINUE_ON_FAILURE: a task after a faulting kernel did not run")
	}
	fs := q.TakeFaults(seqPanic)
	if len(fs) != 1 {
		t.Fatalf("TakeFaults(%d) = %+v, want the panic fault only", seqPanic, fs)
	}
	f := fs[0]
	if f.Kind != hal.KindAICoreException || f.Kernel != "haltest_panic" || f.Queue != q.ID() ||
		f.Seq != seqPanic || f.Task != hal.TaskKernel || f.Device != e.d.ID() || !errors.Is(f.Err, errKernel) ||
		f.Time < before || f.Time > after {
		t.Errorf("panic fault %+v: want kind %s, kernel haltest_panic, queue %d, seq %d, device %d, the panic value as Err, time in [%d, %d]",
			f, hal.KindAICoreException, q.ID(), seqPanic, e.d.ID(), before, after)
	}
	fs = q.TakeFaults(q.Submitted())
	if len(fs) != 1 {
		t.Fatalf("TakeFaults(%d) = %+v, want the trap fault only", q.Submitted(), fs)
	}
	f = fs[0]
	var te *kernel.TrapError
	if f.Kind != hal.KindAICoreTrap || f.Kernel != "haltest_trap" || f.Seq != seqTrap || f.Queue != q.ID() ||
		!errors.As(f.Err, &te) || te.Msg != "stop here" {
		t.Errorf("trap fault %+v: want kind %s, kernel haltest_trap, seq %d, a *kernel.TrapError as Err", f, hal.KindAICoreTrap, seqTrap)
	}
	if fs := q.TakeFaults(q.Submitted()); fs != nil {
		t.Errorf("faults returned twice: %+v", fs)
	}
	hs := e.waitHandled(2)
	kinds := map[hal.Kind]int{}
	for _, h := range hs {
		kinds[h.Kind]++
	}
	if kinds[hal.KindAICoreException] != 1 || kinds[hal.KindAICoreTrap] != 1 {
		t.Errorf("fault handler saw %+v, want one exception and one trap", hs)
	}
}

// testKernelBadAccess checks that a kernel touching memory outside any live
// allocation, or reading a missing argument, faults as an AI core exception.
func testKernelBadAccess(e *env) {
	t := e.t
	q := e.queue()
	a := e.malloc(e.d, 64)
	freed := e.malloc(e.d, 64)
	if err := e.d.Free(freed.Addr, 0); err != nil {
		t.Fatal(err)
	}
	bad := []hal.Task{
		kernelTask("haltest_oob", 1, func(b *kernel.Block) { b.Store64(b.Arg(0)+a.Size, 1) }, a.Addr),
		kernelTask("haltest_freed", 1, func(b *kernel.Block) { b.Load64(b.Arg(0)) }, freed.Addr),
		kernelTask("haltest_arg", 1, func(b *kernel.Block) { b.Arg(1) }, a.Addr),
	}
	for _, k := range bad {
		e.submit(q, k)
	}
	if err := waitSeq(q, q.Submitted(), patience); err != nil {
		t.Fatal(err)
	}
	fs := q.TakeFaults(q.Submitted())
	if len(fs) != len(bad) {
		t.Fatalf("%d faults for %d bad kernels: %+v", len(fs), len(bad), fs)
	}
	for i, f := range fs {
		if f.Kind != hal.KindAICoreException || f.Kernel != bad[i].Kernel.Name || f.Seq != uint64(i+1) {
			t.Errorf("fault %+v, want %s in kernel %s", f, hal.KindAICoreException, bad[i].Kernel.Name)
		}
	}
	e.waitHandled(len(bad))
}

func testHostFuncFault(e *env) {
	t := e.t
	q := e.queue()
	seq := e.submit(q, hostTask(func() { panic("host function failed") }))
	var ran atomic.Bool
	e.submit(q, hostTask(func() { ran.Store(true) }))
	if err := waitSeq(q, q.Submitted(), patience); err != nil {
		t.Fatal(err)
	}
	if !ran.Load() {
		t.Error("the task after a panicking host function did not run")
	}
	fs := q.TakeFaults(q.Submitted())
	if len(fs) != 1 || fs[0].Kind != hal.KindHostFuncFault || fs[0].Seq != seq || fs[0].Task != hal.TaskHostFunc ||
		!strings.Contains(fs[0].Msg, "host function failed") {
		t.Errorf("faults %+v, want one %s at seq %d whose message has the panic value", fs, hal.KindHostFuncFault, seq)
	}
	e.waitHandled(1)
}
