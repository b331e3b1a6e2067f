package profreport

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
)

// WriteText prints the report as aligned text.
func (r *Report) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	events := 0
	for _, f := range r.Files {
		events += f.Events
	}
	fmt.Fprintf(bw, "Profiling report: %s, %s\n", plural(len(r.Files), "timeline", "timelines"), plural(events, "event", "events"))
	for _, f := range r.Files {
		fmt.Fprintf(bw, "  %s%s\n", f.Name, truncation(f))
	}
	if len(r.Devices) == 0 {
		fmt.Fprintln(bw, "\nNo device tasks.")
	}
	for i := range r.Devices {
		fmt.Fprintln(bw)
		r.writeDevice(bw, &r.Devices[i])
	}
	fmt.Fprintln(bw)
	if len(r.API) == 0 {
		fmt.Fprintln(bw, "API statistics: no AscendCL calls.")
	} else {
		fmt.Fprintln(bw, "API statistics")
		writeStats(bw, "function", r.API)
	}
	return bw.Flush()
}

func truncation(f FileSummary) string {
	switch {
	case !f.Truncated:
		return ""
	case f.CutLine > 0:
		return fmt.Sprintf("  (truncated: no closing ']'; the event cut at line %d is left out)", f.CutLine)
	}
	return "  (truncated: no closing ']')"
}

// Headline is a device's title line: the chip and what the figures are of.
func (d *DeviceReport) Headline() string {
	if !d.HasInfo {
		return fmt.Sprintf("Device %d (no gocann_device event: core counts and bandwidth unknown)", d.ID)
	}
	i := d.Info
	return fmt.Sprintf("Device %d: %s, %d AI cores (%d cube, %d vector), copies at %.2f GB/s",
		d.ID, i.SoC, i.AICores, i.CubeCores, i.VectorCores, i.CopyBandwidth)
}

func (r *Report) writeDevice(w io.Writer, d *DeviceReport) {
	fmt.Fprintln(w, d.Headline())
	if d.Tasks == 0 {
		fmt.Fprintln(w, "  no tasks ran on it")
		return
	}
	t := table{indent: "  "}
	failed := ""
	if d.Failed > 0 {
		failed = fmt.Sprintf(", %d failed", d.Failed)
	}
	t.add("tasks", fmt.Sprintf("%d (%s%s), from %s to %s, wall %s",
		d.Tasks, plural(d.Kernels, "kernel", "kernels"), failed, r.at(d.First), r.at(d.Last), ms(d.Wall())))
	t.add("AI-core (cube) utilization", r.utilLine(d.Cube))
	t.add("vector-core utilization", r.utilLine(d.Vector))
	t.add("memory bandwidth utilization", r.bandwidthLine(&d.Memory))
	t.add("task queue depth", r.depthLine(&d.Depth))
	writeLeft(w, &t)
	if len(d.TopByTotal) > 0 {
		fmt.Fprintln(w, "\n  Top kernels by total time")
		writeStats(w, "kernel", d.TopByTotal)
		fmt.Fprintln(w, "\n  Top kernels by mean time")
		writeStats(w, "kernel", d.TopByMean)
	}
	if len(d.Streams) > 0 {
		fmt.Fprintln(w, "\n  Idle gaps per stream")
		g := table{indent: "    "}
		g.add("stream", "tasks", "busy(us)", "idle(us)", "gaps", "longest(us)", "longest at")
		for _, s := range d.Streams {
			longestAt := "-"
			if s.Gaps > 0 {
				longestAt = r.at(s.LongestAt)
			}
			g.add(s.Name, strconv.Itoa(s.Tasks), us(s.Busy), us(s.Idle), strconv.Itoa(s.Gaps), us(s.Longest), longestAt)
		}
		g.write(w)
	}
}

func (r *Report) utilLine(u Utilization) string {
	if !u.Known && u.Cores > 0 {
		return "-  (no wall time: every task took no time)"
	}
	if !u.Known {
		return fmt.Sprintf("-  (busy %s core-ms; the chip's cores unknown)", strconv.FormatFloat(u.Busy/1e6, 'f', 3, 64))
	}
	return fmt.Sprintf("%s  (busy %s core-ms of %d cores)", percent(u.Value, true), strconv.FormatFloat(u.Busy/1e6, 'f', 3, 64), u.Cores)
}

func (r *Report) bandwidthLine(b *Bandwidth) string {
	moved := fmt.Sprintf("%.2f GB/s, %s moved", b.GBps, byteCount(b.Bytes))
	if !b.Known && b.Peak > 0 {
		return "-  (no wall time: every task took no time)"
	}
	if !b.Known {
		return "-  (" + moved + "; the chip's bandwidth unknown)"
	}
	return fmt.Sprintf("%s  (%s; the chip copies at %.2f GB/s)", percent(b.Value, true), moved, b.Peak)
}

func (r *Report) depthLine(q *QueueDepth) string {
	switch q.Source {
	case "":
		return "-  (no submit times or Queue Depth samples)"
	case "counters":
		return fmt.Sprintf("max %s at %s, mean %s  (from the Queue Depth samples)", depth(q.Max), r.at(q.PeakAt), mean(q.Mean))
	}
	return fmt.Sprintf("max %s at %s, mean %s", depth(q.Max), r.at(q.PeakAt), mean(q.Mean))
}

// writeLeft writes a table of labels and sentences: both left-aligned.
func writeLeft(w io.Writer, t *table) {
	width := 0
	for _, row := range t.rows {
		width = max(width, len(row[0]))
	}
	for _, row := range t.rows {
		fmt.Fprintf(w, "%s%-*s  %s\n", t.indent, width, row[0], row[1])
	}
}

func writeStats(w io.Writer, what string, stats []Stat) {
	t := table{indent: "    "}
	t.add(what, "count", "total(us)", "mean(us)", "min(us)", "max(us)", "share")
	for _, s := range stats {
		t.add(s.Name, strconv.Itoa(s.Count), us(s.Total), usf(s.Mean), us(s.Min), us(s.Max), percent(s.TotalShare, true))
	}
	t.write(w)
}
