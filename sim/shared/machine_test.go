package shared

import (
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A child process of these tests attaches, does what GOCANN_SHARED_CHILD
// says and waits to be killed or told to leave.
func TestMain(m *testing.M) {
	if role := os.Getenv("GOCANN_SHARED_CHILD"); role != "" {
		os.Exit(child(role))
	}
	os.Exit(m.Run())
}

func child(role string) int {
	dir, name := os.Getenv("GOCANN_SHARED_DIR"), os.Getenv("GOCANN_SHARED_NAME")
	m, err := Attach(dir, name)
	if err != nil {
		fmt.Println("attach:", err)
		return 1
	}
	switch {
	case strings.HasPrefix(role, "hold:"):
		n, _ := strconv.ParseUint(strings.TrimPrefix(role, "hold:"), 10, 64)
		d, _ := m.Device(0, 1<<20)
		if !d.Take(n) {
			fmt.Println("take failed")
			return 1
		}
		e, err := m.Publish(Desc{Kind: KindNotify}, KeySize)
		if err != nil {
			fmt.Println("publish:", err)
			return 1
		}
		fmt.Printf("ready %x\n", e.Key)
	}
	var b [1]byte
	_, _ = os.Stdin.Read(b[:]) // until the parent closes our stdin, or kills us
	if err := m.Detach(); err != nil {
		fmt.Println("detach:", err)
		return 1
	}
	return 0
}

// start runs a child in role and returns it once it is ready, with the key
// it printed.
func start(t *testing.T, dir, name, role string) (*exec.Cmd, func(), string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GOCANN_SHARED_CHILD="+role, "GOCANN_SHARED_DIR="+dir, "GOCANN_SHARED_NAME="+name)
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
	buf := make([]byte, 256)
	n, _ := out.Read(buf)
	line := strings.TrimSpace(string(buf[:n]))
	if !strings.HasPrefix(line, "ready ") {
		t.Fatalf("child says %q", line)
	}
	return cmd, func() { in.Close() }, strings.TrimPrefix(line, "ready ")
}

func files(t *testing.T, dir string) int {
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return len(es)
}

func TestMemoryAcrossProcesses(t *testing.T) {
	dir := t.TempDir()
	cmd, leave, key := start(t, dir, "mem", "hold:4096")
	m, err := Attach(dir, "mem")
	if err != nil {
		t.Fatal(err)
	}
	d, ok := m.Device(0, 1<<20)
	if !ok {
		t.Fatal("device 0 not shared")
	}
	if got := d.Used(); got != 4096 {
		t.Errorf("Used with the child holding 4096 = %d", got)
	}
	if d.Take(1<<20 - 4095) {
		t.Error("Take past the capacity the child shares succeeded")
	}
	if !d.Take(1<<20 - 4096) {
		t.Error("Take of exactly what is left failed")
	}
	d.Give(1<<20 - 4096)
	if _, ok := m.Device(0, 2<<20); ok {
		t.Error("device 0 shared under another capacity")
	}
	k := parseKey(t, key)
	e, err := m.Find(k)
	if err != nil || e.Kind != KindNotify || e.Pid != int32(cmd.Process.Pid) {
		t.Fatalf("Find of the child's key = %+v, %v", e, err)
	}
	if e.Permits(m.Pid()) {
		t.Error("a checked export permits a process not on its whitelist")
	}
	leave()
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	if got := d.Used(); got != 0 {
		t.Errorf("Used after the child left = %d", got)
	}
	if _, err := m.Find(k); err != ErrNoExport {
		t.Errorf("Find after the exporter left = %v, want ErrNoExport", err)
	}
	if err := m.Detach(); err != nil {
		t.Fatal(err)
	}
	if n := files(t, dir); n != 0 {
		t.Errorf("%d files left after the last process detached", n)
	}
}

func TestKilledProcessReclaimed(t *testing.T) {
	dir := t.TempDir()
	cmd, _, key := start(t, dir, "kill", "hold:8192")
	m, err := Attach(dir, "kill")
	if err != nil {
		t.Fatal(err)
	}
	d, _ := m.Device(0, 1<<20)
	k := parseKey(t, key)
	e, err := m.Find(k)
	if err != nil {
		t.Fatal(err)
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if got := d.Used(); got != 0 {
		t.Errorf("Used after kill -9 of the holder = %d, want 0", got)
	}
	if e.Live() {
		t.Error("an export of a killed process is live")
	}
	if _, err := m.Find(k); err != ErrOwnerGone {
		t.Errorf("Find of a killed exporter's key = %v, want ErrOwnerGone", err)
	}
	start := time.Now()
	if e.WaitDone(1, time.Time{}) || time.Since(start) > 2*LivenessPeriod {
		t.Error("a wait on a killed exporter's event did not end promptly")
	}
	if err := m.Detach(); err != nil {
		t.Fatal(err)
	}
	if n := files(t, dir); n != 0 {
		t.Errorf("%d files left", n)
	}
}

func TestLeftoverOfCrashReclaimed(t *testing.T) {
	dir := t.TempDir()
	cmd, _, _ := start(t, dir, "crash", "hold:100")
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if n := files(t, dir); n != 1 {
		t.Fatalf("%d files after the only process crashed, want its 1", n)
	}
	m, err := Attach(dir, "crash")
	if err != nil {
		t.Fatal(err)
	}
	d, _ := m.Device(0, 1<<20)
	if got := d.Used(); got != 0 {
		t.Errorf("Used at the next start = %d", got)
	}
	for i := range m.t.exports {
		if m.t.exports[i].state.Load() != entryFree {
			t.Errorf("export %d of the crashed process not reclaimed", i)
		}
	}
	fi, err := os.Stat(filepath.Join(dir, filepath.Base(m.File())))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("machine file mode = %v, %v; want 0600", fi.Mode(), err)
	}
	if err := m.Detach(); err != nil {
		t.Fatal(err)
	}
}

func TestNames(t *testing.T) {
	for _, n := range []string{"", "a/b", "..x/", strings.Repeat("a", 65), "sp ace"} {
		if _, err := Attach(t.TempDir(), n); err == nil {
			t.Errorf("Attach(%q) succeeded", n)
		}
	}
}

func parseKey(t *testing.T, s string) (k [KeySize]byte) {
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != KeySize {
		t.Fatalf("key %q: %v", s, err)
	}
	copy(k[:], b)
	return k
}
