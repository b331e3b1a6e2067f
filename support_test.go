package gocann_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
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
	_, err = gocann.Open(gocann.WithConfigJSON([]byte(`{"simulator":{"soc_name":"Ascend310P3"}}`)))
	wantErr(t, err, gocann.CodeFileAttrInvalid, `SoC name "Ascend310P3" is not a chip the simulator models`, "Ascend910B1")
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

// requireExempt lists the functions some modelled chip lacks that do not
// call the check, each with the reason.
var requireExempt = map[string]string{
	// The reference marks these four supported only on IPV350, which the
	// simulator does not model; CANN's C runtime (src/acl/aclrt_c) has them
	// and gocann offers them on every chip (docs/choices.md).
	"aclrtCreateStreamV2":            "IPV350 only",
	"aclrtCreateStreamConfigHandle":  "IPV350 only",
	"aclrtDestroyStreamConfigHandle": "IPV350 only",
	"aclrtSetStreamConfigOpt":        "IPV350 only",
}

// TestRequireCalled keeps the support check applied: every function the
// library exports that the matrix marks unsupported on a modelled chip
// has a Go method whose body calls require with its name.
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
	calls := requireCalls(t)
	for _, fn := range support.Unsupported() {
		if !exported[fn] {
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
		if _, ok := requireExempt[fn]; ok {
			continue
		}
		if len(methods[fn]) == 0 {
			t.Errorf("%s is not offered on %s, but no Go method names it in a CANN line to carry the check", fn, lacking)
		}
		for _, m := range methods[fn] {
			if !calls[m][fn] {
				t.Errorf("%s (CANN: %s) is not offered on %s but does not call require(%q)", m, fn, lacking, fn)
			}
		}
	}
	for fn := range requireExempt {
		if !exported[fn] {
			t.Errorf("exempt function %s is no longer exported; drop it from requireExempt", fn)
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

// requireCalls maps each function of the root package ("Type.Method" or
// "Func") to the CANN names its body passes to require.
func requireCalls(t *testing.T) map[string]map[string]bool {
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	check(t, err)
	out := map[string]map[string]bool{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		check(t, err)
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
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
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				c, ok := n.(*ast.CallExpr)
				if !ok || len(c.Args) != 1 {
					return true
				}
				sel, ok := c.Fun.(*ast.SelectorExpr)
				if !ok || sel.Sel.Name != "require" {
					return true
				}
				if lit, ok := c.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					if s, err := strconv.Unquote(lit.Value); err == nil {
						if out[key] == nil {
							out[key] = map[string]bool{}
						}
						out[key][s] = true
					}
				}
				return true
			})
		}
	}
	return out
}
