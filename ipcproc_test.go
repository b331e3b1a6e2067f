package gocann_test

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"sync/atomic"
	"testing"
	"time"
)

// testProc is this test binary started again as a second process, one of
// the IPC tests' peers: env says what it does, and it talks to the test in
// lines, commands on its stdin and answers on its stdout.
type testProc struct {
	t     testing.TB
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
	ended atomic.Bool
}

// startProc starts the peer with env added to the test's environment; it
// is killed when the test ends, unless it ended before.
func startProc(t testing.TB, env ...string) *testProc {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &testProc{t: t, cmd: cmd, in: in, lines: make(chan string, 64)}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
	}()
	t.Cleanup(p.kill)
	return p
}

// next returns the peer's next line; ok is false once it ended. A peer
// silent for long fails the test.
func (p *testProc) next() (line string, ok bool) {
	p.t.Helper()
	select {
	case line, ok = <-p.lines:
		return line, ok
	case <-time.After(long):
		p.t.Fatalf("the peer said nothing in %v", long)
	}
	return "", false
}

func (p *testProc) send(line string) {
	p.t.Helper()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		p.t.Fatalf("telling the peer %q: %v", line, err)
	}
}

// close ends the peer's input and waits for it, returning what it said
// meanwhile and how it exited.
func (p *testProc) close() ([]string, error) {
	if p.ended.Swap(true) {
		return nil, nil
	}
	p.in.Close()
	var rest []string
	for l := range p.lines {
		rest = append(rest, l)
	}
	return rest, p.cmd.Wait()
}

// kill ends the peer with SIGKILL, if it is still running.
func (p *testProc) kill() {
	if p.ended.Swap(true) {
		return
	}
	_ = p.cmd.Process.Kill()
	_ = p.cmd.Wait()
}
