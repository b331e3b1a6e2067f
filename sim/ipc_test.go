package sim

import (
	"bufio"
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/gocann/gocann/hal"
)

// The tests of this file run a second process: the test binary again,
// which attaches to the same machine and obeys commands on its stdin, one
// a line, answering each with one line.
func init() {
	if os.Getenv("GOCANN_SIM_IPC_CHILD") != "" {
		os.Exit(ipcChild())
	}
}

func ipcChild() int {
	b, err := New(Config{Devices: 1, Profile: hal.Props{HBMSize: 64 << 20}, Machine: os.Getenv("GOCANN_SIM_MACHINE"), MachineDir: os.Getenv("GOCANN_SIM_DIR")})
	if err != nil {
		fmt.Println("new:", err)
		return 1
	}
	hd, err := b.Open(0)
	if err != nil {
		fmt.Println("open:", err)
		return 1
	}
	d := hd.(*device)
	q, _ := d.NewQueue(hal.QueueConfig{})
	fmt.Println("pid", d.BareTgid())
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		f := strings.Fields(in.Text())
		var k hal.IPCKey
		if len(f) > 1 {
			h, _ := hex.DecodeString(f[1])
			copy(k[:], h)
		}
		switch f[0] {
		case "import":
			addr, size, err := d.ImportMemory(k)
			if err != nil {
				fmt.Println("err", hal.KindOf(err), err)
				continue
			}
			pp, err := b.vm.pointer(addr, size)
			if err != nil {
				fmt.Println("err pointer", err)
				continue
			}
			p := unsafe.Slice((*byte)(pp), size)
			fmt.Printf("ok %s\n", p[:8])
			copy(p, "written by the child")
			fmt.Println("ok wrote")
			if err := d.CloseImport(addr); err != nil {
				fmt.Println("err close", err)
			}
		case "record":
			n, err := d.ImportNotify(k)
			if err != nil {
				fmt.Println("err", hal.KindOf(err), err)
				continue
			}
			_, werr := q.Submit(hal.Task{Kind: hal.TaskNotifyWait, Notify: n})
			q.Submit(hal.Task{Kind: hal.TaskNotifyRecord, Notify: n})
			q.Wait(context.Background(), q.Submitted(), 10*time.Second)
			fmt.Println("ok recorded; wait refused:", hal.KindOf(werr))
		case "wait":
			e, err := d.OpenEvent(k)
			if err != nil {
				fmt.Println("err", hal.KindOf(err), err)
				continue
			}
			q.Submit(hal.Task{Kind: hal.TaskEventWait, Event: e})
			err = q.Wait(context.Background(), q.Submitted(), 10*time.Second)
			fmt.Println("ok waited", err == nil, e.Done())
		case "importn":
			if _, err := d.ImportNotify(k); err != nil {
				fmt.Println("err", err)
				continue
			}
			fmt.Println("ok imported")
		case "hold":
			if _, err := d.Malloc(1<<20, hal.MemPolicy{}); err != nil {
				fmt.Println("err", err)
				continue
			}
			fmt.Println("ok held")
		}
	}
	return 0
}

type ipcPeer struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
	pid int32
}

func startPeer(t *testing.T, machine, dir string) *ipcPeer {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GOCANN_SIM_IPC_CHILD=1", "GOCANN_SIM_MACHINE="+machine, "GOCANN_SIM_DIR="+dir)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &ipcPeer{cmd: cmd, in: in, out: bufio.NewScanner(out)}
	t.Cleanup(func() { in.Close(); _ = cmd.Wait() })
	if l := p.line(t); !strings.HasPrefix(l, "pid ") {
		t.Fatalf("child: %q", l)
	} else {
		fmt.Sscan(strings.TrimPrefix(l, "pid "), &p.pid)
	}
	return p
}

func (p *ipcPeer) line(t *testing.T) string {
	t.Helper()
	if !p.out.Scan() {
		t.Fatal("the child ended")
	}
	return p.out.Text()
}

func (p *ipcPeer) do(t *testing.T, cmd string, k hal.IPCKey) string {
	t.Helper()
	fmt.Fprintf(p.in, "%s %x\n", cmd, k)
	return p.line(t)
}

func ipcBackend(t *testing.T, machine, dir string) (*Backend, *device) {
	t.Helper()
	b, err := New(Config{Devices: 1, Profile: hal.Props{HBMSize: 64 << 20}, Machine: machine, MachineDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	hd, err := b.Open(0)
	if err != nil {
		t.Fatal(err)
	}
	return b, hd.(*device)
}

func TestIPCMemoryAcrossProcesses(t *testing.T) {
	dir, machine := t.TempDir(), fmt.Sprintf("simipc-%d", os.Getpid())
	b, d := ipcBackend(t, machine, dir)
	child := startPeer(t, machine, dir)
	a, _ := d.Malloc(1<<20, hal.MemPolicy{})
	buf, _ := d.mem.bytes(a.Addr, a.Size)
	copy(buf, "exporter")
	k, err := d.ExportMemory(a.Addr, a.Size, hal.ExportOpts{})
	if err != nil {
		t.Fatal(err)
	}
	if got := child.do(t, "import", k); !strings.Contains(got, "KindNoPermission") && !strings.Contains(got, "no permission") {
		t.Errorf("import off the whitelist: %q", got)
	}
	if err := d.AllowImport(k, []int32{child.pid}); err != nil {
		t.Fatal(err)
	}
	if got := child.do(t, "import", k); got != "ok exporter" {
		t.Errorf("import: %q, want the exporter's bytes", got)
	}
	if got := child.line(t); got != "ok wrote" {
		t.Fatal(got)
	}
	if got := string(buf[:20]); got != "written by the child" {
		t.Errorf("exporter sees %q after the child wrote in place", got)
	}
	free, _ := d.MemInfo()
	if got := child.do(t, "hold", k); got != "ok held" {
		t.Fatal(got)
	}
	if free2, _ := d.MemInfo(); free-free2 < 1<<20 {
		t.Errorf("free memory went from %d to %d while the child holds 1 MiB", free, free2)
	}
	if err := d.Withdraw(k); err != nil {
		t.Fatal(err)
	}
	if got := child.do(t, "import", k); !strings.HasPrefix(got, "err") {
		t.Errorf("import after withdraw: %q", got)
	}
	_ = child.cmd.Process.Kill()
	_ = child.cmd.Wait()
	if free3, _ := d.MemInfo(); free3 != free {
		t.Errorf("free memory %d after the child was killed, want %d", free3, free)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if es, _ := os.ReadDir(dir); len(es) != 0 {
		t.Errorf("%d files left", len(es))
	}
}

func TestIPCNotifyAndEventAcrossProcesses(t *testing.T) {
	dir, machine := t.TempDir(), fmt.Sprintf("simsync-%d", os.Getpid())
	b, d := ipcBackend(t, machine, dir)
	defer b.Close()
	child := startPeer(t, machine, dir)
	q, _ := d.NewQueue(hal.QueueConfig{})
	n, _ := d.NewNotify()
	k, err := d.ExportNotify(n, hal.ExportOpts{NoPidCheck: true})
	if err != nil {
		t.Fatal(err)
	}
	submit(t, q, hal.Task{Kind: hal.TaskNotifyWait, Notify: n})
	if got := child.do(t, "record", k); got != "ok recorded; wait refused: invalid parameter" {
		t.Errorf("child: %q", got)
	}
	wait(t, q)

	e, _ := d.NewEvent(hal.EventConfig{})
	ek, err := d.ExportEvent(e, hal.ExportOpts{NoPidCheck: true})
	if err != nil {
		t.Fatal(err)
	}
	gate, _ := d.NewNotify()
	submit(t, q, hal.Task{Kind: hal.TaskNotifyWait, Notify: gate})
	submit(t, q, hal.Task{Kind: hal.TaskEventRecord, Event: e})
	fmt.Fprintf(child.in, "wait %x\n", ek)
	time.Sleep(50 * time.Millisecond) // the child's queue is blocked on the record by now
	q2, _ := d.NewQueue(hal.QueueConfig{})
	submit(t, q2, hal.Task{Kind: hal.TaskNotifyRecord, Notify: gate})
	if got := child.line(t); got != "ok waited true true" {
		t.Errorf("child's wait on the opened event: %q", got)
	}
}

func TestIPCNotifyImporterKilled(t *testing.T) {
	dir, machine := t.TempDir(), fmt.Sprintf("simkill-%d", os.Getpid())
	b, d := ipcBackend(t, machine, dir)
	defer b.Close()
	child := startPeer(t, machine, dir)
	faults := make(chan hal.Fault, 1)
	d.SetFaultHandler(func(f hal.Fault) { faults <- f })
	q, _ := d.NewQueue(hal.QueueConfig{})
	n, _ := d.NewNotify()
	k, err := d.ExportNotify(n, hal.ExportOpts{NoPidCheck: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := child.do(t, "importn", k); got != "ok imported" {
		t.Fatal(got)
	}
	submit(t, q, hal.Task{Kind: hal.TaskNotifyWait, Notify: n})
	_ = child.cmd.Process.Kill()
	_ = child.cmd.Wait()
	start := time.Now()
	select {
	case f := <-faults:
		if f.Kind != hal.KindWaitTimeout || !strings.Contains(f.Msg, fmt.Sprint(child.pid)) {
			t.Errorf("wait on a notify whose importer was killed: %+v, want a wait fault naming pid %d", f, child.pid)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the wait on a notify whose importer was killed still blocks")
	}
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("the wait took %v to notice", el)
	}
	wait(t, q)
}

// TestMachineBestEffort: a machine that cannot be joined fails the
// backend, unless joining it is best effort: then the devices are the
// backend's own and the IPC calls say there is no machine.
func TestMachineBestEffort(t *testing.T) {
	cfg := Config{Devices: 1, Profile: hal.Props{HBMSize: 64 << 20}, Machine: "nowhere", MachineDir: "/nonexistent/gocann"}
	if b, err := New(cfg); err == nil {
		b.Close()
		t.Fatal("a backend joined a machine whose directory does not exist")
	}
	cfg.MachineBestEffort = true
	b, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	hd, err := b.Open(0)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := hd.Malloc(4096, hal.MemPolicy{})
	if _, err := hd.(hal.IPC).ExportMemory(a.Addr, 4096, hal.ExportOpts{}); hal.KindOf(err) != hal.KindNotSupported {
		t.Errorf("an export with no machine: %v, want not supported", err)
	}
}
