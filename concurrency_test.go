package gocann_test

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocann/gocann"
	"github.com/gocann/gocann/hal"
)

func TestStreamsRunConcurrently(t *testing.T) {
	// Different streams run in parallel; a blocked stream does not hold
	// another.
	e := setup(t)
	block(t, e.s)
	s2 := e.newStream(t)
	var ran atomic.Bool
	check(t, s2.LaunchHostFunc(func() { ran.Store(true) }))
	syncOK(t, s2)
	if !ran.Load() || isDone(t, e.s) {
		t.Fatal("a blocked stream held back another stream")
	}
}

func TestCopyOverlapsKernel(t *testing.T) {
	// "The DMA engine is independent of compute": a copy on one stream runs
	// while a kernel on another does. The kernel starts, then polls for a
	// word the copy delivers, so the copy must start within the kernel's run.
	e := setup(t)
	s2 := e.newStream(t)
	const n = 1 << 20
	src := malloc(t, e.c, n)
	dst := malloc(t, e.c, n)
	writeU64(t, e.c, src.Add(n-8), 0xC0FFEE)
	started := make(chan struct{})
	k, err := e.r.RegisterKernel("poll", func(b *gocann.Block) {
		close(started)
		deadline := time.Now().Add(long)
		for b.Load64(b.Arg(0).Ptr()) != 0xC0FFEE {
			if time.Now().After(deadline) {
				b.Trap("copy never arrived")
			}
			time.Sleep(10 * time.Microsecond)
		}
	})
	check(t, err)
	check(t, e.s.Launch(k, 1, gocann.Ptr(dst.Add(n-8))))
	<-started
	check(t, s2.CopyDeviceToDevice(dst, src, n))
	syncOK(t, s2)
	syncOK(t, e.s)
	kr := records(t, e.d, e.s, hal.TaskKernel)
	cr := records(t, e.d, s2, hal.TaskCopy)
	if len(kr) != 1 || len(cr) != 1 {
		t.Fatalf("trace holds %d kernel and %d copy records, want 1 and 1", len(kr), len(cr))
	}
	kern, cp := kr[0], cr[0]
	if kern.Engine != hal.EngineAICore || cp.Engine != hal.EngineDMA {
		t.Errorf("engines: kernel %v, copy %v", kern.Engine, cp.Engine)
	}
	for _, r := range []gocann.TaskRecord{kern, cp} {
		if r.Submit > r.Start || r.Start > r.End || r.Failed {
			t.Errorf("trace record %+v: want submit <= start <= end, not failed", r)
		}
	}
	if cp.Start > kern.End || kern.Start > cp.End {
		t.Fatalf("copy [%d, %d] and kernel [%d, %d] do not overlap", cp.Start, cp.End, kern.Start, kern.End)
	}
}

func TestConcurrentUse(t *testing.T) {
	// Handles may be used from any goroutine: launches, allocations, events
	// and synchronizes from eight goroutines on three streams lose nothing.
	e := setup(t)
	w := malloc(t, e.c, 8)
	inc, err := e.r.RegisterKernel("inc", func(b *gocann.Block) { b.Add64(b.Arg(0).Ptr(), 1) })
	check(t, err)
	streams := []*gocann.Stream{e.s, e.newStream(t), e.newStream(t)}
	const goroutines, launches = 8, 200
	errs := make(chan error, goroutines)
	for g := range goroutines {
		go func() {
			errs <- func() error {
				s, next := streams[g%3], streams[(g+1)%3]
				for i := range launches {
					if err := s.Launch(inc, 2, gocann.Ptr(w)); err != nil {
						return err
					}
					if i%40 != 0 {
						continue
					}
					p, err := e.c.Malloc(4096, gocann.NormalOnly)
					if err != nil {
						return err
					}
					ev, err := e.c.NewEvent(gocann.EventSync)
					if err != nil {
						return err
					}
					for _, err := range []error{e.c.Free(p), s.Record(ev), next.WaitEvent(ev), ev.Close(), s.SynchronizeTimeout(long)} {
						if err != nil {
							return err
						}
					}
				}
				return nil
			}()
		}()
	}
	for range goroutines {
		check(t, <-errs)
	}
	check(t, e.d.SynchronizeTimeout(long))
	if got := readU64(t, e.c, w); got != goroutines*launches*2 {
		t.Fatalf("counter %d, want %d", got, goroutines*launches*2)
	}
}

// TestDestroyRacingLaunches destroys streams while other goroutines launch
// onto them: the destroy succeeds, the stream is gone, and each launch was
// either taken, refused as a launch on a destroyed stream, or ended by the
// destroy's abort while it waited for room. A launch that
// passed its check just before the destroy used to land after the queue was
// emptied, and the destroy then failed with 507000 and left the stream
// behind.
func TestDestroyRacingLaunches(t *testing.T) {
	e := setup(t)
	k, err := e.r.RegisterKernel("nop", func(*gocann.Block) {})
	check(t, err)
	for round := 0; round < 200; round++ {
		s := e.newStream(t)
		var wg sync.WaitGroup
		errs := make(chan error, 4)
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					if err := s.Launch(k, 1); err != nil {
						errs <- err
						return
					}
				}
			}()
		}
		time.Sleep(100 * time.Microsecond)
		if err := s.Close(); err != nil {
			t.Fatalf("round %d: destroy while launching: %v", round, err)
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if !errors.Is(err, gocann.ErrClosed) && !errors.Is(err, gocann.CodeRTStreamAbort) {
				t.Fatalf("round %d: a launch racing the destroy failed with %v, expected ErrClosed or 107023", round, err)
			}
		}
		if err := s.Launch(k, 1); !errors.Is(err, gocann.ErrClosed) {
			t.Fatalf("round %d: launch after the destroy: %v, expected ErrClosed", round, err)
		}
	}
}
