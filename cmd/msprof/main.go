// Command msprof is gocann's profiler under the name CANN's has: it runs a
// program with profiling on and prints the report of what the runtime
// recorded, or reports on timelines already written (docs/profiling.md).
// make install puts it in bin/ and, where CANN's toolkit keeps it, in
// tools/profiler/bin/.
//
// The report itself is internal/profreport's; msprof only finds the files
// and runs the program.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/gocann/gocann/internal/profreport"
)

const usage = `usage:
  msprof [--output=DIR] --application="./app args"
  msprof [--output=DIR] ./app args
  msprof --export=on --output=DIR
  msprof --view FILE...

  --application=CMD  run CMD (a program and its arguments, quoted as for a
                     shell) with profiling on, writing under --output, then
                     print the report of the timelines it wrote
  --output=DIR       where the profiling data goes (default: the current
                     directory)
  --export=on        print the report of every timeline under --output
                     (msprof_*.json, profiling_*.json)
  --view FILE...     print the report of the timelines named, and write
                     report.html (timeline and charts, one file, works
                     offline) beside the first
  -h, --help         this text
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	o, err := parse(args)
	var ue usageError
	switch {
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "msprof: %v\n\n%s", err, usage)
		return 2
	case err != nil:
		fmt.Fprintln(stderr, "msprof:", err)
		return 2
	case o.help:
		fmt.Fprint(stdout, usage)
		return 0
	}
	status, err := do(o, stdout, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "msprof:", err)
		return max(status, 1)
	}
	return status
}

// do runs what o asks and returns the exit status.
func do(o *options, stdout, stderr io.Writer) (int, error) {
	switch {
	case o.view:
		r, err := profreport.Load(o.files...)
		if err != nil {
			return 1, err
		}
		if err := r.WriteText(stdout); err != nil {
			return 1, err
		}
		page := profreport.HTMLPath(o.files[0])
		if err := r.WriteHTMLFile(page); err != nil {
			return 1, err
		}
		fmt.Fprintf(stdout, "\nWrote %s\n", page)
		return 0, nil
	case o.export:
		r, err := profreport.LoadDir(o.output)
		if err != nil {
			return 1, err
		}
		return 0, r.WriteText(stdout)
	}
	argv := o.app
	if o.application != "" {
		var err error
		if argv, err = splitCommand(o.application); err != nil {
			return 2, err
		}
	}
	output := o.output
	if output == "" {
		output = "."
	}
	written, status, err := runApplication(argv, output, stdout, stderr)
	if err != nil {
		return 1, err
	}
	if status != 0 {
		fmt.Fprintf(stderr, "msprof: %s exited with status %d; reporting what it wrote\n", argv[0], status)
	}
	if len(written) == 0 {
		return max(status, 1), fmt.Errorf("%s wrote no timeline under %s: is it a CANN program running on gocann's libascendcl.so (or a Go program on gocann)?", argv[0], output)
	}
	r, err := profreport.Load(written...)
	if err != nil {
		return max(status, 1), err
	}
	fmt.Fprintln(stdout)
	return status, r.WriteText(stdout)
}
