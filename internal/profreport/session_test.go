package profreport

import (
	"bytes"
	"strings"
	"testing"
)

// TestSession checks every figure of a small session worked out by hand
// (testdata/README.md): two streams ordered by an event, two copies in,
// three kernels, a copy out.
func TestSession(t *testing.T) {
	r := load(t, "session.json")
	d := device(t, r, 0)
	if d.Tasks != 8 || d.Kernels != 3 || d.First != 1_072_000 || d.Last != 1_700_000 {
		t.Errorf("%d tasks, %d kernels from %d to %d; want 8, 3 from 1072 µs to 1700 µs", d.Tasks, d.Kernels, d.First, d.Last)
	}
	// Vector: 24×100 + 12×200 (the mixed matmul) + 48×50 core-µs of 48×628;
	// cube: 12×200 of 24×628.
	if want := 7200.0 / (48 * 628); !near(d.Vector.Value, want, 1e-9) {
		t.Errorf("vector utilization %v; want %v", d.Vector.Value, want)
	}
	if want := 2400.0 / (24 * 628); !near(d.Cube.Value, want, 1e-9) {
		t.Errorf("cube utilization %v; want %v", d.Cube.Value, want)
	}
	if want := 10.56e6 / 628e3; !near(d.Memory.GBps, want, 1e-9) || !near(d.Memory.Value, want/100, 1e-9) {
		t.Errorf("bandwidth %v GB/s (%v); want %v GB/s", d.Memory.GBps, d.Memory.Value, want)
	}
	// Depth 4 from 1072 µs, then 5, 6, 7, 8 (at 1130 µs), 7, 6, 4, 3, 2, 1:
	// 2747 task-µs over the wall time.
	if q := d.Depth; q.Max != 8 || q.PeakAt != 1_130_000 || !near(q.Mean, 2747.0/628, 1e-9) {
		t.Errorf("depth max %v at %d, mean %v; want 8 at 1130 µs, mean %v", q.Max, q.PeakAt, q.Mean, 2747.0/628)
	}
	if got := names(d.TopByTotal); got != "matmul vadd" {
		t.Errorf("top kernels by total: %s; want matmul vadd", got)
	}
	if v := d.TopByTotal[1]; v.Count != 2 || v.Total != 150_000 || v.Mean != 75_000 || v.Min != 50_000 || v.Max != 100_000 {
		t.Errorf("vadd %+v; want 2 runs, 150 µs, mean 75, min 50, max 100", v)
	}
	if len(d.Streams) != 2 {
		t.Fatalf("streams %+v; want 2", d.Streams)
	}
	if s := d.Streams[0]; s.Name != "Stream 1" || s.Gaps != 0 || s.Busy != 201_000 {
		t.Errorf("stream 1 %+v; want no gap, busy 201 µs", s)
	}
	if s := d.Streams[1]; s.Name != "Stream 2" || s.Gaps != 1 || s.Longest != 10_000 || s.LongestAt != 1_601_000 || s.Idle != 10_000 || s.Busy != 618_000 {
		t.Errorf("stream 2 %+v; want one gap of 10 µs at 1601 µs, busy 618 µs", s)
	}
	if got := names(r.API); got != "aclrtSynchronizeStream aclrtMemcpyAsync aclrtLaunchKernel aclrtRecordEvent aclrtStreamWaitEvent aclrtSetDevice" {
		t.Errorf("API functions by total time: %s", got)
	}
	if m := r.API[1]; m.Count != 3 || m.Total != 55_000 || m.Min != 15_000 || m.Max != 20_000 || !near(m.Mean, 55_000.0/3, 1e-9) {
		t.Errorf("aclrtMemcpyAsync %+v; want 3 calls, 55 µs, min 15, max 20", m)
	}
}

func names(stats []Stat) string {
	var s []string
	for _, x := range stats {
		s = append(s, x.Name)
	}
	return strings.Join(s, " ")
}

// TestSessionText: the text report shows the figures in aligned columns.
func TestSessionText(t *testing.T) {
	var b bytes.Buffer
	if err := load(t, "session.json").WriteText(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"Device 0: Ascend910B1, 24 AI cores (24 cube, 48 vector), copies at 100.00 GB/s",
		"  AI-core (cube) utilization    15.9%",
		"  vector-core utilization       23.9%",
		"  memory bandwidth utilization  16.8%  (16.82 GB/s, 10.56 MB moved",
		"  task queue depth              max 8 at +0.140 ms, mean 4.37",
		"    matmul      1    200.000   200.000  200.000  200.000  57.1%",
		"    Stream 2      5   618.000    10.000     1       10.000   +0.611 ms",
		"    aclrtMemcpyAsync            3     55.000    18.333   15.000   20.000   8.4%",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	// Columns line up: every row of a table is as wide as its heading.
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "    kernel ") || strings.HasPrefix(l, "    function ") || strings.HasPrefix(l, "    stream ") {
			for _, row := range lines[i+1:] {
				if !strings.HasPrefix(row, "    ") {
					break
				}
				if len(row) != len(l) {
					t.Errorf("row %q is not as wide as its heading %q", row, l)
				}
			}
		}
	}
}
