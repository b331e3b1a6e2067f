package gocann_test

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/gocann/gocann"
)

// Benchmarks report ns/op for the runtime and, in the same run, a baseline
// (metric "base-ns/op" or "base-GB/s") and their ratio ("x-base": runtime
// cost over baseline cost, or runtime bandwidth over baseline bandwidth).
//
// Baselines: a bare goroutine hand-off (one-way: items streamed through an
// unbuffered channel; round trip: ping-pong over two channels), a memmove
// split over all CPUs, and a plain 2-goroutine loop.

// timeIt runs fn once to warm up (first touch of memory, goroutine
// start), then until at least 200ms have passed, and returns ns per call.
func timeIt(fn func(n int)) float64 {
	fn(1)
	n := 1
	for {
		start := time.Now()
		fn(n)
		d := time.Since(start)
		if d > 200*time.Millisecond {
			return float64(d.Nanoseconds()) / float64(n)
		}
		n *= 2
	}
}

func handoffOneWay() float64 {
	return timeIt(func(n int) {
		ch := make(chan int)
		done := make(chan struct{})
		go func() {
			for range ch {
			}
			close(done)
		}()
		for i := range n {
			ch <- i
		}
		close(ch)
		<-done
	})
}

func handoffRoundTrip() float64 {
	return timeIt(func(n int) {
		ping, pong := make(chan int), make(chan int)
		go func() {
			for v := range ping {
				pong <- v
			}
		}()
		for i := range n {
			ping <- i
			<-pong
		}
		close(ping)
	})
}

// report adds the baseline and the ratio to a latency benchmark.
func report(b *testing.B, base float64, elapsed time.Duration, ops int) {
	ns := float64(elapsed.Nanoseconds()) / float64(ops)
	b.ReportMetric(base, "base-ns/op")
	b.ReportMetric(ns/base, "x-base")
}

type bench struct {
	r   *gocann.Runtime
	dev *gocann.Device
	ctx *gocann.Context
}

func openBench(b *testing.B, cfg string) *bench {
	b.Helper()
	r, err := gocann.Open(gocann.WithConfigJSON([]byte(cfg)))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { r.Close() })
	d, err := r.SetDevice(0)
	if err != nil {
		b.Fatal(err)
	}
	c, err := d.Context()
	if err != nil {
		b.Fatal(err)
	}
	return &bench{r: r, dev: d, ctx: c}
}

func (x *bench) stream(b *testing.B) *gocann.Stream {
	s, err := x.ctx.NewStream()
	if err != nil {
		b.Fatal(err)
	}
	return s
}

func (x *bench) empty(b *testing.B) *gocann.Kernel {
	k, err := x.r.RegisterKernel("empty", func(*gocann.Block) {})
	if err != nil {
		b.Fatal(err)
	}
	return k
}

func must(b *testing.B, err error) {
	if err != nil {
		b.Fatal(err)
	}
}

// BenchmarkEnqueue is the host cost of queueing a kernel launch, measured
// while the queue is held by a notify wait so execution does not compete.
// Baseline: one-way goroutine hand-off.
func BenchmarkEnqueue(b *testing.B) {
	x := openBench(b, `{"simulator":{"queue_depth":4096}}`)
	s, k := x.stream(b), x.empty(b)
	n, err := x.ctx.NewNotify()
	must(b, err)
	base := handoffOneWay()
	const batch = 2000
	var spent time.Duration
	ops := 0
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		must(b, s.WaitNotify(n, 0))
		b.StartTimer()
		start := time.Now()
		for range batch {
			if err := s.Launch(k, 1, gocann.U64(1)); err != nil {
				b.Fatal(err)
			}
		}
		spent += time.Since(start)
		ops += batch
		b.StopTimer()
		other := x.stream(b)
		must(b, other.RecordNotify(n))
		must(b, s.Synchronize(context.Background()))
		must(b, other.Close())
		b.StartTimer()
	}
	b.ReportMetric(float64(spent.Nanoseconds())/float64(ops), "ns/task")
	report(b, base, spent, ops)
}

// BenchmarkThroughput is empty kernels per second, queued and run on 1 and
// 4 streams. Baseline: one-way goroutine hand-off.
func BenchmarkThroughput(b *testing.B) {
	base := handoffOneWay()
	for _, streams := range []int{1, 4} {
		b.Run(fmt.Sprintf("streams=%d", streams), func(b *testing.B) {
			x := openBench(b, `{}`)
			k := x.empty(b)
			ss := make([]*gocann.Stream, streams)
			for i := range ss {
				ss[i] = x.stream(b)
			}
			const batch = 1000
			start := time.Now()
			ops := 0
			for b.Loop() {
				for i := range batch {
					if err := ss[i%streams].Launch(k, 1); err != nil {
						b.Fatal(err)
					}
				}
				for _, s := range ss {
					must(b, s.Synchronize(context.Background()))
				}
				ops += batch
			}
			el := time.Since(start)
			b.ReportMetric(float64(el.Nanoseconds())/float64(ops), "ns/task")
			report(b, base, el, ops)
		})
	}
}

// BenchmarkLaunchSync is a launch of an empty kernel plus a stream
// synchronize. Baseline: goroutine round trip.
func BenchmarkLaunchSync(b *testing.B) {
	x := openBench(b, `{}`)
	s, k := x.stream(b), x.empty(b)
	base := handoffRoundTrip()
	b.ReportAllocs()
	start := time.Now()
	ops := 0
	for b.Loop() {
		if err := s.Launch(k, 1); err != nil {
			b.Fatal(err)
		}
		if err := s.Synchronize(context.Background()); err != nil {
			b.Fatal(err)
		}
		ops++
	}
	report(b, base, time.Since(start), ops)
}

// BenchmarkCrossStream is an event recorded on one stream and waited for
// by another, whose following task the host waits for. Baseline: goroutine
// round trip.
func BenchmarkCrossStream(b *testing.B) {
	x := openBench(b, `{}`)
	s1, s2, k := x.stream(b), x.stream(b), x.empty(b)
	ev, err := x.ctx.NewEvent(gocann.EventSync)
	must(b, err)
	base := handoffRoundTrip()
	b.ReportAllocs()
	start := time.Now()
	ops := 0
	for b.Loop() {
		must(b, s1.Record(ev))
		must(b, s2.WaitEvent(ev))
		must(b, s2.Launch(k, 1))
		must(b, s2.Synchronize(context.Background()))
		ops++
	}
	report(b, base, time.Since(start), ops)
}

// BenchmarkHostFunc is a host callback queued and waited for. Baseline:
// goroutine round trip.
func BenchmarkHostFunc(b *testing.B) {
	x := openBench(b, `{}`)
	s := x.stream(b)
	base := handoffRoundTrip()
	calls := 0
	fn := func() { calls++ }
	b.ReportAllocs()
	start := time.Now()
	ops := 0
	for b.Loop() {
		must(b, s.LaunchHostFunc(fn))
		must(b, s.Synchronize(context.Background()))
		ops++
	}
	report(b, base, time.Since(start), ops)
	if calls != ops {
		b.Fatalf("%d callbacks for %d launches", calls, ops)
	}
}

// splitCopy is the bandwidth baseline: memmove split over all CPUs for
// 512 KiB and more, a single memmove below.
func splitCopy(dst, src []byte) {
	parts := runtime.GOMAXPROCS(0)
	if len(src) < 512<<10 || parts < 2 {
		copy(dst, src)
		return
	}
	var wg sync.WaitGroup
	per := (len(src) + parts - 1) / parts
	for lo := 0; lo < len(src); lo += per {
		hi := min(lo+per, len(src))
		wg.Add(1)
		go func() { copy(dst[lo:hi], src[lo:hi]); wg.Done() }()
	}
	wg.Wait()
}

func gbps(size int, ns float64) float64 { return float64(size) / ns }

// runCopy measures one copy op of size bytes as the sub-benchmark name, in
// GB/s and against base, the host's own copy rate. The first op is not
// timed: it touches both ends and fills the pools.
func runCopy(b *testing.B, name string, size int, base float64, op func() error) {
	b.Run(fmt.Sprintf("%s/%s", name, sizeName(size)), func(b *testing.B) {
		b.SetBytes(int64(size))
		if err := op(); err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		ops := 0
		for b.Loop() {
			if err := op(); err != nil {
				b.Fatal(err)
			}
			ops++
		}
		got := gbps(size, float64(time.Since(start).Nanoseconds())/float64(ops))
		b.ReportMetric(got, "GB/s")
		b.ReportMetric(base, "base-GB/s")
		b.ReportMetric(got/base, "x-base")
	})
}

// BenchmarkCopy measures H2D, D2H and D2D copies: synchronous, and
// asynchronous with page-locked and with pageable host memory. Baseline:
// memmove split over all CPUs between two host buffers of the same size.
func BenchmarkCopy(b *testing.B) {
	x := openBench(b, `{}`)
	s := x.stream(b)
	for _, size := range []int{4 << 10, 1 << 20, 64 << 20, 256 << 20} {
		d1, err := x.ctx.Malloc(int64(size), gocann.HugeFirst)
		must(b, err)
		d2, err := x.ctx.Malloc(int64(size), gocann.HugeFirst)
		must(b, err)
		pinned, err := x.r.MallocHost(size)
		must(b, err)
		// Written first: an untouched source reads the kernel's shared
		// zero page, which is always in cache and flatters any copy.
		pageable := make([]byte, size)
		other := make([]byte, size)
		for i := range pageable {
			pageable[i], other[i] = byte(i), byte(i>>8)
		}
		must(b, x.ctx.Memset(d1, 1, int64(size)))
		must(b, x.ctx.Memset(d2, 2, int64(size)))
		clear(pinned.Bytes())
		base := gbps(size, timeIt(func(n int) {
			for range n {
				splitCopy(other, pageable)
			}
		}))
		run := func(name string, op func() error) { runCopy(b, name, size, base, op) }
		sync := func(f func() error) func() error {
			return func() error {
				if err := f(); err != nil {
					return err
				}
				return s.Synchronize(context.Background())
			}
		}
		run("H2D/sync", func() error { return x.ctx.CopyToDevice(d1, pageable) })
		run("D2H/sync", func() error { return x.ctx.CopyFromDevice(pageable, d1) })
		run("D2D/sync", func() error { return x.ctx.CopyDevice(d2, d1, int64(size)) })
		run("H2D/pinned", sync(func() error { return s.CopyHostToDevice(d1, pinned, 0, int64(size)) }))
		run("D2H/pinned", sync(func() error { return s.CopyDeviceToHost(pinned, 0, d1, int64(size)) }))
		run("D2D/async", sync(func() error { return s.CopyDeviceToDevice(d2, d1, int64(size)) }))
		run("H2D/pageable", sync(func() error { return s.CopyToDevice(d1, pageable) }))
		run("D2H/pageable", sync(func() error { return s.CopyFromDevice(pageable, d1) }))
		must(b, x.ctx.Free(d1))
		must(b, x.ctx.Free(d2))
		must(b, pinned.Close())
	}
}

func sizeName(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%dMiB", n>>20)
	}
	return fmt.Sprintf("%dKiB", n>>10)
}

// BenchmarkVectorAdd adds two vectors of 16M float32 with a kernel over 8
// and over 48 blocks. Baseline: the same loop on 2 goroutines.
func BenchmarkVectorAdd(b *testing.B) {
	const n = 16 << 20
	x := openBench(b, `{}`)
	s := x.stream(b)
	vadd, err := x.r.RegisterKernel("vadd", func(blk *gocann.Block) {
		n := int(blk.Arg(3).U64())
		lo, hi := blk.Span(n)
		xs := gocann.View[float32](blk, blk.Arg(0).Ptr(), n)[lo:hi]
		ys := gocann.View[float32](blk, blk.Arg(1).Ptr(), n)[lo:hi]
		zs := gocann.View[float32](blk, blk.Arg(2).Ptr(), n)[lo:hi]
		for i := range zs {
			zs[i] = xs[i] + ys[i]
		}
	})
	must(b, err)
	var bufs [3]gocann.DevPtr
	for i := range bufs {
		bufs[i], err = x.ctx.Malloc(4*n, gocann.HugeFirst)
		must(b, err)
		must(b, x.ctx.Memset(bufs[i], byte(i), 4*n))
	}
	hx, hy, hz := make([]float32, n), make([]float32, n), make([]float32, n)
	base := timeIt(func(iters int) {
		for range iters {
			var wg sync.WaitGroup
			for half := range 2 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					lo, hi := half*n/2, (half+1)*n/2
					xs, ys, zs := hx[lo:hi], hy[lo:hi], hz[lo:hi]
					for i := range zs {
						zs[i] = xs[i] + ys[i]
					}
				}()
			}
			wg.Wait()
		}
	})
	for _, blocks := range []uint32{8, 48} {
		b.Run(fmt.Sprintf("blocks=%d", blocks), func(b *testing.B) {
			b.SetBytes(3 * 4 * n)
			start := time.Now()
			ops := 0
			for b.Loop() {
				must(b, s.Launch(vadd, blocks, gocann.Ptr(bufs[0]), gocann.Ptr(bufs[1]), gocann.Ptr(bufs[2]), gocann.U64(n)))
				must(b, s.Synchronize(context.Background()))
				ops++
			}
			ns := float64(time.Since(start).Nanoseconds()) / float64(ops)
			b.ReportMetric(base/1e6, "base-ms/op")
			b.ReportMetric(base/ns, "x-base")
		})
	}
}

// BenchmarkReplay compares running 100 small tasks (empty one-block
// kernels) by replaying a captured model with submitting them one by one,
// each followed by a stream synchronize. It reports the cost per task of
// both and their ratio ("x-eager": replay over eager).
func BenchmarkReplay(b *testing.B) {
	const tasks = 100
	x := openBench(b, `{}`)
	s, k := x.stream(b), x.empty(b)
	eager := timeIt(func(n int) {
		for range n {
			for range tasks {
				must(b, s.Launch(k, 1))
			}
			must(b, s.Synchronize(context.Background()))
		}
	}) / tasks
	m, err := x.stream(b).Capture(gocann.CaptureGlobal, func(c *gocann.Stream) error {
		for range tasks {
			if err := c.Launch(k, 1); err != nil {
				return err
			}
		}
		return nil
	})
	must(b, err)
	b.Cleanup(func() { m.Close() })
	b.ReportAllocs()
	start := time.Now()
	ops := 0
	for b.Loop() {
		must(b, m.Run(s))
		must(b, s.Synchronize(context.Background()))
		ops++
	}
	replay := float64(time.Since(start).Nanoseconds()) / float64(ops*tasks)
	b.ReportMetric(eager, "eager-ns/task")
	b.ReportMetric(replay, "replay-ns/task")
	b.ReportMetric(replay/eager, "x-eager")
}
