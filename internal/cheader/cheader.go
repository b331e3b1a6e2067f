// Package cheader reads the function declarations of the acl headers, for
// the generators that write code from them (the C ABI's forwarders, the
// Python binding's description): one parser, so both see the same API.
package cheader

import (
	"fmt"
	"regexp"
	"strings"
)

// Headers are the headers declaring the runtime API, under include/: the
// ones both generators read.
var Headers = []string{"acl/acl_base_rt.h", "acl/acl_rt.h", "acl/acl_rt_callback.h", "acl/acl_rt_event.h",
	"acl/acl_rt_memory.h", "acl/acl_rt_copy.h", "acl/acl_rt_vmm.h", "acl/acl_rt_kernel.h", "acl/acl_rt_graph.h",
	"acl/acl_rt_allocator.h", "acl/acl_rt_memory_soma.h", "acl/acl_rt_mbuf.h", "acl/acl_rt_process.h", "acl/acl_rt_control.h",
	"acl/acl_prof.h"}

// Decl is one function declaration.
type Decl struct {
	Ret, Name string
	Params    []Param
	Variadic  bool
}

// Param is one parameter.
type Param struct{ Type, Name string }

var (
	declRE    = regexp.MustCompile(`(?s)(?:ACL_FUNC_VISIBILITY|MSVP_PROF_API)\s+([^;{]*?)\(([^;{]*?)\)\s*;`)
	commentRE = regexp.MustCompile(`(?s)/\*.*?\*/|//[^\n]*`)
)

// Parse returns the functions a header declares with ACL_FUNC_VISIBILITY
// (MSVP_PROF_API in acl/acl_prof.h),
// in order, with their types' whitespace normalised (`const void *p`
// becomes Type "const void *", Name "p").
func Parse(src string) ([]Decl, error) {
	src = StripComments(src)
	var out []Decl
	for _, m := range declRE.FindAllStringSubmatch(src, -1) {
		head := strings.Join(strings.Fields(m[1]), " ")
		i := strings.LastIndexAny(head, " *")
		d := Decl{Ret: strings.TrimSpace(head[:i+1]), Name: head[i+1:]}
		params := strings.Join(strings.Fields(m[2]), " ")
		if params != "" && params != "void" {
			for k, p := range strings.Split(params, ",") {
				p = strings.TrimSpace(p)
				if p == "..." {
					d.Variadic = true
					continue
				}
				j := strings.LastIndexAny(p, " *")
				if j < 0 {
					return nil, fmt.Errorf("%s: parameter %d %q has no name", d.Name, k, p)
				}
				d.Params = append(d.Params, Param{Type: strings.TrimSpace(p[:j+1]), Name: p[j+1:]})
			}
		}
		out = append(out, d)
	}
	return out, nil
}

// StripComments returns src without its C comments.
func StripComments(src string) string { return commentRE.ReplaceAllString(src, "") }
