package gocann_test

import (
	"context"
	"slices"
	"testing"

	"github.com/gocann/gocann"
	"github.com/gocann/gocann/hal"
)

// TestFakeBackend runs the runtime over fakeBackend instead of the
// simulator. Each step is checked twice: by what the API returns and by
// what the fake saw (its memory read directly, the tasks it ran, its
// clock), so a runtime that reached the device other than through the
// hal interfaces, or needed a capability the fake lacks, fails here.
func TestFakeBackend(t *testing.T) {
	fb := newFakeBackend()
	r, err := gocann.Open(gocann.WithBackend(fb.open))
	check(t, err)
	t.Cleanup(func() { check(t, r.Close()) })
	if n, err := r.DeviceCount(); err != nil || n != 1 {
		t.Fatalf("DeviceCount = %d, %v; want the fake's 1", n, err)
	}
	d, err := r.SetDevice(0)
	check(t, err)
	if got := d.SoCName(); got != "FakeNPU" {
		t.Errorf("SoCName = %q, want the fake's FakeNPU", got)
	}
	c, err := d.Context()
	check(t, err)
	s, err := c.NewStream()
	check(t, err)

	const n = 64
	x, err := c.Malloc(n, gocann.NormalOnly)
	check(t, err)
	if x < fakeBase || x >= fakeBase+gocann.DevPtr(fb.props.HBMSize) {
		t.Fatalf("Malloc = %#x, outside the fake's memory at %#x", uint64(x), uint64(fakeBase))
	}
	src := make([]byte, n)
	for i := range src {
		src[i] = byte(i)
	}
	check(t, c.CopyToDevice(x, src))
	if got := fb.bytes(x, n); !slices.Equal(got, src) {
		t.Fatalf("the fake's memory after CopyToDevice = %v, want %v", got, src)
	}

	double, err := r.RegisterKernel("double", func(b *gocann.Block) {
		v := gocann.View[byte](b, b.Arg(0).Ptr(), int(b.Arg(1).U64()))
		for i, hi := b.Span(len(v)); i < hi; i++ {
			v[i] *= 2
		}
	})
	check(t, err)
	check(t, s.Launch(double, 2, gocann.Ptr(x), gocann.U64(n)))
	e, err := c.NewDefaultEvent()
	check(t, err)
	check(t, s.Record(e))
	check(t, e.Synchronize(context.Background()))
	ts, err := e.Timestamp()
	check(t, err)
	if fts, ok := fb.lastEvent().Timestamp(); !ok || int64(ts) != fts || fts == 0 {
		t.Errorf("Event.Timestamp = %d, want the fake clock's %d at the record (recorded %v)", ts, fts, ok)
	}
	check(t, s.Synchronize(context.Background()))
	out := make([]byte, n)
	check(t, c.CopyFromDevice(out, x))
	for i, v := range out {
		if v != byte(2*i) {
			t.Fatalf("byte %d after the kernel = %d, want %d", i, v, 2*i)
		}
	}
	want := []string{"run copy", "kernel double", "event record", "run copy"}
	if got := fb.tasks(); !slices.Equal(got, want) {
		t.Errorf("the fake ran %q, want %q", got, want)
	}

	check(t, c.Free(x))
	wantErr(t, c.Free(x), gocann.CodeRTParamInvalid, "not a live device allocation")

	// The optional capabilities are absent, and the runtime says so.
	if s.Raw().Direct() != nil {
		t.Error("a stream of the fake has a submission area for direct launches")
	}
	_, err = d.Trace()
	wantErr(t, err, gocann.CodeRTFeatureNotSupport, "no trace")
	_, err = r.CanAccessPeer(0, 1)
	wantErr(t, err, gocann.CodeRTFeatureNotSupport, "no peer access")
	wantErr(t, d.EnablePeerAccess(1), gocann.CodeRTFeatureNotSupport, "no peer access")
	_, err = r.PeerAccessStatus(0, 0)
	wantErr(t, err, gocann.CodeRTFeatureNotSupport, "no peer access")
	_, err = r.DevicesTopology(0, 1)
	wantErr(t, err, gocann.CodeRTFeatureNotSupport, "no peer access")
	_, err = r.LogicalIDOfUser(0)
	wantErr(t, err, gocann.CodeRTFeatureNotSupport, "logical and physical ids")
	_, err = d.PCIBusID()
	wantErr(t, err, gocann.CodeRTFeatureNotSupport, "logical and physical ids")
	_, err = d.Utilization()
	wantErr(t, err, gocann.CodeRTFeatureNotSupport, "do not measure how busy")
	_, err = r.MemUsage(0)
	wantErr(t, err, gocann.CodeRTFeatureNotSupport, "do not count their memory")

	// The fake's own refusals and faults reach the caller with their codes.
	_, err = c.Malloc(2*int64(fb.props.HBMSize), gocann.NormalOnly)
	wantErr(t, err, gocann.CodeRTMemoryAllocation, "fake device", "do not fit")
	y, err := c.Malloc(8, gocann.NormalOnly)
	check(t, err)
	check(t, s.Launch(double, 1, gocann.Ptr(y), gocann.U64(n))) // 64 bytes of an 8-byte allocation
	err = s.Synchronize(context.Background())
	wantErr(t, err, gocann.CodeRTAICoreException, `kernel "double"`, "fake device", "not inside an allocation")
	check(t, s.Synchronize(context.Background())) // reported once
}

// TestFakeBackendOpenFails checks that a backend that cannot open fails
// aclInit with its own code and leaves the runtime uninitialized.
func TestFakeBackendOpenFails(t *testing.T) {
	open := func(gocann.Config) (hal.Backend, error) {
		return nil, hal.Errorf(hal.KindOutOfMemory, "no memory for the device tables")
	}
	_, err := gocann.Open(gocann.WithBackend(open))
	wantErr(t, err, gocann.CodeRTMemoryAllocation, "no memory for the device tables")
	r := gocann.New(gocann.WithBackend(open))
	wantErr(t, r.Init(""), gocann.CodeRTMemoryAllocation)
	_, err = r.DeviceCount()
	wantErr(t, err, gocann.CodeUninitialize)
	check(t, r.Close())
}
