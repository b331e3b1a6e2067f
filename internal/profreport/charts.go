package profreport

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The summary charts' sizes in pixels.
const (
	depthWidth  = 600.0
	depthHeight = 120.0
	barWidth    = 360.0
)

// bar is one utilization bar: Width is its filled share, 0 to 100.
type bar struct {
	Label string
	Width float64
	Text  string
	Note  string
}

func utilBars(d *DeviceReport) []bar {
	fill := func(v float64, known bool) float64 {
		if !known {
			return 0
		}
		return min(max(v*100, 0), 100)
	}
	mem := &d.Memory
	return []bar{
		{"AI-core (cube)", fill(d.Cube.Value, d.Cube.Known), percent(d.Cube.Value, d.Cube.Known),
			fmt.Sprintf("busy %.3f core-ms of %d cores", d.Cube.Busy/1e6, d.Cube.Cores)},
		{"vector core", fill(d.Vector.Value, d.Vector.Known), percent(d.Vector.Value, d.Vector.Known),
			fmt.Sprintf("busy %.3f core-ms of %d cores", d.Vector.Busy/1e6, d.Vector.Cores)},
		{"memory bandwidth", fill(mem.Value, mem.Known), percent(mem.Value, mem.Known),
			fmt.Sprintf("%.2f GB/s of %.2f GB/s, %s moved", mem.GBps, mem.Peak, byteCount(mem.Bytes))},
	}
}

// depthChart is the queue depth's step function as an SVG path.
type depthChart struct {
	Width, Height float64
	Path          string // the line
	Area          string // the line closed along the axis, filled
	PeakX, PeakY  float64
	Max           string
	Start, End    string // the axis' ends
}

// chartDepth draws q over its own span. Past one sample per pixel it keeps
// each pixel's highest value, so the peak stays visible.
func (r *Report) chartDepth(q *QueueDepth) *depthChart {
	s := q.Series
	if len(s) == 0 {
		return nil
	}
	c := &depthChart{Width: depthWidth, Height: depthHeight, Max: depth(q.Max)}
	first, last := s[0].At, s[len(s)-1].At
	span := float64(max(last-first, 1))
	top := max(q.Max, 1)
	x := func(at int64) float64 { return float64(at-first) / span * depthWidth }
	y := func(v float64) float64 { return depthHeight - v/top*(depthHeight-4) }
	var b strings.Builder
	b.WriteString("M0 " + num(depthHeight))
	col, colMax := -1, 0.0
	flush := func() {
		if col >= 0 {
			b.WriteString(" H" + num(float64(col)) + " V" + num(y(colMax)))
		}
	}
	for _, p := range s {
		px := int(x(p.At))
		if px != col {
			flush()
			col, colMax = px, p.Value
		} else {
			colMax = max(colMax, p.Value)
		}
	}
	flush()
	b.WriteString(" H" + num(depthWidth))
	c.Path = b.String()
	c.Area = c.Path + " V" + num(depthHeight) + " Z"
	c.PeakX, c.PeakY = x(q.PeakAt), y(q.Max)
	c.Start, c.End = r.at(first), r.at(last)
	return c
}

// kernelBar is one kernel's bar in the top-kernel chart.
type kernelBar struct {
	Name  string
	Width float64 // pixels
	Y     float64
	Text  string
}

func kernelBars(stats []Stat) []kernelBar {
	var out []kernelBar
	if len(stats) == 0 {
		return out
	}
	top := float64(max(stats[0].Total, 1))
	for i, s := range stats {
		out = append(out, kernelBar{
			Name:  s.Name,
			Width: max(float64(s.Total)/top*barWidth, 1),
			Y:     float64(i * 22),
			Text:  fmt.Sprintf("%s µs (%d×, mean %s µs)", us(s.Total), s.Count, usf(s.Mean)),
		})
	}
	return out
}

// num writes a coordinate with at most two decimals.
func num(v float64) string { return strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64) }
