package profreport

import (
	"cmp"
	"slices"
)

// topKernels groups the kernels by name and returns the n with the longest
// total time and the n with the longest mean time.
func topKernels(tasks []Task, n int) (byTotal, byMean []Stat) {
	var durs []named
	for i := range tasks {
		if t := &tasks[i]; t.Kernel() {
			durs = append(durs, named{t.Name, t.Dur})
		}
	}
	all := group(durs)
	byTotal = slices.Clone(all)
	slices.SortStableFunc(byTotal, func(x, y Stat) int { return cmp.Compare(y.Total, x.Total) })
	byMean = slices.Clone(all)
	slices.SortStableFunc(byMean, func(x, y Stat) int { return cmp.Compare(y.Mean, x.Mean) })
	return byTotal[:min(n, len(byTotal))], byMean[:min(n, len(byMean))]
}

// apiStats groups the host's API calls by function, the longest total
// first.
func apiStats(calls []Call) []Stat {
	durs := make([]named, len(calls))
	for i, c := range calls {
		durs[i] = named{c.Func, c.Dur}
	}
	out := group(durs)
	slices.SortStableFunc(out, func(x, y Stat) int { return cmp.Compare(y.Total, x.Total) })
	return out
}

type named struct {
	name string
	dur  int64
}

// group sums durations by name, in name order.
func group(durs []named) []Stat {
	byName := map[string]*Stat{}
	var sum float64
	for _, d := range durs {
		s := byName[d.name]
		if s == nil {
			s = &Stat{Name: d.name, Min: d.dur, Max: d.dur}
			byName[d.name] = s
		}
		s.Count++
		s.Total += d.dur
		s.Min, s.Max = min(s.Min, d.dur), max(s.Max, d.dur)
		sum += float64(d.dur)
	}
	out := make([]Stat, 0, len(byName))
	for _, s := range byName {
		s.Mean = float64(s.Total) / float64(s.Count)
		if sum > 0 {
			s.TotalShare = float64(s.Total) / sum
		}
		out = append(out, *s)
	}
	slices.SortFunc(out, func(x, y Stat) int { return cmp.Compare(x.Name, y.Name) })
	return out
}
