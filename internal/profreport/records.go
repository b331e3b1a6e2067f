package profreport

import (
	"cmp"
	"maps"
	"slices"
)

// readDeviceInfo reads a gocann_device event's args: the chip, and the
// device it is.
func readDeviceInfo(a *argReader) (*DeviceInfo, int64) {
	dev, _ := a.count("device")
	ai, _ := a.count("ai_cores")
	vec, _ := a.count("vector_cores")
	cube, _ := a.count("cube_cores")
	bw, _ := a.num("copy_bandwidth_GBps")
	if bw < 0 && a.err == nil {
		a.fail("copy_bandwidth_GBps", "is %g; want a bandwidth >= 0", bw)
	}
	if max(ai, vec, cube) > 1<<20 && a.err == nil {
		a.fail("ai_cores", "and the other core counts must be at most %d", 1<<20)
	}
	return &DeviceInfo{SoC: a.str("soc"), AICores: int(ai), VectorCores: int(vec), CubeCores: int(cube), CopyBandwidth: bw}, dev
}

// readTask reads a device event's args.
func readTask(file string, ev *Event) (Task, error) {
	a := argReader{file: file, ev: ev}
	t := Task{Name: ev.Name, Pid: ev.Pid, Stream: ev.Tid, Start: ev.TS, Dur: ev.Dur}
	t.Type = a.str("Task Type")
	t.CoreKind = a.str("Core Kind")
	var ok bool
	if t.BlockDim, ok = a.count("Block Dim"); !ok {
		t.BlockDim = 1 // a kernel that does not say runs one block
	}
	t.Bytes, _ = a.num("Bytes")
	if t.Bytes < 0 && a.err == nil {
		a.fail("Bytes", "is %g; want a byte count >= 0", t.Bytes)
	}
	if s, ok := a.micros("Submit Time(us)"); ok {
		t.Submit, t.HasSubmit = s, true
	} else if w, ok := a.micros("Wait Time(us)"); ok {
		t.Submit, t.HasSubmit = t.Start-w, true
	}
	t.ModelOp = a.has("Op Index")
	t.Failed = a.flag("Failed")
	return t, a.err
}

// counter is a Queue Depth sample and the file it came from.
type counter struct {
	file string
	ev   *Event
}

// depthSamples sums the Queue Depth counters of a device's processes,
// in time order: a stream a sample does not name keeps its last value.
func depthSamples(counters []counter) ([]Sample, error) {
	slices.SortStableFunc(counters, func(x, y counter) int { return cmp.Compare(x.ev.TS, y.ev.TS) })
	type key struct {
		pid    int64
		stream string
	}
	depth := map[key]float64{}
	var total float64
	var out []Sample
	for _, c := range counters {
		ev := c.ev
		a := argReader{file: c.file, ev: ev}
		for _, stream := range slices.Sorted(maps.Keys(ev.Args)) {
			n, _ := a.count(stream)
			if a.err != nil {
				return nil, a.err
			}
			k := key{ev.Pid, stream}
			total += float64(n) - depth[k]
			depth[k] = float64(n)
		}
		if len(out) > 0 && out[len(out)-1].At == ev.TS {
			out[len(out)-1].Value = total
		} else {
			out = append(out, Sample{At: ev.TS, Value: total})
		}
	}
	return out, nil
}
