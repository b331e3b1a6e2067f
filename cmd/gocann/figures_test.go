package main

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/gocann/gocann"
	"github.com/gocann/gocann/internal/profreport"
)

// TestProfiledFigures profiles known workloads on the simulated chip and
// reads the report's three figures back: a kernel on half of the vector
// cores for its whole run reads about 50% vector utilization; a burst of
// 1,000 launches queued behind a held stream shows a queue depth of at
// least 1,000; copies report the bytes they moved.
func TestProfiledFigures(t *testing.T) {
	r, err := gocann.Open(gocann.WithConfigJSON([]byte(`{"simulator":{"hbm_size":1073741824}}`)))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	d, err := r.SetDevice(0)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := d.Context()
	s, err := c.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	half := d.Props().VectorCores / 2
	nap, err := r.RegisterKernel("half_nap", func(*gocann.Block) { time.Sleep(100 * time.Millisecond) })
	if err != nil {
		t.Fatal(err)
	}
	empty, err := r.RegisterKernel("empty", func(*gocann.Block) {})
	if err != nil {
		t.Fatal(err)
	}
	figures := func(work func()) profreport.DeviceReport {
		t.Helper()
		p, err := r.StartProfiling(gocann.ProfileConfig{Dir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		work()
		if err := s.Synchronize(context.Background()); err != nil {
			t.Fatal(err)
		}
		if err := p.Stop(); err != nil {
			t.Fatal(err)
		}
		rep, err := profreport.Load(p.Timeline())
		if err != nil || len(rep.Devices) != 1 {
			t.Fatalf("report of %s: %v, %d devices", p.Timeline(), err, len(rep.Devices))
		}
		return rep.Devices[0]
	}

	// Half of the vector cores (AI cores run the blocks: 24 of 48) busy.
	if half > d.Props().AICores {
		t.Skipf("the chip runs %d blocks at once, fewer than half its %d vector cores", d.Props().AICores, d.Props().VectorCores)
	}
	dr := figures(func() {
		if err := s.Launch(nap, uint32(half)); err != nil {
			t.Fatal(err)
		}
	})
	if v := dr.Vector.Value; !dr.Vector.Known || math.Abs(v-0.5) > 0.05 {
		t.Errorf("%d of %d vector cores busy for the whole run read %.1f%%, want about 50%%", half, d.Props().VectorCores, 100*v)
	}

	// A burst of 1,000 launches behind a host function holding the stream.
	release := make(chan struct{})
	dr = figures(func() {
		if err := s.LaunchHostFunc(func() { <-release }); err != nil {
			t.Fatal(err)
		}
		for range 1000 {
			if err := s.Launch(empty, 1); err != nil {
				t.Fatal(err)
			}
		}
		close(release)
	})
	if dr.Depth.Max < 1000 {
		t.Errorf("queue depth peaked at %v after a burst of 1000 launches, want at least 1000 (%s)", dr.Depth.Max, dr.Depth.Source)
	}

	// Copies: 64 MiB each way.
	const n = 64 << 20
	buf, err := c.Malloc(n, gocann.HugeFirst)
	if err != nil {
		t.Fatal(err)
	}
	host, err := r.MallocHost(n)
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	dr = figures(func() {
		if err := s.CopyHostToDevice(buf, host, 0, n); err != nil {
			t.Fatal(err)
		}
		if err := s.CopyDeviceToHost(host, 0, buf, n); err != nil {
			t.Fatal(err)
		}
	})
	if dr.Memory.Bytes != 2*n || !dr.Memory.Known || dr.Memory.GBps <= 0 {
		t.Errorf("two 64 MiB copies: %v bytes at %.2f GB/s, want %d bytes", dr.Memory.Bytes, dr.Memory.GBps, 2*n)
	}
}
