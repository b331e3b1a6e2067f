package prof

import (
	"testing"

	"github.com/gocann/gocann/hal"
)

// BenchmarkWriteTask measures what writing one kernel task costs the
// collector (its two events and a flow), against appending the record to
// a slice, the least a collector could do.
func BenchmarkWriteTask(b *testing.B) {
	s, err := Start(Config{Dir: b.TempDir(), Now: func() int64 { return 0 }}, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Stop()
	s.mu.Lock()
	defer s.mu.Unlock()
	d := &devState{Device: Device{ID: 0}, streams: map[int32]bool{}}
	s.thread(7)
	s.threads[7].add(APICall{Name: "aclrtLaunchKernel", Start: 0, End: 1 << 40, TID: 7})
	r := hal.Record{Queue: 2, Kind: hal.TaskKernel, Name: "vadd", Blocks: 8, Submit: 10, Start: 20, End: 30, Thread: 7}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		r.Seq = uint64(i)
		s.writeTask(d, r)
	}
}
