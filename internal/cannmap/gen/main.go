// Command gen rewrites the CANN-to-Go table in doc.go of the package in the
// current directory, between the table markers, from the "CANN:" lines.
//
// Run it with go generate in the root package.
package main

import (
	"fmt"
	"os"

	"github.com/gocann/gocann/internal/cannmap"
)

func main() {
	entries, problems, err := cannmap.Read(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, p := range problems {
		fmt.Fprintf(os.Stderr, "%s: %s\n", p.Go, p.Why)
	}
	if len(problems) > 0 {
		os.Exit(1)
	}
	src, err := os.ReadFile("doc.go")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	out, err := cannmap.Splice(string(src), cannmap.Table(entries))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.WriteFile("doc.go", []byte(out), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
