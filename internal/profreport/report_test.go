package profreport

import (
	"bytes"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

func load(t *testing.T, names ...string) *Report {
	t.Helper()
	var paths []string
	for _, n := range names {
		paths = append(paths, filepath.Join("testdata", n))
	}
	r, err := Load(paths...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

func device(t *testing.T, r *Report, id int) *DeviceReport {
	t.Helper()
	for i := range r.Devices {
		if r.Devices[i].ID == id {
			return &r.Devices[i]
		}
	}
	t.Fatalf("no device %d in the report (%d devices)", id, len(r.Devices))
	return nil
}

// TestVectorHalf: "the busy core-time of kernels of each kind (Block Dim ×
// duration) over the chip's cores of that kind × the wall time". 24 blocks
// on a chip of 48 vector cores for the whole wall time read 50%.
func TestVectorHalf(t *testing.T) {
	d := device(t, load(t, "vector_half.json"), 0)
	if !d.Vector.Known || !near(d.Vector.Value, 0.5, 1e-9) {
		t.Errorf("vector utilization %v (known %v); want 0.5", d.Vector.Value, d.Vector.Known)
	}
	if !d.Cube.Known || d.Cube.Value != 0 {
		t.Errorf("cube utilization %v (known %v); want 0", d.Cube.Value, d.Cube.Known)
	}
	if d.Wall() != 1_000_000 {
		t.Errorf("wall %d ns; want 1 ms, the kernel's duration", d.Wall())
	}
}

// TestCopyBandwidth: "bytes moved ... over the wall time, against
// copy_bandwidth_GBps". 500 MB in 10 ms is 50 GB/s, half of 100 GB/s.
func TestCopyBandwidth(t *testing.T) {
	d := device(t, load(t, "copy.json"), 1)
	m := d.Memory
	if m.Bytes != 500e6 || !near(m.GBps, 50, 1e-9) || !m.Known || !near(m.Value, 0.5, 1e-9) {
		t.Errorf("bandwidth %+v; want 500e6 bytes at 50 GB/s, 50%% of 100 GB/s", m)
	}
}

// TestBurstDepth: 1,000 tasks submitted before the first one ends make a
// queue 1,000 deep, peaking when the last is submitted; they drain one
// per 10 µs, so over the wall time the mean is 10 × (1000 + 999 + ... +
// 1) / 10000 µs = 500.5.
func TestBurstDepth(t *testing.T) {
	d := device(t, load(t, "burst.json"), 0)
	q := d.Depth
	if q.Source != "tasks" || q.Max != 1000 || q.PeakAt != 1_000_999 {
		t.Errorf("depth from %q: max %v at %d ns; want 1000 at 1000.999 µs, from the tasks", q.Source, q.Max, q.PeakAt)
	}
	if !near(q.Mean, 500.5, 1e-9) {
		t.Errorf("mean depth %v; want 500.5", q.Mean)
	}
}

// TestDepthFromCounters: without submit times the Queue Depth samples are
// the depth: a stream a sample does not name keeps its last value.
func TestDepthFromCounters(t *testing.T) {
	data := `[
{"name":"Queue Depth","ph":"C","ts":0,"pid":10001,"args":{"Stream 1":2,"Stream 2":1}},
{"name":"Queue Depth","ph":"C","ts":10,"pid":10001,"args":{"Stream 2":4}},
{"name":"Queue Depth","ph":"C","ts":30,"pid":10001,"args":{"Stream 1":0,"Stream 2":0}},
{"name":"vadd","ph":"X","ts":0,"dur":30,"pid":10001,"tid":1,"args":{"Task Type":"AI_VECTOR_CORE"}}
]`
	f, err := Parse("c.json", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := Build(f)
	if err != nil {
		t.Fatal(err)
	}
	q := Analyze(tr).Devices[0].Depth
	// 3 for 10 µs, 6 for 20 µs.
	if q.Source != "counters" || q.Max != 6 || q.PeakAt != 10_000 || !near(q.Mean, 5, 1e-9) {
		t.Errorf("depth %+v; want max 6 at 10 µs, mean 5, from the counters", q)
	}
}

// TestTruncatedReads: a timeline without its ']' and with its last line cut
// reads up to the cut.
func TestTruncatedReads(t *testing.T) {
	r := load(t, "truncated.json")
	if f := r.Files[0]; !f.Truncated || f.CutLine != 9 || f.Events != 7 {
		t.Errorf("file %+v; want truncated, cut at line 9, 7 events", f)
	}
	d := device(t, r, 0)
	if d.Tasks != 1 || !near(d.Vector.Value, 1, 1e-9) {
		t.Errorf("%d tasks at %v vector utilization; want the one whole task, 100%%", d.Tasks, d.Vector.Value)
	}
	if len(r.API) != 1 || r.API[0].Count != 2 {
		t.Errorf("API %+v; want aclrtLaunchKernel twice", r.API)
	}
}

// TestSharedPid: a host process whose id lies in [10000 × (d + 1),
// 10000 × (d + 2)) has device d's pid too. Its API calls and msproftx
// ranges stay the host's, its tasks the device's.
func TestSharedPid(t *testing.T) {
	r := load(t, "shared_pid.json")
	d := device(t, r, 0)
	if d.Tasks != 1 || !near(d.Vector.Value, 1, 1e-9) || len(d.Streams) != 1 || d.Streams[0].Name != "Stream 1" {
		t.Errorf("device: %d tasks, vector %v, streams %+v; want the one vadd on Stream 1 at 100%%", d.Tasks, d.Vector.Value, d.Streams)
	}
	if got := names(r.API); got != "aclrtSynchronizeStream aclrtLaunchKernel" {
		t.Errorf("API functions %q; want the two calls", got)
	}
	hosts := r.Trace.Hosts
	if len(hosts) != 1 || hosts[0].Name != "CANN" || len(hosts[0].Threads) != 1 || hosts[0].Threads[0].Name != "Thread 14242" || len(hosts[0].Threads[0].Slices) != 3 {
		t.Errorf("hosts %+v; want CANN with Thread 14242 holding two calls and a range", hosts)
	}
}

// TestIdleDevice: a device the program opened but gave no task (its
// metadata and zero Queue Depth samples only) says so, with no figures.
func TestIdleDevice(t *testing.T) {
	f, err := Parse("idle.json", []byte(`[
{"name":"process_name","ph":"M","pid":20001,"args":{"name":"Ascend Hardware"}},
{"name":"gocann_device","ph":"M","pid":20001,"args":{"device":1,"soc":"Ascend910B1","ai_cores":24,"vector_cores":48,"cube_cores":24,"copy_bandwidth_GBps":100}},
{"name":"Queue Depth","ph":"C","ts":5,"pid":20001,"args":{"Stream 1":0}}
]`))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := Build(f)
	if err != nil {
		t.Fatal(err)
	}
	var text, page bytes.Buffer
	r := Analyze(tr)
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteHTML(&page); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "Device 1: Ascend910B1, 24 AI cores (24 cube, 48 vector), copies at 100.00 GB/s\n  no tasks ran on it\n") {
		t.Errorf("report:\n%s", text.String())
	}
	if strings.Contains(page.String(), "Utilization") || !strings.Contains(page.String(), "none ran on it") {
		t.Error("the page shows figures for a device with no tasks")
	}
}
