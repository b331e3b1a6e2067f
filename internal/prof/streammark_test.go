package prof

import (
	"sync"
	"testing"
	"time"

	"github.com/gocann/gocann/hal"
)

// TestStreamMarks names mark tasks whose record arrives before the name
// and after it: both are written once, under the mark's name, on the
// stream's track, with its arguments; a cache task no name claims stays a
// task of its kind.
func TestStreamMarks(t *testing.T) {
	tr := &fakeTrace{}
	s, err := Start(Config{Dir: t.TempDir(), Interval: time.Millisecond, Now: func() int64 { return 5_000_000 }}, []Device{{ID: 0, Trace: tr}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tr.add(hal.Record{Queue: 2, Seq: 7, Kind: hal.TaskCmo, Start: 10_000, End: 11_000})
	time.Sleep(30 * time.Millisecond) // drained and written before its name comes
	s.AddStreamMark(StreamMark{Device: 0, Queue: 2, Seq: 7, Name: "late", Type: "MARKEX", Args: []Arg{{"Id", uint64(5)}}})
	s.AddStreamMark(StreamMark{Device: 0, Queue: 2, Seq: 8, Name: "early", Type: "MARKEX", TID: 9, Host: 1_000, TX: true})
	tr.add(hal.Record{Queue: 2, Seq: 8, Kind: hal.TaskCmo, Start: 20_000, End: 20_500},
		hal.Record{Queue: 2, Seq: 9, Kind: hal.TaskCmo, Start: 30_000, End: 30_100})
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, e := range readEvents(t, s.Timeline()) {
		count[e.Ph+" "+e.Name]++
		if e.Ph == "X" && e.Name == "late" && (e.Tid != 2 || e.Ts != 1010 || e.Args["Id"] != 5.0 || e.Cat != "msproftx") {
			t.Errorf("late mark %+v, want on stream 2 at 1010 us with Id 5", e)
		}
	}
	if count["X late"] != 1 || count["X early"] != 1 || count["i early"] != 1 || count["s MsTx"] != 1 || count["f MsTx"] != 1 {
		t.Errorf("marks and flows %v, want each mark once, early's host instant and flow", count)
	}
	if count["X cmo"]+count["X CMO"] < 2 {
		t.Errorf("cache tasks %v: the one named late stays a task too, and the unnamed one is a task", count)
	}
}

// TestSessionDevices records only the devices listed, and those added
// later from then on.
func TestSessionDevices(t *testing.T) {
	tr0, tr1 := &fakeTrace{}, &fakeTrace{}
	s, err := Start(Config{Dir: t.TempDir(), Interval: time.Millisecond, Now: func() int64 { return 5_000_000 }, Devices: []int{0}},
		[]Device{{ID: 0, Trace: tr0}, {ID: 1, Trace: tr1}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tr0.add(hal.Record{Queue: 1, Seq: 1, Kind: hal.TaskKernel, Name: "k0", Start: 1, End: 2})
	tr1.add(hal.Record{Queue: 1, Seq: 1, Kind: hal.TaskKernel, Name: "before", Start: 1, End: 2})
	time.Sleep(20 * time.Millisecond)
	s.SetDevices([]int{1})
	tr0.add(hal.Record{Queue: 1, Seq: 2, Kind: hal.TaskKernel, Name: "after0", Start: 3, End: 4})
	tr1.add(hal.Record{Queue: 1, Seq: 2, Kind: hal.TaskKernel, Name: "after1", Start: 3, End: 4})
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, e := range readEvents(t, s.Timeline()) {
		count[e.Ph+" "+e.Name]++
	}
	if count["X k0"] != 2 || count["X before"] != 0 || count["X after0"] != 0 || count["X after1"] != 2 {
		t.Errorf("tasks %v: want k0 (device 0 listed) and after1 (device 1 added), not before or after0", count)
	}
}

// TestSubscriber hands over the operations of the runs it follows, with
// their times on the host clock, and forgets a run once its model task's
// record arrives.
func TestSubscriber(t *testing.T) {
	tr := &fakeTrace{}
	var mu sync.Mutex
	var got []OpRecord
	sub := NewSubscriber(time.Millisecond, nil, func(ops []OpRecord) { mu.Lock(); got = append(got, ops...); mu.Unlock() })
	defer sub.Stop()
	sub.DeviceOpened(0, fakeDevice{fakeTrace: tr}, hal.Props{})
	sub.AddRun(Run{Model: 4, Device: 0, Queue: 3, Seq: 10, Thread: 77})
	tr.add(hal.Record{Queue: 3, Seq: 10, Kind: hal.TaskKernel, Name: "vadd", Op: 1, Start: 100, End: 200},
		hal.Record{Queue: 3, Seq: 11, Kind: hal.TaskKernel, Name: "other run", Op: 1},
		hal.Record{Queue: 3, Seq: 10, Kind: hal.TaskMemset, Op: 2, Stream: 1, Start: 200, End: 250},
		hal.Record{Queue: 3, Seq: 10, Kind: hal.TaskGraph, Start: 100, End: 260},
		hal.Record{Queue: 3, Seq: 10, Kind: hal.TaskKernel, Name: "after the run", Op: 1})
	sub.Flush()
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 2 || got[0].Name != "vadd" || got[0].Type != "AI_VECTOR_CORE" || got[0].Start != 1_000_100 ||
		got[0].Model != 4 || got[0].Thread != 77 || got[1].Name != "MEMSET_ASYNC" || got[1].Index != 1 || got[1].Stream != 3 {
		t.Errorf("operations %+v, want vadd then the memset of run 10 of model 4, on the host clock", got)
	}
}

// fakeDevice is a device with a trace and nothing else, for the
// subscriber (which calls no other method).
type fakeDevice struct {
	hal.Device
	*fakeTrace
}
