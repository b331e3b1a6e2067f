package gocann_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/gocann/gocann"
)

// TestCaptureReplay is the shortest path through capture: tasks queued
// during the capture do not run; each replay runs them once, in order with
// the launching stream's other tasks.
func TestCaptureReplay(t *testing.T) {
	e := setup(t)
	p := malloc(t, e.c, 8)
	writeU64(t, e.c, p, 0)
	var ran atomic.Int32
	m, err := e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		if err := s.Memset(p, 7, 8); err != nil {
			return err
		}
		return s.LaunchHostFunc(func() { ran.Add(1) })
	})
	check(t, err)
	defer m.Close()
	if got := readU64(t, e.c, p); got != 0 || ran.Load() != 0 {
		t.Fatalf("capture ran its tasks: word %#x, host function ran %d times", got, ran.Load())
	}
	other := e.newStream(t)
	for i := 1; i <= 3; i++ {
		check(t, other.Memset(p, 0, 8))
		check(t, m.Run(other))
		syncOK(t, other)
		if got := readU64(t, e.c, p); got != 0x0707070707070707 || ran.Load() != int32(i) {
			t.Fatalf("run %d: word %#x, host function ran %d times", i, got, ran.Load())
		}
	}
	check(t, m.Execute(context.Background()))
	if ran.Load() != 4 {
		t.Fatalf("Execute: host function ran %d times, want 4", ran.Load())
	}
}
