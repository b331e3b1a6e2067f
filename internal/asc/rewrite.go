package asc

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Rewriting an Ascend C source for the host compiler. Three constructs
// are the AI core's, not C++'s:
//
//   - a launch, kernel<<<numBlocks, dynUBufSize, stream>>>(args...), on
//     plain and template kernels: it becomes
//     ::AscendC::gocann::Launch(kernel, [] {}, "kernel", numBlocks,
//     dynUBufSize, stream)(args...), whose value is the launch's code
//     (gocann/ascendc/gocann_launch.h); the two last values default to 0
//     and the default stream, as the language says;
//   - printf in a kernel function's body: the device's printf, which
//     prints each line with its block ("[AIV Block i/n] "), becomes
//     ::gocann_kernel_printf;
//   - the trap instruction, asm("trap"), in a kernel function: ::Trap().
//     Any other inline assembly in a kernel is the AI core's and cannot
//     run here: an error at its line.
//
// The qualifiers (__global__, __aicore__, __gm__, ...) are left for the
// prelude to define away. Lines keep their numbers, so the compiler's
// messages point at the user's lines.

// qualifiers mark a function as kernel code (device code, on the AI core).
var qualifiers = map[string]bool{
	"__global__": true, "__aicore__": true, "__vector__": true, "__cube__": true, "__mix__": true,
	"__simd_vf__": true, "__simd_callee__": true, "__simt_vf__": true, "__simt_callee__": true,
}

// qualifierArgs are qualifiers that take arguments: __mix__(1, 2).
var qualifierArgs = map[string]bool{"__mix__": true, "__schedmode__": true, "__launch_bounds__": true, "LAUNCH_BOUND": true}

type edit struct {
	start, end int
	text       string
}

type rewriter struct {
	file   string
	src    []byte
	toks   []token
	edits  []edit
	kerns  []Kernel
	scopes []scope     // the namespaces open at the token being read
	tags   []launchTag // the launches' tags, which markGang fills in
}

// Rewrite rewrites src, the source file, for the host compiler. The result
// starts with a #line directive naming file, so that messages name it.
func Rewrite(file string, src []byte) ([]byte, []Kernel, error) {
	toks, err := scan(file, src)
	if err != nil {
		return nil, nil, err
	}
	r := &rewriter{file: file, src: src, toks: toks}
	if err := r.launches(); err != nil {
		return nil, nil, err
	}
	if err := r.functions(); err != nil {
		return nil, nil, err
	}
	marks := r.markGang()
	return append(r.apply(), marks...), r.kerns, nil
}

func (r *rewriter) errorf(t token, format string, args ...any) error {
	return &Error{File: r.file, Line: t.line, Col: t.col, Msg: fmt.Sprintf(format, args...)}
}

func (r *rewriter) is(i int, s string) bool {
	return i >= 0 && i < len(r.toks) && r.toks[i].kind != tString && r.toks[i].kind != tDirective && r.toks[i].text(r.src) == s
}

// triple reports whether tokens i, i+1, i+2 are the character c three
// times, side by side.
func (r *rewriter) triple(i int, c string) bool {
	return r.is(i, c) && r.is(i+1, c) && r.is(i+2, c) &&
		r.toks[i].end == r.toks[i+1].start && r.toks[i+1].end == r.toks[i+2].start
}

// closing returns the index of the token closing the group opened at i.
func (r *rewriter) closing(i int) (int, error) {
	open := r.toks[i].text(r.src)
	pair := map[string]string{"(": ")", "[": "]", "{": "}"}[open]
	depth := 0
	for j := i; j < len(r.toks); j++ {
		switch {
		case r.is(j, open):
			depth++
		case r.is(j, pair):
			depth--
			if depth == 0 {
				return j, nil
			}
		}
	}
	return 0, r.errorf(r.toks[i], "unbalanced '%s'", open)
}

// launches rewrites every kernel<<<...>>>(...) launch.
func (r *rewriter) launches() error {
	for i := 0; i < len(r.toks); i++ {
		if !r.triple(i, "<") {
			continue
		}
		open := r.toks[i]
		callee, err := r.callee(i)
		if err != nil {
			return err
		}
		end, values, err := r.config(i + 3)
		if err != nil {
			return err
		}
		if !r.is(end+3, "(") {
			at := r.toks[end]
			if end+3 < len(r.toks) {
				at = r.toks[end+3]
			}
			return r.errorf(at, "a <<<>>> launch is followed by the kernel's arguments in parentheses")
		}
		if len(values) < 1 || len(values) > 3 {
			return r.errorf(open, "a <<<>>> launch takes numBlocks, dynUBufSize and stream (the last two may be left out), not %d values", len(values))
		}
		name := strings.Join(strings.Fields(string(r.src[r.toks[callee].start:open.start])), " ")
		r.tags = append(r.tags, launchTag{edit: len(r.edits) + 1, kernel: baseName(name)})
		r.edits = append(r.edits,
			edit{r.toks[callee].start, r.toks[callee].start, "::AscendC::gocann::Launch("},
			edit{open.start, r.toks[i+2].end, ", [] {}, " + strconv.Quote(name) + ", "},
			edit{r.toks[end].start, r.toks[end+2].end, [...]string{"", ", 0, nullptr)", ", nullptr)", ")"}[len(values)]})
		i = end + 2
	}
	return nil
}

// callee returns the index of the first token of the kernel named before
// the <<< at i: a name, qualified or not, with template arguments or not.
func (r *rewriter) callee(i int) (int, error) {
	k := i - 1
	if r.is(k, ">") {
		depth := 0
		for ; k >= 0; k-- {
			if r.is(k, ">") {
				depth++
			} else if r.is(k, "<") {
				depth--
				if depth == 0 {
					break
				}
			}
		}
		k--
	}
	if k < 0 || r.toks[k].kind != tIdent {
		return 0, r.errorf(r.toks[i], "<<< must follow the name of a kernel")
	}
	for r.is(k-1, "::") {
		if k-2 >= 0 && r.toks[k-2].kind == tIdent {
			k -= 2
		} else {
			k--
			break
		}
	}
	return k, nil
}

// config finds the >>> closing a launch configuration starting at i and
// its comma-separated values; it returns the index of the first '>'.
func (r *rewriter) config(i int) (int, []string, error) {
	depth, from := 0, i
	var values []string
	for j := i; j < len(r.toks); j++ {
		switch {
		case r.is(j, "(") || r.is(j, "[") || r.is(j, "{"):
			depth++
		case r.is(j, ")") || r.is(j, "]") || r.is(j, "}"):
			depth--
		case depth == 0 && r.is(j, ","):
			values = append(values, string(r.src[r.toks[from].start:r.toks[j].start]))
			from = j + 1
		case depth == 0 && r.triple(j, ">"):
			if from < j {
				values = append(values, string(r.src[r.toks[from].start:r.toks[j].start]))
			}
			return j, values, nil
		case r.is(j, ";"):
			return 0, nil, r.errorf(r.toks[i-3], "the <<< of a launch has no >>>")
		}
	}
	return 0, nil, r.errorf(r.toks[i-3], "the <<< of a launch has no >>>")
}

// functions finds the functions declared with kernel qualifiers, rewrites
// their bodies and records the __global__ ones.
func (r *rewriter) functions() error {
	var tmpl string
	externC := 0 // depth of braces opened by extern "C" {, +1; 0 outside
	depth := 0
	for i := 0; i < len(r.toks); i++ {
		t := r.toks[i]
		switch {
		case t.kind == tDirective || t.kind == tString:
		case r.is(i, "template") && r.is(i+1, "<"):
			end := r.angles(i + 1)
			tmpl = string(r.src[t.start:r.toks[end].end])
			i = end
		case r.is(i, "extern") && i+2 < len(r.toks) && r.toks[i+1].kind == tString && r.toks[i+1].text(r.src) == `"C"` && r.is(i+2, "{"):
			externC = depth + 1
			depth++
			i += 2
		case r.is(i, "namespace"):
			if open, name := r.namespace(i); open > 0 {
				depth++
				r.scopes = append(r.scopes, scope{name, depth})
				i = open
			}
		case r.is(i, "{"):
			depth++
			tmpl = ""
		case r.is(i, "}"):
			if depth == externC {
				externC = 0
			}
			if n := len(r.scopes); n > 0 && r.scopes[n-1].depth == depth {
				r.scopes = r.scopes[:n-1]
			}
			depth--
			tmpl = ""
		case r.is(i, ";"):
			tmpl = ""
		case t.kind == tIdent && qualifiers[t.text(r.src)]:
			next, err := r.function(i, tmpl, externC != 0 || r.externCBefore(i))
			if err != nil {
				return err
			}
			tmpl = ""
			i = next
		}
	}
	return nil
}

// angles returns the index of the '>' closing the '<' at i.
func (r *rewriter) angles(i int) int {
	depth := 0
	for j := i; j < len(r.toks); j++ {
		switch {
		case r.is(j, "<"):
			depth++
		case r.is(j, ">"):
			depth--
			if depth == 0 {
				return j
			}
		case r.is(j, "(") || r.is(j, "["):
			if end, err := r.closing(j); err == nil {
				j = end
			}
		}
	}
	return len(r.toks) - 1
}

// function reads the declaration whose kernel qualifier is at i: the
// parameter list, then a body (rewritten) or the end of the declaration.
// It returns the index of the last token it used.
func (r *rewriter) function(i int, tmpl string, externC bool) (int, error) {
	global := false
	name, params := -1, -1
	var kind byte
	batch := r.batchMode(i)
	record := func(defined bool) {
		n := len(r.kerns)
		r.record(i, tmpl, externC, name, params, defined)
		if len(r.kerns) > n {
			r.kerns[n].Flags, r.kerns[n].Batch = kind, batch
		}
	}
	for j := i; j < len(r.toks); j++ {
		t := r.toks[j]
		text := t.text(r.src)
		switch {
		case t.kind == tDirective || t.kind == tString:
		case t.kind == tIdent && qualifiers[text]:
			global = global || text == "__global__"
			kind |= r.qualifierFlags(j)
			if qualifierArgs[text] && r.is(j+1, "(") {
				end, err := r.closing(j + 1)
				if err != nil {
					return 0, err
				}
				j = end
			}
		case t.kind == tIdent && qualifierArgs[text] && r.is(j+1, "("):
			batch = batch || text == "__schedmode__" && r.is(j+3, ")") && r.toks[j+2].text(r.src) == "1"
			end, err := r.closing(j + 1)
			if err != nil {
				return 0, err
			}
			j = end
		case text == "(" && params < 0:
			if j > 0 && r.toks[j-1].kind == tIdent {
				name = j - 1
			}
			params = j
			end, err := r.closing(j)
			if err != nil {
				return 0, err
			}
			j = end
		case text == "(" || text == "[":
			end, err := r.closing(j) // noexcept(...), attributes, decltype
			if err != nil {
				return 0, err
			}
			j = end
		case text == ":" && params >= 0:
			end, err := r.initializers(j)
			if err != nil {
				return 0, err
			}
			j = end - 1
		case text == ";" || text == "=" && params >= 0:
			// A declaration, or a defaulted or deleted function: no body.
			if global {
				record(false)
			}
			for ; j < len(r.toks) && !r.is(j, ";"); j++ {
			}
			return j, nil
		case text == "{" && params >= 0:
			if global {
				record(true)
			}
			end, err := r.closing(j)
			if err != nil {
				return 0, err
			}
			return end, r.body(j, end)
		case text == "{" || text == "}" || text == ";":
			return j - 1, nil // a qualifier outside a function: leave it
		}
	}
	return len(r.toks) - 1, nil
}

// initializers skips a constructor's member initializer list from the ':'
// at i; it returns the index of the body's '{'.
func (r *rewriter) initializers(i int) (int, error) {
	for j := i + 1; j < len(r.toks); j++ {
		switch {
		case r.is(j, "(") || r.is(j, "{") && j > 0 && (r.toks[j-1].kind == tIdent || r.is(j-1, ">")):
			end, err := r.closing(j)
			if err != nil {
				return 0, err
			}
			j = end
		case r.is(j, "{"):
			return j, nil
		case r.is(j, ";"):
			return j, nil
		}
	}
	return len(r.toks), nil
}

// body rewrites a kernel function's body, tokens open to end.
func (r *rewriter) body(open, end int) error {
	for j := open + 1; j < end; j++ {
		t := r.toks[j]
		if t.kind != tIdent {
			continue
		}
		switch text := t.text(r.src); text {
		case "printf":
			if r.is(j+1, "(") && !r.is(j-1, "::") && !r.is(j-1, ".") && !(r.is(j-1, ">") && r.is(j-2, "-")) {
				r.edits = append(r.edits, edit{t.start, t.end, "::gocann_kernel_printf"})
			}
		case "asm", "__asm__", "__asm":
			k := j + 1
			for k < end && r.toks[k].kind == tIdent {
				k++ // volatile, goto, inline
			}
			if !r.is(k, "(") {
				continue
			}
			close, err := r.closing(k)
			if err != nil {
				return err
			}
			if close == k+2 && r.toks[k+1].kind == tString && trapInstruction(r.toks[k+1].text(r.src)) {
				span := string(r.src[t.start:r.toks[close].end])
				r.edits = append(r.edits, edit{t.start, r.toks[close].end, "::Trap()" + strings.Repeat("\n", strings.Count(span, "\n"))})
				j = close
				continue
			}
			return r.errorf(t, "inline assembly in a kernel is the AI core's and cannot run on the simulated NPU: %s",
				strings.Join(strings.Fields(string(r.src[t.start:r.toks[close].end])), " "))
		}
	}
	return nil
}

// trapInstruction reports whether the assembler string s is the trap
// instruction alone.
func trapInstruction(s string) bool {
	v, err := strconv.Unquote(s)
	return err == nil && strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), ";")) == "trap"
}

// apply returns the source with the edits made, after a #line directive.
func (r *rewriter) apply() []byte {
	sort.SliceStable(r.edits, func(a, b int) bool { return r.edits[a].start < r.edits[b].start })
	var b strings.Builder
	fmt.Fprintf(&b, "#line 1 %s\n", strconv.Quote(r.file))
	at := 0
	for _, e := range r.edits {
		if e.start < at {
			continue // overlapping: the first wins
		}
		b.Write(r.src[at:e.start])
		b.WriteString(e.text)
		at = e.end
	}
	b.Write(r.src[at:])
	return []byte(b.String())
}

// FindLaunch returns the line and column of the first <<<>>> launch in
// src, for a host source that should not hold one; found is false when it
// has none (or when it does not scan).
func FindLaunch(file string, src []byte) (line, col int, found bool) {
	toks, err := scan(file, src)
	if err != nil {
		return 0, 0, false
	}
	r := &rewriter{file: file, src: src, toks: toks}
	for i := range toks {
		if r.triple(i, "<") {
			if k, err := r.callee(i); err == nil {
				return toks[k].line, toks[k].col, true
			}
		}
	}
	return 0, 0, false
}
