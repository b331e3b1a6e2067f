package profreport

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"
	"strconv"
)

//go:embed page.html.tmpl
var pageSource string

// pageTemplate is parsed once; templates are safe for concurrent use.
var pageTemplate = template.Must(template.New("page").Funcs(template.FuncMap{
	"num": num,
	"us":  us,
	"usf": usf,
	"pct": func(v float64) string { return percent(v, true) },
	"odd": func(i int) bool { return i%2 == 1 },
}).Parse(pageSource))

// page is what the template shows.
type page struct {
	Files    []pageFile
	Devices  []devicePage
	API      []Stat
	Timeline timelinePage
}

type pageFile struct {
	Name string
	Note string
}

type devicePage struct {
	Title      string
	Facts      []fact
	Bars       []bar
	Depth      *depthChart
	DepthText  string
	Kernels    []kernelBar
	KernelsH   float64
	KernelsW   float64
	TopByMean  []Stat
	Streams    []streamRow
	BarWidth   float64
	ChartWidth float64
}

type fact struct{ Label, Value string }

type streamRow struct {
	Name, Tasks, Busy, Idle, Gaps, Longest, LongestAt string
}

// WriteHTML writes the report as one page with no external resources: the
// timeline (a row per host thread, stream and engine, zoomable) and the
// summary's charts.
func (r *Report) WriteHTML(w io.Writer) error {
	p := page{API: r.API, Timeline: r.timeline(maxSlices)}
	for _, f := range r.Files {
		p.Files = append(p.Files, pageFile{Name: f.Name, Note: truncation(f)})
	}
	for i := range r.Devices {
		p.Devices = append(p.Devices, r.devicePage(&r.Devices[i]))
	}
	return pageTemplate.Execute(w, p)
}

func (r *Report) devicePage(d *DeviceReport) devicePage {
	if d.Tasks == 0 {
		return devicePage{Title: d.Headline(), Facts: []fact{{"tasks", "none ran on it"}}}
	}
	dp := devicePage{
		Title:      d.Headline(),
		Bars:       utilBars(d),
		Depth:      r.chartDepth(&d.Depth),
		DepthText:  r.depthLine(&d.Depth),
		Kernels:    kernelBars(d.TopByTotal),
		KernelsH:   float64(len(d.TopByTotal) * 22),
		KernelsW:   140 + barWidth + 8 + 320,
		TopByMean:  d.TopByMean,
		BarWidth:   barWidth,
		ChartWidth: depthWidth,
	}
	failed := ""
	if d.Failed > 0 {
		failed = fmt.Sprintf(", %d failed", d.Failed)
	}
	dp.Facts = []fact{
		{"tasks", fmt.Sprintf("%d (%s%s)", d.Tasks, plural(d.Kernels, "kernel", "kernels"), failed)},
		{"wall time", fmt.Sprintf("%s, from %s to %s", ms(d.Wall()), r.at(d.First), r.at(d.Last))},
		{"task queue depth", r.depthLine(&d.Depth)},
	}
	for _, s := range d.Streams {
		row := streamRow{Name: s.Name, Tasks: strconv.Itoa(s.Tasks), Busy: us(s.Busy), Idle: us(s.Idle),
			Gaps: strconv.Itoa(s.Gaps), Longest: us(s.Longest), LongestAt: "-"}
		if s.Gaps > 0 {
			row.LongestAt = r.at(s.LongestAt)
		}
		dp.Streams = append(dp.Streams, row)
	}
	return dp
}

// WriteHTMLFile writes the page to path.
func (r *Report) WriteHTMLFile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := r.WriteHTML(f); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return f.Close()
}

// HTMLPath is where --view writes the page: report.html beside the first
// timeline.
func HTMLPath(firstTimeline string) string {
	return filepath.Join(filepath.Dir(firstTimeline), "report.html")
}
