package gocann_test

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/gocann/gocann"
)

// The IPC tests run a second process, this test binary started again with
// syncChildEnv naming what it does (a role of syncRoles), on a simulated
// machine of the test's own. The peer reads commands from its stdin, one a
// line, and writes what it saw to its stdout, one line each; the test
// checks those lines.

const (
	syncChildEnv   = "GOCANN_IPCSYNC_CHILD"
	syncMachineEnv = "GOCANN_IPCSYNC_MACHINE"
	syncArgEnv     = "GOCANN_IPCSYNC_ARG"
)

// syncRoles are what a peer process can do, by name.
var syncRoles = map[string]func(*syncChild) error{}

func init() {
	role := os.Getenv(syncChildEnv)
	if role == "" {
		return
	}
	c := &syncChild{in: bufio.NewScanner(os.Stdin), arg: os.Getenv(syncArgEnv)}
	f, ok := syncRoles[role]
	if !ok {
		c.say("fail: no role %q", role)
		os.Exit(2)
	}
	if err := c.open(os.Getenv(syncMachineEnv)); err != nil {
		c.say("fail: %v", err)
		os.Exit(1)
	}
	if err := f(c); err != nil {
		c.say("fail: %v", err)
		os.Exit(1)
	}
	if err := c.r.Close(); err != nil {
		c.say("fail: close: %v", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// syncChild is the peer process's side: a runtime on the machine, device 0,
// a stream, and the lines to and from the test.
type syncChild struct {
	in  *bufio.Scanner
	arg string
	r   *gocann.Runtime
	c   *gocann.Context
	s   *gocann.Stream
}

func (c *syncChild) open(m string) error {
	r, err := gocann.Open(gocann.WithConfigJSON([]byte(ipcConfig(m))))
	if err != nil {
		return err
	}
	c.r = r
	d, err := r.SetDevice(0)
	if err != nil {
		return err
	}
	if c.c, err = d.Context(); err != nil {
		return err
	}
	c.s, err = c.c.NewStream()
	return err
}

func (c *syncChild) say(format string, args ...any) { fmt.Printf(format+"\n", args...) }

// hear waits for the test's next command.
func (c *syncChild) hear() string {
	if !c.in.Scan() {
		return ""
	}
	return c.in.Text()
}

// syncCode is the CANN code of err as the peer reports it.
func syncCode(err error) int { return int(gocann.CodeOf(err)) }

// syncPeer is the test's side of a peer process in a role of syncRoles.
type syncPeer struct{ *testProc }

// startSyncPeer starts a peer process in role on machine m, with arg.
func startSyncPeer(t testing.TB, role, m, arg string) *syncPeer {
	t.Helper()
	return &syncPeer{startProc(t, syncChildEnv+"="+role, syncMachineEnv+"="+m, syncArgEnv+"="+arg)}
}

// next returns the peer's next line, failing the test if the peer ends or
// reports a failure.
func (p *syncPeer) next() string {
	p.t.Helper()
	l, ok := p.testProc.next()
	if !ok {
		p.t.Fatalf("peer ended without saying more")
	}
	if strings.HasPrefix(l, "fail:") {
		p.t.Fatalf("peer: %s", l)
	}
	return l
}

// expect fails unless the peer's next line is want.
func (p *syncPeer) expect(want string) {
	p.t.Helper()
	if got := p.next(); got != want {
		p.t.Fatalf("peer says %q, want %q", got, want)
	}
}

// expectPrefix fails unless the peer's next line starts with prefix, and
// returns the rest.
func (p *syncPeer) expectPrefix(prefix string) string {
	p.t.Helper()
	got := p.next()
	if !strings.HasPrefix(got, prefix) {
		p.t.Fatalf("peer says %q, want %q...", got, prefix)
	}
	return strings.TrimPrefix(got, prefix)
}

// finish tells the peer to end and checks it exits 0.
func (p *syncPeer) finish() {
	p.t.Helper()
	p.send("exit")
	rest, err := p.close()
	for _, l := range rest {
		if strings.HasPrefix(l, "fail:") {
			p.t.Errorf("peer: %s", l)
		}
	}
	if err != nil {
		p.t.Fatalf("peer: %v", err)
	}
}

func ipcEventHandleOf(s string) (gocann.IPCEventHandle, error) {
	var h gocann.IPCEventHandle
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != len(h) {
		return h, fmt.Errorf("handle %q is not %d hex bytes", s, len(h))
	}
	copy(h[:], b)
	return h, nil
}
