package gocann_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gocann/gocann"
)

const (
	skA3Config = `{"simulator":{"hbm_size":1073741824,"soc_name":"Ascend910_9391"}}`
	skA2Config = `{"simulator":{"hbm_size":1073741824,"soc_name":"Ascend910B1"}}`
)

// runSK captures the launches fn makes as one SuperKernel on e's stream,
// runs it once and returns how long the run took and its error.
func runSK(t *testing.T, e env, fn func(s *gocann.Stream) error) (time.Duration, error) {
	t.Helper()
	m, err := e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		return s.SuperKernel("sk", fn)
	})
	check(t, err)
	defer m.Close()
	start := time.Now()
	check(t, m.Run(e.s))
	err = e.s.SynchronizeTimeout(long)
	return time.Since(start), err
}

// tailKernel registers a kernel whose blocks sleep 150 ms, after
// SetNextTaskStart if set is.
func tailKernel(t *testing.T, e env, name string, set bool) *gocann.Kernel {
	k, err := e.r.RegisterKernel(name, func(b *gocann.Block) {
		if set {
			b.SetNextTaskStart()
		}
		time.Sleep(150 * time.Millisecond)
	})
	check(t, err)
	return k
}

func TestSuperKernelOverlap(t *testing.T) {
	const tail = 150 * time.Millisecond
	for _, c := range []struct {
		name, cfg string
		set       bool
		overlap   bool
	}{
		{"A3 with SetNextTaskStart", skA3Config, true, true},
		{"A3 without", skA3Config, false, false},
		{"A2 with SetNextTaskStart", skA2Config, true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := setup(t, c.cfg)
			k := tailKernel(t, e, "tail", c.set)
			took, err := runSK(t, e, func(s *gocann.Stream) error {
				if err := s.Launch(k, 1); err != nil {
					return err
				}
				return s.Launch(k, 1)
			})
			check(t, err)
			if c.overlap && took >= 2*tail-tail/3 {
				t.Errorf("two 150 ms tails after SetNextTaskStart took %v, want clearly less than %v", took, 2*tail)
			}
			if !c.overlap && took < 2*tail {
				t.Errorf("two 150 ms sub-kernels that may not overlap took %v, want at least %v", took, 2*tail)
			}
		})
	}
}

func TestSuperKernelWaitPreTaskEnd(t *testing.T) {
	e := setup(t, skA3Config)
	p := malloc(t, e.c, 64)
	check(t, e.s.Memset(p, 0, 64))
	syncOK(t, e.s)
	first, err := e.r.RegisterKernel("first", func(b *gocann.Block) {
		b.SetNextTaskStart()
		time.Sleep(50 * time.Millisecond)
		b.Store64(b.Arg(0).Ptr().Add(int64(8*b.Idx())), 1)
	})
	check(t, err)
	for _, wait := range []bool{true, false} {
		second, err := e.r.RegisterKernel(fmt.Sprintf("second_%v", wait), func(b *gocann.Block) {
			if wait {
				b.WaitPreTaskEnd()
			}
			var sum uint64
			for j := 0; j < 4; j++ {
				sum += b.Load64(b.Arg(0).Ptr().Add(int64(8 * j)))
			}
			b.Store64(b.Arg(0).Ptr().Add(int64(32+8*b.Idx())), sum)
		})
		check(t, err)
		check(t, e.s.Memset(p, 0, 64))
		syncOK(t, e.s)
		_, err = runSK(t, e, func(s *gocann.Stream) error {
			if err := s.Launch(first, 4, gocann.Ptr(p)); err != nil {
				return err
			}
			return s.Launch(second, 2, gocann.Ptr(p))
		})
		check(t, err)
		want := uint64(4) // WaitPreTaskEnd: every word the sub-kernel before wrote
		if !wait {
			want = 0 // it starts while the tails sleep
		}
		for j := 0; j < 2; j++ {
			if got := readU64(t, e.c, p.Add(int64(32+8*j))); got != want {
				t.Errorf("WaitPreTaskEnd %v: block %d saw %d of the 4 words the sub-kernel before writes after SetNextTaskStart, want %d", wait, j, got, want)
			}
		}
	}
}

// TestSuperKernelContract checks each breach of the calls' contract on an
// Atlas A3: the task fails with an AI-core exception naming the
// SuperKernel, the sub-kernel, the cores and the counts, in bounded time;
// on an Atlas A2 the same kernels run, the calls doing nothing.
func TestSuperKernelContract(t *testing.T) {
	deadline := time.AfterFunc(60*time.Second, func() { panic("a SuperKernel breaking the contract hangs") })
	defer deadline.Stop()
	for _, cfg := range []string{skA3Config, skA2Config} {
		e := setup(t, cfg)
		some, err := e.r.RegisterKernel("some", func(b *gocann.Block) {
			if b.Idx() == 0 {
				b.SetNextTaskStart()
			}
		})
		check(t, err)
		twice, err := e.r.RegisterKernel("twice", func(b *gocann.Block) {
			b.SetNextTaskStart()
			if b.Idx() == 1 {
				b.SetNextTaskStart()
			}
		})
		check(t, err)
		waitSome, err := e.r.RegisterKernel("wait_some", func(b *gocann.Block) {
			if b.Idx() != 2 {
				b.WaitPreTaskEnd()
			}
		})
		check(t, err)
		nop, err := e.r.RegisterKernel("nop", func(*gocann.Block) {})
		check(t, err)
		for _, c := range []struct {
			k    *gocann.Kernel
			subs []string
		}{
			{some, []string{`SuperKernel "sk" sub-kernel 1 ("some", 3 blocks)`, "cores [0] called SetNextTaskStart and cores [1 2] did not", "[1 0 0]"}},
			{twice, []string{`sub-kernel 1 ("twice", 3 blocks)`, "cores [1] called SetNextTaskStart more than once", "[1 2 1]"}},
			{waitSome, []string{`sub-kernel 1 ("wait_some", 3 blocks)`, "cores [0 1] called WaitPreTaskEnd and cores [2] did not", "[1 1 0]"}},
		} {
			_, err := runSK(t, e, func(s *gocann.Stream) error {
				if err := s.Launch(nop, 2); err != nil {
					return err
				}
				return s.Launch(c.k, 3)
			})
			if cfg == skA2Config {
				check(t, err)
				continue
			}
			wantErr(t, err, gocann.CodeRTAICoreException, c.subs...)
			if !strings.Contains(err.Error(), "SuperKernel") {
				t.Errorf("%v does not name the SuperKernel", err)
			}
		}
	}
}

// TestSuperKernelCallsOutside checks that the calls do nothing in a
// kernel launched alone, on an Atlas A3.
func TestSuperKernelCallsOutside(t *testing.T) {
	e := setup(t, skA3Config)
	k, err := e.r.RegisterKernel("both", func(b *gocann.Block) {
		b.WaitPreTaskEnd()
		b.SetNextTaskStart()
		b.SetNextTaskStart()
	})
	check(t, err)
	check(t, e.s.Launch(k, 4))
	syncOK(t, e.s)
}
