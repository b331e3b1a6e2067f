package main

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/gocann/gocann/internal/cheader"
)

// Struct is a struct or union the headers define, with its fields.
type Struct struct {
	Name, Kind string // Kind: "struct" or "union"
	Fields     []Field
}

// Field is one member: its ctypes type (a ctypes name or a struct's name)
// and its array length (0: no array; a number or a constant's name).
type Field struct{ Name, Type, Count string }

var (
	aggRE   = regexp.MustCompile(`typedef\s+(struct|union)\s*(\w*)\s*\{`)
	fieldRE = regexp.MustCompile(`^(.*?)(\w+)\s*(?:\[\s*(\w+)\s*\])?$`)
	anonRE  = regexp.MustCompile(`(?s)^(struct|union)\s*\{(.*)\}\s*(\w*)$`)
	ppRE    = regexp.MustCompile(`(?m)^\s*#.*$|\b__extension__\b`)
)

// dropCxx removes the #ifdef __cplusplus blocks (dim3's constructors).
func dropCxx(src string) string {
	var out []string
	depth := 0
	for _, l := range strings.Split(src, "\n") {
		t := strings.TrimSpace(l)
		switch {
		case depth == 0 && strings.HasPrefix(t, "#ifdef __cplusplus"):
			depth = 1
			continue
		case depth > 0 && strings.HasPrefix(t, "#if"):
			depth++
		case depth > 0 && strings.HasPrefix(t, "#endif"):
			depth--
			continue
		}
		if depth == 0 {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// closing returns the index of the brace closing the one at open.
func closing(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// splitTop splits body at the semicolons outside braces.
func splitTop(body string) []string {
	var out []string
	depth, start := 0, 0
	for i, c := range body {
		switch c {
		case '{':
			depth++
		case '}':
			depth--
		case ';':
			if depth == 0 {
				out = append(out, strings.TrimSpace(body[start:i]))
				start = i + 1
			}
		}
	}
	return out
}

// structs returns the structs and unions a header defines, in order; one
// with a field it cannot describe is left out (skipped says why).
func (ts *Types) structs(src string, known map[string]bool) (out []Struct, skipped []string) {
	src = dropCxx(cheader.StripComments(src))
	for _, m := range aggRE.FindAllStringSubmatchIndex(src, -1) {
		open := m[1] - 1
		end := closing(src, open)
		if end < 0 {
			continue
		}
		rest := src[end+1:]
		semi := strings.Index(rest, ";")
		name := strings.TrimSpace(rest[:semi])
		if !regexp.MustCompile(`^\w+$`).MatchString(name) {
			continue
		}
		ss, err := ts.aggregate(name, src[m[2]:m[3]], src[open+1:end], known)
		if err != nil {
			skipped = append(skipped, fmt.Sprintf("%s: %v", name, err))
			continue
		}
		for _, s := range ss {
			known[s.Name] = true
		}
		out = append(out, ss...)
	}
	return out, skipped
}

// aggregate describes one struct or union; nested anonymous ones come
// first, named <name>_<field>.
func (ts *Types) aggregate(name, kind, body string, known map[string]bool) ([]Struct, error) {
	body = ppRE.ReplaceAllString(deprecatedRE.ReplaceAllString(body, ""), "")
	var out []Struct
	s := Struct{Name: name, Kind: kind}
	for _, f := range splitTop(body) {
		f = strings.Join(strings.Fields(f), " ")
		if f == "" {
			continue
		}
		if m := anonRE.FindStringSubmatch(f); m != nil {
			// An unnamed member (C11's anonymous union) is named _u, its
			// fields reachable from the outer struct (count -1).
			field, count := m[3], ""
			if field == "" {
				field, count = "_u", "-1"
			}
			inner, err := ts.aggregate(name+"_"+field, m[1], m[2], known)
			if err != nil {
				return nil, err
			}
			out = append(out, inner...)
			s.Fields = append(s.Fields, Field{Name: field, Type: name + "_" + field, Count: count})
			continue
		}
		m := fieldRE.FindStringSubmatch(f)
		if m == nil || strings.Contains(f, ":") || strings.Contains(f, "(") {
			return nil, fmt.Errorf("cannot read field %q", f)
		}
		t := strings.TrimSpace(constRE.ReplaceAllString(m[1], ""))
		t = strings.Join(strings.Fields(t), " ")
		var ct string
		switch base := strings.TrimPrefix(strings.TrimPrefix(t, "struct "), "union "); {
		case strings.HasSuffix(t, "*"):
			ct = "c_void_p"
		case known[base]:
			ct = base
		default:
			c, err := ts.ctype(base)
			if err != nil || strings.HasPrefix(c, "S:") || c == "None" {
				return nil, fmt.Errorf("field %s: type %q", m[2], t)
			}
			ct = c
		}
		if m[3] != "" {
			if _, ok := ts.Consts[m[3]]; !ok && !regexp.MustCompile(`^\d+$`).MatchString(m[3]) {
				return nil, fmt.Errorf("field %s: length %q", m[2], m[3])
			}
		}
		s.Fields = append(s.Fields, Field{Name: m[2], Type: ct, Count: m[3]})
	}
	return append(out, s), nil
}
