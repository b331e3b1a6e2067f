package gocann_test

import (
	"testing"
	"time"

	"github.com/gocann/gocann"
)

// Synchronous copies and memsets let the device work already queued on
// their memory run first, as the device's head start gives programs that
// copy a kernel's output without synchronizing; they do not wait where the
// device would not progress, nor for long-running tasks, nor for work on
// other memory.

// lateWriter registers a kernel that sleeps d, then stores arg 1 at arg 0.
func lateWriter(t *testing.T, e env, d time.Duration) *gocann.Kernel {
	k, err := e.r.RegisterKernel("late_writer", func(b *gocann.Block) {
		time.Sleep(d)
		b.Store64(b.Arg(0).Ptr(), uint64(b.Arg(1)))
	})
	check(t, err)
	return k
}

func TestSyncCopySettles(t *testing.T) {
	e := setup(t)
	k := lateWriter(t, e, 30*time.Millisecond)
	a, b := malloc(t, e.c, 64), malloc(t, e.c, 64)
	check(t, e.c.Memset(a, 0, 64))

	check(t, e.s.Launch(k, 1, gocann.Ptr(a), gocann.U64(123)))
	if v := readU64(t, e.c, a); v != 123 {
		t.Errorf("a copy right after a queued kernel's write read %d, want 123", v)
	}
	check(t, e.s.Launch(k, 1, gocann.Ptr(a), gocann.U64(124)))
	check(t, e.c.CopyDevice(b, a, 64))
	if v := readU64(t, e.c, b); v != 124 {
		t.Errorf("a device-to-device copy right after a queued kernel's write copied %d, want 124", v)
	}
	check(t, e.s.Launch(k, 1, gocann.Ptr(a+8), gocann.U64(1)))
	check(t, e.c.Memset(a, 0xff, 8))
	if !isDone(t, e.s) {
		t.Errorf("a memset of the kernel's allocation returned before the kernel queued ahead of it ran")
	}
	syncOK(t, e.s)
}

func TestSyncCopySettleLimits(t *testing.T) {
	e := setup(t)
	a, other := malloc(t, e.c, 64), malloc(t, e.c, 64)
	writeU64(t, e.c, a, 5)
	quick := func(what string, fn func()) {
		t.Helper()
		start := time.Now()
		fn()
		if d := time.Since(start); d > 200*time.Millisecond {
			t.Errorf("%s: the copy took %v, want it not to wait", what, d)
		}
	}

	// Work on other memory.
	k := lateWriter(t, e, 400*time.Millisecond)
	check(t, e.s.Launch(k, 1, gocann.Ptr(other), gocann.U64(1)))
	quick("a kernel on another allocation", func() { readU64(t, e.c, a) })
	syncOK(t, e.s)

	// A queue held by a host function, then by an event never recorded.
	g := block(t, e.s)
	check(t, e.s.Launch(k, 1, gocann.Ptr(a), gocann.U64(6)))
	g.waitStarted(t)
	quick("a kernel behind a running host function", func() {
		if v := readU64(t, e.c, a); v != 5 {
			t.Errorf("read %d behind the held stream, want 5", v)
		}
	})
	g.Open()
	syncOK(t, e.s)
	ev, err := e.c.NewEvent(gocann.EventSync)
	check(t, err)
	defer ev.Close()
	s2 := e.newStream(t)
	check(t, s2.WaitEvent(ev))
	check(t, s2.Launch(k, 1, gocann.Ptr(a), gocann.U64(7)))
	quick("a kernel behind an event wait", func() { readU64(t, e.c, a) })
	check(t, e.s.Record(ev))
	syncOK(t, s2)

	// A kernel polling the word the host writes: it runs until the copy.
	poll, err := e.r.RegisterKernel("poll_word", func(b *gocann.Block) {
		for b.Load64(b.Arg(0).Ptr()) != 1 {
			time.Sleep(time.Millisecond)
		}
	})
	check(t, err)
	writeU64(t, e.c, a, 0)
	check(t, e.s.Launch(poll, 1, gocann.Ptr(a)))
	quick("a kernel polling the word written", func() { writeU64(t, e.c, a, 1) })
	syncOK(t, e.s)

	// A host function copying memory a kernel queued after it touches.
	done := make(chan struct{})
	check(t, e.s.LaunchHostFunc(func() {
		defer close(done)
		var buf [8]byte
		check(t, e.c.CopyFromDevice(buf[:], a))
	}))
	check(t, e.s.Launch(k, 1, gocann.Ptr(a), gocann.U64(8)))
	select {
	case <-done:
	case <-time.After(long):
		t.Fatal("a copy inside a host function waited for the kernel queued after it")
	}
	syncOK(t, e.s)
}
