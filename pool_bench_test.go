package gocann_test

import (
	"testing"
	"time"

	"github.com/gocann/gocann"
	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/sim"
)

// simEnv is setup over a simulator the test holds, so it can read the
// device allocator's counts.
func simEnv(t testing.TB) (env, *sim.Backend) {
	var sb *sim.Backend
	r, err := gocann.Open(gocann.WithBackend(func(gocann.Config) (hal.Backend, error) {
		b, err := sim.New(sim.Config{Devices: 1, Profile: hal.Props{HBMSize: 1 << 30}})
		sb = b
		return b, err
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	d, err := r.SetDevice(0)
	if err != nil {
		t.Fatal(err)
	}
	c, err := d.Context()
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	return env{r: r, d: d, c: c, s: s}, sb
}

func memStats(t testing.TB, b *sim.Backend) sim.MemStats {
	m, err := b.MemStats(0)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// poolCycle allocates and frees 1 MiB of p on s n times.
func poolCycle(t testing.TB, s *gocann.Stream, p *gocann.MemPool, n int) {
	for range n {
		a, err := s.MallocAsync(p, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.FreeAsync(a); err != nil {
			t.Fatal(err)
		}
	}
}

func TestMemPoolSteadyStateNoSysCalls(t *testing.T) {
	// Once warm, a pool's allocate-and-free cycle on one stream reaches
	// neither the device's allocator nor the OS; aclrtMalloc + aclrtFree
	// goes to the allocator every time.
	e, sb := simEnv(t)
	p, err := e.d.NewMemPool(0)
	check(t, err)
	defer p.Close()
	poolCycle(t, e.s, p, 1)
	before := memStats(t, sb)
	poolCycle(t, e.s, p, 1000)
	if after := memStats(t, sb); after != before {
		t.Errorf("1000 pool cycles changed the device allocator's counts from %+v to %+v, want no calls and no system calls", before, after)
	}
	before = memStats(t, sb)
	for range 10 {
		a, err := e.c.Malloc(1<<20, gocann.HugeFirst)
		check(t, err)
		check(t, e.c.Free(a))
	}
	if after := memStats(t, sb); after.Allocs != before.Allocs+10 || after.Frees != before.Frees+10 {
		t.Errorf("10 Malloc + Free cycles moved the allocator's counts from %+v to %+v, want 10 allocations and 10 frees", before, after)
	}
	syncOK(t, e.s)
}

// BenchmarkMemPoolMallocFree: MallocAsync + FreeAsync of 1 MiB on one
// stream, against Malloc + Free of 1 MiB measured in the same run (target:
// x-base <= 0.2), and the system calls per cycle (target 0).
func BenchmarkMemPoolMallocFree(b *testing.B) {
	e, sb := simEnv(b)
	p, err := e.d.NewMemPool(0)
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	base := timeIt(func(n int) {
		for range n {
			a, err := e.c.Malloc(1<<20, gocann.HugeFirst)
			if err != nil {
				b.Fatal(err)
			}
			if err := e.c.Free(a); err != nil {
				b.Fatal(err)
			}
		}
	})
	poolCycle(b, e.s, p, 1)
	before := memStats(b, sb)
	b.ResetTimer()
	start := time.Now()
	poolCycle(b, e.s, p, b.N)
	report(b, base, time.Since(start), b.N)
	b.StopTimer()
	after := memStats(b, sb)
	b.ReportMetric(float64(after.SysCalls-before.SysCalls)/float64(b.N), "syscalls/op")
	b.ReportMetric(float64(after.Allocs+after.Frees-before.Allocs-before.Frees)/float64(b.N), "allocator-calls/op")
}
