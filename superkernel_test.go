package gocann_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gocann/gocann"
)

// skKernels registers the ordering test's kernels: fill writes
// base+block into word block of its output; shift reads word block+1 of
// its input (0 past its end) into word block of its output.
func skKernels(t *testing.T, e env) (fill, shift *gocann.Kernel) {
	t.Helper()
	fill, err := e.r.RegisterKernel("sk_fill", func(b *gocann.Block) {
		out := gocann.View[uint64](b, b.Arg(0).Ptr(), 64)
		// Slow block 0 down: without the barrier, its neighbour's read
		// would come first.
		if b.Idx() == 1 {
			time.Sleep(2 * time.Millisecond)
		}
		out[b.Idx()] = b.Arg(1).U64() + uint64(b.Idx())
	})
	check(t, err)
	shift, err = e.r.RegisterKernel("sk_shift", func(b *gocann.Block) {
		in := gocann.View[uint64](b, b.Arg(0).Ptr(), 64)
		out := gocann.View[uint64](b, b.Arg(1).Ptr(), 64)
		out[b.Idx()] = in[b.Idx()+1]
	})
	check(t, err)
	return fill, shift
}

func TestSuperKernelOrdering(t *testing.T) {
	// The default chip runs sub-kernels on runners with barriers; an Atlas
	// A3, where SetNextTaskStart takes effect, each block on its own.
	for _, cfg := range []string{smallConfig, skA3Config} {
		testSuperKernelOrdering(t, cfg)
	}
}

func testSuperKernelOrdering(t *testing.T, cfg string) {
	e := setup(t, cfg)
	fill, shift := skKernels(t, e)
	a, b := malloc(t, e.c, 8*64), malloc(t, e.c, 8*64)
	for _, n := range [][2]uint32{{2, 1}, {4, 3}, {8, 7}, {3, 2}} {
		check(t, e.s.Memset(a, 0, 8*64))
		check(t, e.s.Memset(b, 0, 8*64))
		syncOK(t, e.s)
		m, err := e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
			return s.SuperKernel("fill_shift", func(s *gocann.Stream) error {
				if err := s.Launch(fill, n[0], gocann.Ptr(a), gocann.U64(100)); err != nil {
					return err
				}
				return s.Launch(shift, n[1], gocann.Ptr(a), gocann.Ptr(b))
			})
		})
		check(t, err)
		streams, err := m.Streams()
		check(t, err)
		tasks := streams[0].Tasks()
		if len(tasks) != 1 || tasks[0].Type() != gocann.TaskKernel {
			t.Fatalf("%v: model has %d tasks, want one kernel task", n, len(tasks))
		}
		desc, err := m.Describe(false)
		check(t, err)
		if !strings.Contains(desc, "fill_shift<<<") || !strings.Contains(desc, "sub-kernel 0 sk_fill") || !strings.Contains(desc, "sub-kernel 1 sk_shift") {
			t.Errorf("%v: description does not show the SuperKernel and its sub-kernels:\n%s", n, desc)
		}
		for run := 0; run < 3; run++ {
			check(t, m.Run(e.s))
			syncOK(t, e.s)
			for j := uint32(0); j < n[1]; j++ {
				if got, want := readU64(t, e.c, b.Add(int64(8*j))), uint64(100+j+1); got != want {
					t.Fatalf("%v run %d: block %d read %d, want %d (what block %d of the first sub-kernel wrote)", n, run, j, got, want, j+1)
				}
			}
		}
		m.Close()
	}
}

func TestSuperKernelReplay1000(t *testing.T) {
	for _, cfg := range []string{smallConfig, skA3Config} {
		testSuperKernelReplay1000(t, cfg)
	}
}

func testSuperKernelReplay1000(t *testing.T, cfg string) {
	e := setup(t, cfg)
	add, err := e.r.RegisterKernel("sk_add", func(b *gocann.Block) {
		v := gocann.View[uint64](b, b.Arg(0).Ptr(), 8)
		v[b.Idx()] += b.Arg(1).U64()
	})
	check(t, err)
	double, err := e.r.RegisterKernel("sk_double", func(b *gocann.Block) {
		v := gocann.View[uint64](b, b.Arg(0).Ptr(), 8)
		v[b.Idx()] = v[(b.Idx()+1)%b.Num()] % 1000003
	})
	check(t, err)
	p := malloc(t, e.c, 64)
	check(t, e.s.Memset(p, 0, 64))
	syncOK(t, e.s)
	m, err := e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		return s.SuperKernel("replay", func(s *gocann.Stream) error {
			if err := s.Launch(add, 8, gocann.Ptr(p), gocann.U64(3)); err != nil {
				return err
			}
			return s.Launch(double, 8, gocann.Ptr(p))
		})
	})
	check(t, err)
	defer m.Close()
	// Host model of the same: every word ends up equal.
	var want uint64
	for i := 0; i < 1000; i++ {
		check(t, m.Run(e.s))
		want = (want + 3) % 1000003
	}
	syncOK(t, e.s)
	for j := 0; j < 8; j++ {
		got := readU64(t, e.c, p.Add(int64(8*j)))
		if got != want {
			// The rotation reads a neighbour's word after the barrier; the
			// words stay equal only if every block's add ran before it.
			t.Fatalf("word %d is %d after 1000 runs, want %d", j, got, want)
		}
	}
}

func TestSuperKernelRefusals(t *testing.T) {
	e := setup(t)
	k, err := e.r.RegisterKernel("sk_nop", func(*gocann.Block) {})
	check(t, err)
	p := malloc(t, e.c, 64)
	deadline := time.AfterFunc(20*time.Second, func() { panic("SuperKernel refusals hang") })
	defer deadline.Stop()

	// Not capturing.
	err = e.s.SuperKernel("idle", func(*gocann.Stream) error { return nil })
	wantErr(t, err, gocann.CodeRTStreamNotCaptured, "not capturing", `"idle"`)

	capture := func(fn func(s *gocann.Stream) error) error {
		m, err := e.s.Capture(gocann.CaptureGlobal, fn)
		if m != nil {
			m.Close()
		}
		return err
	}
	// A memset inside the range.
	err = capture(func(s *gocann.Stream) error {
		return s.SuperKernel("mixed", func(s *gocann.Stream) error {
			return s.Memset(p, 0, 64)
		})
	})
	wantErr(t, err, gocann.CodeRTParamInvalid, `"mixed"`, "kernel launches only", "memset")
	// A nested range.
	err = capture(func(s *gocann.Stream) error {
		return s.SuperKernel("outer", func(s *gocann.Stream) error {
			return s.SuperKernel("inner", func(*gocann.Stream) error { return nil })
		})
	})
	wantErr(t, err, gocann.CodeRTParamInvalid, `"outer"`, `"inner"`, "do not nest")
	// A refused launch leaves the capture usable; the kernel before it stays.
	m, err := e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		return s.SuperKernel("one", func(s *gocann.Stream) error {
			if err := s.Launch(k, 4); err != nil {
				return err
			}
			if err := s.Memset(p, 0, 64); err == nil {
				t.Error("a memset in a SuperKernel was taken")
			}
			return nil
		})
	})
	check(t, err)
	check(t, m.Execute(context.Background()))
	m.Close()
}

// BenchmarkSuperKernel compares 100 empty 8-block kernels run as the
// sub-kernels of one SuperKernel with the same kernels replayed as 100
// tasks of a model: ns/sub-kernel is a run's time over 100, x-separate the
// SuperKernel's over the separate tasks' (at most 1/3 is the goal).
func BenchmarkSuperKernel(b *testing.B) {
	x := openBench(b, `{}`)
	s, k := x.stream(b), x.empty(b)
	launches := func(s *gocann.Stream) error {
		for i := 0; i < 100; i++ {
			if err := s.Launch(k, 8); err != nil {
				return err
			}
		}
		return nil
	}
	models := map[string]func(s *gocann.Stream) error{
		"separate": launches,
		"superkernel": func(s *gocann.Stream) error {
			return s.SuperKernel("empty100", launches)
		},
	}
	var separate float64 // the in-run baseline: ns per separate task
	for _, name := range []string{"separate", "superkernel"} {
		b.Run(name, func(b *testing.B) {
			m, err := s.Capture(gocann.CaptureGlobal, models[name])
			if err != nil {
				b.Fatal(err)
			}
			defer m.Close()
			for i := 0; i < 3; i++ { // warm the workers
				m.Run(s)
			}
			if err := s.SynchronizeTimeout(time.Minute); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := m.Run(s); err != nil {
					b.Fatal(err)
				}
			}
			if err := s.SynchronizeTimeout(time.Minute); err != nil {
				b.Fatal(err)
			}
			per := float64(b.Elapsed().Nanoseconds()) / float64(b.N) / 100
			b.ReportMetric(per, "ns/sub-kernel")
			if name == "separate" {
				separate = per
			} else if separate > 0 {
				b.ReportMetric(per/separate, "x-separate")
			}
		})
	}
}

// TestSuperKernelTaskGroup checks that task groups and SuperKernel ranges
// do not nest, and that a range without launches records nothing.
func TestSuperKernelTaskGroup(t *testing.T) {
	e := setup(t)
	m, err := e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		check(t, s.BeginTaskGroup())
		err := s.SuperKernel("in_group", func(*gocann.Stream) error { return nil })
		wantErr(t, err, gocann.CodeStreamTaskGroupStatus, "task group", `"in_group"`)
		if _, err := s.EndTaskGroup(); err != nil {
			return err
		}
		return s.SuperKernel("group_in", func(s *gocann.Stream) error {
			wantErr(t, s.BeginTaskGroup(), gocann.CodeStreamTaskGroupStatus, `"group_in"`, "task group cannot begin")
			return nil
		})
	})
	check(t, err)
	defer m.Close()
	streams, err := m.Streams()
	check(t, err)
	if n := len(streams[0].Tasks()); n != 0 {
		t.Fatalf("an empty SuperKernel and an empty task group recorded %d tasks", n)
	}
}

// TestSuperKernelFault checks that a sub-kernel's trap fails the task with
// an AI-core code and a message naming the SuperKernel and its
// sub-kernels, without hanging the blocks at the barrier, and that the
// task's kernel cannot be replaced.
func TestSuperKernelFault(t *testing.T) {
	e := setup(t)
	deadline := time.AfterFunc(20*time.Second, func() { panic("a failing SuperKernel hangs") })
	defer deadline.Stop()
	nop, err := e.r.RegisterKernel("sk_nop2", func(*gocann.Block) {})
	check(t, err)
	boom, err := e.r.RegisterKernel("sk_boom", func(b *gocann.Block) {
		if b.Idx() == 2 {
			b.Trap("sk_boom block 2")
		}
	})
	check(t, err)
	m, err := e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		return s.SuperKernel("faulty", func(s *gocann.Stream) error {
			for _, k := range []*gocann.Kernel{nop, boom, nop} {
				if err := s.Launch(k, 4); err != nil {
					return err
				}
			}
			return nil
		})
	})
	check(t, err)
	defer m.Close()
	check(t, m.Run(e.s))
	err = e.s.SynchronizeTimeout(long)
	if err == nil {
		t.Fatal("a SuperKernel whose sub-kernel traps completed")
	}
	for _, sub := range []string{`"faulty"`, "sk_boom<<<4>>>", "sk_boom block 2"} {
		if !strings.Contains(err.Error(), sub) {
			t.Errorf("fault %q lacks %q", err, sub)
		}
	}
	streams, err := m.Streams()
	check(t, err)
	task := streams[0].Tasks()[0]
	err = task.SetParams(gocann.TaskParams{Type: gocann.TaskKernel, Kernel: nop, Blocks: 1})
	wantErr(t, err, gocann.CodeRTParamInvalid, `SuperKernel "faulty"`, "cannot be replaced")
}

// TestSuperKernelTooWide checks that a SuperKernel wider than the chip's
// AI cores, whose blocks must all run at once, is refused at its end.
func TestSuperKernelTooWide(t *testing.T) {
	e := setup(t)
	k, err := e.r.RegisterKernel("wide", func(*gocann.Block) {})
	check(t, err)
	m, err := e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		err := s.SuperKernel("wide", func(s *gocann.Stream) error { return s.Launch(k, 25) })
		wantErr(t, err, gocann.CodeRTParamInvalid, `SuperKernel "wide" is 25 blocks wide`, "24 AI cores")
		return nil
	})
	check(t, err)
	m.Close()
}

// TestSuperKernelOtherStreamGroup checks that a kernel launch inside a
// SuperKernel is refused while another captured stream has a task group
// open, as any task of another stream is.
func TestSuperKernelOtherStreamGroup(t *testing.T) {
	e := setup(t)
	k, err := e.r.RegisterKernel("k", func(*gocann.Block) {})
	check(t, err)
	other := e.newStream(t)
	ev, err := e.c.NewEvent(gocann.EventSync)
	check(t, err)
	ev2, err := e.c.NewEvent(gocann.EventSync)
	check(t, err)
	m, err := e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		check(t, s.Record(ev))
		check(t, other.WaitEvent(ev))
		err := other.SuperKernel("other", func(o *gocann.Stream) error {
			check(t, s.BeginTaskGroup())
			err := o.Launch(k, 2)
			wantErr(t, err, gocann.CodeStreamTaskGroupIntr, "task group is open")
			_, gerr := s.EndTaskGroup()
			check(t, gerr)
			return o.Launch(k, 2)
		})
		check(t, err)
		check(t, other.Record(ev2))
		return s.WaitEvent(ev2)
	})
	check(t, err)
	check(t, m.Execute(context.Background()))
	m.Close()
}
