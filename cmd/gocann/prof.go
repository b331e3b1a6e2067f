package main

import (
	"fmt"
	"io"
	"os"

	"github.com/gocann/gocann/internal/profreport"
)

// prof prints the profiling report (docs/profiling.md) of the timelines
// under a directory, or of the files named: msprof's --export=on and
// --view without the page, for Go programs that profile themselves.
func prof(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: gocann prof DIR|FILE...: the profiling report of the timelines under DIR, or of the files named")
		return 2
	}
	var r *profreport.Report
	var err error
	if st, statErr := os.Stat(args[0]); statErr == nil && st.IsDir() && len(args) == 1 {
		r, err = profreport.LoadDir(args[0])
	} else {
		r, err = profreport.Load(args...)
	}
	if err == nil {
		err = r.WriteText(stdout)
	}
	if err != nil {
		fmt.Fprintln(stderr, "gocann prof:", err)
		return 1
	}
	return 0
}
