package gocann_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gocann/gocann"
	"github.com/gocann/gocann/internal/cannmap"
	"github.com/gocann/gocann/internal/support"
	"github.com/gocann/gocann/sim"
)

// profileConfig is smallConfig on the chip named soc.
func profileConfig(soc string) string {
	return `{"simulator":{"hbm_size":1073741824,"soc_name":"` + soc + `"}}`
}

func TestProfilesSelectTheChip(t *testing.T) {
	for _, want := range sim.Profiles() {
		r := newRuntime(t, `{"simulator":{"soc_name":"`+want.SoCName+`"}}`)
		d, err := r.Device(0)
		check(t, err)
		if got := d.Props(); got != want {
			t.Errorf("soc_name %s: profile %+v, want %+v", want.SoCName, got, want)
		}
		if d.SoCName() != want.SoCName {
			t.Errorf("SoCName() = %q, want %q", d.SoCName(), want.SoCName)
		}
		check(t, r.Close())
	}
	// Another SoC of a modelled family takes the family's figures; the
	// configuration's own figures still win.
	r := newRuntime(t, `{"simulator":{"soc_name":"Ascend950DT_9571","aicore_num":8}}`)
	d, err := r.Device(0)
	check(t, err)
	if p := d.Props(); p.SoCName != "Ascend950DT_9571" || p.AICores != 8 || p.HBMSize != sim.Ascend950Profile().HBMSize {
		t.Errorf("Ascend950DT_9571 with aicore_num 8: profile %+v", p)
	}
	_, err = gocann.Open(gocann.WithConfigJSON([]byte(`{"simulator":{"soc_name":"Ascend310"}}`)))
	wantErr(t, err, gocann.CodeFileAttrInvalid, `SoC name "Ascend310" is not a chip the simulator models`, "Ascend910B1")
	if got := gocann.DefaultSoCName(""); got != "Ascend910B1" {
		t.Errorf("DefaultSoCName(\"\") = %q, want Ascend910B1", got)
	}
	if got := gocann.DefaultSoCName("Ascend910_9391"); got != "Ascend910_9391" {
		t.Errorf("DefaultSoCName(Ascend910_9391) = %q", got)
	}
	if got := gocann.DefaultSoCName("nonsense"); got != "Ascend910B1" {
		t.Errorf("DefaultSoCName(nonsense) = %q, want the default chip", got)
	}
}

// TestCoverageKnowsTheProfiles: docs/coverage.md names the products that
// lack a function among those the simulator models, which its generator
// lists itself.
func TestCoverageKnowsTheProfiles(t *testing.T) {
	var want []support.Product
	for _, p := range sim.Profiles() {
		prod, ok := support.ProductOf(p.SoCName)
		if !ok {
			t.Fatalf("modelled chip %s has no product", p.SoCName)
		}
		want = append(want, prod)
	}
	if got := cannmap.Modelled(); !slices.Equal(got, want) {
		t.Errorf("cannmap.Modelled() = %v, want the products of sim.Profiles(), %v", got, want)
	}
}

// TestRequireRefusesOnAChipWithout runs aclrtActiveStream, which the
// reference marks unsupported on Atlas A3 and supported on Atlas A2 and
// Ascend 950.
func TestRequireRefusesOnAChipWithout(t *testing.T) {
	for _, soc := range []string{"Ascend910B1", "Ascend910_9391", "Ascend950PR_9599"} {
		e := setup(t, profileConfig(soc))
		b := build(t, e, 2)
		err := b.streams[0].ActivateStream(b.streams[1])
		if soc != "Ascend910_9391" {
			check(t, err)
			continue
		}
		wantErr(t, err, gocann.CodeRTFeatureNotSupport, "aclrtActiveStream is not supported on Ascend910_9391 (Atlas A3")
		p := word(t, e, 0)
		err = b.streams[0].SwitchStream(p, gocann.CondEqual, p, gocann.CompareInt32, b.streams[1])
		wantErr(t, err, gocann.CodeRTFeatureNotSupport, "aclrtSwitchStream is not supported on Ascend910_9391")
	}
}

func TestCheckSupport(t *testing.T) {
	check(t, gocann.CheckSupport("Ascend910B1", "aclrtActiveStream"))
	check(t, gocann.CheckSupport("FakeNPU", "aclrtCreateStreamV2"))
	check(t, gocann.CheckSupport("Ascend910_9391", "aclrtNoSuchFunction"))
	for _, soc := range []string{"Ascend910B1", "Ascend910_9391", "Ascend950PR_9599"} {
		wantErr(t, gocann.CheckSupport(soc, "aclrtCreateStreamV2"), gocann.CodeRTFeatureNotSupport,
			"aclrtCreateStreamV2 is not supported on "+soc)
	}
	// The check is on the path of every call it guards: passing costs no
	// allocation.
	if n := testing.AllocsPerRun(100, func() { _ = gocann.CheckSupport("Ascend910B1", "aclrtActiveStream") }); n != 0 {
		t.Errorf("a check that passes allocates %v times", n)
	}
}

// TestRequireCalled keeps the support check applied: every function the
// library exports that the matrix marks unsupported on a modelled chip
// has a Go method whose body calls require with its name, or, implemented
// by the C ABI alone, an entry point gocann_<name> (or gocann_go_<name>,
// the Go half of an entry written in C) that calls unsupported with it.
// A Go function that cannot fail, or that has no runtime to ask for the
// chip (a package function, a method of a descriptor), leaves the check
// to its C entry. The functions of the C front alone, which run without
// the runtime, are listed in frontOnly.
func TestRequireCalled(t *testing.T) {
	var modelled []support.Product
	for _, p := range sim.Profiles() {
		prod, ok := support.ProductOf(p.SoCName)
		if !ok {
			t.Fatalf("modelled chip %s has no product", p.SoCName)
		}
		modelled = append(modelled, prod)
	}
	exported := exportedFuncs(t)
	entries, _, err := cannmap.Read(".")
	check(t, err)
	methods := map[string][]string{} // CANN name -> Go functions
	for _, e := range entries {
		name, _, _ := strings.Cut(e.CANN, " ")
		methods[name] = append(methods[name], e.Go)
	}
	calls := checkCalls(t, ".", "require")
	cCalls := checkCalls(t, "capi", "unsupported")
	cChecks := func(fn string) bool { return cCalls["gocann_"+fn][fn] || cCalls["gocann_go_"+fn][fn] }
	toC := leftToC(t, ".")
	for _, fn := range support.Unsupported() {
		if !exported[fn] || frontOnly[fn] {
			continue
		}
		lacking := ""
		for _, p := range modelled {
			if ok, _ := support.Supported(fn, p); !ok {
				lacking = p.String()
			}
		}
		if lacking == "" {
			continue
		}
		if len(methods[fn]) == 0 && !cChecks(fn) {
			t.Errorf("%s is not offered on %s, but neither a Go method naming it in its CANN line calls require(%q) nor gocann_%s unsupported(t, %q)",
				fn, lacking, fn, fn, fn)
		}
		for _, m := range methods[fn] {
			if !calls[m][fn] && !(toC[m] && cChecks(fn)) {
				t.Errorf("%s (CANN: %s) is not offered on %s but does not call require(%q)", m, fn, lacking, fn)
			}
		}
	}
}

// exportedFuncs reads FUNCS of include/check.sh: every function the
// library exports.
func exportedFuncs(t *testing.T) map[string]bool {
	src, err := os.ReadFile(filepath.Join("include", "check.sh"))
	check(t, err)
	m := regexp.MustCompile(`(?s)\nFUNCS="(.*?)"`).FindSubmatch(src)
	if m == nil {
		t.Fatal("include/check.sh has no FUNCS list")
	}
	out := map[string]bool{}
	for _, f := range strings.Fields(string(m[1])) {
		out[f] = true
	}
	return out
}

// checkCalls maps each function of the package in dir ("Type.Method" or
// "Func") to the string literals its body passes to calls of callee.
func checkCalls(t *testing.T, dir, callee string) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for _, fd := range funcDecls(t, dir) {
		if fd.Body == nil {
			continue
		}
		key := funcName(fd)
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			name := ""
			switch f := c.Fun.(type) {
			case *ast.SelectorExpr:
				name = f.Sel.Name
			case *ast.Ident:
				name = f.Name
			}
			if name != callee {
				return true
			}
			for _, a := range c.Args {
				if lit, ok := a.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					if s, err := strconv.Unquote(lit.Value); err == nil {
						if out[key] == nil {
							out[key] = map[string]bool{}
						}
						out[key][s] = true
					}
				}
			}
			return true
		})
	}
	return out
}

// frontOnly are the exported functions the C front answers by itself,
// without loading the runtime (capi/front/pure.c, applog.c): conversions,
// sizes, the fields of an exception record and the application log. They
// have no error to return and no chip to ask; they answer alike on every
// chip.
var frontOnly = map[string]bool{
	"aclAppLog": true, "aclDataTypeSize": true, "aclFloat16ToFloat": true, "aclFloatToFloat16": true,
	"aclrtGetDeviceIdFromExceptionInfo": true, "aclrtGetErrorCodeFromExceptionInfo": true,
	"aclrtGetStreamIdFromExceptionInfo": true, "aclrtGetTaskIdFromExceptionInfo": true,
	"aclrtGetThreadIdFromExceptionInfo": true,
}

// leftToC lists the functions of the package in dir ("Type.Method" or
// "Func") that leave the support check to their C entry: those that
// return no error, and those with no runtime in reach (neither their
// receiver nor a parameter is, or holds, a *Runtime).
func leftToC(t *testing.T, dir string) map[string]bool {
	decls := funcDecls(t, dir)
	holds := runtimeHolders(t, dir)
	reaches := func(e ast.Expr) bool {
		for {
			switch x := e.(type) {
			case *ast.StarExpr:
				e = x.X
			case *ast.IndexExpr:
				e = x.X
			case *ast.Ident:
				return holds[x.Name]
			default:
				return false
			}
		}
	}
	out := map[string]bool{}
	for _, fd := range decls {
		fails := false
		if fd.Type.Results != nil {
			for _, r := range fd.Type.Results.List {
				if id, ok := r.Type.(*ast.Ident); ok && id.Name == "error" {
					fails = true
				}
			}
		}
		hasRuntime := false
		if fd.Recv != nil {
			hasRuntime = reaches(fd.Recv.List[0].Type)
		}
		for _, p := range fd.Type.Params.List {
			hasRuntime = hasRuntime || reaches(p.Type)
		}
		if !fails || !hasRuntime {
			out[funcName(fd)] = true
		}
	}
	return out
}

// runtimeHolders names the types of the package in dir that are Runtime
// or hold one, directly or through a field of another such type.
func runtimeHolders(t *testing.T, dir string) map[string]bool {
	fields := map[string][]string{} // struct type -> its fields' type names
	fset := token.NewFileSet()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	check(t, err)
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		check(t, err)
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			if st, ok := ts.Type.(*ast.StructType); ok {
				for _, fl := range st.Fields.List {
					e := fl.Type
					if s, ok := e.(*ast.StarExpr); ok {
						e = s.X
					}
					if id, ok := e.(*ast.Ident); ok {
						fields[ts.Name.Name] = append(fields[ts.Name.Name], id.Name)
					}
				}
			}
			return false
		})
	}
	holds := map[string]bool{"Runtime": true}
	for changed := true; changed; {
		changed = false
		for typ, fs := range fields {
			for _, f := range fs {
				if holds[f] && !holds[typ] {
					holds[typ], changed = true, true
				}
			}
		}
	}
	return holds
}

// funcDecls is every function declaration in the non-test files of the
// package in dir, the ground both checks above walk.
func funcDecls(t *testing.T, dir string) []*ast.FuncDecl {
	fset := token.NewFileSet()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	check(t, err)
	var out []*ast.FuncDecl
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		check(t, err)
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				out = append(out, fd)
			}
		}
	}
	return out
}

// funcName is fd's name as "Type.Method" or "Func".
func funcName(fd *ast.FuncDecl) string {
	key := fd.Name.Name
	if fd.Recv != nil && len(fd.Recv.List) == 1 {
		typ := fd.Recv.List[0].Type
		if s, ok := typ.(*ast.StarExpr); ok {
			typ = s.X
		}
		if id, ok := typ.(*ast.Ident); ok {
			key = id.Name + "." + key
		}
	}
	return key
}
