package gocann_test

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gocann/gocann"
)

// The IPC tests run a second process: the test binary again, attached to
// the same simulated machine, obeying one command a line on its stdin and
// answering each with one line: "ok ..." or "err <code> <message>".

const (
	ipcChildEnv = "GOCANN_TEST_IPC_MACHINE"
	ipcSoCEnv   = "GOCANN_TEST_IPC_SOC"
)

func init() {
	if m := os.Getenv(ipcChildEnv); m != "" {
		os.Exit(ipcChild(m, os.Getenv(ipcSoCEnv)))
	}
}

// ipcConfig is the configuration of both sides: small devices of one
// machine, of chip soc ("" for the default).
func ipcConfig(machine string, soc ...string) string {
	chip := ""
	if len(soc) > 0 && soc[0] != "" {
		chip = fmt.Sprintf(`,"soc_name":%q`, soc[0])
	}
	return fmt.Sprintf(`{"simulator":{"hbm_size":268435456,"machine":%q%s}}`, machine, chip)
}

var machines atomic.Int32

// newMachine is a machine name no other test uses.
func newMachine() string {
	return fmt.Sprintf("ipct-%d-%d", os.Getpid(), machines.Add(1))
}

func ipcChild(machine, soc string) int {
	r, err := gocann.Open(gocann.WithConfigJSON([]byte(ipcConfig(machine, soc))))
	if err != nil {
		fmt.Println("err open", err)
		return 1
	}
	defer r.Close()
	d, err := r.SetDevice(0)
	if err != nil {
		fmt.Println("err setdevice", err)
		return 1
	}
	c, _ := d.Context()
	pid, _ := r.BareTgid()
	fmt.Println("ok", pid)
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		f := strings.Fields(in.Text())
		if f[0] == "dev" { // id: the device later commands use
			if d, err = r.SetDevice(int(num(f[1]))); err == nil {
				c, err = d.Context()
			}
			fmt.Println(answer(err, ""))
			continue
		}
		fmt.Println(ipcCommand(r, d, c, f))
	}
	return 0
}

func answer(err error, format string, args ...any) string {
	if err != nil {
		return fmt.Sprintf("err %d %v", gocann.CodeOf(err), err)
	}
	return "ok " + fmt.Sprintf(format, args...)
}

func num(s string) uint64 {
	v, _ := strconv.ParseUint(s, 0, 64)
	return v
}

// ipcCommand runs one command of the parent's.
func ipcCommand(r *gocann.Runtime, d *gocann.Device, c *gocann.Context, f []string) string {
	switch f[0] {
	case "import": // key flags
		p, err := c.IPCMemImport(f[1], num(f[2]))
		return answer(err, "%#x", uint64(p))
	case "read": // addr n
		b := make([]byte, num(f[2]))
		err := c.CopyFromDevice(b, gocann.DevPtr(num(f[1])))
		return answer(err, "%x", b)
	case "write": // addr hex
		b, _ := hex.DecodeString(f[2])
		return answer(c.CopyToDevice(gocann.DevPtr(num(f[1])), b), "")
	case "reset": // the device, its last reference
		return answer(d.Reset(), "")
	case "close": // key
		return answer(c.IPCMemClose(f[1]), "")
	case "free": // addr
		return answer(c.Free(gocann.DevPtr(num(f[1]))), "")
	case "unmap": // addr
		return answer(r.UnmapMem(gocann.DevPtr(num(f[1]))), "")
	case "release": // addr
		return answer(r.ReleaseMemAddress(gocann.DevPtr(num(f[1]))), "")
	case "malloc": // n
		p, err := c.Malloc(int64(num(f[1])), gocann.HugeFirst)
		return answer(err, "%#x", uint64(p))
	case "export": // n flags
		p, err := c.Malloc(int64(num(f[1])), gocann.HugeFirst)
		if err != nil {
			return answer(err, "")
		}
		k, err := c.IPCMemExportKey(p, num(f[1]), num(f[2]))
		return answer(err, "%s", k)
	case "kstore": // addr v key: a kernel stores v at addr; the import closes at once
		k, err := r.Kernel("ipcstore")
		if err != nil {
			k, err = r.RegisterKernel("ipcstore", func(b *gocann.Block) { b.Store64(b.Arg(0).Ptr(), b.Arg(1).U64()) })
		}
		var s *gocann.Stream
		if err == nil {
			s, err = c.NewStream()
		}
		if err != nil {
			return answer(err, "")
		}
		if err = s.Launch(k, 1, gocann.Ptr(gocann.DevPtr(num(f[1]))), gocann.U64(num(f[2]))); err == nil {
			err = c.IPCMemClose(f[3])
		}
		if err == nil {
			err = s.SynchronizeTimeout(long)
		}
		s.Close()
		return answer(err, "")
	case "d2d": // addr n: an asynchronous copy to memory of this device, read back
		return d2d(c, gocann.DevPtr(num(f[1])), int64(num(f[2])))
	case "pimport", "fimport": // handle n: import, map and read n bytes
		var h gocann.PhysicalMem
		var err error
		if f[0] == "pimport" {
			h, err = r.MemImportFromShareableHandle(num(f[1]), d.ID())
		} else {
			var fh gocann.FabricHandle
			hex.Decode(fh[:], []byte(f[1]))
			h, err = r.MemImportFromFabricHandle(fh, d.ID())
		}
		if err != nil {
			return answer(err, "")
		}
		info, _ := r.PhysicalMemInfo(h)
		va, err := r.ReserveMemAddress(info.Size, 0, 0, 0)
		if err == nil {
			err = r.MapMem(va, info.Size, 0, h, 0)
		}
		b := make([]byte, num(f[2]))
		if err == nil {
			err = c.CopyFromDevice(b, va)
		}
		if err == nil {
			err = r.UnmapMem(va)
		}
		if err == nil {
			err = r.ReleaseMemAddress(va)
		}
		if err == nil {
			err = r.FreePhysical(h)
		}
		return answer(err, "%x", b)
	}
	return "err 0 unknown command " + f[0]
}

func d2d(c *gocann.Context, src gocann.DevPtr, n int64) string {
	s, err := c.NewStream()
	if err != nil {
		return answer(err, "")
	}
	defer s.Close()
	dst, err := c.Malloc(n, gocann.HugeFirst)
	if err != nil {
		return answer(err, "")
	}
	defer c.Free(dst)
	b := make([]byte, n)
	if err = s.CopyDeviceToDevice(dst, src, n); err == nil {
		if err = s.SynchronizeTimeout(long); err == nil {
			err = c.CopyFromDevice(b, dst)
		}
	}
	return answer(err, "%x", b)
}

// peer is a running child process obeying ipcCommand.
type peer struct {
	*testProc
	pid int32
}

func startPeer(t *testing.T, machine string, soc ...string) *peer {
	t.Helper()
	env := []string{ipcChildEnv + "=" + machine}
	if len(soc) > 0 {
		env = append(env, ipcSoCEnv+"="+soc[0])
	}
	p := &peer{testProc: startProc(t, env...)}
	first := p.line()
	if !strings.HasPrefix(first, "ok ") {
		t.Fatalf("child: %s", first)
	}
	p.pid = int32(num(strings.TrimPrefix(first, "ok ")))
	return p
}

func (p *peer) line() string {
	p.t.Helper()
	l, ok := p.next()
	if !ok {
		p.t.Fatal("the child ended")
	}
	return l
}

// do sends a command and returns the answer.
func (p *peer) do(format string, args ...any) string {
	p.t.Helper()
	p.send(fmt.Sprintf(format, args...))
	return p.line()
}

// ok sends a command that must succeed and returns what follows "ok ".
func (p *peer) ok(format string, args ...any) string {
	p.t.Helper()
	a := p.do(format, args...)
	if !strings.HasPrefix(a, "ok") {
		p.t.Fatalf("child %q: %s", fmt.Sprintf(format, args...), a)
	}
	return strings.TrimSpace(strings.TrimPrefix(a, "ok"))
}

// refused sends a command that must fail with code.
func (p *peer) refused(code gocann.Code, format string, args ...any) {
	p.t.Helper()
	a := p.do(format, args...)
	if want := fmt.Sprintf("err %d ", int(code)); !strings.HasPrefix(a, want) {
		p.t.Fatalf("child %q: %s, want code %d", fmt.Sprintf(format, args...), a, int(code))
	}
}

// end closes the child's input and waits for it.
func (p *peer) end() { _, _ = p.close() }

// ipcEnv is the parent's side: a runtime on a new machine.
func ipcEnv(t *testing.T, soc ...string) (env, string) {
	m := newMachine()
	// Cleanups run last first: the children end, then the runtime closes,
	// then the check.
	t.Cleanup(func() { noMachineFiles(t, m) })
	return setup(t, ipcConfig(m, soc...)), m
}

// noMachineFiles checks, once every process of machine m ended, that no
// file of it is left.
func noMachineFiles(t *testing.T, m string) {
	t.Helper()
	left, _ := filepath.Glob(fmt.Sprintf("/dev/shm/gocann-%d-%s*", os.Getuid(), m))
	if len(left) > 0 {
		t.Errorf("files of machine %s left: %v", m, left)
	}
}

func wantCode(t *testing.T, err error, code gocann.Code, what string) {
	t.Helper()
	if got := gocann.CodeOf(err); got != code {
		t.Fatalf("%s: code %d (%v), want %d", what, int(got), err, int(code))
	}
}
