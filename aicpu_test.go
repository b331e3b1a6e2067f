package gocann_test

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocann/gocann"
)

// TestCPUKernelEngine: an AI CPU kernel's blocks run on the AI CPU engine,
// at most its 6 cores at once, while AI core kernels on another stream
// keep all their cores; on its stream it is ordered with the other tasks;
// the engine's busy share shows in the AI CPU utilization.
func TestCPUKernelEngine(t *testing.T) {
	e := setup(t)
	var running, peak atomic.Int32
	var order []string
	cpu, err := e.r.RegisterCPUKernel("cpu_op", func(b *gocann.Block) {
		n := running.Add(1)
		for {
			m := peak.Load()
			if n <= m || peak.CompareAndSwap(m, n) {
				break
			}
		}
		for end := time.Now().Add(20 * time.Millisecond); time.Now().Before(end); {
		}
		running.Add(-1)
	})
	check(t, err)
	if !cpu.IsCPU() {
		t.Fatal("RegisterCPUKernel's kernel is not an AI CPU kernel")
	}
	p := newPeak(t, e.r, "aicore_op")
	mark := func(s string) func() { return func() { order = append(order, s) } }

	check(t, e.s.LaunchHostFunc(mark("before")))
	check(t, e.s.Launch(cpu, 24))
	check(t, e.s.LaunchHostFunc(mark("after")))
	// AI core kernels on another stream meanwhile still get more cores
	// than the AI CPU engine has.
	other := e.newStream(t)
	time.Sleep(5 * time.Millisecond)
	if n := p.run(t, other); n <= 6 {
		t.Errorf("AI core kernel beside a busy AI CPU engine ran %d blocks at once, want more than 6", n)
	}
	u, err := e.d.Utilization()
	check(t, err)
	syncOK(t, e.s)
	if n := peak.Load(); n > 6 || n < 2 {
		t.Errorf("AI CPU kernel ran %d blocks at once, want 2..6 (the engine's cores)", n)
	}
	if len(order) != 2 || order[0] != "before" || order[1] != "after" {
		t.Errorf("stream order around the AI CPU kernel: %v", order)
	}
	if u.AICPU <= 0 {
		t.Errorf("utilization while the AI CPU kernel ran: %+v, want an AI CPU share above 0", u)
	}

	// A fault is an AI CPU exception.
	bad, err := e.r.RegisterCPUKernel("cpu_bad", func(b *gocann.Block) { b.Trap("bad input") })
	check(t, err)
	check(t, e.s.Launch(bad, 1))
	wantErr(t, e.s.SynchronizeTimeout(long), gocann.CodeRTAICPUException, "bad input")

	// Captured, it runs on the engine with each execution.
	peak.Store(0)
	c, err := other.BeginCapture(gocann.CaptureRelaxed)
	check(t, err)
	check(t, other.Launch(cpu, 12))
	m, err := c.End()
	check(t, err)
	check(t, m.Run(other))
	syncOK(t, other)
	if n := peak.Load(); n > 6 || n < 1 {
		t.Errorf("captured AI CPU kernel ran %d blocks at once, want 1..6", n)
	}
	check(t, m.Close())
}
