package profreport

import (
	"fmt"
	"path/filepath"
)

// TopKernels is how many kernels each top-kernel table lists.
const TopKernels = 10

// Report is what the text and the page show. Times are nanoseconds on the
// timelines' clock; Start is the origin the report measures from.
type Report struct {
	Files   []FileSummary
	Start   int64
	Devices []DeviceReport
	API     []Stat // per AscendCL@ function, the longest total first
	Trace   *Trace
}

// FileSummary is one timeline read.
type FileSummary struct {
	Name      string
	Events    int
	Truncated bool // no closing ']'
	CutLine   int  // the line of a cut last event, dropped
}

// DeviceReport is one device's figures.
type DeviceReport struct {
	ID      int
	Info    DeviceInfo
	HasInfo bool
	Tasks   int
	Kernels int
	Failed  int
	// First is the first task's start, Last the last task's end: the wall
	// time the utilizations divide by.
	First, Last  int64
	Cube, Vector Utilization
	Memory       Bandwidth
	Depth        QueueDepth
	TopByTotal   []Stat
	TopByMean    []Stat
	Streams      []StreamIdle
}

// Wall is the time from the first task's start to the last task's end.
func (d *DeviceReport) Wall() int64 { return d.Last - d.First }

// Utilization is the busy core-time of one kind of AI core over the chip's
// cores of that kind × the wall time.
type Utilization struct {
	Busy  float64 // core-nanoseconds
	Cores int
	Value float64 // a fraction; meaningful when Known
	Known bool    // the chip's core count and a wall time are known
}

// Bandwidth is the bytes the device's tasks moved over the wall time,
// against the chip's copy bandwidth.
type Bandwidth struct {
	Bytes float64
	GBps  float64 // achieved, 1 GB = 1e9 bytes
	Peak  float64 // the chip's, GB/s
	Value float64 // GBps / Peak; meaningful when Known
	Known bool
}

// QueueDepth is the number of tasks submitted and not yet completed.
type QueueDepth struct {
	// Source is "tasks" (their submit and end times), "counters" (the
	// Queue Depth samples) or "" when the timeline has neither.
	Source string
	Max    float64
	PeakAt int64   // when Max was first reached
	Mean   float64 // time-weighted over the wall time
	Series []Sample
}

// Stat is the count and durations of one kernel or API function.
type Stat struct {
	Name       string
	Count      int
	Total      int64
	Min, Max   int64
	Mean       float64
	TotalShare float64 // of all the kernels' (or calls') total time
}

// StreamIdle is a stream's busy and idle time between its first task's
// start and its last task's end.
type StreamIdle struct {
	Name      string
	Tasks     int
	Busy      int64
	Idle      int64
	Gaps      int
	Longest   int64
	LongestAt int64 // when the longest gap began
}

// Load reads the timelines at paths and builds their report.
func Load(paths ...string) (*Report, error) {
	if len(paths) == 0 {
		return nil, fmt.Errorf("no timeline to read")
	}
	seen := map[string]bool{}
	var files []*File
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err == nil && seen[abs] {
			continue
		}
		seen[abs] = true
		f, err := ReadFile(p)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	t, err := Build(files...)
	if err != nil {
		return nil, err
	}
	return Analyze(t), nil
}

// Analyze computes the report's figures from t.
func Analyze(t *Trace) *Report {
	r := &Report{Start: t.Start, Trace: t}
	for _, f := range t.Files {
		r.Files = append(r.Files, FileSummary{Name: f.Name, Events: len(f.Events), Truncated: f.Truncated, CutLine: f.CutLine})
	}
	for _, d := range t.Devices {
		r.Devices = append(r.Devices, analyzeDevice(d))
	}
	var calls []Call
	for _, h := range t.Hosts {
		calls = append(calls, h.Calls...)
	}
	r.API = apiStats(calls)
	return r
}

func analyzeDevice(d *Device) DeviceReport {
	r := DeviceReport{ID: d.ID, Info: d.Info, HasInfo: d.HasInfo, Tasks: len(d.Tasks)}
	for i, t := range d.Tasks {
		if i == 0 || t.Start < r.First {
			r.First = t.Start
		}
		if i == 0 || t.End() > r.Last {
			r.Last = t.End()
		}
		if t.Kernel() {
			r.Kernels++
		}
		if t.Failed {
			r.Failed++
		}
	}
	r.Cube, r.Vector = utilization(d, r.Wall())
	r.Memory = bandwidth(d, r.Wall())
	r.Depth = queueDepth(d, r.First, r.Last)
	r.TopByTotal, r.TopByMean = topKernels(d.Tasks, TopKernels)
	r.Streams = streamIdle(d)
	return r
}
