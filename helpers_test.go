package gocann_test

import (
	"encoding/binary"
	"errors"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gocann/gocann"
	"github.com/gocann/gocann/hal"
)

// smallConfig keeps device memory at 1 GiB so each test's device is cheap.
const smallConfig = `{"simulator":{"hbm_size":1073741824}}`

// long bounds every wait a test makes: far above what any step needs, so a
// slow machine never fails a test, while a hang still ends it.
const long = 20 * time.Second

// newRuntime opens a runtime from configuration JSON and closes it when the
// test ends, failing the test if the close fails.
func newRuntime(t *testing.T, cfg string) *gocann.Runtime {
	t.Helper()
	r, err := gocann.Open(gocann.WithConfigJSON([]byte(cfg)))
	if err != nil {
		t.Fatalf("Open(%s): %v", cfg, err)
	}
	t.Cleanup(func() {
		if err := r.Close(); err != nil {
			t.Errorf("Runtime.Close: %v", err)
		}
	})
	return r
}

// env is a runtime with device 0 set, its default context and a new stream.
type env struct {
	r *gocann.Runtime
	d *gocann.Device
	c *gocann.Context
	s *gocann.Stream
}

// setup opens a runtime (smallConfig unless cfg is given), sets device 0 and
// creates a stream in its default context.
func setup(t *testing.T, cfg ...string) env {
	t.Helper()
	c := smallConfig
	if len(cfg) > 0 {
		c = cfg[0]
	}
	r := newRuntime(t, c)
	d, err := r.SetDevice(0)
	check(t, err)
	ctx, err := d.Context()
	check(t, err)
	s, err := ctx.NewStream()
	check(t, err)
	return env{r: r, d: d, c: ctx, s: s}
}

// newStream creates one more stream in e's context.
func (e env) newStream(t *testing.T, opts ...gocann.StreamOption) *gocann.Stream {
	t.Helper()
	s, err := e.c.NewStream(opts...)
	check(t, err)
	return s
}

// onDevice sets device id and returns its default context and a new
// stream in it.
func onDevice(t *testing.T, r *gocann.Runtime, id int) (*gocann.Context, *gocann.Stream) {
	t.Helper()
	d, err := r.SetDevice(id)
	check(t, err)
	c, err := d.Context()
	check(t, err)
	s, err := c.NewStream()
	check(t, err)
	return c, s
}

// malloc allocates n bytes of normal-page device memory in c.
func malloc(t *testing.T, c *gocann.Context, n int64) gocann.DevPtr {
	t.Helper()
	p, err := c.Malloc(n, gocann.NormalOnly)
	check(t, err)
	return p
}

func check(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// opPattern is the shape of Error.Op: the Go call, then the CANN call it
// stands for when there is one, e.g. "Stream.Synchronize (aclrtSynchronizeStream)".
var opPattern = regexp.MustCompile(`^(\w+\.)?\w+( \(acl\w+\))?$`)

// wantErr checks that err is a *gocann.Error with the CANN code code, that
// errors.Is and CodeOf agree, and that the message holds every sub string
// (the parameter, the value, the expectation).
func wantErr(t *testing.T, err error, code gocann.Code, subs ...string) *gocann.Error {
	t.Helper()
	if err == nil {
		t.Fatalf("error is nil, want %v", code)
	}
	var e *gocann.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %q is a %T, want a *gocann.Error", err, err)
	}
	if e.Code != code || !errors.Is(err, code) || gocann.CodeOf(err) != code {
		t.Fatalf("error %q has code %d, want %v", err, e.Code, code)
	}
	if !opPattern.MatchString(e.Op) {
		t.Errorf("error %q: Op %q does not name the Go and CANN call", err, e.Op)
	}
	msg := err.Error()
	for _, s := range subs {
		if !strings.Contains(msg, s) {
			t.Errorf("error %q does not mention %q", msg, s)
		}
	}
	return e
}

// syncOK synchronizes s and fails the test on any error.
func syncOK(t *testing.T, s *gocann.Stream) {
	t.Helper()
	if err := s.SynchronizeTimeout(long); err != nil {
		t.Fatalf("stream %d: %v", s.ID(), err)
	}
}

// gate is a host function queued on a stream that holds the stream until
// Open is called. The test's cleanup opens it, so a failing test never
// leaves a stream blocked.
type gate struct {
	started chan struct{}
	release chan struct{}
	once    sync.Once
}

func block(t *testing.T, s *gocann.Stream) *gate {
	t.Helper()
	g := &gate{started: make(chan struct{}), release: make(chan struct{})}
	check(t, s.LaunchHostFunc(func() {
		close(g.started)
		<-g.release
	}))
	t.Cleanup(g.Open)
	return g
}

// Open releases the stream.
func (g *gate) Open() { g.once.Do(func() { close(g.release) }) }

// waitStarted waits until the gate's host function runs.
func (g *gate) waitStarted(t *testing.T) {
	t.Helper()
	select {
	case <-g.started:
	case <-time.After(long):
		t.Fatal("gate host function never started")
	}
}

// eventually waits until cond holds, failing the test after long.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(long)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v", what, long)
		}
		time.Sleep(time.Millisecond)
	}
}

// stays checks that cond keeps holding for d; it fails as soon as it does not.
func stays(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if !cond() {
			t.Fatalf("%s: stopped holding", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// done reports whether every task queued on s has completed, failing the
// test if the query reports an error.
func isDone(t *testing.T, s *gocann.Stream) bool {
	t.Helper()
	ok, err := s.Query()
	check(t, err)
	return ok
}

// readU64 reads the 64-bit word at p synchronously.
func readU64(t *testing.T, c *gocann.Context, p gocann.DevPtr) uint64 {
	t.Helper()
	var b [8]byte
	check(t, c.CopyFromDevice(b[:], p))
	return binary.LittleEndian.Uint64(b[:])
}

// writeU64 writes the 64-bit word at p synchronously.
func writeU64(t *testing.T, c *gocann.Context, p gocann.DevPtr, v uint64) {
	t.Helper()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], v)
	check(t, c.CopyToDevice(p, b[:]))
}

// records returns the device trace records of stream s of the given kind,
// oldest first.
func records(t *testing.T, d *gocann.Device, s *gocann.Stream, kind hal.TaskKind) []gocann.TaskRecord {
	t.Helper()
	all, err := d.Trace()
	check(t, err)
	var out []gocann.TaskRecord
	for _, r := range all {
		if r.Queue == s.ID() && r.Kind == kind {
			out = append(out, r)
		}
	}
	return out
}

// recorder is a concurrency-safe log of what ran, in order.
type recorder struct {
	mu  sync.Mutex
	log []string
}

func (r *recorder) add(s string) {
	r.mu.Lock()
	r.log = append(r.log, s)
	r.mu.Unlock()
}

func (r *recorder) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.log, ",")
}
