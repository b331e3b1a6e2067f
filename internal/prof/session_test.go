package prof

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

// fakeTrace is a device trace the test appends to.
type fakeTrace struct {
	mu   sync.Mutex
	recs []hal.Record
}

func (f *fakeTrace) add(r ...hal.Record) {
	f.mu.Lock()
	f.recs = append(f.recs, r...)
	f.mu.Unlock()
}

func (f *fakeTrace) TraceFrom(from uint64, buf []hal.Record) ([]hal.Record, uint64, uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := uint64(len(f.recs))
	if from > n {
		from = n
	}
	return append(buf, f.recs[from:]...), n, 0
}
func (f *fakeTrace) TraceCapacity(int) {}
func (f *fakeTrace) ClockBase() int64  { return 1_000_000 }

type event struct {
	Ph   string         `json:"ph"`
	Name string         `json:"name"`
	Pid  int64          `json:"pid"`
	Tid  int64          `json:"tid"`
	Ts   float64        `json:"ts"`
	Dur  float64        `json:"dur"`
	ID   int64          `json:"id"`
	Cat  string         `json:"cat"`
	Args map[string]any `json:"args"`
}

func readEvents(t *testing.T, path string) []event {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var evs []event
	if err := json.Unmarshal(b, &evs); err != nil {
		t.Fatalf("timeline is not a JSON array of events: %v", err)
	}
	return evs
}

// TestSessionTimeline runs a session over a fake device and API source and
// checks the timeline: processes and tracks, a task on its stream's and
// its engine's track with its arguments, flows from calls to tasks,
// counters, and the CSVs' columns.
func TestSessionTimeline(t *testing.T) {
	dir := t.TempDir()
	tr := &fakeTrace{}
	var mu sync.Mutex
	var calls []APICall
	api := func(buf []APICall) ([]APICall, uint64) {
		mu.Lock()
		defer mu.Unlock()
		buf = append(buf, calls...)
		calls = nil
		return buf, 0
	}
	s, err := Start(Config{Dir: dir, Layout: LayoutCANN, Interval: time.Millisecond, Now: func() int64 { return 5_000_000 }},
		[]Device{{ID: 0, SoC: "Ascend910B1", AICores: 24, VectorCores: 48, Trace: tr}}, api)
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	calls = append(calls, APICall{Name: "aclrtLaunchKernel", Start: 1_100_000, End: 1_102_000, TID: 77},
		APICall{Name: "aclrtLaunchKernel", Start: 1_103_000, End: 1_104_000, TID: 78})
	mu.Unlock()
	// Device clock = host - 1 ms (ClockBase 1 ms).
	tr.add(hal.Record{Queue: 3, Seq: 1, Kind: hal.TaskKernel, Submit: 101_000, Start: 110_000, End: 150_000, Name: "vadd", Blocks: 8, Cores: kernel.CoreVector, Thread: 77},
		hal.Record{Queue: 4, Seq: 1, Kind: hal.TaskKernel, Submit: 103_500, Start: 112_000, End: 160_000, Name: "vmul", Blocks: 4, Thread: 78},
		hal.Record{Queue: 4, Seq: 2, Kind: hal.TaskCopy, Submit: 170_000, Start: 170_000, End: 180_000, Bytes: 4096})
	s.AddMark(Mark{Msg: "step", Start: 1_200_000, TID: 77, Instant: true})
	time.Sleep(20 * time.Millisecond)
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	evs := readEvents(t, s.Timeline())

	procs := map[string]bool{}
	tracks := map[string]bool{}
	byName := map[string][]event{}
	starts, finishes := map[int64]event{}, map[int64]event{}
	for _, e := range evs {
		switch {
		case e.Ph == "M" && e.Name == "process_name":
			procs[e.Args["name"].(string)] = true
		case e.Ph == "M" && e.Name == "thread_name":
			tracks[e.Args["name"].(string)] = true
		case e.Ph == "X":
			byName[e.Name] = append(byName[e.Name], e)
			if e.Dur < 0 {
				t.Errorf("event %q ends before it starts", e.Name)
			}
		case e.Ph == "s":
			starts[e.ID] = e
		case e.Ph == "f":
			finishes[e.ID] = e
		}
	}
	for _, p := range []string{"CANN", "Ascend Hardware"} {
		if !procs[p] {
			t.Errorf("no process %q in %v", p, procs)
		}
	}
	for _, tr := range []string{"Stream 3", "Stream 4", "Thread 77", "Thread 78", "AI Vector Core", "DMA"} {
		if !tracks[tr] {
			t.Errorf("no track %q in %v", tr, tracks)
		}
	}
	vadd := byName["vadd"]
	if len(vadd) != 2 || vadd[0].Ts != 1110 || vadd[0].Dur != 40 || vadd[0].Args["Block Dim"] != 8.0 || vadd[0].Args["Task Type"] != "AI_VECTOR_CORE" {
		t.Errorf("vadd events %+v, want two (stream and engine track) at 1110 us for 40 us, 8 blocks, AI_VECTOR_CORE", vadd)
	}
	if vadd[0].Tid == vadd[1].Tid {
		t.Errorf("vadd on one track only")
	}
	vmul := byName["vmul"]
	if len(vmul) != 2 || vmul[0].Tid == vadd[0].Tid && vmul[1].Tid == vadd[1].Tid {
		t.Errorf("two streams' concurrent kernels share tracks: %+v %+v", vadd, vmul)
	}
	if len(byName["AscendCL@aclrtLaunchKernel"]) != 2 || len(byName["MEMCPY_ASYNC"]) != 2 {
		t.Errorf("API calls %d, copies %d, want 2 and 2", len(byName["AscendCL@aclrtLaunchKernel"]), len(byName["MEMCPY_ASYNC"]))
	}
	if len(starts) != 2 || len(finishes) != 2 {
		t.Errorf("flows: %d starts, %d finishes, want 2 and 2 (the copy was queued by no recorded call)", len(starts), len(finishes))
	}
	for id, f := range finishes {
		if s, ok := starts[id]; !ok || s.Tid != 77 && s.Tid != 78 || f.Tid != 3 && f.Tid != 4 {
			t.Errorf("flow %d: %+v to %+v, want a call's thread to a stream", id, s, f)
		}
	}
	counters := 0
	for _, e := range evs {
		if e.Ph == "C" {
			counters++
		}
		if e.Ph == "i" && e.Name == "step" && e.Cat == "msproftx" && e.Tid == 77 {
			counters += 1000
		}
	}
	if counters < 1000 {
		t.Errorf("the msproftx mark is missing")
	}

	for name, header := range map[string]string{
		"op_summary_":    "Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,Task Type,Task Start Time(us),Task Duration(us),Task Wait Time(us),Block Dim,Mix Block Dim",
		"task_time_":     "Device_id,kernel_name,kernel_type,stream_id,task_id,task_time(us),task_start(us),task_stop(us)",
		"api_statistic_": "Device_id,Level,API Name,Time(us),Count,Avg(us),Min(us),Max(us),Variance",
	} {
		m, _ := filepath.Glob(filepath.Join(s.Dir(), name+"*.csv"))
		if len(m) != 1 {
			t.Fatalf("%s*.csv: %v", name, m)
		}
		b, _ := os.ReadFile(m[0])
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		if lines[0] != header || len(lines) < 2 {
			t.Errorf("%s: %q..., want header %q and rows", m[0], lines[0], header)
		}
	}
}

// TestSessionPrefix checks that a session's timeline reads while it runs,
// as a crashed program would leave it: every line after the first is one
// event and a comma.
func TestSessionPrefix(t *testing.T) {
	tr := &fakeTrace{}
	s, err := Start(Config{Dir: t.TempDir(), Interval: time.Millisecond, Now: func() int64 { return 0 }}, []Device{{ID: 1, Trace: tr}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	tr.add(hal.Record{Queue: 2, Seq: 1, Kind: hal.TaskMemset, Start: 10, End: 20, Bytes: 64})
	deadline := time.Now().Add(5 * time.Second)
	for {
		b, _ := os.ReadFile(s.Timeline())
		if strings.Contains(string(b), "MEMSET_ASYNC") || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	f, err := os.Open(s.Timeline())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if n == 0 {
			if line != "[" {
				t.Fatalf("first line %q, want [", line)
			}
		} else {
			var e event
			if !strings.HasSuffix(line, ",") || json.Unmarshal([]byte(strings.TrimSuffix(line, ",")), &e) != nil {
				t.Fatalf("line %d %q is not an event and a comma", n, line)
			}
		}
		n++
	}
	if n < 3 {
		t.Fatalf("the running session's timeline has %d lines", n)
	}
}

func TestLayoutRefusals(t *testing.T) {
	if _, err := Start(Config{Now: func() int64 { return 0 }}, nil, nil); err == nil || !strings.Contains(err.Error(), "output directory is empty") {
		t.Errorf("an empty directory: %v", err)
	}
	file := filepath.Join(t.TempDir(), "f")
	os.WriteFile(file, nil, 0o600)
	if _, err := Start(Config{Dir: filepath.Join(file, "x"), Now: func() int64 { return 0 }}, nil, nil); err == nil || !strings.Contains(err.Error(), "cannot be made") {
		t.Errorf("a directory under a file: %v", err)
	}
}
