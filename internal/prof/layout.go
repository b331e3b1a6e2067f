package prof

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"
)

// Layout is where a session's files go.
type Layout int

const (
	// LayoutSeed: DIR/profiling_<YYYYMMDDhhmmss>_<pid>.json, as
	// ASCEND_PROFILING_OUTPUT_PATH asks.
	LayoutSeed Layout = iota
	// LayoutCANN: DIR/PROF_<pid>_<YYYYMMDDhhmmssmmm>_<8 letters>/
	// mindstudio_profiler_output/ with msprof_<ts>.json and the CSVs.
	LayoutCANN
)

// paths are a session's output files; CSVs are empty in the seed layout.
type paths struct {
	dir                        string // where the files are
	timeline                   string
	opSummary, taskTime, apiSt string
}

// layOut makes the directories of a session started at t and names its
// files.
func layOut(dir string, l Layout, t time.Time) (paths, error) {
	if dir == "" {
		return paths{}, fmt.Errorf("the output directory is empty, expected a path")
	}
	ts := t.Format("20060102150405")
	pid := os.Getpid()
	var p paths
	switch l {
	case LayoutSeed:
		p.dir = dir
		p.timeline = filepath.Join(dir, fmt.Sprintf("profiling_%s_%d.json", ts, pid))
		for n := 2; exists(p.timeline); n++ { // a session of the same second
			p.timeline = filepath.Join(dir, fmt.Sprintf("profiling_%s_%d_%d.json", ts, pid, n))
		}
	case LayoutCANN:
		const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		var tag [8]byte
		for i := range tag {
			tag[i] = letters[rand.IntN(len(letters))]
		}
		prof := fmt.Sprintf("PROF_%06d_%s%03d_%s", pid, ts, t.Nanosecond()/1e6, tag[:])
		p.dir = filepath.Join(dir, prof, "mindstudio_profiler_output")
		p.timeline = filepath.Join(p.dir, "msprof_"+ts+".json")
		p.opSummary = filepath.Join(p.dir, "op_summary_"+ts+".csv")
		p.taskTime = filepath.Join(p.dir, "task_time_"+ts+".csv")
		p.apiSt = filepath.Join(p.dir, "api_statistic_"+ts+".csv")
	default:
		return paths{}, fmt.Errorf("layout %d is invalid", l)
	}
	if err := os.MkdirAll(p.dir, 0o750); err != nil {
		return paths{}, fmt.Errorf("output directory %q cannot be made: %w", dir, err)
	}
	return p, nil
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
