package profreport

// utilization is the cube and vector cores' share of the wall time the
// device's kernels kept busy: a kernel keeps Block Dim cores of its kind
// busy for its duration (a mixed kernel both kinds), and never more cores
// than the chip has of that kind — more blocks than cores run in waves,
// which its duration already holds.
func utilization(d *Device, wall int64) (cube, vector Utilization) {
	cube.Cores, vector.Cores = d.Info.CubeCores, d.Info.VectorCores
	for i := range d.Tasks {
		t := &d.Tasks[i]
		k := t.kind()
		if k == "cube" || k == "mixed" {
			cube.Busy += busy(t, cube.Cores)
		}
		if k == "vector" || k == "mixed" {
			vector.Busy += busy(t, vector.Cores)
		}
	}
	for _, u := range []*Utilization{&cube, &vector} {
		if d.HasInfo && u.Cores > 0 && wall > 0 {
			u.Value, u.Known = u.Busy/(float64(u.Cores)*float64(wall)), true
		}
	}
	return cube, vector
}

// busy is the core-time t kept busy on a chip of cores cores (0: unknown).
func busy(t *Task, cores int) float64 {
	blocks := t.BlockDim
	if cores > 0 {
		blocks = min(blocks, int64(cores))
	}
	return float64(blocks) * float64(t.Dur)
}

// bandwidth is the bytes the device's tasks moved (copies, memsets and the
// kernels whose traffic is known) over the wall time. Bytes per nanosecond
// are GB/s.
func bandwidth(d *Device, wall int64) Bandwidth {
	b := Bandwidth{Peak: d.Info.CopyBandwidth}
	for i := range d.Tasks {
		b.Bytes += d.Tasks[i].Bytes
	}
	if wall > 0 {
		b.GBps = b.Bytes / float64(wall)
		if d.HasInfo && b.Peak > 0 {
			b.Value, b.Known = b.GBps/b.Peak, true
		}
	}
	return b
}
