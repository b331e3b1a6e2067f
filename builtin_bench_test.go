package gocann_test

import (
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/gocann/gocann"
)

// BenchmarkReduceSum: aclrtReduceAsync SUM of 64 MiB of float32 against a
// plain loop doing the same sum on two goroutines over the same memory,
// in the same run. Reports GB/s of each and reduce/loop (target >= 0.8).
func BenchmarkReduceSum(b *testing.B) {
	const size = 64 << 20
	const n = size / 4
	x := openBench(b, `{}`)
	s := x.stream(b)
	dst, err := x.ctx.Malloc(size, gocann.NormalOnly)
	must(b, err)
	src, err := x.ctx.Malloc(size, gocann.NormalOnly)
	must(b, err)
	dp, err := x.r.Raw().DevicePointer(dst)
	must(b, err)
	sp, err := x.r.Raw().DevicePointer(src)
	must(b, err)
	d, sv := unsafe.Slice((*float32)(dp), n), unsafe.Slice((*float32)(sp), n)
	for i := range d {
		d[i], sv[i] = 1, 0.5
	}
	loop := func() {
		var wg sync.WaitGroup
		for h := range 2 {
			wg.Go(func() {
				dd, ss := d[h*n/2:(h+1)*n/2], sv[h*n/2:(h+1)*n/2]
				for i := range dd {
					dd[i] += ss[i]
				}
			})
		}
		wg.Wait()
	}
	var red, plain time.Duration
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		must(b, s.ReduceAsync(dst, src, size, gocann.ReduceSum, gocann.DTFloat))
		must(b, s.SynchronizeTimeout(long))
		t1 := time.Now()
		loop()
		t2 := time.Now()
		red += t1.Sub(t0)
		plain += t2.Sub(t1)
	}
	b.StopTimer()
	bytes := float64(b.N) * size
	b.ReportMetric(bytes/float64(red.Nanoseconds()), "reduce-GB/s")
	b.ReportMetric(bytes/float64(plain.Nanoseconds()), "loop-GB/s")
	b.ReportMetric(float64(plain)/float64(red), "reduce/loop")
}

// BenchmarkRandomNum: aclrtRandomNumAsync of 16M float32 uniform and normal
// numbers. Reports samples per second of each.
func BenchmarkRandomNum(b *testing.B) {
	const n = 16 << 20
	x := openBench(b, `{}`)
	s := x.stream(b)
	out, err := x.ctx.Malloc(4*n, gocann.NormalOnly)
	must(b, err)
	ctr, err := x.ctx.Malloc(16, gocann.NormalOnly)
	must(b, err)
	task := func(fn gocann.RandomFunc) *gocann.RandomTask {
		return &gocann.RandomTask{Type: gocann.DTFloat, Func: fn,
			Params: [2]gocann.RandomParam{gocann.RandomFloat32(0), gocann.RandomFloat32(1)},
			Seed:   gocann.RandomValue(1, 8), Num: gocann.RandomValue(n, 8), Result: out, Counter: ctr}
	}
	uni, norm := task(gocann.RandomUniform), task(gocann.RandomNormal)
	var tu, tn time.Duration
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		must(b, s.RandomNumAsync(uni))
		must(b, s.SynchronizeTimeout(long))
		t1 := time.Now()
		must(b, s.RandomNumAsync(norm))
		must(b, s.SynchronizeTimeout(long))
		t2 := time.Now()
		tu += t1.Sub(t0)
		tn += t2.Sub(t1)
	}
	b.StopTimer()
	samples := float64(b.N) * n
	b.ReportMetric(samples/tu.Seconds()/1e6, "uniform-Msamples/s")
	b.ReportMetric(samples/tn.Seconds()/1e6, "normal-Msamples/s")
}

// BenchmarkResLimit: a 48-block kernel whose blocks each spin for 20 µs,
// launched under a 4-core stream limit and unlimited, in the same run.
// Reports the time of each launch and limited/unlimited: on this
// machine's CPUs the limit costs what its waves cost when there are more
// than 4 of them.
func BenchmarkResLimit(b *testing.B) {
	x := openBench(b, `{}`)
	free, lim := x.stream(b), x.stream(b)
	must(b, lim.SetResLimit(gocann.ResCubeCore, 4))
	k, err := x.r.RegisterKernel("spin", func(*gocann.Block) {
		for t0 := time.Now(); time.Since(t0) < 20*time.Microsecond; {
		}
	})
	must(b, err)
	var tf, tl time.Duration
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		must(b, free.Launch(k, 48))
		must(b, free.SynchronizeTimeout(long))
		t1 := time.Now()
		must(b, lim.Launch(k, 48))
		must(b, lim.SynchronizeTimeout(long))
		t2 := time.Now()
		tf += t1.Sub(t0)
		tl += t2.Sub(t1)
	}
	b.StopTimer()
	b.ReportMetric(float64(tf.Microseconds())/float64(b.N), "unlimited-µs/launch")
	b.ReportMetric(float64(tl.Microseconds())/float64(b.N), "limit4-µs/launch")
	b.ReportMetric(float64(tl)/float64(tf), "limited/unlimited")
}
