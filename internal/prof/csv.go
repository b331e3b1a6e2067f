package prof

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"sort"

	"github.com/gocann/gocann/hal"
)

// The CSV summaries of CANN's layout, with msprof's column names:
// op_summary (kernel tasks) and task_time (every task) written as tasks
// arrive, api_statistic (per API function) at the end.

type csvs struct {
	op, tasks *csvFile
	apiPath   string
	api       map[string]*apiStat
}

type csvFile struct {
	f *os.File
	w *bufio.Writer
}

type apiStat struct {
	n                       int64
	sum, sumSq, least, most float64 // µs
}

func newCSVs(p paths) (*csvs, error) {
	c := &csvs{apiPath: p.apiSt, api: map[string]*apiStat{}}
	if p.opSummary == "" {
		return c, nil
	}
	var err error
	if c.op, err = createCSV(p.opSummary, "Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,Task Type,Task Start Time(us),Task Duration(us),Task Wait Time(us),Block Dim,Mix Block Dim"); err != nil {
		return nil, err
	}
	if c.tasks, err = createCSV(p.taskTime, "Device_id,kernel_name,kernel_type,stream_id,task_id,task_time(us),task_start(us),task_stop(us)"); err != nil {
		c.op.f.Close()
		return nil, err
	}
	return c, nil
}

func createCSV(path, header string) (*csvFile, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("%q cannot be written: %w", path, err)
	}
	c := &csvFile{f: f, w: bufio.NewWriter(f)}
	c.w.WriteString(header + "\n")
	return c, nil
}

// task adds device task r's rows.
func (c *csvs) task(dev int, r hal.Record, name, typ string, start, end, submit int64) {
	if c.op == nil {
		return
	}
	us := func(ns int64) string { return string(appendUS(nil, ns)) }
	if r.Kind == hal.TaskKernel {
		fmt.Fprintf(c.op.w, "%d,N/A,%d,%d,%s,%s,%s,%s,%s,%s,%d,0\n", dev, r.Seq, r.Queue, csvField(name), csvField(name), typ,
			us(start), us(end-start), us(start-submit), r.Blocks)
	}
	fmt.Fprintf(c.tasks.w, "%d,%s,%s,%d,%d,%s,%s,%s\n", dev, csvField(name), typ, r.Queue, r.Seq, us(end-start), us(start), us(end))
}

// call counts an API call for api_statistic.
func (c *csvs) call(call APICall) {
	st := c.api[call.Name]
	if st == nil {
		st = &apiStat{least: math.Inf(1)}
		c.api[call.Name] = st
	}
	d := float64(call.End-call.Start) / 1e3
	st.n++
	st.sum += d
	st.sumSq += d * d
	st.least, st.most = min(st.least, d), max(st.most, d)
}

func (c *csvs) flush() {
	for _, f := range []*csvFile{c.op, c.tasks} {
		if f != nil {
			f.w.Flush()
		}
	}
}

// close writes api_statistic and closes the files.
func (c *csvs) close() error {
	var first error
	keep := func(err error) {
		if err != nil && first == nil {
			first = err
		}
	}
	for _, f := range []*csvFile{c.op, c.tasks} {
		if f != nil {
			keep(f.w.Flush())
			keep(f.f.Close())
		}
	}
	if c.apiPath == "" {
		return first
	}
	f, err := createCSV(c.apiPath, "Device_id,Level,API Name,Time(us),Count,Avg(us),Min(us),Max(us),Variance")
	if err != nil {
		keep(err)
		return first
	}
	names := make([]string, 0, len(c.api))
	for n := range c.api {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return c.api[names[i]].sum > c.api[names[j]].sum })
	for _, n := range names {
		st := c.api[n]
		mean := st.sum / float64(st.n)
		fmt.Fprintf(f.w, "host,acl,%s,%.3f,%d,%.3f,%.3f,%.3f,%.3f\n", csvField(n), st.sum, st.n, mean, st.least, st.most,
			max(0, st.sumSq/float64(st.n)-mean*mean))
	}
	keep(f.w.Flush())
	keep(f.f.Close())
	return first
}

// csvField quotes s if it needs it.
func csvField(s string) string {
	for _, c := range s {
		if c == ',' || c == '"' || c == '\n' {
			return fmt.Sprintf("%q", s)
		}
	}
	return s
}
