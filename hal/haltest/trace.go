package haltest

import (
	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

// testTrace runs one task of each kind and checks its trace record: queue,
// sequence number, kind, engine, failure and Submit <= Start <= End, and
// that each task started after the one before it on the queue ended.
func testTrace(e *env) {
	tr, ok := e.d.(hal.Tracer)
	if !ok {
		e.t.Skip("device keeps no trace")
	}
	t := e.t
	q := e.queue()
	a := e.malloc(e.d, 4096)
	ev := e.event()
	n := e.notify(e.d)
	tasks := []struct {
		task   hal.Task
		engine hal.Engine
		failed bool
	}{
		{kernelTask("haltest_trace", 2, func(*kernel.Block) {}), hal.EngineAICore, false},
		{copyTask(hal.DevLoc(a.Addr+2048), hal.DevLoc(a.Addr), 1024), hal.EngineDMA, false},
		{memsetTask(a.Addr, 1, 64), hal.EngineDMA, false},
		{hostTask(func() {}), hal.EngineHost, false},
		{record(ev), hal.EngineScheduler, false},
		{waitEvent(ev), hal.EngineScheduler, false},
		{recordNotify(n), hal.EngineScheduler, false},
		{waitNotify(n, 0), hal.EngineScheduler, false},
		{valueWrite(a.Addr, 5), hal.EngineScheduler, false},
		{valueWait(a.Addr, 5, hal.WaitEQ), hal.EngineScheduler, false},
		{kernelTask("haltest_trace_fault", 1, func(*kernel.Block) { panic("traced fault") }), hal.EngineAICore, true},
		{copy2DTask(hal.DevLoc(a.Addr+1024), hal.DevLoc(a.Addr), 16, 16, 8, 4), hal.EngineDMA, false},
	}
	for _, x := range tasks {
		e.submit(q, x.task)
	}
	if err := waitSeq(q, q.Submitted(), patience); err != nil {
		t.Fatal(err)
	}
	sentinel := hal.Record{Queue: -7, Seq: 99}
	recs := tr.Trace([]hal.Record{sentinel})
	if len(recs) == 0 || recs[0] != sentinel {
		t.Fatal("Trace did not append to the buffer it was given")
	}
	var mine []hal.Record
	for _, r := range recs[1:] {
		if r.Queue == q.ID() {
			mine = append(mine, r)
		}
	}
	if len(mine) != len(tasks) {
		t.Fatalf("%d trace records for queue %d, want %d: %+v", len(mine), q.ID(), len(tasks), mine)
	}
	for i, r := range mine {
		x := tasks[i]
		if r.Seq != uint64(i+1) || r.Kind != x.task.Kind || r.Engine != x.engine || r.Failed != x.failed {
			t.Errorf("record %d = %+v, want seq %d, kind %s, engine %s, failed %v", i, r, i+1, x.task.Kind, x.engine, x.failed)
		}
		if !(r.Submit <= r.Start && r.Start <= r.End) {
			t.Errorf("record %d (%s): submit %d, start %d, end %d out of order", i, r.Kind, r.Submit, r.Start, r.End)
		}
		if i > 0 && r.Start < mine[i-1].End {
			t.Errorf("task %d (%s) started at %d before task %d (%s) ended at %d", r.Seq, r.Kind, r.Start, mine[i-1].Seq, mine[i-1].Kind, mine[i-1].End)
		}
	}
	q.TakeFaults(q.Submitted())
	e.waitHandled(1)
}
