// Package bench measures the C ABI from C, next to the same operations
// through the Go API in the same run, so the cost of crossing from C reads
// as a difference.
package bench_test

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gocann/gocann"
)

// build compiles the library, the benchmark program and its kernel.
func build(b *testing.B) (prog, kernels, libdir string) {
	b.Helper()
	if _, err := exec.LookPath("gcc"); err != nil {
		b.Skip("gcc not found")
	}
	dir := b.TempDir()
	libdir = dir
	root, err := filepath.Abs("../..")
	if err != nil {
		b.Fatal(err)
	}
	run := func(name string, args ...string) {
		cmd := exec.Command(name, args...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
	}
	run("make", "--no-print-directory", "lib", "BUILD="+dir)
	inc := filepath.Join(root, "include")
	kernels = filepath.Join(dir, "empty.so")
	run("gcc", "-O2", "-shared", "-fPIC", "-I"+inc, "-o", kernels, "capi/bench/testdata/empty.c")
	prog = filepath.Join(dir, "cbench")
	run("gcc", "-O2", "-std=c11", "-Wall", "-Wextra", "-Werror", "-I"+inc, "-o", prog,
		"capi/bench/testdata/cbench.c", "-L"+dir, "-lascendcl")
	return prog, kernels, libdir
}

// cFigures runs the C benchmark and returns its figures by name.
func cFigures(b *testing.B, prog, kernels, libdir string, env ...string) map[string]float64 {
	cmd := exec.Command(prog, kernels)
	cmd.Env = append(append(os.Environ(), "LD_LIBRARY_PATH="+libdir), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		b.Fatalf("cbench: %v\n%s", err, out)
	}
	figs := map[string]float64{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 {
			if v, err := strconv.ParseFloat(f[1], 64); err == nil {
				figs[f[0]] = v
			}
		}
	}
	return figs
}

// goEnqueue is the Go API's cost of queueing the same launch, measured
// the same way: the stream is held by a notify wait.
func goEnqueue(b *testing.B) float64 {
	r, err := gocann.Open()
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	d, _ := r.SetDevice(0)
	c, _ := d.Context()
	s1, _ := c.NewStream()
	s2, _ := c.NewStream()
	n, _ := c.NewNotify()
	k, err := r.RegisterKernel("empty", func(*gocann.Block) {})
	if err != nil {
		b.Fatal(err)
	}
	var best time.Duration = 1 << 62
	const batch = 1000
	for range 5 {
		s1.WaitNotify(n, 0)
		start := time.Now()
		for range batch {
			s1.Launch(k, 1, gocann.U64(1))
		}
		best = min(best, time.Since(start))
		s2.RecordNotify(n)
		s1.Synchronize(context.Background())
	}
	return float64(best.Nanoseconds()) / batch
}

// BenchmarkCABI reports the C program's figures (ns) and the enqueue cost
// of the Go API in the same run; c-go-ns is what crossing from C adds.
func BenchmarkCABI(b *testing.B) {
	prog, kernels, libdir := build(b)
	var figs map[string]float64
	var goNs float64
	for b.Loop() {
		figs = cFigures(b, prog, kernels, libdir)
		goNs = goEnqueue(b)
	}
	for _, name := range []string{"c.enqueue", "c.throughput", "c.launch_sync", "c.cross_stream", "c.eager", "c.replay"} {
		b.ReportMetric(figs[name], strings.TrimPrefix(name, "c.")+"-ns")
	}
	b.ReportMetric(figs["c.replay"]/figs["c.eager"], "replay-x-eager")
	b.ReportMetric(goNs, "go-enqueue-ns")
	b.ReportMetric(figs["c.enqueue"]-goNs, "c-go-ns")
}

// BenchmarkCABIProfiled runs the C figures with profiling on (the seed's
// ASCEND_PROFILING_ENABLED, every API call stamped and every task
// recorded) and off, alternately in the same run, and reports each
// launch figure's ratio of on to off ("x-off"; the target is at most 1.2).
func BenchmarkCABIProfiled(b *testing.B) {
	prog, kernels, libdir := build(b)
	out := b.TempDir()
	on := []string{"ASCEND_PROFILING_ENABLED=1", "ASCEND_PROFILING_OUTPUT_PATH=" + out}
	sum := map[string][2]float64{}
	for b.Loop() {
		for i, env := range [][]string{nil, on} {
			for name, v := range cFigures(b, prog, kernels, libdir, env...) {
				s := sum[name]
				s[i] += v
				sum[name] = s
			}
		}
	}
	for _, name := range []string{"c.enqueue", "c.throughput", "c.launch_sync"} {
		s := sum[name]
		b.ReportMetric(s[0]/float64(b.N), strings.TrimPrefix(name, "c.")+"-off-ns")
		b.ReportMetric(s[1]/s[0], strings.TrimPrefix(name, "c.")+"-x-off")
	}
}
