package asc

import "strings"

// The kernels of a source, as its declarations say: what a launch header
// (aclrtlaunch.go) needs to declare one and to call it.

// Kernel is a __global__ function of a source: what a launch header
// declares for it.
type Kernel struct {
	Name     string
	Params   []string // each parameter's declaration, as written
	Template string   // its "template <...>" header, or ""
	ExternC  bool
	Scope    string // the namespace it is declared in: "A::B", or ""
	Defined  bool   // declared with its body
	Line     int
	// Flags are its gocann_gang.h flags: the core kind its qualifiers say
	// (__vector__, __cube__, __mix__), and GOCANN_GANG if its blocks wait
	// for one another (gang.go).
	Flags byte
	Batch bool // declared __schedmode__(1)
}

// scope is a namespace open at the token being read, with the brace
// depth inside it.
type scope struct {
	name  string
	depth int
}

// namespace reads a namespace definition from the keyword at i: it
// returns the index of its '{' and its name ("" for an unnamed one), or
// 0 for an alias or a using-directive.
func (r *rewriter) namespace(i int) (int, string) {
	if r.is(i-1, "using") {
		return 0, ""
	}
	var name strings.Builder
	for j := i + 1; j < len(r.toks); j++ {
		switch {
		case r.is(j, "{"):
			return j, name.String()
		case r.toks[j].kind == tIdent && r.is(j, "inline"):
		case r.toks[j].kind == tIdent || r.is(j, "::"):
			name.WriteString(r.toks[j].text(r.src))
		default:
			return 0, ""
		}
	}
	return 0, ""
}

// externCBefore reports whether the declaration holding token i starts
// with extern "C".
func (r *rewriter) externCBefore(i int) bool {
	for k := i - 1; k >= 0; k-- {
		if r.is(k, ";") || r.is(k, "{") || r.is(k, "}") || r.toks[k].kind == tDirective {
			return false
		}
		if r.toks[k].kind == tString && r.toks[k].text(r.src) == `"C"` && r.is(k-1, "extern") {
			return true
		}
	}
	return false
}

// record notes the __global__ kernel declared from token i.
func (r *rewriter) record(i int, tmpl string, externC bool, name, params int, defined bool) {
	if name < 0 || params < 0 {
		return
	}
	end, err := r.closing(params)
	if err != nil {
		return
	}
	k := Kernel{Name: r.toks[name].text(r.src), Template: tmpl, ExternC: externC, Defined: defined, Line: r.toks[i].line}
	var names []string
	for _, s := range r.scopes {
		if s.name != "" {
			names = append(names, s.name)
		}
	}
	k.Scope = strings.Join(names, "::")
	from := params + 1
	depth := 0
	for j := params + 1; j <= end; j++ {
		switch {
		case r.is(j, "(") || r.is(j, "[") || r.is(j, "{") || r.is(j, "<"):
			depth++
		case (r.is(j, ")") || r.is(j, "]") || r.is(j, "}") || r.is(j, ">")) && j < end:
			depth--
		case j == end || depth == 0 && r.is(j, ","):
			if p := strings.Join(strings.Fields(string(r.src[r.toks[from].start:r.toks[j].start])), " "); p != "" && p != "void" {
				k.Params = append(k.Params, p)
			}
			from = j + 1
		}
	}
	r.kerns = append(r.kerns, k)
}
