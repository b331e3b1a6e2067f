package gocann_test

import (
	"testing"
	"time"
	"unsafe"

	"github.com/gocann/gocann"
)

// BenchmarkCopyBatch: 1,000 host-to-device copies of 4 KiB as one batch
// (aclrtMemcpyBatchAsync) against the same copies queued one by one
// (aclrtMemcpyAsync), each followed by a stream synchronize, and against
// a plain memmove of the same 4 KiB pieces on the calling goroutine, in
// the same run. Reports ns per copy for each, batch/single (target <=
// 1/3) and batch/memmove: the batch cannot beat single copies by more than
// the moves themselves allow.
func BenchmarkCopyBatch(b *testing.B) {
	const n, size = 1000, 4096
	x := openBench(b, `{}`)
	s := x.stream(b)
	host, err := x.r.MallocHost(n * size)
	must(b, err)
	dev, err := x.ctx.Malloc(n*size, gocann.NormalOnly)
	must(b, err)
	dp, err := x.r.Raw().DevicePointer(dev)
	must(b, err)
	cs := make([]gocann.BatchCopy, n)
	for i := range cs {
		cs[i] = gocann.BatchCopy{Dst: unsafe.Add(dp, i*size), Src: unsafe.Add(host.Pointer(), i*size), DestMax: size, Size: size}
	}
	attr := []gocann.BatchAttr{{Dst: gocann.MemLoc{Type: gocann.MemLocDevice}, Src: gocann.MemLoc{Type: gocann.MemLocHost}}}
	idx := []uint64{0}
	hb, db := unsafe.Slice((*byte)(host.Pointer()), n*size), unsafe.Slice((*byte)(dp), n*size)
	var single, batch, move time.Duration
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		for i := range n {
			must(b, s.CopyHostToDevice(dev.Add(int64(i*size)), host, int64(i*size), size))
		}
		must(b, s.SynchronizeTimeout(long))
		t1 := time.Now()
		_, err := s.Raw().MemcpyBatchAsync(gocann.CaptureThread{}, cs, attr, idx)
		must(b, err)
		must(b, s.SynchronizeTimeout(long))
		t2 := time.Now()
		for off := 0; off < n*size; off += size {
			copy(db[off:off+size], hb[off:off+size])
		}
		t3 := time.Now()
		single += t1.Sub(t0)
		batch += t2.Sub(t1)
		move += t3.Sub(t2)
	}
	b.StopTimer()
	copies := float64(b.N * n)
	b.ReportMetric(float64(single.Nanoseconds())/copies, "single-ns/copy")
	b.ReportMetric(float64(batch.Nanoseconds())/copies, "batch-ns/copy")
	b.ReportMetric(float64(move.Nanoseconds())/copies, "memmove-ns/copy")
	b.ReportMetric(float64(batch)/float64(single), "batch/single")
	b.ReportMetric(float64(batch)/float64(move), "batch/memmove")
}
