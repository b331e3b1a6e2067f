package profreport

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// FuzzRead feeds the reader arbitrary bytes, seeded with the fixtures: it
// must return an error or a report, never panic; and any prefix of a file
// that reads must read too (the writer may die at any byte).
//
//	go test -run XXX -fuzz FuzzRead -fuzztime 30s -fuzzminimizetime 5s ./internal/profreport
//
// (an input the size of session.json takes milliseconds, which makes the
// default minute of minimizing stall the run).
func FuzzRead(f *testing.F) {
	bom := []byte("\xef\xbb\xbf")
	for _, name := range []string{"session.json", "vector_half.json", "copy.json", "truncated.json"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Parse("fuzz.json", data)
		if err != nil {
			return
		}
		for _, cut := range []int{len(data) / 3, len(data) / 2, len(data) - 1} {
			prefix := data[:max(cut, 0)]
			if bytes.HasPrefix(data, bom) && cut < len(bom) {
				continue // part of the byte-order mark
			}
			if len(bytes.TrimLeft(bytes.TrimPrefix(prefix, bom), " \t\r\n")) == 0 {
				continue // nothing left but white space: not a timeline
			}
			if _, err := Parse("prefix.json", prefix); err != nil {
				t.Fatalf("the file reads but its first %d bytes do not: %v", cut, err)
			}
		}
		tr, err := Build(file)
		if err != nil {
			return
		}
		r := Analyze(tr)
		if err := r.WriteText(io.Discard); err != nil {
			t.Fatal(err)
		}
		if err := r.WriteHTML(io.Discard); err != nil {
			t.Fatal(err)
		}
	})
}
