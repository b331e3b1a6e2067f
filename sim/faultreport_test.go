package sim

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

// A wait that a fault ends returns after the fault handler has seen the
// fault, however long the handler takes: in CONTINUE mode through
// TakeFaults, in STOP mode through the wait's own error.
func TestFaultReportedBeforeWaitEnds(t *testing.T) {
	for _, stop := range []bool{false, true} {
		d := openDev(t, hal.Props{})
		var seen atomic.Int32
		d.SetFaultHandler(func(hal.Fault) {
			time.Sleep(30 * time.Millisecond)
			seen.Add(1)
		})
		q := newQ(t, d, 0)
		q.SetStopOnFailure(stop)
		k := &kernel.Func{Name: "bad", Fn: func(*kernel.Block) { panic("boom") }}
		seq := submit(t, q, hal.Task{Kind: hal.TaskKernel, Kernel: k, Blocks: 1})
		err := q.Wait(context.Background(), seq, 10*time.Second)
		if stop {
			if err == nil {
				t.Fatal("STOP mode: the wait past the fault succeeded")
			}
			if seen.Load() != 1 {
				t.Errorf("STOP mode: the wait failed (%v) before the handler saw the fault", err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if fs := q.TakeFaults(seq); len(fs) != 1 {
			t.Fatalf("CONTINUE mode: %d faults taken, want 1", len(fs))
		}
		if seen.Load() != 1 {
			t.Error("CONTINUE mode: the faults were taken before the handler saw them")
		}
	}
}

// A handler that waits for its own fault's queue does not wait for its
// own report.
func TestFaultHandlerWaitsOnItsQueue(t *testing.T) {
	d := openDev(t, hal.Props{})
	var q hal.Queue
	done := make(chan error, 1)
	d.SetFaultHandler(func(f hal.Fault) {
		// Past the fault: the stopped queue ends the wait.
		err := q.Wait(context.Background(), f.Seq+1, 5*time.Second)
		q.TakeFaults(f.Seq)
		done <- err
	})
	q = newQ(t, d, 0)
	q.SetStopOnFailure(true)
	k := &kernel.Func{Name: "bad", Fn: func(*kernel.Block) { panic("boom") }}
	submit(t, q, hal.Task{Kind: hal.TaskKernel, Kernel: k, Blocks: 1})
	select {
	case err := <-done:
		if err == nil {
			t.Error("the handler's wait on the stopped queue succeeded")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the handler's wait on its own fault's queue hangs")
	}
}
