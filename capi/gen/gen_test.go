package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gocann/gocann/internal/cheader"
)

// TestFresh fails when the generated front files differ from what the
// headers and the hand-written front files give: run go generate in capi.
func TestFresh(t *testing.T) {
	files, err := render("..")
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join("..", "front", name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("capi/front/%s is stale; run go generate in capi", name)
		}
	}
}

// TestForwarder pins the shape of a forwarded function and of a refusal's
// value for each return type.
func TestForwarder(t *testing.T) {
	decls, err := cheader.Parse(`ACL_FUNC_VISIBILITY aclError aclrtF(int32_t a, const void *p);
ACL_FUNC_VISIBILITY const char *aclrtG(void);
ACL_FUNC_VISIBILITY void aclV(int a, const char *fmt, ...);`)
	if err != nil || len(decls) != 3 {
		t.Fatalf("Parse: %v, %d declarations", err, len(decls))
	}
	ps := Pointers{Handles: map[string]bool{"aclrtH": true}, Funcs: map[string]bool{}}
	ps.ParsePointers("typedef void (*aclrtCb)(void *x);")
	want := "aclError aclrtF(int32_t a, const void * p) {\n\tgocann_thread *t = gocann_self();\n" +
		"\tGOCANN_ENTER(t, \"aclrtF\", (aclError)e_);\n" +
		"\tGOCANN_CHECK_PTR(t, \"aclrtF\", \"p\", p, 0, (aclError)e_);\n" +
		"\tGOCANN_PROF_RET(t, \"aclrtF\", aclError, gocann_core.aclrtF(t, a, p), r_);\n}\n"
	if got := ps.Forwarder(decls[0]); got != want {
		t.Errorf("Forwarder:\n%s\nwant:\n%s", got, want)
	}
	// User data is handed back as given, as an integer, and not checked.
	cb, err := cheader.Parse("ACL_FUNC_VISIBILITY aclError aclrtL(aclrtCb fn, void* userData);")
	if err != nil || len(cb) != 1 {
		t.Fatal(err)
	}
	if got := ps.Forwarder(cb[0]); !strings.Contains(got, "gocann_core.aclrtL(t, fn, (uintptr_t)userData)") ||
		strings.Contains(got, `"userData"`) || !strings.Contains(got, `"fn", fn, 0`) {
		t.Errorf("Forwarder of a callback with user data:\n%s", got)
	}
	if got := Field(cb[0]); !strings.Contains(got, "uintptr_t userData") {
		t.Errorf("Field of a callback with user data: %s", got)
	}
	for typ, want := range map[string][2]bool{"aclrtH": {true, true}, "const aclrtH": {true, true}, "aclrtCb": {true, false},
		"uint32_t": {false, false}, "aclrtH*": {true, false}, "size_t": {false, false}} {
		if ptr, handle := ps.pointer(typ); ptr != want[0] || handle != want[1] {
			t.Errorf("pointer(%q) = %v, %v; want %v, %v", typ, ptr, handle, want[0], want[1])
		}
	}
	if got := failValue(decls[1]); got != "(const char *)0" {
		t.Errorf("failValue of a pointer function = %q", got)
	}
	if !decls[2].Variadic || len(decls[2].Params) != 2 {
		t.Errorf("variadic declaration parsed as %+v", decls[2])
	}
}
