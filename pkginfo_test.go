package gocann_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gocann/gocann"
)

// installTree makes an install tree holding the version.info of each
// package given (a nil text makes the package's directory only).
func installTree(t *testing.T, files map[string]*string) string {
	t.Helper()
	home := t.TempDir()
	for pkg, text := range files {
		dir := filepath.Join(home, "share", "info", pkg)
		check(t, os.MkdirAll(dir, 0o755))
		if text != nil {
			check(t, os.WriteFile(filepath.Join(dir, "version.info"), []byte(*text), 0o644))
		}
	}
	return home
}

func ptr(s string) *string { return &s }

func TestPackageVersionTree(t *testing.T) {
	// "The CANN package name is the name of its directory under
	// ${INSTALL_DIR}/share/info"; its version is version.info's Version.
	home := installTree(t, map[string]*string{
		"runtime":   ptr("Version=9.1.0\nversion_dir=CANN-9.1\ntimestamp=20260101_000000000\n"),
		"opp_fake":  ptr("version_dir=x\r\n  Version=  8.5.0-rc.2 \r\ntimestamp=1\nVersion=7.0.0\n"),
		"ops-base":  ptr("Version=1.2.3"),
		"empty":     nil,
		"noversion": ptr("version_dir=CANN-9.1\ntimestamp=1\n"),
		"blank":     ptr("Version= \t\n"),
		"odd":       ptr("Version=9.1.x\n"),
		"long":      ptr("Version=" + strings.Repeat("1", 128) + "\n"),
	})
	t.Setenv(gocann.HomeEnv, home)
	for _, c := range []struct {
		pkg, v string
		n      int32
	}{
		{"runtime", "9.1.0", 90100000},
		{"opp_fake", "8.5.0-rc.2", 80499902}, // the first Version line, trimmed
		{"opp-fake", "8.5.0-rc.2", 80499902}, // '-' read as '_'
		{"ops_base", "1.2.3", 10203000},      // '_' read as '-'
	} {
		v, err := gocann.PackageVersion(c.pkg)
		check(t, err)
		n, err := gocann.PackageVersionNum(c.pkg)
		check(t, err)
		if v != c.v || n != c.n {
			t.Errorf("package %s: version %q, number %d; want %q, %d", c.pkg, v, n, c.v, c.n)
		}
	}
	for _, c := range []struct{ pkg, why string }{
		{"hccl", "share/info/hccl/version.info cannot be read"},
		{"empty", "share/info/empty/version.info cannot be read"},
		{"noversion", `no line with "Version="`},
		{"blank", "empty Version entry"},
		{"driver", "no driver package"},
		{"firmware", "no firmware package"},
		{"", "not installed"},
	} {
		_, err := gocann.PackageVersion(c.pkg)
		wantErr(t, err, gocann.CodeInvalidFile, c.why)
		_, err = gocann.PackageVersionNum(c.pkg)
		wantErr(t, err, gocann.CodeInvalidFile, c.why)
	}
	// The string is the file's; the number needs major.minor.patch.
	v, err := gocann.PackageVersion("odd")
	check(t, err)
	if v != "9.1.x" {
		t.Errorf("package odd: version %q, want the file's 9.1.x", v)
	}
	_, err = gocann.PackageVersionNum("odd")
	wantErr(t, err, gocann.CodeInternalError, `"9.1.x"`, "invalid")
	// 128 bytes do not fit versionStr with its NUL; the number is refused
	// for its form.
	_, err = gocann.PackageVersion("long")
	wantErr(t, err, gocann.CodeInternalError, `package "long"`, "128 bytes", "at most 127")
	_, err = gocann.PackageVersionNum("long")
	wantErr(t, err, gocann.CodeInternalError, "invalid")

	// A tree without gocann's own record answers for nothing, runtime
	// included; a root that does not exist neither.
	other := installTree(t, map[string]*string{"hccl": ptr("Version=8.0.0\n")})
	_, err = gocann.PackageVersionAt(other, "runtime")
	wantErr(t, err, gocann.CodeInvalidFile, `package "runtime"`, "cannot be read")
	if v, err := gocann.PackageVersionAt(other, "hccl"); err != nil || v != "8.0.0" {
		t.Errorf("PackageVersionAt(other tree, hccl) = %q, %v; want 8.0.0", v, err)
	}
	_, err = gocann.PackageVersionNumAt(filepath.Join(other, "gone"), "hccl")
	wantErr(t, err, gocann.CodeInvalidFile, gocann.HomeEnv, "does not exist")
}

func TestPackageVersionNoTree(t *testing.T) {
	// With no tree named, gocann still answers for the package it is.
	t.Setenv(gocann.HomeEnv, "")
	v, err := gocann.PackageVersion("runtime")
	check(t, err)
	n, err := gocann.PackageVersionNum("runtime")
	check(t, err)
	if v != gocann.RuntimeVersion || n != 90100000 {
		t.Fatalf("runtime version = %q, %d, want %s, 90100000", v, n, gocann.RuntimeVersion)
	}
	for _, pkg := range []string{"driver", "firmware", "hccl", "Runtime", ""} {
		_, err := gocann.PackageVersion(pkg)
		wantErr(t, err, gocann.CodeInvalidFile, strconv.Quote(pkg), "not installed")
		_, err = gocann.PackageVersionNum(pkg)
		wantErr(t, err, gocann.CodeInvalidFile, "not installed")
	}
}
