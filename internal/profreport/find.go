package profreport

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// IsTimeline reports whether a file's name is one gocann gives a timeline:
// msprof_<ts>.json in CANN's layout, profiling_<ts>_<pid>.json otherwise.
func IsTimeline(name string) bool {
	for _, pattern := range []string{"msprof_*.json", "profiling_*.json"} {
		if ok, _ := filepath.Match(pattern, name); ok {
			return true
		}
	}
	return false
}

// Find lists the timelines under dir, at any depth, in path order.
func Find(dir string) ([]string, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", dir)
	}
	var out []string
	err = filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.Type().IsRegular() && IsTimeline(e.Name()) {
			out = append(out, path)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(out)
	return out, nil
}

// LoadDir reads every timeline under dir.
func LoadDir(dir string) (*Report, error) {
	paths, err := Find(dir)
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("no timeline under %s (files named msprof_*.json or profiling_*.json)", dir)
	}
	return Load(paths...)
}
