package gocann_test

import (
	"testing"
)

// TestCopyAllocatesNothing: copies are the other hot path beside launches;
// neither the synchronous copies nor a queued one may allocate per call.
func TestCopyAllocatesNothing(t *testing.T) {
	e := setup(t)
	const n = 4096
	d1, d2 := malloc(t, e.c, n), malloc(t, e.c, n)
	host := make([]byte, n)
	// Warm up the stream's task ring, as for launches.
	for range 2 * e.d.Props().QueueDepth {
		check(t, e.s.CopyDeviceToDevice(d2, d1, n))
	}
	syncOK(t, e.s)
	for _, c := range []struct {
		name string
		copy func() error
	}{
		{"Context.CopyToDevice", func() error { return e.c.CopyToDevice(d1, host) }},
		{"Context.CopyFromDevice", func() error { return e.c.CopyFromDevice(host, d1) }},
		{"Context.CopyDevice", func() error { return e.c.CopyDevice(d2, d1, n) }},
		{"Stream.CopyDeviceToDevice", func() error { return e.s.CopyDeviceToDevice(d2, d1, n) }},
	} {
		var copyErr error
		allocs := testing.AllocsPerRun(200, func() {
			if err := c.copy(); err != nil {
				copyErr = err
			}
		})
		check(t, copyErr)
		syncOK(t, e.s)
		if allocs != 0 {
			t.Errorf("%s allocates %v times per call, want 0", c.name, allocs)
		}
	}
}
