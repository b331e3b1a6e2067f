package ctest_test

import (
	"os"
	"testing"
	"time"
)

// The example programs against checked builds of the libraries. Each
// build takes a minute or more, so they run when asked for, as CI does:
//
//	GOCANN_CTEST_RACE=1 go test -run TestExamplesRace ./examples/c/ctest
//	GOCANN_CTEST_SANITIZE=1 go test -run TestExamplesSanitized ./examples/c/ctest

// TestExamplesRace runs the programs against a core built with Go's race
// detector, which stops a program at its first race.
func TestExamplesRace(t *testing.T) {
	if os.Getenv("GOCANN_CTEST_RACE") == "" {
		t.Skip("set GOCANN_CTEST_RACE=1 to build the core with -race and run the programs against it")
	}
	tl := setupVariant(t, "race", []string{"RACE=1"}, nil, []string{"GORACE=halt_on_error=1"})
	runExamples(t, tl, examples, 5*time.Minute)
}

// TestExamplesSanitized runs the programs, their kernels and the C of both
// libraries under AddressSanitizer (leaks included) and
// UndefinedBehaviorSanitizer.
func TestExamplesSanitized(t *testing.T) {
	if os.Getenv("GOCANN_CTEST_SANITIZE") == "" {
		t.Skip("set GOCANN_CTEST_SANITIZE=1 to build the libraries' C with ASan and UBSan and run the programs")
	}
	san := []string{"-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer"}
	tl := setupVariant(t, "sanitize", []string{"SANITIZE=1"}, san,
		[]string{"ASAN_OPTIONS=detect_leaks=1:abort_on_error=0", "UBSAN_OPTIONS=print_stacktrace=1"})
	runExamples(t, tl, examples, 5*time.Minute)
}
