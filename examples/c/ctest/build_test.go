package ctest_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// cflags are the warnings every C file of the suite builds with.
var cflags = []string{"-std=c11", "-Wall", "-Wextra", "-Werror", "-O2", "-g"}

// cxxflags build the C++ kernels and programs.
var cxxflags = []string{"-std=c++17", "-Wall", "-Wextra", "-Werror", "-O2", "-g"}

// kernelFlags are a kernel's flags beyond cflags: params.c is built without
// debug information, so that only its declarations tell its parameters;
// faults.cpp divides by zero on purpose, which UBSan would report before
// the processor faults.
var kernelFlags = map[string][]string{"params": {"-g0"}, "faults": {"-fno-sanitize=integer-divide-by-zero"}}

// tools is a build of the libraries, and the kernels and programs built
// against it, shared by the tests.
type tools struct {
	root    string   // module root
	include string   // the public headers
	src     string   // examples/c
	lib     string   // holds libascendcl.so, libacl_rt.so and libgocann_core.so
	out     string   // build outputs
	flags   []string // compiler flags beyond cflags, for programs and kernels
	env     []string // environment the programs run with, beyond the test's
}

var (
	tmpRoot string // removed by TestMain

	// mu guards builds: one per variant, made on first use.
	mu     sync.Mutex
	builds = map[string]*buildResult{}
)

type buildResult struct {
	once sync.Once
	tl   *tools
	err  error
}

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "gocann-ctest-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	tmpRoot = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// setup builds the libraries once. It fails the test when gcc or make is
// missing: the suite is how the C ABI is tested, and skipping it would
// pass a run that tested nothing of it.
func setup(t *testing.T) *tools { return setupVariant(t, "plain", nil, nil, nil) }

// setupVariant builds the libraries with the make variables given (RACE=1,
// SANITIZE=1), once per name, for programs built with flags and run with
// env.
func setupVariant(t *testing.T, name string, makeVars, flags, env []string) *tools {
	t.Helper()
	for _, tool := range []string{"gcc", "make"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s not found: the C suite builds the libraries and the programs with gcc and make; install them (apt-get install gcc make)", tool)
		}
	}
	mu.Lock()
	b := builds[name]
	if b == nil {
		b = &buildResult{}
		builds[name] = b
	}
	mu.Unlock()
	b.once.Do(func() { b.tl, b.err = build(name, makeVars, flags, env) })
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.tl
}

func build(name string, makeVars, flags, env []string) (*tools, error) {
	src, err := filepath.Abs("..")
	if err != nil {
		return nil, err
	}
	root := filepath.Join(src, "..", "..")
	tl := &tools{root: root, include: filepath.Join(root, "include"), src: src,
		lib: filepath.Join(tmpRoot, name, "lib64"), out: filepath.Join(tmpRoot, name, "bin"), flags: flags, env: env}
	for _, d := range []string{tl.lib, tl.out} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	// The Makefile builds the libraries (the front, the core and the alias
	// names); go test puts its own go command first in PATH.
	args := append([]string{"--no-print-directory", "lib", "BUILD=" + tl.lib}, makeVars...)
	if _, err := run(root, "make", args...); err != nil {
		return nil, err
	}
	return tl, nil
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// run runs a build command in dir and returns its combined output.
func run(dir, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out), nil
}

// kernel builds the kernel source kernels/<name>.c, or kernels/<name>.cpp
// written with the Ascend C subset, into a shared object, with debug
// information so parameter sizes are known.
func (tl *tools) kernel(t *testing.T, name string) string {
	t.Helper()
	so := filepath.Join(tl.out, "lib"+name+".so")
	if fileExists(so) {
		return so
	}
	cc, flags, src := "gcc", cflags, filepath.Join(tl.src, "kernels", name+".c")
	if cpp := filepath.Join(tl.src, "kernels", name+".cpp"); fileExists(cpp) {
		cc, flags, src = "g++", cxxflags, cpp
		flags = append(flags[:len(flags):len(flags)], "-I"+filepath.Join(tl.include, "gocann", "ascendc"))
	}
	args := append(append(append(append([]string{}, flags...), tl.flags...), kernelFlags[name]...), "-shared", "-fPIC", "-I"+tl.include,
		"-o", so, src)
	if _, err := run(tl.src, cc, args...); err != nil {
		t.Fatal(err)
	}
	return so
}

// program builds examples/c/<name>.c, or <name>.cpp as C++, against the
// library.
func (tl *tools) program(t *testing.T, name string) string {
	t.Helper()
	exe := filepath.Join(tl.out, name)
	cc, flags, src := "gcc", cflags, filepath.Join(tl.src, name+".c")
	if cpp := filepath.Join(tl.src, name+".cpp"); fileExists(cpp) {
		cc, flags, src = "g++", cxxflags, cpp
	}
	args := append(append(append([]string{}, flags...), tl.flags...), "-I"+tl.include, "-o", exe, src,
		"-L"+tl.lib, "-lascendcl", "-pthread", "-Wl,-rpath,"+tl.lib)
	if _, err := run(tl.src, cc, args...); err != nil {
		t.Fatal(err)
	}
	return exe
}

// result is what a program printed.
type result struct {
	stdout, stderr string
	err            error
	took           time.Duration
}

// runProgram runs exe with args in a fresh working directory, bounded by
// timeout, with the variant's environment.
func (tl *tools) runProgram(t *testing.T, timeout time.Duration, exe string, args ...string) result {
	t.Helper()
	return runProgramEnv(t, timeout, tl.env, exe, args...)
}

// runProgramEnv is runProgram with env (KEY=value) added to the test's
// environment.
func runProgramEnv(t *testing.T, timeout time.Duration, env []string, exe string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Dir = t.TempDir()
	cmd.Env = isolated(append(os.Environ(), env...))
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	if ctx.Err() != nil {
		err = fmt.Errorf("killed after %v: %w", timeout, err)
	}
	return result{stdout.String(), stderr.String(), err, time.Since(start)}
}

var machines atomic.Int64

// isolated gives a program a simulated machine of its own unless env
// names one: programs running at once must not see each other's memory
// use. Programs that share devices are given one machine by their test.
func isolated(env []string) []string {
	for _, kv := range env {
		if strings.HasPrefix(kv, "GOCANN_MACHINE=") && kv != "GOCANN_MACHINE=" {
			return env
		}
	}
	return append(env, fmt.Sprintf("GOCANN_MACHINE=ctest-%d-%d", os.Getpid(), machines.Add(1)))
}
