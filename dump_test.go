package gocann_test

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gocann/gocann"
)

// writeFile writes a dump configuration and returns its path.
func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	check(t, os.WriteFile(p, []byte(text), 0o600))
	return p
}

// dumpFiles lists the file names in dir.
func dumpFiles(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	check(t, err)
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

// fill is a kernel adding 1 to each of n bytes at its first argument and
// writing their sum's low byte to its second.
func fillKernel(t *testing.T, r *gocann.Runtime, name string) *gocann.Kernel {
	t.Helper()
	k, err := r.RegisterKernel(name, func(b *gocann.Block) {
		n := int(b.Arg(2).U64())
		in := gocann.View[byte](b, b.Arg(0).Ptr(), n)
		out := gocann.View[byte](b, b.Arg(1).Ptr(), 1)
		var sum byte
		for i := range in {
			in[i]++
			sum += in[i]
		}
		out[0] = sum
	})
	check(t, err)
	return k
}

// TestDumpWritesArguments: with a dump on, each pointer argument's
// allocation of each kernel task is written, before (input) and after
// (output) the kernel, one file per task and argument; the bytes are the
// allocation's.
func TestDumpWritesArguments(t *testing.T) {
	e := setup(t)
	dir, cfgDir := t.TempDir(), t.TempDir()
	k := fillKernel(t, e.r, "fill/1")
	const n = 64
	in, out := malloc(t, e.c, n), malloc(t, e.c, 8)
	src := make([]byte, n)
	for i := range src {
		src[i] = byte(i)
	}
	check(t, e.c.CopyToDevice(in, src))
	check(t, e.c.CopyToDevice(out, make([]byte, 8)))

	check(t, e.r.InitDump())
	check(t, e.r.SetDump(writeFile(t, cfgDir, "d.json", `{"dump": {"dump_path": "`+dir+`", "dump_mode": "all", "dump_op_switch": "on"}}`)))
	check(t, e.s.Launch(k, 1, gocann.Ptr(in), gocann.Ptr(out), gocann.U64(n)))
	syncOK(t, e.s)
	files := dumpFiles(t, dir)
	if len(files) != 4 {
		t.Fatalf("dump files %q, want 4 (2 pointer arguments, input and output)", files)
	}
	seq := strings.TrimPrefix(strings.SplitN(files[0], ".", 4)[2], "task")
	name := func(arg int, end string) string {
		return filepath.Join(dir, gocann.DumpFile(0, e.s.ID(), mustUint(t, seq), "fill/1", arg, end))
	}
	after := make([]byte, n)
	var sum byte
	for i := range after {
		after[i] = src[i] + 1
		sum += after[i]
	}
	for _, f := range []struct {
		arg  int
		end  string
		want []byte
	}{
		{0, "input", src}, {0, "output", after},
		{1, "input", make([]byte, 8)}, {1, "output", append([]byte{sum}, make([]byte, 7)...)},
	} {
		got, err := os.ReadFile(name(f.arg, f.end))
		if err != nil {
			t.Errorf("argument %d %s: %v (files %q)", f.arg, f.end, err, files)
			continue
		}
		if !bytes.Equal(got, f.want) {
			t.Errorf("argument %d %s: % x, want % x", f.arg, f.end, got, f.want)
		}
	}
	if !strings.Contains(files[0], ".fill_1.") {
		t.Errorf("file %q does not carry the kernel name with / made _", files[0])
	}

	// Off after FinalizeDump: no more files.
	check(t, e.r.FinalizeDump())
	check(t, e.s.Launch(k, 1, gocann.Ptr(in), gocann.Ptr(out), gocann.U64(n)))
	syncOK(t, e.s)
	if got := dumpFiles(t, dir); len(got) != 4 {
		t.Errorf("files after FinalizeDump: %q, want the same 4", got)
	}
}

// TestDumpLayersAndModes: dump_list layers choose the kernels; output
// mode writes only the state after the kernel; a second SetDump replaces
// the first; a configuration turning nothing on turns dumping off.
func TestDumpLayersAndModes(t *testing.T) {
	e := setup(t)
	dir, cfgDir := t.TempDir(), t.TempDir()
	ka, kb := fillKernel(t, e.r, "ka"), fillKernel(t, e.r, "kb")
	in, out := malloc(t, e.c, 16), malloc(t, e.c, 8)
	check(t, e.r.InitDump())
	check(t, e.r.SetDump(writeFile(t, cfgDir, "a.json", `{"dump": {"dump_path": "`+dir+`", "dump_list": [{"layer": ["kb"]}]}}`)))
	check(t, e.s.Launch(ka, 1, gocann.Ptr(in), gocann.Ptr(out), gocann.U64(16)))
	check(t, e.s.Launch(kb, 1, gocann.Ptr(in), gocann.Ptr(out), gocann.U64(16)))
	syncOK(t, e.s)
	files := dumpFiles(t, dir)
	if len(files) != 2 || !strings.Contains(files[0], ".kb.arg0.output") || !strings.Contains(files[1], ".kb.arg1.output") {
		t.Fatalf("files %q, want kb's arguments 0 and 1, output only", files)
	}
	check(t, e.r.SetDump(writeFile(t, cfgDir, "b.json", `{"dump": {"dump_path": "`+dir+`"}}`)))
	check(t, e.s.Launch(kb, 1, gocann.Ptr(in), gocann.Ptr(out), gocann.U64(16)))
	syncOK(t, e.s)
	if got := dumpFiles(t, dir); len(got) != 2 {
		t.Errorf("files after a SetDump turning nothing on: %q, want the same 2", got)
	}
	// Kernels captured into a model are not dumped, nor is its run.
	check(t, e.r.SetDump(writeFile(t, cfgDir, "c.json", `{"dump": {"dump_path": "`+dir+`", "dump_op_switch": "on"}}`)))
	m, err := e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		return s.Launch(kb, 1, gocann.Ptr(in), gocann.Ptr(out), gocann.U64(16))
	})
	check(t, err)
	defer m.Close()
	check(t, m.Run(e.s))
	syncOK(t, e.s)
	if got := dumpFiles(t, dir); len(got) != 2 {
		t.Errorf("files after a captured launch and a model run: %q, want the same 2", got)
	}
	check(t, e.r.FinalizeDump())
}

// TestDumpRefusals: the session's order and the configuration file are
// checked with CANN's codes, the field named.
func TestDumpRefusals(t *testing.T) {
	r := gocann.New()
	defer r.Close()
	cfgDir := t.TempDir()
	good := writeFile(t, cfgDir, "good.json", `{"dump": {"dump_path": "`+cfgDir+`", "dump_op_switch": "on"}}`)
	wantErr(t, r.InitDump(), gocann.CodeUninitialize, "aclInit")
	wantErr(t, r.SetDump(good), gocann.CodeUninitialize, "aclInit")
	wantErr(t, r.FinalizeDump(), gocann.CodeUninitialize, "aclInit")
	check(t, r.Init(""))
	wantErr(t, r.SetDump(good), gocann.CodeDumpNotRun, "aclmdlInitDump")
	wantErr(t, r.FinalizeDump(), gocann.CodeDumpNotRun, "aclmdlInitDump")
	check(t, r.InitDump())
	wantErr(t, r.InitDump(), gocann.CodeRepeatInitialize, "already called")
	wantErr(t, r.SetDump(filepath.Join(cfgDir, "none.json")), gocann.CodeInvalidFile, "none.json", "does not exist")
	wantErr(t, r.SetDump(writeFile(t, cfgDir, "deep.json", strings.Repeat("[", 11))), gocann.CodeParseFile, "nesting")
	wantErr(t, r.SetDump(writeFile(t, cfgDir, "bad.json", `{"dump": {"dump_path": "`+cfgDir+`", "dump_mode": "x"}}`)),
		gocann.CodeInvalidDumpConfig, "dump_mode", `"x"`, "all/input/output")
	wantErr(t, r.SetDump(writeFile(t, cfgDir, "junk.json", `{"dump": `)), gocann.CodeInvalidDumpConfig, "not a JSON object")
	check(t, r.SetDump(writeFile(t, cfgDir, "empty.json", "")))
	check(t, r.SetDump(good))
	check(t, r.FinalizeDump())
	check(t, r.InitDump())
	check(t, r.FinalizeDump())
	check(t, r.Finalize())
}

// TestDumpFromInit: aclInit's dump section turns dumping on from the
// start, so aclmdlInitDump is refused; a bad section fails aclInit.
func TestDumpFromInit(t *testing.T) {
	dir := t.TempDir()
	e := setup(t, `{"dump": {"dump_path": "`+dir+`", "dump_op_switch": "on"}, "simulator": {"hbm_size": 1073741824}}`)
	wantErr(t, e.r.InitDump(), gocann.CodeDumpAlreadyRun, "aclInit configuration")
	k := fillKernel(t, e.r, "k")
	in, out := malloc(t, e.c, 4), malloc(t, e.c, 4)
	check(t, e.s.Launch(k, 1, gocann.Ptr(in), gocann.Ptr(out), gocann.U64(4)))
	syncOK(t, e.s)
	if got := dumpFiles(t, dir); len(got) != 2 {
		t.Errorf("files %q, want the 2 outputs", got)
	}
	_, err := gocann.Open(gocann.WithConfigJSON([]byte(`{"dump": {"dump_debug": "on"}}`)))
	wantErr(t, err, gocann.CodeInvalidDumpConfig, "dump_path is missing")
}

func mustUint(t *testing.T, s string) uint64 {
	t.Helper()
	var n uint64
	for _, c := range s {
		if c < '0' || c > '9' {
			t.Fatalf("%q is not a number", s)
		}
		n = n*10 + uint64(c-'0')
	}
	return n
}

// TestDumpWriteFailure: a dump file that cannot be written fails the
// FinalizeDump of its session with ACL_ERROR_INTERNAL_ERROR; the kernel
// and its stream are not affected.
func TestDumpWriteFailure(t *testing.T) {
	e := setup(t)
	dir, cfgDir := t.TempDir(), t.TempDir()
	k := fillKernel(t, e.r, "k")
	in, out := malloc(t, e.c, 4), malloc(t, e.c, 4)
	check(t, e.r.InitDump())
	check(t, e.r.SetDump(writeFile(t, cfgDir, "d.json", `{"dump": {"dump_path": "`+dir+`", "dump_op_switch": "on"}}`)))
	check(t, os.Remove(dir))
	check(t, e.s.Launch(k, 1, gocann.Ptr(in), gocann.Ptr(out), gocann.U64(4)))
	syncOK(t, e.s)
	wantErr(t, e.r.FinalizeDump(), gocann.CodeInternalError, "dump file could not be written", dir)
	check(t, e.r.InitDump())
	check(t, e.r.FinalizeDump())
}
