package profreport

import (
	"cmp"
	"slices"
)

// queueDepth is the device's task queue depth over time: the tasks
// submitted and not yet completed. The tasks' own submit and end times
// give it exactly; the Queue Depth counters, sampled, are the fallback
// for a timeline whose tasks lack submit times. The mean is weighted by
// time over the wall time, from the first task's start to the last one's
// end (over the samples' span when there is none).
func queueDepth(d *Device, first, last int64) QueueDepth {
	if s := depthFromTasks(d.Tasks); len(s) > 0 {
		return summarizeDepth("tasks", s, first, last)
	}
	if len(d.Depth) > 0 {
		return summarizeDepth("counters", d.Depth, first, last)
	}
	return QueueDepth{}
}

// depthFromTasks is the step function of the queue depth: a task counts
// from its submit to its end. Operations inside a model run are not queued
// on their own (the run is), so they do not count.
func depthFromTasks(tasks []Task) []Sample {
	type step struct {
		at    int64
		delta int
	}
	var steps []step
	for i := range tasks {
		t := &tasks[i]
		if !t.HasSubmit || t.ModelOp {
			continue
		}
		steps = append(steps, step{min(t.Submit, t.Start), 1}, step{t.End(), -1})
	}
	// At equal times ends go first: a task that ends as another is
	// submitted never shares the queue with it.
	slices.SortFunc(steps, func(x, y step) int { return cmp.Or(cmp.Compare(x.at, y.at), cmp.Compare(x.delta, y.delta)) })
	var out []Sample
	depth := 0
	for i, s := range steps {
		depth += s.delta
		if i+1 < len(steps) && steps[i+1].at == s.at {
			continue
		}
		out = append(out, Sample{At: s.at, Value: float64(depth)})
	}
	return out
}

// summarizeDepth reads max and its first time off a step function whose
// value holds from each sample to the next, and its mean over [from, to].
func summarizeDepth(source string, s []Sample, from, to int64) QueueDepth {
	q := QueueDepth{Source: source, Series: s, Max: s[0].Value, PeakAt: s[0].At}
	for _, p := range s {
		if p.Value > q.Max {
			q.Max, q.PeakAt = p.Value, p.At
		}
	}
	if to <= from {
		from, to = s[0].At, s[len(s)-1].At
	}
	if to <= from {
		q.Mean = s[len(s)-1].Value
		return q
	}
	var area float64
	for i, p := range s {
		end := to
		if i+1 < len(s) {
			end = min(s[i+1].At, to)
		}
		if start := max(p.At, from); end > start {
			area += p.Value * float64(end-start)
		}
	}
	q.Mean = area / float64(to-from)
	return q
}
