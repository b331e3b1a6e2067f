package profreport

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// The timeline's geometry, in pixels at zoom 1: the page's script scales
// the x axis (data-x and data-w hold the unscaled values).
const (
	timelineWidth = 1200.0
	rowHeight     = 20
	headerHeight  = 24
	axisHeight    = 22
	sliceHeight   = 14
	// maxSlices bounds what the page draws, so a long run still opens.
	maxSlices = 20000
)

// timelinePage is the timeline as the template draws it.
type timelinePage struct {
	Width, Height float64
	AxisHeight    int
	Pad           int     // room after the end, for the last tick's label
	Outer         float64 // Width + Pad
	Span          int64   // ns the width stands for
	Rows          []timelineRow
	Rects         []timelineRect
	Marks         []timelineMark
	Ticks         []tick
	Shown, Total  int
}

type timelineRow struct {
	Label  string
	Header bool
	Y      int
	Height int
}

type timelineRect struct {
	X, W, Y float64
	Class   string
	Title   string
}

type timelineMark struct {
	X, Y  float64
	Title string
}

type tick struct {
	X     float64
	Label string
}

// timeline lays out one row per host thread, then per device one per
// stream and one per engine, with a header row before each process.
func (r *Report) timeline(limit int) timelinePage {
	t := r.Trace
	p := timelinePage{Width: timelineWidth, AxisHeight: axisHeight, Pad: 48, Span: max(t.End-t.Start, 1)}
	y := axisHeight
	type placed struct {
		s   *Slice
		row int
	}
	var all []placed
	addTracks := func(header string, tracks []*Track) {
		if len(tracks) == 0 {
			return
		}
		p.Rows = append(p.Rows, timelineRow{Label: header, Header: true, Y: y, Height: headerHeight})
		y += headerHeight
		for _, tr := range tracks {
			p.Rows = append(p.Rows, timelineRow{Label: tr.Name, Y: y, Height: rowHeight})
			for i := range tr.Slices {
				all = append(all, placed{&tr.Slices[i], y})
			}
			y += rowHeight
		}
	}
	for _, h := range t.Hosts {
		name := h.Name
		if name == "" {
			name = "Host"
		}
		addTracks(fmt.Sprintf("%s (pid %d)", name, h.Pid), h.Threads)
	}
	for _, d := range t.Devices {
		addTracks(fmt.Sprintf("Device %d: streams", d.ID), d.Streams)
		addTracks(fmt.Sprintf("Device %d: engines", d.ID), d.Engines)
	}
	p.Height = float64(y + 4)
	p.Total = len(all)
	if len(all) > limit {
		slices.SortStableFunc(all, func(a, b placed) int { return cmp.Compare(a.s.Start, b.s.Start) })
		all = all[:limit]
	}
	p.Shown = len(all)
	scale := p.Width / float64(p.Span)
	for _, a := range all {
		s := a.s
		x := float64(s.Start-t.Start) * scale
		title := fmt.Sprintf("%s: %s µs at %s", s.Name, us(s.Dur), r.at(s.Start))
		if s.Instant {
			p.Marks = append(p.Marks, timelineMark{X: x, Y: float64(a.row) + rowHeight/2, Title: fmt.Sprintf("%s at %s", s.Name, r.at(s.Start))})
			continue
		}
		class := "task k-" + s.Class
		if s.Failed {
			class += " failed"
			title += " (failed)"
		}
		p.Rects = append(p.Rects, timelineRect{X: x, W: float64(s.Dur) * scale, Y: float64(a.row + (rowHeight-sliceHeight)/2), Class: class, Title: title})
	}
	p.Ticks = ticks(p.Span, p.Width)
	p.Outer = p.Width + float64(p.Pad)
	return p
}

// ticks marks the axis every 1, 2 or 5 × 10^n ns, about every 100 px.
func ticks(span int64, width float64) []tick {
	step := niceStep(float64(span) * 100 / width)
	var out []tick
	for i := 0; float64(i)*step <= float64(span) && i < 1000; i++ {
		ns := float64(i) * step
		out = append(out, tick{X: ns / float64(span) * width, Label: duration(ns)})
	}
	return out
}

func niceStep(raw float64) float64 {
	if raw <= 1 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5} {
		if m*p >= raw {
			return m * p
		}
	}
	return 10 * p
}

// duration labels an offset on the axis in the largest unit it fills.
func duration(ns float64) string {
	switch {
	case ns == 0:
		return "0"
	case ns >= 1e9:
		return fmt.Sprintf("%gs", ns/1e9)
	case ns >= 1e6:
		return fmt.Sprintf("%gms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%gµs", ns/1e3)
	}
	return fmt.Sprintf("%gns", ns)
}
