package gocann_test

import (
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocann/gocann"
)

// Helpers shared by the model tests (capture, build, task update, control
// flow, inspection).

// persistent creates a persistent stream in e's context, for building
// models.
func (e env) persistent(t *testing.T) *gocann.Stream {
	t.Helper()
	return e.newStream(t, gocann.WithStreamFlags(gocann.StreamPersistent))
}

// kernels are kernels registered once per runtime for the model tests.
type kernels struct {
	store *gocann.Kernel // *arg0 = arg1
	add   *gocann.Kernel // *arg0 += arg1
	dec   *gocann.Kernel // *arg0 -= 1, and *arg1 += 1 (an iteration count)
	shift *gocann.Kernel // *arg0 = *arg0*10 + arg1: a decimal trace of the order it runs in
}

func registerKernels(t *testing.T, e env) kernels {
	t.Helper()
	var k kernels
	var err error
	k.store, err = e.r.RegisterKernel("model_store", func(b *gocann.Block) { b.Store64(b.Arg(0).Ptr(), b.Arg(1).U64()) })
	check(t, err)
	k.add, err = e.r.RegisterKernel("model_add", func(b *gocann.Block) { b.Add64(b.Arg(0).Ptr(), b.Arg(1).U64()) })
	check(t, err)
	k.dec, err = e.r.RegisterKernel("model_dec", func(b *gocann.Block) {
		b.Store64(b.Arg(0).Ptr(), b.Load64(b.Arg(0).Ptr())-1)
		b.Add64(b.Arg(1).Ptr(), 1)
	})
	check(t, err)
	k.shift, err = e.r.RegisterKernel("model_shift", func(b *gocann.Block) {
		p := b.Arg(0).Ptr()
		b.Store64(p, b.Load64(p)*10+b.Arg(1).U64())
	})
	check(t, err)
	return k
}

// word allocates a 64-bit word of device memory holding v.
func word(t *testing.T, e env, v uint64) gocann.DevPtr {
	t.Helper()
	p := malloc(t, e.c, 8)
	writeU64(t, e.c, p, v)
	return p
}

// runOK runs m on s and waits for it, failing the test on any error.
func runOK(t *testing.T, m *gocann.ModelRI, s *gocann.Stream) {
	t.Helper()
	check(t, m.Run(s))
	syncOK(t, s)
}

// newBuild starts building a model on e's context (aclmdlRIBuildBegin),
// destroyed when the test ends.
func newBuild(t *testing.T, e env) *gocann.ModelRI {
	t.Helper()
	m, err := e.c.BuildModel()
	check(t, err)
	return closeModel(t, m)
}

// closeModel closes m when the test ends; a model the test closed itself
// is left alone.
func closeModel(t *testing.T, m *gocann.ModelRI) *gocann.ModelRI {
	t.Helper()
	t.Cleanup(func() { m.Close() })
	return m
}

// wantU64 checks the word at p.
func wantU64(t *testing.T, e env, p gocann.DevPtr, want uint64, what string) {
	t.Helper()
	if got := readU64(t, e.c, p); got != want {
		t.Fatalf("%s: word is %d (%#x), want %d (%#x)", what, got, got, want, want)
	}
}

// rendezvous is a pair of host functions that each wait, up to long, for
// the other to start: both finish only if they run at the same time.
type rendezvous struct {
	a, b     chan struct{}
	timedOut atomic.Bool
}

func newRendezvous() *rendezvous {
	return &rendezvous{a: make(chan struct{}), b: make(chan struct{})}
}

// side returns the host function of one side (0 or 1), to be queued once
// per run; reset prepares the next run.
func (r *rendezvous) side(i int) func() {
	return func() {
		mine, theirs := r.a, r.b
		if i == 1 {
			mine, theirs = r.b, r.a
		}
		close(mine)
		select {
		case <-theirs:
		case <-time.After(long):
			r.timedOut.Store(true)
		}
	}
}

func (r *rendezvous) reset() { r.a, r.b = make(chan struct{}), make(chan struct{}) }

// itoa and utoa format stream and model ids as messages name them.
func itoa(id int32) string  { return strconv.Itoa(int(id)) }
func utoa(id uint32) string { return strconv.FormatUint(uint64(id), 10) }

// endCaptures ends, when the test ends, any capture still open on the
// given streams, so that one failing subtest does not leave a stream
// capturing for the next.
func endCaptures(t *testing.T, streams ...*gocann.Stream) {
	t.Helper()
	t.Cleanup(func() {
		for _, s := range streams {
			if c := s.Capturing(); c != nil {
				if m, err := c.End(); err == nil {
					m.Close()
				}
			}
		}
	})
}
