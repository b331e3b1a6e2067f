// Command gen writes acl/_api.py, the description of the C ABI the Python
// module acl binds: for every API function of the acl headers its ctypes
// result and parameter types and which parameters are out-parameters, the
// headers' integer constants, and the by-value struct types the functions
// take.
//
// Run it with go generate in package python.
package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/gocann/gocann/internal/cheader"
)

// notOut lists parameters the rule takes for out-parameters but that are
// arrays or buffers the caller passes (by address): function → parameters.
var notOut = map[string][]string{
	"aclrtMemcpyBatch":                     {"dsts", "destMaxs", "srcs", "sizes", "attrsIndexes"},
	"aclrtMemcpyBatchV2":                   {"dsts", "destMaxs", "srcs", "sizes", "attrsIndexes"},
	"aclrtMemcpyBatchAsync":                {"dsts", "destMaxs", "srcs", "sizes", "attrsIndexes"},
	"aclrtMemcpyBatchAsyncV2":              {"dsts", "destMaxs", "srcs", "sizes", "attrsIndexes"},
	"aclrtMemcpyAsyncWithOffset":           {"dst"},
	"aclrtMemManagedPrefetchBatchAsync":    {"sizes", "prefetchLocIdxs"},
	"aclrtMemManagedGetAttrs":              {"attributes", "data", "dataSizes"},
	"aclrtNotifySetImportPid":              {"pid"},
	"aclrtIpcMemSetImportPid":              {"pid"},
	"aclrtMemSetPidToShareableHandle":      {"pid"},
	"aclrtMemSetPidToShareableHandleV2":    {"pid"},
	"aclrtDeviceGetHostAtomicCapabilities": {"capabilities"},
	"aclrtDeviceGetP2PAtomicCapabilities":  {"capabilities"},
	"aclrtCheckMemType":                    {"addrList"},
	"aclrtCreateLabelList":                 {"labels"},
	"aclrtNotifyBatchReset":                {"notifies"},
	"aclrtLaunchKernelWithArgsArray":       {"args"},
	"aclrtLaunchSIMTKernelWithArgsArray":   {"args"},
	"aclmdlRIGetStreams":                   {"streams", "numStreams"},
	"aclmdlRIGetTasksByStream":             {"tasks", "numTasks"},
	"aclprofCreateConfig":                  {"deviceIdList"},
}

var constRE = regexp.MustCompile(`\bconst\b`)

// scalars maps the C integer and float types to ctypes.
var scalars = map[string]string{
	"int8_t": "c_int8", "uint8_t": "c_uint8", "int16_t": "c_int16", "uint16_t": "c_uint16",
	"int32_t": "c_int32", "uint32_t": "c_uint32", "int64_t": "c_int64", "uint64_t": "c_uint64",
	"int": "c_int", "unsigned int": "c_uint", "unsigned char": "c_ubyte", "long": "c_long", "unsigned long": "c_ulong",
	"size_t": "c_size_t", "bool": "c_bool", "float": "c_float", "double": "c_double",
	"char": "c_char", "aclError": "c_int", "aclFloat16": "c_uint16",
}

// Types are what the headers declare besides functions.
type Types struct {
	Handles, Funcs, Enums, Structs map[string]bool
	Ints                           map[string]string // integer typedefs
	Consts                         map[string]string // name → Python literal
	order                          []string
}

var (
	handleRE     = regexp.MustCompile(`typedef\s+void\s*\*\s*(\w+)\s*;`)
	funcRE       = regexp.MustCompile(`typedef\s+[^;()]*\(\s*\*\s*(\w+)\s*\)`)
	enumRE       = regexp.MustCompile(`(?s)typedef\s+enum\s*\w*\s*\{(.*?)\}\s*(\w+)\s*;`)
	structRE     = regexp.MustCompile(`typedef\s+(?:struct|union)\s+\w*\s*(?:\{[^}]*\}\s*)?(\w+)\s*;`)
	intDefRE     = regexp.MustCompile(`typedef\s+((?:unsigned\s+)?\w+)\s+(\w+)\s*;`)
	defineRE     = regexp.MustCompile(`(?m)^\s*#define\s+([A-Z][A-Z0-9_]*)\s+\(?\s*(-?(?:0[xX][0-9a-fA-F]+|\d+))[uUlL]*\s*\)?\s*$`)
	staticRE     = regexp.MustCompile(`static\s+const\s+\w+\s+([A-Z][A-Z0-9_]*)\s*=\s*(-?(?:0[xX][0-9a-fA-F]+|\d+))[uUlL]*\s*;`)
	deprecatedRE = regexp.MustCompile(`ACL_DEPRECATED(?:_MESSAGE\s*\(\s*"[^"]*"\s*\))?`)
	suffixRE     = regexp.MustCompile(`\b(0[xX][0-9a-fA-F]+|\d+)[uUlL]+\b`)
	exprRE       = regexp.MustCompile(`^[\w\s()<>|&+~-]+$`)
	identRE      = regexp.MustCompile(`\b[A-Za-z_]\w*\b`)
	tagRE        = regexp.MustCompile(`typedef\s+(?:struct|union)\s+(\w+)\s*\{`)
	enumValRE    = regexp.MustCompile(`^([A-Za-z_]\w*)\s*(?:=\s*(.+))?$`)
)

// expr reports whether val is an integer expression of literals and known
// constants that reads the same in Python.
func (ts *Types) expr(val string) bool {
	if !exprRE.MatchString(val) {
		return false
	}
	for _, id := range identRE.FindAllString(val, -1) {
		if _, ok := ts.Consts[id]; !ok {
			return false
		}
	}
	return true
}

func (ts *Types) constant(name, value string) {
	if _, ok := ts.Consts[name]; !ok {
		ts.order = append(ts.order, name)
	}
	ts.Consts[name] = value
}

// scan adds a header's types and constants to ts.
func (ts *Types) scan(src string) error {
	src = cheader.StripComments(src)
	for _, m := range handleRE.FindAllStringSubmatch(src, -1) {
		ts.Handles[m[1]] = true
	}
	for _, m := range funcRE.FindAllStringSubmatch(src, -1) {
		ts.Funcs[m[1]] = true
	}
	for _, m := range intDefRE.FindAllStringSubmatch(src, -1) {
		if c, ok := scalars[strings.Join(strings.Fields(m[1]), " ")]; ok {
			ts.Ints[m[2]] = c
		}
	}
	for _, m := range structRE.FindAllStringSubmatch(src, -1) {
		ts.Structs[m[1]] = true
	}
	for _, m := range tagRE.FindAllStringSubmatch(src, -1) {
		ts.Structs[m[1]] = true
	}
	for _, m := range defineRE.FindAllStringSubmatch(src, -1) {
		ts.constant(m[1], m[2])
	}
	for _, m := range staticRE.FindAllStringSubmatch(src, -1) {
		ts.constant(m[1], m[2])
	}
	for _, m := range enumRE.FindAllStringSubmatch(src, -1) {
		ts.Enums[m[2]] = true
		next := "0"
		body := deprecatedRE.ReplaceAllString(m[1], "")
		for _, e := range strings.Split(body, ",") {
			e = strings.Join(strings.Fields(e), " ")
			if e == "" || strings.HasPrefix(e, "#") {
				continue
			}
			v := enumValRE.FindStringSubmatch(e)
			if v == nil {
				return fmt.Errorf("enum %s: cannot read %q", m[2], e)
			}
			val := next
			if v[2] != "" {
				val = suffixRE.ReplaceAllString(strings.TrimSpace(v[2]), "$1")
			}
			if !ts.expr(val) {
				return fmt.Errorf("enum %s: value %q of %s", m[2], val, v[1])
			}
			ts.constant(v[1], val)
			next = val + " + 1"
			if n, err := strconv.ParseInt(val, 0, 64); err == nil {
				next = strconv.FormatInt(n+1, 10)
			}
		}
	}
	return nil
}

// ctype maps a non-pointer C type to its ctypes name, or "" when it is a
// struct passed by value (named S:<type>).
func (ts *Types) ctype(t string) (string, error) {
	switch {
	case t == "void":
		return "None", nil
	case scalars[t] != "":
		return scalars[t], nil
	case ts.Ints[t] != "":
		return ts.Ints[t], nil
	case ts.Enums[t]:
		return "c_int", nil
	case ts.Handles[t] || ts.Funcs[t]:
		return "c_void_p", nil
	case ts.Structs[t]:
		return "S:" + t, nil
	}
	return "", fmt.Errorf("unknown type %q", t)
}

// param returns a parameter's ctypes type and, for an out-parameter, its
// pointee's ctypes type.
func (ts *Types) param(d cheader.Decl, p cheader.Param) (arg, out string, err error) {
	t := strings.Join(strings.Fields(p.Type), " ")
	// A const after the last * makes the pointer itself const (int32_t*
	// const out): its pointee is still written, so it may be an output.
	if i := strings.LastIndex(t, "*"); i >= 0 && strings.TrimSpace(t[i+1:]) == "const" {
		t = strings.TrimSpace(t[:i+1])
	}
	isConst := strings.Contains(t, "const")
	base := strings.Join(strings.Fields(constRE.ReplaceAllString(t, "")), " ")
	base = strings.ReplaceAll(base, " *", "*")
	if !strings.HasSuffix(base, "*") {
		arg, err = ts.ctype(base)
		return arg, "", err
	}
	if base == "char*" && isConst {
		return "c_char_p", "", nil
	}
	elem := strings.TrimSuffix(base, "*")
	for _, n := range notOut[d.Name] {
		if n == p.Name {
			return "c_void_p", "", nil
		}
	}
	if !isConst && !strings.Contains(elem, "*") && elem != "char" && elem != "void" {
		if c, err := ts.ctype(elem); err == nil && !strings.HasPrefix(c, "S:") && c != "None" {
			return "P:" + c, c, nil
		}
	}
	if !isConst && elem == "void*" {
		return "P:c_void_p", "c_void_p", nil
	}
	return "c_void_p", "", nil
}

const banner = "# Code generated by python/gen from the acl headers; DO NOT EDIT.\n"

func main() {
	b, err := render(".")
	if err == nil {
		err = os.WriteFile(filepath.Join("acl", "_api.py"), b, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// render returns acl/_api.py, from the package directory python.
func render(dir string) ([]byte, error) {
	inc := filepath.Join(dir, "..", "include")
	all, err := filepath.Glob(filepath.Join(inc, "acl", "*.h"))
	if err != nil {
		return nil, err
	}
	more, _ := filepath.Glob(filepath.Join(inc, "acl", "error_codes", "*.h"))
	all = append(more, all...)
	sort.Strings(all)
	ts := &Types{Handles: map[string]bool{}, Funcs: map[string]bool{}, Enums: map[string]bool{},
		Structs: map[string]bool{}, Ints: map[string]string{}, Consts: map[string]string{}}
	for _, f := range all {
		src, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		if err := ts.scan(string(src)); err != nil {
			return nil, fmt.Errorf("%s: %v", filepath.Base(f), err)
		}
	}
	var w bytes.Buffer
	w.WriteString(banner)
	w.WriteString("\"\"\"The C surface the module binds, read from include/acl/*.h.\n\n")
	w.WriteString("FUNCTIONS maps each API function to (header, result type, parameters),\n")
	w.WriteString("each parameter (name, type, out type): a type is a ctypes name, \"P:<t>\"\n")
	w.WriteString("a pointer to one, \"S:<t>\" a struct passed by value; out type names the\n")
	w.WriteString("pointee of an out-parameter, or is None for an input. VARIADIC lists the\n")
	w.WriteString("variadic functions, which ctypes cannot describe.\n\"\"\"\n\n")
	var variadic []string
	seen := map[string]bool{}
	w.WriteString("FUNCTIONS = {\n")
	for _, h := range cheader.Headers {
		src, err := os.ReadFile(filepath.Join(inc, h))
		if err != nil {
			return nil, err
		}
		decls, err := cheader.Parse(string(src))
		if err != nil {
			return nil, err
		}
		for _, d := range decls {
			if d.Variadic {
				variadic = append(variadic, d.Name)
				continue
			}
			ret := strings.Join(strings.Fields(d.Ret), " ")
			var rt string
			switch strings.ReplaceAll(ret, " *", "*") {
			case "const char*", "char*":
				rt = "c_char_p"
			case "void*":
				rt = "c_void_p"
			default:
				if rt, err = ts.ctype(ret); err != nil {
					if strings.HasSuffix(ret, "*") {
						rt, err = "c_void_p", nil
					} else {
						return nil, fmt.Errorf("%s: %v", d.Name, err)
					}
				}
			}
			fmt.Fprintf(&w, "    %q: (%q, %q, (", d.Name, strings.TrimPrefix(h, "acl/"), rt)
			for _, p := range d.Params {
				seen[d.Name+"."+p.Name] = true
				arg, out, err := ts.param(d, p)
				if err != nil {
					return nil, fmt.Errorf("%s: %s: %v", d.Name, p.Name, err)
				}
				o := "None"
				if out != "" {
					o = strconv.Quote(out)
				}
				fmt.Fprintf(&w, "(%q, %q, %s), ", p.Name, arg, o)
			}
			w.WriteString(")),\n")
		}
	}
	for f, ps := range notOut {
		for _, p := range ps {
			if !seen[f+"."+p] {
				return nil, fmt.Errorf("notOut: %s has no parameter %s", f, p)
			}
		}
	}
	w.WriteString("}\n\nVARIADIC = (\n")
	for _, v := range variadic {
		fmt.Fprintf(&w, "    %q,\n", v)
	}
	w.WriteString(")\n\n# STRUCTS lists the headers' structs and unions in definition order:\n")
	w.WriteString("# (name, \"struct\" or \"union\", ((field, type, count), ...)), a type being a\n")
	w.WriteString("# ctypes name or an earlier struct's, count an array length (0: none;\n")
	w.WriteString("# -1: an unnamed member, whose fields the outer struct shows).\n")
	w.WriteString("STRUCTS = (\n")
	known := map[string]bool{}
	var skipped []string
	for _, f := range all {
		src, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		ss, sk := ts.structs(string(src), known)
		skipped = append(skipped, sk...)
		for _, st := range ss {
			fmt.Fprintf(&w, "    (%q, %q, (", st.Name, st.Kind)
			for _, fl := range st.Fields {
				c := "0"
				if fl.Count != "" {
					c = fl.Count
					if _, err := strconv.Atoi(c); err != nil && c != "-1" {
						c = ts.Consts[c]
					}
				}
				fmt.Fprintf(&w, "(%q, %q, %s), ", fl.Name, fl.Type, c)
			}
			w.WriteString(")),\n")
		}
	}
	w.WriteString(")\n\n# Structs left out, with the reason.\nSKIPPED_STRUCTS = (\n")
	for _, sk := range skipped {
		fmt.Fprintf(&w, "    %q,\n", sk)
	}
	w.WriteString(")\n\nCONSTANTS = {\n")
	for _, n := range ts.order {
		fmt.Fprintf(&w, "    %q: %s,\n", n, ts.Consts[n])
	}
	w.WriteString("}\n")
	return w.Bytes(), nil
}
