// Package ascbench measures an Ascend C kernel as a user writes and builds
// it, against the plain C loop doing the same work on the host's cores in
// the same run: the ratio is how much of the host the simulated NPU gets.
package ascbench_test

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// build installs the tree (make install) into a temporary prefix and
// builds testdata/vadd.asc with its bisheng, as a user builds a
// single-source program: no optimization flag, the driver's default. The
// baseline is built on its own with gcc -O2.
func build(b *testing.B) (prog, libdir string) {
	b.Helper()
	for _, tool := range []string{"g++", "gcc", "make"} {
		if _, err := exec.LookPath(tool); err != nil {
			b.Skipf("%s not found: the benchmark builds the library and an Ascend C program", tool)
		}
	}
	root, err := filepath.Abs("../../..")
	if err != nil {
		b.Fatal(err)
	}
	src, err := filepath.Abs("testdata")
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	prefix := filepath.Join(dir, "cann")
	run := func(wd, name string, args ...string) {
		cmd := exec.Command(name, args...)
		cmd.Dir = wd
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
	}
	run(root, "make", "--no-print-directory", "install", "PREFIX="+prefix, "BUILD="+filepath.Join(dir, "build"))
	run(dir, "gcc", "-O2", "-std=c11", "-Wall", "-Wextra", "-Werror", "-c", filepath.Join(src, "baseline.c"), "-o", "baseline.o")
	prog = filepath.Join(dir, "vadd")
	run(dir, filepath.Join(prefix, "bin", "bisheng"), "--npu-arch=dav-2201", filepath.Join(src, "vadd.asc"), "baseline.o",
		"-o", prog)
	return prog, filepath.Join(prefix, "lib64")
}

// figures runs the program and returns its figures by name.
func figures(b *testing.B, prog, libdir string) map[string]float64 {
	cmd := exec.Command(prog)
	cmd.Env = append(os.Environ(), "LD_LIBRARY_PATH="+libdir)
	out, err := cmd.CombinedOutput()
	if err != nil || !bytes.Contains(out, []byte("PASS vadd")) {
		b.Fatalf("vadd: %v\n%s", err, out)
	}
	figs := map[string]float64{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 2 {
			if v, err := strconv.ParseFloat(f[1], 64); err == nil {
				figs[f[0]] = v
			}
		}
	}
	return figs
}

// BenchmarkVectorAdd reports z = x + y over 16M floats: the Ascend C
// kernel launched over every vector core of the chip (launch to stream
// synchronization), and the C loop on two host threads over the same
// arrays, each the fastest of 31 runs, taken in turns in one process.
// ratio is the C loop's time over the kernel's: 1 would be the host's
// speed.
func BenchmarkVectorAdd(b *testing.B) {
	prog, libdir := build(b)
	var figs map[string]float64
	for b.Loop() {
		figs = figures(b, prog, libdir)
	}
	b.ReportMetric(figs["ratio"], "ratio")
	b.ReportMetric(figs["asc.best-ms"], "asc-ms")
	b.ReportMetric(figs["c.best-ms"], "c-ms")
	b.ReportMetric(figs["asc.median-ms"], "asc-median-ms")
	b.ReportMetric(figs["c.median-ms"], "c-median-ms")
	b.ReportMetric(figs["asc.GB/s"], "asc-GB/s")
	b.ReportMetric(figs["c.GB/s"], "c-GB/s")
	b.ReportMetric(figs["blocks"], "blocks")
}
