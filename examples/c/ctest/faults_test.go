package ctest_test

import (
	"errors"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestHostFaults: once kernel faults are contained, a fault in the
// program's own code still ends it as it would without the runtime: the
// handler the program installed is called, or the process dies of the
// signal.
func TestHostFaults(t *testing.T) {
	tl := setup(t)
	so, exe := tl.kernel(t, "faults"), tl.program(t, "56_faults")

	var exit *exec.ExitError
	for _, when := range []string{"own", "late"} { // installed before aclInit, and after it
		res := tl.runProgram(t, time.Minute, exe, so, when)
		if !errors.As(res.err, &exit) || exit.ExitCode() != 42 || !strings.Contains(res.stdout, "own handler: signal 11 at 0x") ||
			!strings.Contains(res.stdout, "ok: a kernel's fault is contained with the program's handler installed") {
			t.Errorf("a host fault with the program's handler (%s): %v, want exit status 42 from the handler\nstdout:\n%s\nstderr:\n%s",
				when, res.err, res.stdout, res.stderr)
		}
	}

	res := tl.runProgram(t, time.Minute, exe, so, "default")
	if !errors.As(res.err, &exit) || !signaled(exit, syscall.SIGSEGV) || !strings.Contains(res.stdout, "host fault next") {
		t.Errorf("a host fault with no handler: %v, want death by SIGSEGV\nstdout:\n%s\nstderr:\n%s", res.err, res.stdout, res.stderr)
	}
}

// signaled reports whether the process of exit died of sig.
func signaled(exit *exec.ExitError, sig syscall.Signal) bool {
	ws, ok := exit.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == sig
}
