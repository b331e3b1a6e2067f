package profreport

import (
	"cmp"
	"fmt"
	"slices"
)

// streamIdle measures each stream's idle gaps: the times between its first
// task's start and its last task's end when none of its tasks ran.
func streamIdle(d *Device) []StreamIdle {
	type key struct{ pid, stream int64 }
	byStream := map[key][]*Task{}
	for i := range d.Tasks {
		t := &d.Tasks[i]
		k := key{t.Pid, t.Stream}
		byStream[k] = append(byStream[k], t)
	}
	var out []StreamIdle
	for _, tr := range d.Streams {
		tasks := byStream[key{tr.Pid, tr.Tid}]
		if len(tasks) == 0 {
			continue
		}
		s := idle(tasks)
		s.Name = tr.Name
		if len(d.Pids) > 1 {
			s.Name = fmt.Sprintf("%s (pid %d)", tr.Name, tr.Pid)
		}
		out = append(out, s)
	}
	return out
}

// idle walks tasks in start order, merging the ones that overlap.
func idle(tasks []*Task) StreamIdle {
	slices.SortStableFunc(tasks, func(x, y *Task) int { return cmp.Compare(x.Start, y.Start) })
	s := StreamIdle{Tasks: len(tasks)}
	start, end := tasks[0].Start, tasks[0].End()
	for _, t := range tasks[1:] {
		if t.Start <= end {
			end = max(end, t.End())
			continue
		}
		s.Busy += end - start
		gap := t.Start - end
		s.Idle += gap
		s.Gaps++
		if gap > s.Longest {
			s.Longest, s.LongestAt = gap, end
		}
		start, end = t.Start, t.End()
	}
	s.Busy += end - start
	return s
}
