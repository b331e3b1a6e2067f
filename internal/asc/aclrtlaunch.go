package asc

import (
	"fmt"
	"strconv"
	"strings"
)

// Launch functions: what CANN's kernel build generates for each kernel of
// a kernel library, so that host code that cannot compile <<<>>> launches
// it. For a kernel add_custom(GM_ADDR x, uint32_t n), the header
// aclrtlaunch_add_custom.h declares
//
//	uint32_t aclrtlaunch_add_custom(uint32_t numBlocks, aclrtStream stream, void *x, uint32_t n);
//
// (a pointer parameter is a void *, a scalar keeps its type) and the macro
// ACLRT_LAUNCH_KERNEL(add_custom), which names it; the definition goes
// into the kernel's own source, where it launches the kernel as <<<>>>
// does and returns the launch's code. Template kernels have none: their
// launch needs the template's arguments, which a C function cannot take.

// Param is one parameter of a launch function.
type Param struct {
	Type    string // as the header declares it
	Name    string // its name in the kernel, or "" if it has none
	Pointer bool
}

// LaunchParams returns the parameters of k's launch function after
// numBlocks and stream, or an error naming the parameter a launch cannot
// pass.
func LaunchParams(k Kernel) ([]Param, error) {
	ps := make([]Param, 0, len(k.Params))
	for _, decl := range k.Params {
		toks, err := scan("", []byte(decl))
		if err != nil {
			return nil, err
		}
		if i := tokenIndex(decl, toks, "="); i >= 0 {
			toks = toks[:i] // a default argument
		}
		var p Param
		n := len(toks)
		if n >= 2 && toks[n-1].kind == tIdent && (toks[n-2].kind == tIdent || isDeclarator(toks[n-2].text([]byte(decl)))) &&
			!typeWord[toks[n-1].text([]byte(decl))] {
			p.Name = toks[n-1].text([]byte(decl))
			toks = toks[:n-1]
		}
		var words []string
		for _, t := range toks {
			w := t.text([]byte(decl))
			switch {
			case w == "*" || w == "GM_ADDR" || w == "__gm__" || w == "[":
				p.Pointer = true
			case w == "&" || w == "&&":
				return nil, fmt.Errorf("kernel %s: parameter %q is a reference; a kernel takes pointers and scalars", k.Name, decl)
			}
			if !strings.HasPrefix(w, "__") {
				words = append(words, w)
			}
		}
		p.Type = "void *"
		if !p.Pointer {
			p.Type = strings.Join(words, " ")
		}
		ps = append(ps, p)
	}
	return ps, nil
}

// typeWord are the words that end a type, not name a parameter.
var typeWord = map[string]bool{"int": true, "char": true, "short": true, "long": true, "float": true, "double": true,
	"bool": true, "unsigned": true, "signed": true, "const": true, "volatile": true}

func isDeclarator(s string) bool { return s == "*" || s == ">" || s == "&" }

func tokenIndex(src string, toks []token, s string) int {
	for i, t := range toks {
		if t.text([]byte(src)) == s {
			return i
		}
	}
	return -1
}

// LaunchHeader returns the text of aclrtlaunch_<kernel>.h for k, written
// from the source file.
func LaunchHeader(k Kernel, file string) (string, error) {
	ps, err := LaunchParams(k)
	if err != nil {
		return "", err
	}
	blocks, stream := "numBlocks", "stream"
	args := []string{}
	for i, p := range ps {
		name := p.Name
		if name == "" {
			name = fmt.Sprintf("arg%d", i)
		}
		if name == blocks {
			blocks = "_numBlocks"
		}
		if name == stream {
			stream = "_stream"
		}
		args = append(args, declare(p.Type, name))
	}
	guard := "HEADER_ACLRTLAUNCH_" + strings.ToUpper(k.Name) + "_H"
	var b strings.Builder
	fmt.Fprintf(&b, "/* aclrtlaunch_%s.h: the launch function of the kernel %s, written by bisheng\n", k.Name, k.Name)
	fmt.Fprintf(&b, " * from %s. Its value is the launch's code. */\n", file)
	fmt.Fprintf(&b, "#ifndef %s\n#define %s\n\n#include \"acl/acl_base.h\"\n\n", guard, guard)
	b.WriteString("#ifndef ACLRT_LAUNCH_KERNEL\n#define ACLRT_LAUNCH_KERNEL(kernel_func) aclrtlaunch_##kernel_func\n#endif\n\n")
	b.WriteString("#ifdef __cplusplus\nextern \"C\"\n#endif\n")
	fmt.Fprintf(&b, "uint32_t aclrtlaunch_%s(%s);\n\n#endif\n",
		k.Name, strings.Join(append([]string{"uint32_t " + blocks, "aclrtStream " + stream}, args...), ", "))
	return b.String(), nil
}

func declare(typ, name string) string {
	if strings.HasSuffix(typ, "*") {
		return typ + name
	}
	return typ + " " + name
}

// LaunchFunctions returns the definitions of the launch functions of
// kernels, to follow the rewritten text of file, their source.
func LaunchFunctions(kernels []Kernel, file string) (string, error) {
	var b strings.Builder
	for _, k := range kernels {
		ps, err := LaunchParams(k)
		if err != nil {
			return "", err
		}
		params := []string{"uint32_t numBlocks", "aclrtStream stream"}
		args := []string{}
		for i, p := range ps {
			params = append(params, declare(p.Type, fmt.Sprintf("p%d", i)))
			args = append(args, fmt.Sprintf("p%d", i))
		}
		fn := "::" + k.Name
		if k.Scope != "" {
			fn = "::" + k.Scope + fn
		}
		fmt.Fprintf(&b, "\n#line %d %s\n", k.Line, strconv.Quote(file))
		fmt.Fprintf(&b, "extern \"C\" uint32_t aclrtlaunch_%s(%s) { return static_cast<uint32_t>(::AscendC::gocann::LaunchFrom(%s, %s, %q, numBlocks, stream%s)); }\n",
			k.Name, strings.Join(params, ", "), fn, gangTag(k), k.Name, strings.Join(prepend(", ", args), ""))
	}
	return b.String(), nil
}

// gangTag is the launch-site tag of a launch function of k.
func gangTag(k Kernel) string {
	if k.Flags&flagGang == 0 {
		return Tag(0)
	}
	return Tag(k.Flags)
}

func prepend(p string, ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = p + s
	}
	return out
}

// Launchable returns the kernels of a source that get launch functions:
// those it defines, not templates.
func Launchable(kernels []Kernel) []Kernel {
	var out []Kernel
	for _, k := range kernels {
		if k.Defined && k.Template == "" {
			out = append(out, k)
		}
	}
	return out
}
