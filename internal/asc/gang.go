package asc

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Gang kernels: kernels whose blocks wait for one another, which the
// runtime must start with every block at once (gocann/ascendc/
// gocann_gang.h). A kernel is one if its source, or a header it includes
// with quotes from its own directory, calls a cross-block synchronization
// of Ascend C, or if it is declared __schedmode__(1) (CANN's batch mode).
// The mark travels in the launch site's tag: a launch of such a kernel
// passes [] { return flags; } where others pass [] {}, and an extern "C"
// kernel defined in such a source gets GOCANN_GANG_KERNEL for its binary.

// gangCalls are the calls whose blocks wait for other blocks.
var gangCalls = map[string]bool{
	"SyncAll": true, "IBSet": true, "IBWait": true, "GroupBarrier": true,
	"InitDetermineComputeWorkspace": true, "WaitPreBlock": true, "NotifyNextBlock": true,
}

// Flags of a kernel, as gocann_gang.h defines them.
const (
	flagGang   = 0x01
	flagVector = 0x10
	flagCube   = 0x20
)

// maxIncludeDepth bounds how deep quoted includes are followed.
const maxIncludeDepth = 8

// gangSource reports whether toks, of the file named file, or the headers
// it includes with quotes from its directory, call a gang call.
func gangSource(file string, src []byte, toks []token, seen map[string]bool, depth int) bool {
	for _, t := range toks {
		switch t.kind {
		case tIdent:
			if gangCalls[t.text(src)] {
				return true
			}
		case tDirective:
			inc := quotedInclude(t.text(src))
			if inc == "" || depth >= maxIncludeDepth {
				continue
			}
			path := filepath.Join(filepath.Dir(file), inc)
			if seen[path] {
				continue
			}
			seen[path] = true
			b, err := os.ReadFile(path)
			if err != nil {
				continue // not beside the source: found elsewhere on the path, or missing
			}
			if ts, err := scan(path, b); err == nil && gangSource(path, b, ts, seen, depth+1) {
				return true
			}
		}
	}
	return false
}

// quotedInclude returns the file a #include "file" directive names, or "".
func quotedInclude(d string) string {
	d = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(d), "#"))
	if !strings.HasPrefix(d, "include") {
		return ""
	}
	d = strings.TrimSpace(strings.TrimPrefix(d, "include"))
	if len(d) < 2 || d[0] != '"' {
		return ""
	}
	if end := strings.IndexByte(d[1:], '"'); end > 0 {
		return d[1 : 1+end]
	}
	return ""
}

// qualifierFlags is the core kind a kernel qualifier says, from the
// tokens at i: __vector__, __cube__, __mix__(cube, vector).
func (r *rewriter) qualifierFlags(i int) byte {
	switch r.toks[i].text(r.src) {
	case "__vector__":
		return flagVector
	case "__cube__":
		return flagCube
	case "__mix__":
		if r.is(i+1, "(") && r.is(i+3, ",") && r.is(i+5, ")") {
			cube, vec := r.toks[i+2].text(r.src), r.toks[i+4].text(r.src)
			switch {
			case cube == "0":
				return flagVector
			case vec == "0":
				return flagCube
			}
		}
	}
	return 0
}

// batchMode reports whether the declaration holding token i says
// __schedmode__(1) before it.
func (r *rewriter) batchMode(i int) bool {
	for k := i - 1; k >= 0; k-- {
		if r.is(k, ";") || r.is(k, "{") || r.is(k, "}") || r.toks[k].kind == tDirective {
			return false
		}
		if r.is(k, "__schedmode__") && r.is(k+1, "(") && r.is(k+3, ")") {
			return r.toks[k+2].text(r.src) == "1"
		}
	}
	return false
}

// markGang gives the source's kernels and launches their flags, once the
// kernels are known: it fills the launch tags and returns the
// GOCANN_GANG_KERNEL lines to follow the source.
func (r *rewriter) markGang() string {
	gang := gangSource(r.file, r.src, r.toks, map[string]bool{}, 0)
	flags := map[string]byte{}
	for i := range r.kerns {
		k := &r.kerns[i]
		if gang || k.Batch {
			k.Flags |= flagGang
		}
		if k.Flags&flagGang != 0 {
			flags[k.Name] = k.Flags
		}
	}
	for _, l := range r.tags {
		f, ok := flags[l.kernel]
		if !ok && gang {
			f = flagGang // declared elsewhere: its kind is not known here
		}
		if f != 0 {
			r.edits[l.edit].text = strings.Replace(r.edits[l.edit].text, "[] {}", Tag(f), 1)
		}
	}
	var b strings.Builder
	for _, k := range r.kerns {
		if k.Flags&flagGang != 0 && k.ExternC && k.Defined && k.Template == "" {
			fmt.Fprintf(&b, "\nGOCANN_GANG_KERNEL(%s, %d);", k.Name, k.Flags)
		}
	}
	if b.Len() > 0 {
		b.WriteString("\n")
	}
	return b.String()
}

// Tag is the launch-site tag of a launch of a kernel with flags.
func Tag(flags byte) string {
	if flags == 0 {
		return "[] {}"
	}
	return "[] { return " + strconv.Itoa(int(flags)) + "; }"
}

// launchTag is a launch's tag edit and the kernel it launches, by its
// name without scope or template arguments.
type launchTag struct {
	edit   int
	kernel string
}

// baseName is a launched kernel's name without its scope and template
// arguments: "ns::k<float>" is "k".
func baseName(name string) string {
	if i := strings.IndexByte(name, '<'); i >= 0 {
		name = name[:i]
	}
	if i := strings.LastIndex(name, "::"); i >= 0 {
		name = name[i+2:]
	}
	return strings.TrimSpace(name)
}
