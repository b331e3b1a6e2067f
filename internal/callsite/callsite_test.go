package callsite

import (
	"strings"
	"testing"
)

//go:noinline
func api() uintptr { return Caller() }

func TestCaller(t *testing.T) {
	pc := api() // the line Format must name
	got := Format(pc)
	if !strings.Contains(got, "callsite_test.go:12") || !strings.Contains(got, "TestCaller") {
		t.Fatalf("Format(Caller()) = %q, want callsite_test.go:12 in TestCaller", got)
	}
	if Format(0) != "" {
		t.Fatal("Format(0) not empty")
	}
}

func BenchmarkCaller(b *testing.B) {
	for b.Loop() {
		api()
	}
}
