package gocann_test

import (
	"os"
	"testing"

	"github.com/gocann/gocann/internal/cannmap"
)

// TestCANNLines checks that every exported function names its CANN call,
// that no CANN line maps to two functions, and that the table in doc.go is
// current (go generate).
func TestCANNLines(t *testing.T) {
	entries, problems, err := cannmap.Read(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("%s: %s", p.Go, p.Why)
	}
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	want, err := cannmap.Splice(string(src), cannmap.Table(entries))
	if err != nil {
		t.Fatal(err)
	}
	if want != string(src) {
		t.Error("doc.go's CANN table is stale; run go generate")
	}
}
