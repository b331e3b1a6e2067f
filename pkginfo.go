package gocann

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/gocann/gocann/internal/rterr"
)

// The packages of an install tree (aclsysGetVersionStr,
// aclsysGetVersionNum). A CANN install keeps one directory per package
// under $ASCEND_HOME_PATH/share/info, named as the package, holding the
// package's version.info; its "Version=" line is the package's version.
// CANN's ACL layer reads that file at each call, and so does gocann.
//
// gocann adds one rule: with no install tree named (ASCEND_HOME_PATH unset
// or empty), the package gocann is, "runtime", still answers, with
// RuntimeVersion, so that a Go program or one run from a build directory
// learns the runtime's version; CANN would answer ACL_ERROR_INVALID_FILE.

// HomeEnv names the environment variable holding the install tree's root.
const HomeEnv = "ASCEND_HOME_PATH"

// versionKey starts the line of a version.info that gives the version.
const versionKey = "Version="

// maxVersionStr is ACL_PKG_VERSION_MAX_SIZE, the bytes of
// aclsysGetVersionStr's versionStr, its NUL included.
const maxVersionStr = 128

// PackageVersion returns the version string of the installed package pkg:
// the Version entry of $ASCEND_HOME_PATH/share/info/<pkg>/version.info.
// A package missing from the tree, a version.info missing or without a
// Version entry are CodeInvalidFile; a Version of 128 bytes or more (what
// the C call's buffer cannot hold) is CodeInternalError.
//
// CANN: aclsysGetVersionStr.
func PackageVersion(pkg string) (string, error) { return PackageVersionAt(os.Getenv(HomeEnv), pkg) }

// PackageVersionAt is PackageVersion in the install tree rooted at home,
// "" for none, whatever ASCEND_HOME_PATH says.
//
// CANN: aclsysGetVersionStr (the tree given).
func PackageVersionAt(home, pkg string) (string, error) {
	const op = "PackageVersion (aclsysGetVersionStr)"
	v, err := packageVersion(home, pkg)
	if err != nil {
		return "", wrap(op, err)
	}
	if len(v) >= maxVersionStr {
		// CANN's strcpy_s into versionStr fails: ACL_ERROR_INTERNAL_ERROR.
		return "", wrap(op, rterr.Errorf(rterr.KindACLInternal,
			"the Version of package %q is %d bytes, expected at most %d to fit versionStr's ACL_PKG_VERSION_MAX_SIZE (%d) bytes with its NUL",
			pkg, len(v), maxVersionStr-1, maxVersionStr))
	}
	return v, nil
}

// PackageVersionNum returns the version of the installed package pkg as a
// number that orders releases (VersionNum); a Version VersionNum refuses
// is CodeInternalError, the rest as for PackageVersion.
//
// CANN: aclsysGetVersionNum.
func PackageVersionNum(pkg string) (int32, error) {
	return PackageVersionNumAt(os.Getenv(HomeEnv), pkg)
}

// PackageVersionNumAt is PackageVersionNum in the install tree rooted at
// home, "" for none, whatever ASCEND_HOME_PATH says.
//
// CANN: aclsysGetVersionNum (the tree given).
func PackageVersionNumAt(home, pkg string) (int32, error) {
	const op = "PackageVersionNum (aclsysGetVersionNum)"
	v, err := packageVersion(home, pkg)
	if err != nil {
		return 0, wrap(op, err)
	}
	n, err := versionNum(v)
	return n, wrap(op, err)
}

// packageVersion reads pkg's version in the tree at home. A name with '-'
// is also looked for with '_' in their place, and one with '_' with '-',
// as CANN's GetPkgVersionContent does; the error is the second try's.
func packageVersion(home, pkg string) (string, error) {
	switch {
	case pkg == "driver" || pkg == "firmware":
		// CANN finds these through /etc/ascend_install.info, the record of
		// an installed NPU driver.
		return "", rterr.Errorf(rterr.KindInvalidFile,
			"package %q is not installed: the simulated NPU has no %s package (CANN finds one through /etc/ascend_install.info)", pkg, pkg)
	case home == "" && pkg == RuntimePackage:
		return RuntimeVersion, nil
	case home == "":
		return "", rterr.Errorf(rterr.KindInvalidFile,
			"package %q is not installed: %s is not set, expected the root of an install tree holding share/info/%s/version.info", pkg, HomeEnv, pkg)
	}
	root, err := filepath.EvalSymlinks(home)
	if err != nil {
		return "", rterr.Errorf(rterr.KindInvalidFile, "%s %q does not exist, expected the root of an install tree", HomeEnv, home)
	}
	v, err := versionInfo(root, pkg)
	if err == nil {
		return v, nil
	}
	alt := pkg
	if strings.Contains(pkg, "-") {
		alt = strings.ReplaceAll(pkg, "-", "_")
	} else if strings.Contains(pkg, "_") {
		alt = strings.ReplaceAll(pkg, "_", "-")
	}
	if alt == pkg {
		return "", err
	}
	return versionInfo(root, alt)
}

// versionInfo reads the Version entry of package pkg's version.info under
// root: the first line holding "Version=", what follows it with spaces,
// tabs and line ends trimmed.
func versionInfo(root, pkg string) (string, error) {
	path := root + "/share/info/" + pkg + "/version.info"
	b, err := os.ReadFile(path)
	if err != nil {
		return "", rterr.Errorf(rterr.KindInvalidFile,
			"package %q is not installed: %s cannot be read (%v), expected the package's version.info", pkg, path, unwrapPathError(err))
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		i := strings.Index(line, versionKey)
		if i < 0 {
			continue
		}
		v := strings.Trim(line[i+len(versionKey):], " \t\r\n")
		if v == "" {
			return "", rterr.Errorf(rterr.KindInvalidFile, "%s has an empty Version entry, expected Version=<version>", path)
		}
		return v, nil
	}
	return "", rterr.Errorf(rterr.KindInvalidFile, "%s has no line with %q, expected Version=<version>", path, versionKey)
}

// unwrapPathError is the OS's reason in a *PathError, which names the path
// again.
func unwrapPathError(err error) error {
	if pe := (*os.PathError)(nil); errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
