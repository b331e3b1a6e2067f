package main

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
)

// What a command line asks for: inputs by language, the output, what to
// make of them, and the flags for the host compiler and linker.

type lang uint8

const (
	langNone lang = iota // by the file's extension
	langASC              // Ascend C: rewritten, with the prelude
	langCXX              // host C++
	langC                // host C
	langLink             // an object, archive or library: for the linker
)

type mode uint8

const (
	modeLink       mode = iota // compile what needs it, then link a program
	modeCompile                // -c, -dc: objects
	modePreprocess             // -E
	modeShared                 // -shared: a shared library
	modeStatic                 // -lib: a static library
)

type input struct {
	path string
	lang lang
}

type plan struct {
	inputs   []input
	output   string
	mode     mode
	asm      bool   // -S: assembly instead of objects
	runMode  string // npu, sim or cpu
	arch     string // the --npu-arch value, "" if none
	std      bool   // a -std= was given
	compile  []string
	deps     []string // -M* flags, for compiles only
	depFile  string   // the -MF file
	genACLRT string   // the GEN_ACLRT directory: where launch headers go
	link     []string
	verbose  bool
	help     bool
	version  bool
}

// usageError is a command line the driver refuses.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// archs are the --npu-arch values and the __NPU_ARCH__ they define.
var archs = map[string]string{
	"dav-1001": "1001", "dav-2002": "2002", "dav-2201": "2201", "dav-3002": "3002", "dav-3505": "3505", "dav-3510": "3510",
}

// silent are the Ascend compiler's options that change nothing here: the
// simulated NPU runs a block's operations in order, and its unified buffer
// reserves nothing.
var silent = map[string]bool{
	"--cce-auto-sync": true, "--cce-disable-asc-reserved-ubuf": true, "--cce-disable-vf-stack-reserved-ubuf": true,
	"--aicore-only": true, "--cce-aicore-only": true,
}

// takesValue are the host compiler's options whose value is the next
// argument when not attached.
var takesValue = map[string]bool{
	"-I": true, "-isystem": true, "-iquote": true, "-idirafter": true, "-include": true, "-imacros": true,
	"-D": true, "-U": true, "-L": true, "-l": true, "-MF": true, "-MT": true, "-MQ": true, "-Xlinker": true,
	"-isysroot": true, "--sysroot": true,
}

// parse reads a command line (without the program name).
func parse(args []string) (*plan, error) {
	p := &plan{runMode: "npu"}
	cur := langNone
	for i := 0; i < len(args); i++ {
		a := args[i]
		next := func() (string, error) {
			if i+1 >= len(args) {
				return "", usagef("option '%s' needs a value", a)
			}
			i++
			return args[i], nil
		}
		switch {
		case a == "-o":
			v, err := next()
			if err != nil {
				return nil, err
			}
			p.output = v
		case strings.HasPrefix(a, "-o") && len(a) > 2 && !strings.HasPrefix(a, "-oo"):
			p.output = a[2:]
		case a == "-c" || a == "-dc":
			if p.mode == modeLink {
				p.mode = modeCompile
			}
		case a == "-E":
			p.mode = modePreprocess
		case a == "-S":
			p.asm = true
			if p.mode == modeLink {
				p.mode = modeCompile
			}
		case a == "-shared" || a == "--shared":
			p.mode = modeShared
		case a == "-lib" || a == "--cce-build-static-lib":
			p.mode = modeStatic
		case a == "-x":
			v, err := next()
			if err != nil {
				return nil, err
			}
			if cur, err = language(v); err != nil {
				return nil, err
			}
		case strings.HasPrefix(a, "-x") && len(a) > 2:
			var err error
			if cur, err = language(a[2:]); err != nil {
				return nil, err
			}
		case a == "--asc-aicore-lang" || a == "--cce-aicore-lang":
			cur = langASC
		case a == "--npu-arch" || strings.HasPrefix(a, "--npu-arch="):
			v, ok := strings.CutPrefix(a, "--npu-arch=")
			if !ok {
				var err error
				if v, err = next(); err != nil {
					return nil, err
				}
			}
			if _, known := archs[v]; !known {
				return nil, usagef("--npu-arch=%s: unknown architecture, expected one of %s", v, strings.Join(slices.Sorted(maps.Keys(archs)), ", "))
			}
			if p.arch != "" && p.arch != v {
				return nil, usagef("--npu-arch=%s conflicts with --npu-arch=%s given before", v, p.arch)
			}
			p.arch = v
		case strings.HasPrefix(a, "--npu-soc="):
			if v := a[len("--npu-soc="):]; !strings.HasPrefix(v, "Ascend") {
				return nil, usagef("--npu-soc=%s: expected an Ascend SoC name, such as Ascend910B1", v)
			}
		case a == "--run-mode" || strings.HasPrefix(a, "--run-mode="):
			v, ok := strings.CutPrefix(a, "--run-mode=")
			if !ok {
				var err error
				if v, err = next(); err != nil {
					return nil, err
				}
			}
			if v != "npu" && v != "sim" && v != "cpu" {
				return nil, usagef("--run-mode=%s: expected npu, sim or cpu", v)
			}
			p.runMode = v
		case silent[a] || strings.HasPrefix(a, "--cce-auto-sync-log="):
		case a == "-Xhost-start" || a == "-Xaicore-start":
			end := strings.TrimSuffix(a, "-start") + "-end"
			j := i + 1
			for j < len(args) && args[j] != end {
				j++
			}
			if j == len(args) {
				return nil, usagef("%s without %s", a, end)
			}
			if err := p.hostFlags(args[i+1:j], a); err != nil {
				return nil, err
			}
			i = j
		case a == "-Xhost" || a == "-Xaicore":
			v, err := next()
			if err != nil {
				return nil, err
			}
			if err := p.hostFlags([]string{v}, a); err != nil {
				return nil, err
			}
		case a == "-v":
			p.verbose = true
		case a == "-help" || a == "--help" || a == "-h":
			p.help = true
		case a == "--version":
			p.version = true
		case strings.HasPrefix(a, "-") && a != "-":
			n, err := p.hostFlag(args, i, "")
			if err != nil {
				return nil, err
			}
			i += n
		default:
			in := input{path: a, lang: cur}
			if in.lang == langNone {
				in.lang = byExtension(a)
			}
			p.inputs = append(p.inputs, in)
		}
	}
	return p, p.check()
}

// hostFlags takes the options of an -Xhost/-Xaicore group.
func (p *plan) hostFlags(flags []string, group string) error {
	for i := 0; i < len(flags); i++ {
		if !strings.HasPrefix(flags[i], "-") {
			return usagef("%s: '%s' is not an option", group, flags[i])
		}
		n, err := p.hostFlag(flags, i, group)
		if err != nil {
			return err
		}
		i += n
	}
	return nil
}

// hostFlag takes the host compiler's or linker's option args[i], and its
// value; it returns how many more arguments it used.
func (p *plan) hostFlag(args []string, i int, group string) (int, error) {
	a := args[i]
	name, attached := a, ""
	for _, f := range []string{"-I", "-D", "-U", "-L", "-l", "-MF", "-MT", "-MQ"} {
		if strings.HasPrefix(a, f) && len(a) > len(f) {
			name, attached = f, a[len(f):]
			break
		}
	}
	used := 0
	val := attached
	if takesValue[name] && attached == "" {
		if i+1 >= len(args) {
			return 0, usagef("option '%s' needs a value", a)
		}
		val = args[i+1]
		used = 1
	}
	both := func(flags ...string) {
		p.compile = append(p.compile, flags...)
	}
	switch {
	case a == "-mllvm":
		return 0, usagef("%s'-mllvm %s' tunes the AI core's compiler; the simulated NPU's kernels are host code", where(group), value(args, i))
	case a == "--enable-simt":
		return 0, usagef("--enable-simt: SIMT compilation of Ascend C sources is not supported yet; build SIMT kernels with gocann/kernel.h and GOCANN_SIMT_KERNEL")
	case a == "--sanitizer":
		return 0, usagef("--sanitizer: the AI core's memory checker does not exist here; use -fsanitize=address for the host build")
	case name == "-I" || name == "-D" || name == "-U":
		if dir, ok := strings.CutPrefix(val, "GEN_ACLRT="); ok && name == "-D" {
			p.genACLRT = strings.Trim(dir, `"`)
		}
		both(name + val)
	case name == "-isystem" || name == "-iquote" || name == "-idirafter" || name == "-include" || name == "-imacros" || name == "-isysroot" || name == "--sysroot":
		both(name, val)
		if name == "--sysroot" {
			p.link = append(p.link, name, val)
		}
	case name == "-L" || name == "-l":
		p.link = append(p.link, name+val)
	case name == "-MF":
		p.deps = append(p.deps, "-MF", val)
		p.depFile = val
	case name == "-MT" || name == "-MQ":
		p.deps = append(p.deps, name, val)
	case a == "-M" || a == "-MM" || a == "-MD" || a == "-MMD" || a == "-MP" || a == "-MG":
		p.deps = append(p.deps, a)
	case name == "-Xlinker":
		p.link = append(p.link, "-Xlinker", val)
	case strings.HasPrefix(a, "-Wl,"):
		p.link = append(p.link, a)
	case strings.HasPrefix(a, "-std="):
		p.std = true
		both(a)
	case strings.HasPrefix(a, "-fsanitize") || a == "-pthread" || a == "-fPIC" || a == "-fpic" || a == "-fPIE" || a == "-fpie" || a == "-m32" || a == "-m64":
		both(a)
		p.link = append(p.link, a)
	case strings.HasPrefix(a, "-O") || strings.HasPrefix(a, "-g") || strings.HasPrefix(a, "-f") ||
		strings.HasPrefix(a, "-W") && !strings.HasPrefix(a, "-Wl,") || strings.HasPrefix(a, "-m") || a == "-w" ||
		a == "-pipe" || a == "-pedantic" || a == "-pedantic-errors" || a == "-ansi":
		both(a)
	case a == "-rdynamic" || a == "-static" || a == "-pie" || a == "-no-pie" || a == "-s" || a == "-static-libstdc++" || a == "-static-libgcc" || a == "-nostdlib" || a == "-nodefaultlibs":
		p.link = append(p.link, a)
	default:
		return 0, usagef("%sunknown option '%s'", where(group), a)
	}
	return used, nil
}

func where(group string) string {
	if group == "" {
		return ""
	}
	return group + ": "
}

func value(args []string, i int) string {
	if i+1 < len(args) {
		return args[i+1]
	}
	return ""
}

// language reads the value of -x.
func language(v string) (lang, error) {
	switch v {
	case "asc":
		return langASC, nil
	case "c++", "cpp":
		return langCXX, nil
	case "c":
		return langC, nil
	case "none":
		return langNone, nil
	}
	return 0, usagef("-x %s: unknown language, expected asc, c++, c or none", v)
}

func byExtension(path string) lang {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".asc":
		return langASC
	case ".cpp", ".cc", ".cxx", ".c++", ".cp":
		return langCXX
	case ".c":
		if filepath.Ext(path) == ".C" {
			return langCXX
		}
		return langC
	}
	return langLink
}

// check refuses what cannot be done.
func (p *plan) check() error {
	if p.help || p.version {
		return nil
	}
	if len(p.inputs) == 0 {
		return usagef("no input files")
	}
	sources := 0
	for _, in := range p.inputs {
		if in.lang != langLink {
			sources++
		}
	}
	switch p.mode {
	case modeCompile, modePreprocess:
		if p.output != "" && sources > 1 {
			return usagef("cannot specify -o with -c, -dc, -S or -E with %d source files", sources)
		}
		if sources == 0 {
			return usagef("nothing to compile: no source among the inputs")
		}
	case modeStatic:
		if p.output == "" {
			return usagef("-lib needs -o, the static library to write")
		}
	}
	return nil
}
