package haltest

import (
	"bytes"
	"slices"
	"sync/atomic"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

// testClosedSpan closes device 0 and opens it again: its span stays
// reserved and known as device 0's while it is closed, nothing is live
// there, and the reopened device has the same span, with memory that
// reads as never used.
func testClosedSpan(e *env) {
	t := e.t
	a := e.malloc(e.d, 8192)
	e.run(e.queue(), copyTask(hal.DevLoc(a.Addr), hostLoc(pattern(8192, 3)), 8192))
	open, ok := e.b.Owner(a.Addr)
	if !ok || !open.Open || open.Device != 0 {
		t.Fatalf("Owner(%#x) = %+v, %v; want device 0's open span", a.Addr, open, ok)
	}
	e.closeDevice(0)
	closed, ok := e.b.Owner(a.Addr)
	if want := (hal.Span{Device: 0, Lo: open.Lo, Hi: open.Hi}); !ok || closed != want {
		t.Errorf("Owner(%#x) of a closed device = %+v, %v; want %+v", a.Addr, closed, ok, want)
	}
	if got, ok := e.b.Lookup(a.Addr); ok {
		t.Errorf("Lookup(%#x) of a closed device = %+v, want nothing live", a.Addr, got)
	}
	if !slices.Contains(e.b.Spans(), closed) {
		t.Errorf("Spans() = %+v, want it to list %+v", e.b.Spans(), closed)
	}
	d := e.device(0)
	again, ok := e.b.Owner(a.Addr)
	if !ok || again != open {
		t.Errorf("Owner(%#x) after reopening = %+v, %v; want the span %+v again", a.Addr, again, ok, open)
	}
	b := e.malloc(d, 8192)
	got := make([]byte, 8192)
	if err := d.Run(copyTask(hostLoc(got), hal.DevLoc(b.Addr), 8192)); err != nil {
		t.Fatal(err)
	}
	if !open.Contains(b.Addr) || !bytes.Equal(got, make([]byte, 8192)) {
		t.Errorf("allocation after reopening at %#x, zero %v: want it in the span %+v, reading zero",
			b.Addr, bytes.Equal(got, make([]byte, 8192)), open)
	}
}

// testClosedSpanUse gives device 0 memory of closed device 1: copies fail,
// and kernels holding such an address in an argument slot, inline or read
// from device memory, alone or behind other kernels, fault without running.
func testClosedSpanUse(e *env) {
	if e.b.DeviceCount() < 2 {
		e.t.Skip("backend has one device")
	}
	t := e.t
	d1 := e.device(1)
	stale := e.malloc(d1, 4096).Addr + 64
	e.closeDevice(1)
	a := e.malloc(e.d, 4096)
	host := make([]byte, 64)
	if err := e.d.Run(copyTask(hostLoc(host), hal.DevLoc(stale), 64)); err == nil {
		t.Error("Run of a copy from a closed device's memory succeeded")
	}
	if err := e.d.Run(copyTask(hal.DevLoc(a.Addr), hal.DevLoc(stale), 64)); err == nil {
		t.Error("Run of a copy between devices from a closed device's memory succeeded")
	}
	e.run(e.queue(), copyTask(hal.DevLoc(a.Addr), hostLoc(u64Bytes(stale)), 8))
	var ran atomic.Int32
	fn := func(*kernel.Block) { ran.Add(1) }
	q := e.queue()
	e.submit(q, kernelTask("haltest_ok", 1, fn, 1))
	bad := e.submit(q, kernelTask("haltest_stale", 1, fn, 7, stale))
	e.submit(q, kernelTask("haltest_ok", 1, fn, 2))
	viaDev := kernelTask("haltest_stale_dev", 2, fn)
	viaDev.ArgsDev, viaDev.NArgs = a.Addr, 1
	badDev := e.submit(q, viaDev)
	if err := waitSeq(q, q.Submitted(), patience); err != nil {
		t.Fatal(err)
	}
	if n := ran.Load(); n != 2 {
		t.Errorf("%d kernel blocks ran, want the 2 without a closed device's address", n)
	}
	fs := q.TakeFaults(q.Submitted())
	if len(fs) != 2 || fs[0].Seq != bad || fs[1].Seq != badDev {
		t.Fatalf("faults %+v, want tasks %d and %d", fs, bad, badDev)
	}
	for _, f := range fs {
		if f.Kind != hal.KindAICoreException || f.Task != hal.TaskKernel {
			t.Errorf("fault %+v, want an AI core exception of the kernel", f)
		}
	}
}

func u64Bytes(v uint64) []byte {
	b := make([]byte, 8)
	for i := range b {
		b[i] = byte(v >> (8 * i))
	}
	return b
}
