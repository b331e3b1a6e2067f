// Command gen rewrites what package gocann generates from its sources, in
// the current directory (the repository root):
//
//   - the CANN-to-Go table in doc.go, between the table markers, from the
//     "CANN:" lines;
//   - the Code constants (zz_codes.go) and the result codes of the C
//     headers, between their markers, from internal/cannmap/codes.txt;
//   - docs/coverage.md, every exported C function with its Go functions
//     and the tests that exercise them.
//
// Run it with go generate in the root package.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/gocann/gocann/internal/cannmap"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run() error {
	entries, problems, err := cannmap.Read(".")
	if err != nil {
		return err
	}
	for _, p := range problems {
		fmt.Fprintf(os.Stderr, "%s: %s\n", p.Go, p.Why)
	}
	if len(problems) > 0 {
		return fmt.Errorf("%d doc comments break the CANN line rule", len(problems))
	}
	src, err := os.ReadFile("doc.go")
	if err != nil {
		return err
	}
	out, err := cannmap.Splice(string(src), cannmap.Table(entries))
	if err != nil {
		return err
	}
	if err := os.WriteFile("doc.go", []byte(out), 0o644); err != nil {
		return err
	}
	files, err := cannmap.CodeFiles(os.ReadFile)
	if err != nil {
		return err
	}
	for path, b := range files {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			return err
		}
	}
	// Last: it builds the module's packages, which the files above are
	// part of.
	cov, err := cannmap.Coverage(".", entries)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join("docs", "coverage.md"), cov, 0o644)
}
