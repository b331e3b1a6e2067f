package gocann_test

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocann/gocann"
)

// peak is a kernel that counts its blocks running at once; each holds its
// core for a millisecond, so every block allowed to start overlaps others.
type peak struct {
	k                  *gocann.Kernel
	running, max, runs atomic.Int32
}

func newPeak(t *testing.T, r *gocann.Runtime, name string) *peak {
	p := &peak{}
	k, err := r.RegisterKernel(name, func(*gocann.Block) {
		n := p.running.Add(1)
		for {
			m := p.max.Load()
			if n <= m || p.max.CompareAndSwap(m, n) {
				break
			}
		}
		time.Sleep(time.Millisecond)
		p.running.Add(-1)
		p.runs.Add(1)
	})
	check(t, err)
	p.k = k
	return p
}

// run launches 48 blocks on s, waits, and returns how many ran at once.
func (p *peak) run(t *testing.T, s *gocann.Stream) int32 {
	t.Helper()
	p.max.Store(0)
	p.runs.Store(0)
	check(t, s.Launch(p.k, 48))
	syncOK(t, s)
	if n := p.runs.Load(); n != 48 {
		t.Fatalf("%d blocks ran, want 48", n)
	}
	return p.max.Load()
}

func wantRes(t *testing.T, what string, got uint32, err error, want uint32) {
	t.Helper()
	check(t, err)
	if got != want {
		t.Errorf("%s = %d, want %d", what, got, want)
	}
}

// TestResLimits: device and stream core limits, their precedence, and the
// scheduler keeping each kernel's running blocks within them.
func TestResLimits(t *testing.T) {
	e := setup(t)
	p := newPeak(t, e.r, "peak")
	cube, vec := gocann.ResCubeCore, gocann.ResVectorCore
	v, err := e.d.ResLimit(cube)
	wantRes(t, "default cube limit", v, err, 24)
	v, err = e.d.ResLimit(vec)
	wantRes(t, "default vector limit", v, err, 48)
	if n := p.run(t, e.s); n <= 4 {
		t.Errorf("unlimited: %d blocks at once, want more than 4", n)
	}

	_, err = e.d.ResLimit(2)
	wantErr(t, err, gocann.CodeRTParamInvalid, "type 2", "[0, 2)")
	wantErr(t, e.d.SetResLimit(cube, 25), gocann.CodeRTParamInvalid, "value 25", "at most the device's 24 cube cores")
	wantErr(t, e.s.SetResLimit(vec, 49), gocann.CodeRTParamInvalid, "value 49", "48 vector cores")
	wantErr(t, e.s.SetResLimit(7, 1), gocann.CodeRTParamInvalid, "type 7")

	// The device's vector limit bounds every stream without its own.
	check(t, e.d.SetResLimit(vec, 4))
	s2 := e.newStream(t)
	check(t, s2.SetResLimit(cube, 6))
	v, err = e.s.ResLimit(vec)
	wantRes(t, "stream vector limit from the device", v, err, 4)
	v, err = s2.ResLimit(cube)
	wantRes(t, "stream's own cube limit", v, err, 6)
	v, err = s2.ResLimit(vec)
	wantRes(t, "stream vector limit from the device", v, err, 4)
	if n := p.run(t, e.s); n != 4 {
		t.Errorf("device vector limit 4: %d blocks at once", n)
	}
	// The stream's limits come first: 6 cube, and 8 vector over the device's 4.
	check(t, s2.SetResLimit(vec, 8))
	if n := p.run(t, s2); n != 6 {
		t.Errorf("stream limits 6 cube, 8 vector: %d blocks at once", n)
	}
	check(t, s2.SetResLimit(cube, 0))
	if n := p.run(t, s2); n != 1 {
		t.Errorf("stream cube limit 0: %d blocks at once, want 1", n)
	}
	check(t, s2.ResetResLimit())
	v, err = s2.ResLimit(cube)
	wantRes(t, "cube limit after the stream's reset", v, err, 24)
	if n := p.run(t, s2); n != 4 {
		t.Errorf("after the stream's reset: %d blocks at once, want the device's 4", n)
	}
	check(t, e.d.ResetResLimit())
	v, err = e.d.ResLimit(vec)
	wantRes(t, "vector limit after the device's reset", v, err, 48)
	if n := p.run(t, e.s); n <= 4 {
		t.Errorf("after the device's reset: %d blocks at once, want more than 4", n)
	}

	check(t, s2.Close())
	wantErr(t, s2.SetResLimit(cube, 2), gocann.CodeRTInvalidHandle, "destroyed")
}

// TestResLimitCaptured: a captured kernel keeps the limit in force when it
// was captured, whatever the limits are when the model runs.
func TestResLimitCaptured(t *testing.T) {
	e := setup(t)
	p := newPeak(t, e.r, "peak")
	check(t, e.s.SetResLimit(gocann.ResCubeCore, 3))
	m, err := e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error { return s.Launch(p.k, 48) })
	check(t, err)
	defer m.Close()
	check(t, e.s.ResetResLimit())
	for range 2 {
		p.max.Store(0)
		check(t, m.Run(e.s))
		syncOK(t, e.s)
		if n := p.max.Load(); n != 3 {
			t.Errorf("replay: %d blocks at once, want the captured limit 3", n)
		}
	}
}

// TestResInCurrentThread: a thread reports the limits of the stream it
// uses, type by type, else its device's.
func TestResInCurrentThread(t *testing.T) {
	e := setup(t)
	th, other := gocann.CaptureThread{ID: 7}, gocann.CaptureThread{ID: 8}
	check(t, e.d.SetResLimit(gocann.ResVectorCore, 16))
	check(t, e.s.SetResLimit(gocann.ResCubeCore, 5))
	v, err := e.c.Raw().ResInCurrentThread(th, gocann.ResCubeCore)
	wantRes(t, "cube before binding", v, err, 24)
	check(t, e.s.Raw().UseResInCurrentThread(th))
	v, err = e.c.Raw().ResInCurrentThread(th, gocann.ResCubeCore)
	wantRes(t, "cube of the bound stream", v, err, 5)
	v, err = e.c.Raw().ResInCurrentThread(th, gocann.ResVectorCore)
	wantRes(t, "vector, unset on the stream", v, err, 16)
	v, err = e.c.Raw().ResInCurrentThread(other, gocann.ResCubeCore)
	wantRes(t, "cube of another thread", v, err, 24)
	_, err = e.c.Raw().ResInCurrentThread(th, 2)
	wantErr(t, err, gocann.CodeRTParamInvalid, "type 2")

	s2 := e.newStream(t)
	check(t, s2.Raw().UnuseResInCurrentThread(th)) // not the one in use: nothing changes
	v, err = e.c.Raw().ResInCurrentThread(th, gocann.ResCubeCore)
	wantRes(t, "cube after unbinding another stream", v, err, 5)
	check(t, e.s.Raw().UnuseResInCurrentThread(th))
	v, err = e.c.Raw().ResInCurrentThread(th, gocann.ResCubeCore)
	wantRes(t, "cube after unbinding", v, err, 24)
}

// TestResLimitEndsWithDevice: the device's limits end with its last reset.
func TestResLimitEndsWithDevice(t *testing.T) {
	r := newRuntime(t, smallConfig)
	d, err := r.SetDevice(0)
	check(t, err)
	check(t, d.SetResLimit(gocann.ResCubeCore, 2))
	check(t, d.Reset())
	wantErr(t, d.SetResLimit(gocann.ResCubeCore, 2), gocann.CodeRTInvalidDeviceID, "not open")
	d, err = r.SetDevice(0)
	check(t, err)
	v, err := d.ResLimit(gocann.ResCubeCore)
	wantRes(t, "cube limit after the device was set again", v, err, 24)
}
