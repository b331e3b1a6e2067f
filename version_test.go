package gocann_test

import (
	"os"
	"regexp"
	"strconv"
	"testing"

	"github.com/gocann/gocann"
)

func TestAPIVersionMatchesHeaders(t *testing.T) {
	// aclrtGetVersion reports what acl_rt.h's ACL_*_VERSION macros say.
	src, err := os.ReadFile("include/acl/acl_rt.h")
	check(t, err)
	major, minor, patch := gocann.APIVersion()
	for name, got := range map[string]int32{"MAJOR": major, "MINOR": minor, "PATCH": patch} {
		m := regexp.MustCompile(`#define ACL_` + name + `_VERSION (\d+)`).FindSubmatch(src)
		if m == nil {
			t.Fatalf("acl_rt.h has no ACL_%s_VERSION", name)
		}
		if want, _ := strconv.Atoi(string(m[1])); int32(want) != got {
			t.Errorf("APIVersion %s = %d, acl_rt.h says %d", name, got, want)
		}
	}
}

func TestVersionNumOrder(t *testing.T) {
	// The reference's ordering: "9.0.0-alpha.1 < 9.0.0-alpha.2 <
	// 9.0.0-beta.1 < 9.0.0-beta.2 < 9.0.0-rc.1 < 9.0.0-rc.2 < 9.0.0 < 9.0.1".
	order := []string{"9.0.0-alpha.1", "9.0.0-alpha.2", "9.0.0-beta.1", "9.0.0-beta.2", "9.0.0-rc.1", "9.0.0-rc.2", "9.0.0", "9.0.1"}
	want := []int32{89999701, 89999702, 89999801, 89999802, 89999901, 89999902, 90000000, 90001000}
	prev := int32(-1)
	for i, v := range order {
		n, err := gocann.VersionNum(v)
		check(t, err)
		if n != want[i] || n <= prev {
			t.Errorf("VersionNum(%q) = %d, want %d, above the one before", v, n, want[i])
		}
		prev = n
	}
	for v, want := range map[string]int32{"8.5.1": 80501000, "9.1.0rc3": 90099903, "10.0.0.beta": 99999800} {
		if n, err := gocann.VersionNum(v); err != nil || n != want {
			t.Errorf("VersionNum(%q) = %d, %v, want %d", v, n, err, want)
		}
	}
	for _, v := range []string{"9.1", "a.b.c", "9.1.x", "9.1.0-gamma", "9.1.0-rc-", "9.1.0--rc1", "9.1.0-rc.x"} {
		_, err := gocann.VersionNum(v)
		wantErr(t, err, gocann.CodeInternalError, strconv.Quote(v), "invalid")
	}
}

func TestCANNPackageVersion(t *testing.T) {
	for _, p := range []gocann.CANNPackage{gocann.PkgCANN, gocann.PkgRuntime} {
		v, err := gocann.CANNPackageVersion(p)
		check(t, err)
		if v != (gocann.PackageVersionParts{Version: "9.1.0", Major: "9", Minor: "1", Release: "0", Patch: "0"}) {
			t.Fatalf("CANNPackageVersion(%d) = %+v", p, v)
		}
	}
	for p := gocann.PkgCompiler; p <= gocann.PkgDriver; p++ {
		_, err := gocann.CANNPackageVersion(p)
		wantErr(t, err, gocann.CodeInvalidFile, "package "+strconv.Itoa(int(p)), "not installed")
	}
	for _, p := range []gocann.CANNPackage{-1, 8} {
		_, err := gocann.CANNPackageVersion(p)
		wantErr(t, err, gocann.CodeInvalidParam, "name "+strconv.Itoa(int(p)), "ACL_PKG_NAME_DRIVER (7)")
	}
}

func TestCannAttributes(t *testing.T) {
	// No feature is available in gocann; the list is empty, not nil.
	if l := gocann.CannAttributes(); l == nil || len(l) != 0 {
		t.Fatalf("CannAttributes = %v, want an empty list", l)
	}
	for _, a := range []gocann.CannAttr{gocann.CannAttrInfNaN, gocann.CannAttrBF16, gocann.CannAttrJITCompile} {
		ok, err := gocann.CannAttribute(a)
		if err != nil || ok {
			t.Errorf("CannAttribute(%d) = %v, %v, want false", a, ok, err)
		}
	}
	for _, a := range []gocann.CannAttr{gocann.CannAttrUndefined, 3} {
		_, err := gocann.CannAttribute(a)
		wantErr(t, err, gocann.CodeInvalidParam, "cannAttr "+strconv.Itoa(int(a)))
	}
}
