package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/gocann/gocann/internal/asc"
)

// Carrying a plan out with the host's compilers: each source compiled
// (an Ascend C one rewritten first, internal/asc), then the objects linked
// against libascendcl, or archived.

// toolchain is where the driver finds its headers and libraries, and the
// host compilers it runs.
type toolchain struct {
	root    string // the install tree: bin/.., with include/ and lib64/
	cxx, cc string
	stderr  io.Writer
	verbose bool
}

// prelude is the header every Ascend C source is compiled after.
const prelude = "include/gocann/ascendc/asc_prelude.h"

func newToolchain(stderr io.Writer) (*toolchain, error) {
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if err != nil {
		return nil, fmt.Errorf("cannot find the driver's own install tree: %v", err)
	}
	root := filepath.Dir(filepath.Dir(exe))
	if r := os.Getenv("GOCANN_BISHENG_ROOT"); r != "" {
		root = r
	}
	if _, err := os.Stat(filepath.Join(root, prelude)); err != nil {
		return nil, fmt.Errorf("%s is not a gocann install tree (no %s): run the bisheng of a make install tree", root, prelude)
	}
	tc := &toolchain{root: root, cxx: "g++", cc: "gcc", stderr: stderr}
	if v := os.Getenv("GOCANN_HOST_CXX"); v != "" {
		tc.cxx = v
	}
	if v := os.Getenv("GOCANN_HOST_CC"); v != "" {
		tc.cc = v
	}
	return tc, nil
}

// run carries out p.
func (tc *toolchain) run(p *plan) error {
	tc.verbose = p.verbose
	tmp, err := os.MkdirTemp("", "bisheng-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	var objects []string
	for i, in := range p.inputs {
		if in.lang == langLink {
			objects = append(objects, in.path)
			continue
		}
		out := p.output
		switch {
		case p.mode == modePreprocess:
		case p.mode == modeCompile && out == "":
			ext := ".o"
			if p.asm {
				ext = ".s"
			}
			out = strings.TrimSuffix(filepath.Base(in.path), filepath.Ext(in.path)) + ext
		case p.mode != modeCompile:
			out = filepath.Join(tmp, fmt.Sprintf("%d_%s.o", i, strings.TrimSuffix(filepath.Base(in.path), filepath.Ext(in.path))))
		}
		if err := tc.compile(p, in, out, tmp); err != nil {
			return err
		}
		objects = append(objects, out)
	}
	switch p.mode {
	case modeLink, modeShared:
		return tc.link(p, objects)
	case modeStatic:
		os.Remove(p.output) // ar adds to an archive that exists
		return tc.exec("ar", append([]string{"rcs", p.output}, objects...)...)
	}
	return nil
}

// compile compiles one source into out (to stdout for -E with no -o).
func (tc *toolchain) compile(p *plan, in input, out, tmp string) error {
	compiler := tc.cxx
	args := []string{}
	if in.lang == langC {
		compiler = tc.cc
	}
	src := in.path
	if in.lang == langASC {
		rewritten, err := tc.rewrite(p, in.path, tmp)
		if err != nil {
			return err
		}
		src = rewritten
		args = append(args, "-x", "c++")
		if !p.std {
			args = append(args, "-std=c++17")
		}
		if n, ok := archs[p.arch]; ok {
			args = append(args, "-D__NPU_ARCH__="+n)
		}
		if p.runMode == "cpu" {
			args = append(args, "-DASCENDC_CPU_DEBUG=1")
		}
		args = append(args, kernelOpt(p.compile)...)
		// The source's own directory first for its "..." includes, as
		// if it were compiled where it is.
		args = append(args, "-iquote", filepath.Dir(in.path))
	} else if err := noLaunches(in.path); err != nil {
		return err
	}
	args = append(args, p.compile...)
	args = append(args, "-I"+filepath.Join(tc.root, "include"), "-I"+filepath.Join(tc.root, "include", "gocann", "ascendc"))
	if in.lang == langASC {
		args = append(args, "-include", filepath.Join(tc.root, prelude))
	}
	switch {
	case p.mode == modePreprocess:
		args = append(args, "-E")
	case p.asm:
		args = append(args, "-S")
	default:
		args = append(args, "-c")
	}
	args = append(args, p.deps...)
	args = append(args, src)
	if out != "" {
		args = append(args, "-o", out)
	}
	if err := tc.exec(compiler, args...); err != nil {
		return err
	}
	if src != in.path && len(p.deps) > 0 {
		return fixDepFile(p, out, src, in.path)
	}
	return nil
}

// kernelOpt is the optimization level of an Ascend C source whose command
// line sets none: -O2, as CANN's toolchain compiles AI core kernels unless
// asked for a debug build. The host compiler's own default, -O0, would
// leave the library's vector loops scalar and every call out of line.
func kernelOpt(flags []string) []string {
	for _, f := range flags {
		if strings.HasPrefix(f, "-O") {
			return nil
		}
	}
	return []string{"-O2"}
}

// rewrite writes the host compiler's version of an Ascend C source into
// tmp and returns its path. With GEN_ACLRT, it also writes the launch
// headers of the source's kernels, and their definitions into the source.
func (tc *toolchain) rewrite(p *plan, path, tmp string) (string, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	out, kernels, err := asc.Rewrite(path, src)
	if err != nil {
		return "", err
	}
	if p.genACLRT != "" {
		defs, err := launchHeaders(p.genACLRT, path, asc.Launchable(kernels))
		if err != nil {
			return "", err
		}
		out = append(out, defs...)
	}
	f, err := os.CreateTemp(tmp, strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))+"-*.cpp")
	if err != nil {
		return "", err
	}
	if _, err := f.Write(out); err != nil {
		f.Close()
		return "", err
	}
	return f.Name(), f.Close()
}

// noLaunches refuses a host C or C++ source holding a <<<>>> launch, which
// the host compiler would meet with a confusing message.
func noLaunches(path string) error {
	src, err := os.ReadFile(path)
	if err != nil || !bytes.Contains(src, []byte("<<<")) {
		return nil // the compiler says what is wrong with the file
	}
	if line, col, found := asc.FindLaunch(path, src); found {
		return &asc.Error{File: path, Line: line, Col: col,
			Msg: "a <<<>>> launch needs an Ascend C source: name the file .asc, or compile it with -x asc"}
	}
	return nil
}

// fixDepFile names the user's source where the dependency file names the
// rewritten copy, so that make does not look for a file that is gone.
func fixDepFile(p *plan, out, tmpSrc, orig string) error {
	dep := p.depFile
	if dep == "" && out != "" {
		dep = strings.TrimSuffix(out, filepath.Ext(out)) + ".d"
	}
	b, err := os.ReadFile(dep)
	if err != nil {
		return nil // no dependency file was written
	}
	abs, err := filepath.Abs(orig)
	if err != nil {
		abs = orig
	}
	return os.WriteFile(dep, bytes.ReplaceAll(b, []byte(tmpSrc), []byte(abs)), 0o644)
}

// link links the objects into p.output: a program, or a shared library.
func (tc *toolchain) link(p *plan, objects []string) error {
	out := p.output
	if out == "" {
		out = "a.out"
	}
	args := []string{}
	if p.mode == modeShared {
		args = append(args, "-shared")
	}
	args = append(args, objects...)
	args = append(args, p.link...)
	args = append(args, "-o", out, "-L"+filepath.Join(tc.root, "lib64"), "-lascendcl", "-pthread")
	return tc.exec(tc.cxx, args...)
}

// exec runs a tool, its output the driver's own.
func (tc *toolchain) exec(name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = os.Stdout, tc.stderr
	if tc.verbose {
		fmt.Fprintf(tc.stderr, "%s %s\n", name, strings.Join(args, " "))
	}
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return &toolError{name: name, code: exit.ExitCode()}
		}
		return fmt.Errorf("running %s: %v", name, err)
	}
	return nil
}

// toolError is a host tool that failed; it has said why.
type toolError struct {
	name string
	code int
}

func (e *toolError) Error() string { return fmt.Sprintf("%s failed (exit status %d)", e.name, e.code) }
