package ctest_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// cflags are the warnings every C file of the suite builds with.
var cflags = []string{"-std=c11", "-Wall", "-Wextra", "-Werror", "-O2", "-g"}

// tools is the built library and kernels, shared by the tests.
type tools struct {
	root    string // module root
	include string // the public headers
	src     string // examples/c
	lib     string // holds libascendcl.so and libacl_rt.so
	out     string // build outputs
}

var (
	tmpRoot   string // removed by TestMain
	buildOnce sync.Once
	built     *tools
	buildErr  error
)

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

// setup builds the library once; it skips the test when gcc is missing.
func setup(t *testing.T) *tools {
	t.Helper()
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not found: the C suite needs it")
	}
	buildOnce.Do(func() { built, buildErr = build() })
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return built
}

func build() (*tools, error) {
	src, err := filepath.Abs("..")
	if err != nil {
		return nil, err
	}
	root := filepath.Join(src, "..", "..")
	tl := &tools{root: root, include: filepath.Join(root, "include"), src: src,
		lib: filepath.Join(tmpRoot, "lib64"), out: filepath.Join(tmpRoot, "bin")}
	for _, d := range []string{tl.lib, tl.out} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	// As the Makefile builds it, soname included; go test puts its own go
	// command first in PATH.
	if _, err := run(root, "go", "build", "-buildmode=c-shared", "-ldflags", "-extldflags -Wl,-soname,libascendcl.so",
		"-o", filepath.Join(tl.lib, "libascendcl.so"), "./capi"); err != nil {
		return nil, err
	}
	os.Remove(filepath.Join(tl.lib, "libascendcl.h"))
	if err := os.Symlink("libascendcl.so", filepath.Join(tl.lib, "libacl_rt.so")); err != nil {
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

// kernel builds the kernel source kernels/<name>.c into a shared object,
// with debug information so parameter sizes are known.
func (tl *tools) kernel(t *testing.T, name string) string {
	t.Helper()
	so := filepath.Join(tl.out, "lib"+name+".so")
	if fileExists(so) {
		return so
	}
	args := append(append([]string{}, cflags...), "-shared", "-fPIC", "-I"+tl.include,
		"-o", so, filepath.Join(tl.src, "kernels", name+".c"))
	if _, err := run(tl.src, "gcc", args...); err != nil {
		t.Fatal(err)
	}
	return so
}

// program builds examples/c/<name>.c against the library.
func (tl *tools) program(t *testing.T, name string) string {
	t.Helper()
	exe := filepath.Join(tl.out, name)
	args := append(append([]string{}, cflags...), "-I"+tl.include, "-o", exe, filepath.Join(tl.src, name+".c"),
		"-L"+tl.lib, "-lascendcl", "-pthread", "-Wl,-rpath,"+tl.lib)
	if _, err := run(tl.src, "gcc", args...); err != nil {
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
// timeout.
func runProgram(t *testing.T, timeout time.Duration, exe string, args ...string) result {
	t.Helper()
	return runProgramEnv(t, timeout, nil, exe, args...)
}

// runProgramEnv is runProgram with env (KEY=value) added to the
// environment.
func runProgramEnv(t *testing.T, timeout time.Duration, env []string, exe string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Dir = t.TempDir()
	if env != nil {
		cmd.Env = append(os.Environ(), env...)
	}
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	if ctx.Err() != nil {
		err = fmt.Errorf("killed after %v: %w", timeout, err)
	}
	return result{stdout.String(), stderr.String(), err, time.Since(start)}
}
