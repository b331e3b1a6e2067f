package gocann_test

import (
	"context"
	"testing"

	"github.com/gocann/gocann"
)

// BenchmarkPeerCopy measures device-to-device copies from device 0 to
// device 1 with peer access on, synchronous on device 0 and asynchronous
// on a stream of device 1. Baseline (base-GB/s, x-base): memmove split over
// all CPUs between two host buffers of the same size; the target is 0.9.
func BenchmarkPeerCopy(b *testing.B) {
	x := openBench(b, `{}`)
	d1, err := x.r.SetDevice(1)
	must(b, err)
	c1, err := d1.Context()
	must(b, err)
	s1, err := c1.NewStream()
	must(b, err)
	must(b, x.dev.EnablePeerAccess(1))
	for _, size := range []int{1 << 20, 64 << 20, 256 << 20} {
		src, err := x.ctx.Malloc(int64(size), gocann.HugeFirst)
		must(b, err)
		dst, err := c1.Malloc(int64(size), gocann.HugeFirst)
		must(b, err)
		must(b, x.ctx.Memset(src, 1, int64(size)))
		must(b, c1.Memset(dst, 2, int64(size)))
		a, c := make([]byte, size), make([]byte, size)
		for i := range a {
			a[i], c[i] = byte(i), byte(i>>8)
		}
		base := gbps(size, timeIt(func(n int) {
			for range n {
				splitCopy(c, a)
			}
		}))
		run := func(name string, op func() error) { runCopy(b, name, size, base, op) }
		run("sync", func() error { return x.ctx.CopyDevice(dst, src, int64(size)) })
		run("async", func() error {
			if err := s1.CopyDeviceToDevice(dst, src, int64(size)); err != nil {
				return err
			}
			return s1.Synchronize(context.Background())
		})
		must(b, x.ctx.Free(src))
		must(b, c1.Free(dst))
	}
}
