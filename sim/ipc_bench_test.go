package sim

import (
	"encoding/binary"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

// BenchmarkIPCImportedRead: a one-block kernel summing 16 MiB of imported
// IPC memory against the same kernel over local device memory, the in-run
// baseline; imported/local is the ratio of their throughputs (target >=
// 0.9). The import is of this process's own export, which maps the memory
// file through /proc as another process's import does.
func BenchmarkIPCImportedRead(b *testing.B) {
	const n = 16 << 20
	be, err := New(Config{Devices: 1, Profile: hal.Props{HBMSize: 256 << 20}, Machine: fmt.Sprintf("bench-%d", os.Getpid()), MachineDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer be.Close()
	hd, _ := be.Open(0)
	d := hd.(*device)
	a, err := d.Malloc(n, hal.MemPolicy{})
	if err != nil {
		b.Fatal(err)
	}
	k, err := d.ExportMemory(a.Addr, n, hal.ExportOpts{})
	if err != nil {
		b.Fatal(err)
	}
	imp, _, err := d.ImportMemory(k)
	if err != nil {
		b.Fatal(err)
	}
	var sink uint64
	sum := &kernel.Func{Name: "sum", Fn: func(blk *kernel.Block) {
		var s uint64
		buf := blk.Bytes(blk.Arg(0), n)
		for i := 0; i+8 <= len(buf); i += 8 {
			s += binary.LittleEndian.Uint64(buf[i:])
		}
		sink += s
	}}
	q, _ := d.NewQueue(hal.QueueConfig{})
	run := func(addr uint64, iters int) time.Duration {
		start := time.Now()
		for range iters {
			if _, err := q.Submit(hal.Task{Kind: hal.TaskKernel, Kernel: sum, Blocks: 1, NArgs: 1, Args: [hal.MaxArgs]uint64{addr}}); err != nil {
				b.Fatal(err)
			}
		}
		if err := q.Wait(b.Context(), q.Submitted(), time.Minute); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	run(a.Addr, 2) // fault the pages in
	run(imp, 2)
	var local, imported time.Duration
	for b.Loop() {
		local += run(a.Addr, 4)
		imported += run(imp, 4)
	}
	b.ReportMetric(float64(local)/float64(imported), "imported/local")
	b.ReportMetric(float64(n)*4*float64(b.N)/imported.Seconds()/1e9, "imported-GB/s")
	_ = sink
}
