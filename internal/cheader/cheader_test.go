package cheader

import (
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	src := `/* ACL_FUNC_VISIBILITY aclError commented(void); */
// ACL_FUNC_VISIBILITY aclError alsoCommented(void);
ACL_FUNC_VISIBILITY aclError aclrtF(int32_t a,
                                    const void *p);
ACL_FUNC_VISIBILITY const char *aclGetMsg(void);
ACL_FUNC_VISIBILITY void aclAppLog(aclLogLevel level, const char *fmt, ...);
static inline int notDeclared(int x) { return x; }
`
	got, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	want := []Decl{
		{Ret: "aclError", Name: "aclrtF", Params: []Param{{"int32_t", "a"}, {"const void *", "p"}}},
		{Ret: "const char *", Name: "aclGetMsg"},
		{Ret: "void", Name: "aclAppLog", Params: []Param{{"aclLogLevel", "level"}, {"const char *", "fmt"}}, Variadic: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Parse:\n got %+v\nwant %+v", got, want)
	}
}

func TestParseUnnamedParameter(t *testing.T) {
	_, err := Parse("ACL_FUNC_VISIBILITY aclError aclrtG(int32_t);")
	if err == nil || !strings.Contains(err.Error(), `aclrtG: parameter 0 "int32_t" has no name`) {
		t.Fatalf("err = %v, want the unnamed parameter named", err)
	}
}
