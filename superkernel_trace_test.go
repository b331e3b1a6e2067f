package gocann_test

import (
	"testing"
	"time"

	"github.com/gocann/gocann"
	"github.com/gocann/gocann/hal"
)

// TestSuperKernelTrace checks that the device trace shows a replayed
// SuperKernel inside its model run with a line per sub-kernel: names,
// widths, in order, inside the SuperKernel's span, one after the other
// behind barriers, overlapping where SetNextTaskStart takes effect.
func TestSuperKernelTrace(t *testing.T) {
	const nap = 20 * time.Millisecond
	for _, c := range []struct {
		name, cfg string
		overlap   bool
	}{{"A2 barriers", skA2Config, false}, {"A3 early start", skA3Config, true}} {
		t.Run(c.name, func(t *testing.T) {
			e := setup(t, c.cfg)
			k := func(name string, set bool) *gocann.Kernel {
				k, err := e.r.RegisterKernel(name, func(b *gocann.Block) {
					if set {
						b.SetNextTaskStart()
					}
					time.Sleep(nap)
				})
				check(t, err)
				return k
			}
			first, second, third := k("first", true), k("second", true), k("third", false)
			m, err := e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
				check(t, s.Launch(first, 1))
				return s.SuperKernel("fused", func(s *gocann.Stream) error {
					check(t, s.Launch(first, 1))
					check(t, s.Launch(second, 2))
					return s.Launch(third, 1)
				})
			})
			check(t, err)
			defer m.Close()
			check(t, m.Run(e.s))
			check(t, e.s.SynchronizeTimeout(long))
			recs, err := e.d.Trace()
			check(t, err)

			var run, sk *hal.Record
			var subs []hal.Record
			for i := range recs {
				r := &recs[i]
				switch {
				case r.Op == 0 && r.Kind == hal.TaskGraph:
					run = r
				case r.Op > 0 && r.Sub == 0:
					sk = r
				case r.Op > 0:
					subs = append(subs, *r)
				}
			}
			if run == nil || sk == nil {
				t.Fatalf("trace %+v: want the model run and its SuperKernel", recs)
			}
			if sk.Name != "fused" || sk.Kind != hal.TaskKernel || sk.Blocks != 2 || sk.Op != 2 || sk.Stream != 0 ||
				sk.Queue != run.Queue || sk.Seq != run.Seq || sk.Failed {
				t.Errorf("SuperKernel record %+v, want kernel \"fused\" of 2 blocks, op 2 of stream 0 of run %d/%d", *sk, run.Queue, run.Seq)
			}
			if sk.Start < run.Start || sk.End > run.End {
				t.Errorf("SuperKernel [%d, %d] outside its run [%d, %d]", sk.Start, sk.End, run.Start, run.End)
			}
			if d := sk.End - sk.Start; !c.overlap && d < int64(3*nap) {
				t.Errorf("SuperKernel of three %v sub-kernels behind barriers took %v", nap, time.Duration(d))
			}
			want := []struct {
				name   string
				blocks uint32
			}{{"first", 1}, {"second", 2}, {"third", 1}}
			if len(subs) != len(want) {
				t.Fatalf("sub-kernel records %+v, want %d", subs, len(want))
			}
			for i, s := range subs {
				if s.Name != want[i].name || s.Blocks != want[i].blocks || s.Sub != int32(i+1) || s.Op != sk.Op || s.Seq != sk.Seq {
					t.Errorf("sub-kernel %d: %+v, want %s of %d blocks, Sub %d of op %d", i, s, want[i].name, want[i].blocks, i+1, sk.Op)
				}
				if s.Start < sk.Start || s.End > sk.End || s.End-s.Start < int64(nap) {
					t.Errorf("sub-kernel %d [%d, %d]: outside the SuperKernel [%d, %d], or shorter than its %v", i, s.Start, s.End, sk.Start, sk.End, nap)
				}
				if i == 0 {
					continue
				}
				if p := subs[i-1]; s.Start < p.Start {
					t.Errorf("sub-kernel %d starts at %d, before %d did at %d", i, s.Start, i-1, p.Start)
				} else if c.overlap && s.Start >= p.End {
					t.Errorf("sub-kernel %d starts at %d, after %d ended at %d: want it started beside the tail", i, s.Start, i-1, p.End)
				} else if !c.overlap && s.Start < p.End {
					t.Errorf("sub-kernel %d starts at %d, before %d ended at %d, across a barrier", i, s.Start, i-1, p.End)
				}
			}
		})
	}
}
