// Command gen writes the front library's forwarding code from the acl
// headers: front/zz_core.h, the table of the core's entry points (one per
// API function the core implements), and front/zz_front.c, which fills the
// table's symbol list and defines every API function not written by hand
// in front/*.c as a call through the table with the calling thread's
// state.
//
// Run it with go generate in package capi.
package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/gocann/gocann/internal/cheader"
)

// opaque reports whether p is a value the runtime only hands back (a
// callback's user data) or must find NULL (reserve): it is no address the
// runtime looks at, may hold any value, and so reaches the core as an
// integer, never as a pointer.
func opaque(p cheader.Param) bool {
	return unconst(p.Type) == "void*" && (p.Name == "userData" || p.Name == "args" || p.Name == "reserve")
}

// signature renders d's parameter list, with the thread first when
// withThread is set (the core's entry points take it, and opaque values
// as integers).
func signature(d cheader.Decl, withThread bool) string {
	var ps []string
	if withThread {
		ps = append(ps, "gocann_thread *t")
	}
	for _, p := range d.Params {
		if withThread && opaque(p) {
			ps = append(ps, "uintptr_t "+p.Name)
			continue
		}
		ps = append(ps, p.Type+" "+p.Name)
	}
	if len(ps) == 0 {
		return "void"
	}
	return strings.Join(ps, ", ")
}

// Field renders d's entry in the core table.
func Field(d cheader.Decl) string {
	return fmt.Sprintf("\t%s (*%s)(%s);\n", d.Ret, d.Name, signature(d, true))
}

// failValue is what d returns when the core cannot serve a call: the
// error code for aclError functions, the failure value the reference
// gives for the few that have their own, zero otherwise.
func failValue(d cheader.Decl) string {
	switch {
	case d.Ret == "aclError":
		return "(aclError)e_"
	case d.Name == "aclprofStr2Id":
		return "UINT64_MAX"
	case d.Ret == "aclprofSubscribeOpFlag":
		return "ACL_SUBSCRIBE_NONE"
	}
	return "(" + d.Ret + ")0"
}

// Pointers are the typedefs of pointer types the headers declare: handles
// (typedef void* aclrtStream) and function pointers.
type Pointers struct {
	Handles, Funcs map[string]bool
}

var (
	handleRE = regexp.MustCompile(`typedef\s+void\s*\*\s*(\w+)\s*;`)
	funcRE   = regexp.MustCompile(`typedef\s+[^;()]*\(\s*\*\s*(\w+)\s*\)`)
)

// ParsePointers adds the pointer typedefs of a header to ps.
func (ps Pointers) ParsePointers(src string) {
	for _, m := range handleRE.FindAllStringSubmatch(src, -1) {
		ps.Handles[m[1]] = true
	}
	for _, m := range funcRE.FindAllStringSubmatch(src, -1) {
		ps.Funcs[m[1]] = true
	}
}

// pointer reports whether a parameter of type typ is a pointer, and
// whether it is a handle.
func (ps Pointers) pointer(typ string) (ptr, handle bool) {
	base := unconst(typ)
	handle = ps.Handles[base]
	return handle || ps.Funcs[base] || strings.Contains(base, "*"), handle
}

// unconst drops const qualifiers.
func unconst(t string) string {
	t = regexp.MustCompile(`\bconst\b`).ReplaceAllString(t, "")
	return strings.Join(strings.Fields(t), " ")
}

// Forwarder renders the front's definition of d. Each pointer argument is
// checked before the call: one below 4096 is no address or handle at all,
// and the Go runtime must never see it as a pointer (its stack copying
// takes such a value for a corrupt pointer and stops the process).
func (ps Pointers) Forwarder(d cheader.Decl) string {
	args := []string{"t"}
	var checks strings.Builder
	for _, p := range d.Params {
		if opaque(p) {
			args = append(args, "(uintptr_t)"+p.Name)
			continue
		}
		args = append(args, p.Name)
		if ptr, handle := ps.pointer(p.Type); ptr {
			h := 0
			if handle {
				h = 1
			}
			fmt.Fprintf(&checks, "\tGOCANN_CHECK_PTR(t, %q, %q, %s, %d, %s);\n", d.Name, p.Name, p.Name, h, failValue(d))
		}
	}
	call := fmt.Sprintf("gocann_core.%s(%s)", d.Name, strings.Join(args, ", "))
	if d.Ret != "void" {
		code := "0"
		if d.Ret == "aclError" {
			code = "r_"
		}
		call = fmt.Sprintf("GOCANN_PROF_RET(t, %q, %s, %s, %s)", d.Name, d.Ret, call, code)
	} else {
		call = fmt.Sprintf("GOCANN_PROF_VOID(t, %q, %s)", d.Name, call)
	}
	return fmt.Sprintf("%s %s(%s) {\n\tgocann_thread *t = gocann_self();\n\tGOCANN_ENTER(t, %q, %s);\n%s\t%s;\n}\n",
		d.Ret, d.Name, signature(d, false), d.Name, failValue(d), checks.String(), call)
}

// handWritten lists the API functions the front's own C files define, and
// which of those call into the core (through gocann_core.<name>).
func handWritten(dir string) (defined, callsCore map[string]bool, err error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.c"))
	if err != nil {
		return nil, nil, err
	}
	defined, callsCore = map[string]bool{}, map[string]bool{}
	def := regexp.MustCompile(`(?m)^[A-Za-z_][\w ]*[ *](acl\w+)\(`)
	use := regexp.MustCompile(`gocann_core\.(acl\w+)`)
	for _, f := range files {
		if strings.HasPrefix(filepath.Base(f), "zz_") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			return nil, nil, err
		}
		for _, m := range def.FindAllStringSubmatch(string(src), -1) {
			defined[m[1]] = true
		}
		for _, m := range use.FindAllStringSubmatch(string(src), -1) {
			callsCore[m[1]] = true
		}
	}
	return defined, callsCore, nil
}

const banner = "// Code generated by capi/gen from the acl headers; DO NOT EDIT.\n\n"

func main() {
	files, err := render(".")
	if err == nil {
		for name, b := range files {
			if err = os.WriteFile(filepath.Join("front", name), b, 0o644); err != nil {
				break
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// render returns the generated files of capi/front by name, from the
// package directory capi.
func render(capi string) (map[string][]byte, error) {
	defined, callsCore, err := handWritten(filepath.Join(capi, "front"))
	if err != nil {
		return nil, err
	}
	srcs := map[string]string{}
	ps := Pointers{Handles: map[string]bool{}, Funcs: map[string]bool{}}
	for _, name := range cheader.Headers {
		src, err := os.ReadFile(filepath.Join(capi, "..", "include", name))
		if err != nil {
			return nil, err
		}
		srcs[name] = string(src)
		ps.ParsePointers(string(src))
	}
	var table, syms, fwd bytes.Buffer
	for _, name := range cheader.Headers {
		decls, err := cheader.Parse(srcs[name])
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&table, "\t// %s\n", name)
		fmt.Fprintf(&fwd, "// %s\n", name)
		for _, d := range decls {
			inCore := !defined[d.Name] || callsCore[d.Name]
			if d.Variadic && !defined[d.Name] {
				return nil, fmt.Errorf("%s is variadic: the front must define it by hand", d.Name)
			}
			if inCore && !d.Variadic {
				table.WriteString(Field(d))
				fmt.Fprintf(&syms, "\t{\"gocann_%s\", &gocann_core.%s},\n", d.Name, d.Name)
			}
			if !defined[d.Name] {
				fwd.WriteString(ps.Forwarder(d))
			}
		}
		fwd.WriteString("\n")
	}
	var h bytes.Buffer
	h.WriteString(banner)
	h.WriteString("#ifndef GOCANN_FRONT_ZZ_CORE_H\n#define GOCANN_FRONT_ZZ_CORE_H\n\n")
	h.WriteString("#include \"acl/acl.h\"\n#include \"acl/acl_prof.h\"\n#include \"acl/acl_rt_memory_soma.h\"\n#include \"thread.h\"\n\n")
	h.WriteString("// gocann_core_api holds the core's entry point for each API function it\n")
	h.WriteString("// implements: gocann_<name>, taking the calling thread's state first.\n")
	h.WriteString("typedef struct gocann_core_api {\n")
	h.Write(table.Bytes())
	h.WriteString("} gocann_core_api;\n\nextern gocann_core_api gocann_core;\n\n#endif\n")
	var c bytes.Buffer
	c.WriteString(banner)
	c.WriteString("#include \"front.h\"\n\n")
	c.WriteString("gocann_core_api gocann_core;\n\n")
	c.WriteString("const gocann_core_sym gocann_core_syms[] = {\n")
	c.Write(syms.Bytes())
	c.WriteString("\t{0, 0},\n};\n\n")
	c.Write(fwd.Bytes())
	return map[string][]byte{"zz_core.h": h.Bytes(), "zz_front.c": c.Bytes()}, nil
}
