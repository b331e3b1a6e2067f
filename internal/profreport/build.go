package profreport

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Build sorts the events of files into a Trace. Files of several processes
// merge: a device's figures count every process that used it.
func Build(files ...*File) (*Trace, error) {
	b := &builder{
		t:       &Trace{Files: files, Start: math.MaxInt64, End: math.MinInt64},
		procs:   map[int64]*proc{},
		threads: map[threadKey]*threadMeta{},
		tracks:  map[trackKey]*Track{},
		devices: map[int]*Device{},
		hosts:   map[int64]*Host{},
	}
	for _, f := range files {
		for i := range f.Events {
			if err := b.meta(f.Name, &f.Events[i]); err != nil {
				return nil, err
			}
		}
	}
	for _, f := range files {
		for i := range f.Events {
			if err := b.event(f.Name, &f.Events[i]); err != nil {
				return nil, err
			}
		}
	}
	return b.finish()
}

// trackKey names a track: a host thread and a device's stream may share a
// pid (see deviceOf) and, in principle, a tid.
type trackKey struct {
	pid, tid int64
	host     bool
}

// threadKey names a thread's metadata, which the file keys by pid and tid.
type threadKey struct{ pid, tid int64 }

// proc is what the metadata and the events say of one process.
type proc struct {
	file      string // where it first appears, for errors
	cann      bool   // a process_name says CANN: the host's
	hardware  bool   // a process_name says Ascend Hardware: a device's
	name      string // another process_name
	label     string
	info      *DeviceInfo
	infoDev   int64
	hasDevice bool // it has device tasks or counters
	device    *Device
	notDevice bool
	host      *Host
	counters  []counter
}

type threadMeta struct {
	name    string
	sort    int64
	hasSort bool
}

type builder struct {
	t       *Trace
	procs   map[int64]*proc
	threads map[threadKey]*threadMeta
	tracks  map[trackKey]*Track
	devices map[int]*Device
	hosts   map[int64]*Host
}

func (b *builder) proc(file string, pid int64) *proc {
	p := b.procs[pid]
	if p == nil {
		p = &proc{file: file}
		b.procs[pid] = p
	}
	return p
}

// meta reads what the first pass needs: names, labels, chips, and which
// processes hold device tasks.
func (b *builder) meta(file string, ev *Event) error {
	p := b.proc(file, ev.Pid)
	a := argReader{file: file, ev: ev}
	switch ev.Ph {
	case "M":
		k := threadKey{ev.Pid, ev.Tid}
		switch ev.Name {
		case "process_name":
			switch name := a.str("name"); name {
			case "CANN":
				p.cann = true
			case "Ascend Hardware":
				p.hardware = true
			default:
				p.name = name
			}
		case "process_labels":
			p.label = a.str("labels")
		case "thread_name":
			b.thread(k).name = a.str("name")
		case "thread_sort_index":
			if v, ok := a.num("sort_index"); ok {
				b.thread(k).sort, b.thread(k).hasSort = int64(v), true
			}
		case "gocann_device":
			p.info, p.infoDev = readDeviceInfo(&a)
		}
	case "X":
		if a.has("Task Type") || a.has("Stream Id") {
			p.hasDevice = true
		}
	case "C":
		if ev.Name == "Queue Depth" {
			p.hasDevice = true
		}
	}
	if ev.Ph != "M" && ev.HasTS {
		b.t.Start = min(b.t.Start, ev.TS)
		b.t.End = max(b.t.End, ev.TS+ev.Dur)
	}
	return a.err
}

func (b *builder) thread(k threadKey) *threadMeta {
	m := b.threads[k]
	if m == nil {
		m = &threadMeta{}
		b.threads[k] = m
	}
	return m
}

// deviceOf is the device process pid is, or nil for a host process. One
// pid can be both in timelines of other writers, or of gocann's before
// device pids were put above every process id.
func (b *builder) deviceOf(pid int64) (*Device, error) {
	p := b.procs[pid]
	if p.device != nil || p.notDevice {
		return p.device, nil
	}
	var n int64
	_, labelErr := fmt.Sscanf(p.label, "Device %d", &n)
	switch {
	case !(p.hardware || labelErr == nil || p.info != nil || p.hasDevice):
		p.notDevice = true
		return nil, nil
	case p.info != nil:
		n = p.infoDev
	case labelErr == nil:
	case pid >= devicePIDBase:
		n = pid - devicePIDBase // pid = devicePIDBase + device
	case pid >= 10000:
		n = pid/10000 - 1 // the earlier form: 10000 * (device + 1) + (process id % 10000)
	default:
		return nil, fmt.Errorf("%s: process %d holds device tasks but no gocann_device event or \"Device <d>\" label says which device, and its pid is below 10000, the first a device can have", p.file, pid)
	}
	if n < 0 || n > 1<<16 {
		return nil, fmt.Errorf("%s: process %d is device %d; want a device number from 0 to 65536", p.file, pid, n)
	}
	d := b.devices[int(n)]
	if d == nil {
		d = &Device{ID: int(n)}
		b.devices[int(n)] = d
	}
	if p.info != nil && !d.HasInfo {
		d.Info, d.HasInfo = *p.info, true
	}
	d.Pids = append(d.Pids, pid)
	p.device = d
	return d, nil
}

// track is the row of k, made on first use.
func (b *builder) track(k trackKey, name string) *Track {
	tr := b.tracks[k]
	if tr != nil {
		return tr
	}
	tr = &Track{Pid: k.pid, Tid: k.tid, Name: name, Sort: k.tid}
	if m := b.threads[threadKey{k.pid, k.tid}]; m != nil {
		if m.name != "" {
			tr.Name = m.name
		}
		if m.hasSort {
			tr.Sort = m.sort
		}
	}
	b.tracks[k] = tr
	return tr
}

func (b *builder) event(file string, ev *Event) error {
	switch ev.Ph {
	case "X", "i", "I", "C":
	default:
		return nil // metadata, flows and phases the format does not use
	}
	if strings.HasPrefix(ev.Name, "AscendCL@") || ev.Cat == "msproftx" {
		b.hostEvent(ev) // even on a pid the host shares with a device
		return nil
	}
	d, err := b.deviceOf(ev.Pid)
	if err != nil {
		return err
	}
	if d == nil {
		b.hostEvent(ev)
		return nil
	}
	return b.deviceEvent(file, d, ev)
}

func (b *builder) hostEvent(ev *Event) {
	if ev.Ph == "C" {
		return
	}
	p := b.procs[ev.Pid]
	if p.host == nil {
		name := p.name
		if p.cann {
			name = "CANN"
		}
		p.host = &Host{Pid: ev.Pid, Name: name}
		b.hosts[ev.Pid] = p.host
	}
	h := p.host
	tr := b.track(trackKey{ev.Pid, ev.Tid, true}, fmt.Sprintf("Thread %d", ev.Tid))
	s := Slice{Name: ev.Name, Class: "host", Start: ev.TS, Dur: ev.Dur, Instant: ev.Ph != "X"}
	switch fn, ok := strings.CutPrefix(ev.Name, "AscendCL@"); {
	case ok && ev.Ph == "X":
		s.Class = "api"
		h.Calls = append(h.Calls, Call{Func: fn, Tid: ev.Tid, Start: ev.TS, Dur: ev.Dur})
	case ev.Cat == "msproftx":
		s.Class = "tx"
	}
	tr.Slices = append(tr.Slices, s)
}

func (b *builder) deviceEvent(file string, d *Device, ev *Event) error {
	if ev.Ph == "C" {
		if ev.Name == "Queue Depth" {
			p := b.procs[ev.Pid]
			p.counters = append(p.counters, counter{file, ev})
		}
		return nil
	}
	t, err := readTask(file, ev)
	if err != nil {
		return err
	}
	s := Slice{Name: ev.Name, Class: sliceClass(&t), Start: ev.TS, Dur: ev.Dur, Instant: ev.Ph != "X", Failed: t.Failed}
	if ev.Tid >= engineBase {
		tr := b.track(trackKey{ev.Pid, ev.Tid, false}, engineName(ev.Tid-engineBase))
		tr.Slices = append(tr.Slices, s)
		return nil
	}
	tr := b.track(trackKey{ev.Pid, ev.Tid, false}, fmt.Sprintf("Stream %d", ev.Tid))
	tr.Slices = append(tr.Slices, s)
	if ev.Ph == "X" {
		d.Tasks = append(d.Tasks, t)
	}
	return nil
}

func (b *builder) finish() (*Trace, error) {
	t := b.t
	if t.Start > t.End {
		t.Start, t.End = 0, 0
	}
	for k, tr := range b.tracks {
		p := b.procs[tr.Pid]
		switch {
		case k.host:
			p.host.Threads = append(p.host.Threads, tr)
		case tr.Tid >= engineBase:
			p.device.Engines = append(p.device.Engines, tr)
		default:
			p.device.Streams = append(p.device.Streams, tr)
		}
	}
	for _, h := range b.hosts {
		sortTracks(h.Threads)
		slices.SortStableFunc(h.Calls, func(x, y Call) int { return cmp.Compare(x.Start, y.Start) })
		t.Hosts = append(t.Hosts, h)
	}
	slices.SortFunc(t.Hosts, func(x, y *Host) int { return cmp.Compare(x.Pid, y.Pid) })
	for _, d := range b.devices {
		sortTracks(d.Streams)
		sortTracks(d.Engines)
		slices.Sort(d.Pids)
		slices.SortStableFunc(d.Tasks, func(x, y Task) int { return cmp.Compare(x.Start, y.Start) })
		var counters []counter
		for _, pid := range d.Pids {
			counters = append(counters, b.procs[pid].counters...)
		}
		var err error
		if d.Depth, err = depthSamples(counters); err != nil {
			return nil, err
		}
		t.Devices = append(t.Devices, d)
	}
	slices.SortFunc(t.Devices, func(x, y *Device) int { return cmp.Compare(x.ID, y.ID) })
	return t, nil
}

func sortTracks(ts []*Track) {
	slices.SortFunc(ts, func(x, y *Track) int {
		return cmp.Or(cmp.Compare(x.Pid, y.Pid), cmp.Compare(x.Sort, y.Sort), cmp.Compare(x.Tid, y.Tid))
	})
	for _, tr := range ts {
		slices.SortStableFunc(tr.Slices, func(x, y Slice) int { return cmp.Compare(x.Start, y.Start) })
	}
}

// devicePIDBase is device 0's pid: above every Linux process id.
const devicePIDBase = 10_000_000
