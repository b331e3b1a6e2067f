package gocann

import (
	"strconv"
	"strings"

	"github.com/gocann/gocann/internal/rterr"
)

// Versions. gocann implements the API of one CANN release: its headers
// declare ACL interface version APIMajor.APIMinor.APIPatch (what
// aclrtGetVersion reports), and it is the package "runtime" of that
// release, version RuntimeVersion, which make install records in the
// tree's share/info/runtime/version.info. The versions of the packages of
// an install tree are read from it (pkginfo.go).
const (
	APIMajor = 1
	APIMinor = 17
	APIPatch = 0

	// RuntimePackage is the package gocann is.
	RuntimePackage = "runtime"
	// RuntimeVersion is the CANN release whose runtime API gocann
	// implements, in the form of a package's version.info. The Makefile
	// reads it from this line.
	RuntimeVersion = "9.1.0"
)

// The weights of a version number's parts (aclsysGetVersionNum), and what
// a prerelease takes off its base version before adding its own number.
const (
	weightMajor = 10000000
	weightMinor = 100000
	weightPatch = 1000
)

var prereleaseWeights = []struct {
	name   string
	weight int64
}{{"alpha", 300}, {"beta", 200}, {"rc", 100}}

// APIVersion returns the ACL interface version gocann implements.
//
// CANN: aclrtGetVersion.
func APIVersion() (major, minor, patch int32) { return APIMajor, APIMinor, APIPatch }

// VersionNum computes the number aclsysGetVersionNum reports for version
// string v: "X.Y.Z", optionally followed by a prerelease ("-alpha.1",
// "-beta2", ".rc.3": alpha, beta or rc after at most one '.' or '-', then
// its number after at most one more).
//
// CANN: aclsysGetVersionNum (the computation).
func VersionNum(v string) (int32, error) {
	n, err := versionNum(v)
	return n, wrap("VersionNum", err)
}

func versionNum(v string) (int32, error) {
	bad := func(why string) (int32, error) {
		// CANN's CalculateVersionNum: ACL_ERROR_INTERNAL_ERROR.
		return 0, rterr.Errorf(rterr.KindACLInternal, "version %q is invalid: %s", v, why)
	}
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 3 {
		return bad("expected major.minor.patch")
	}
	major, err1 := strconv.ParseInt(parts[0], 10, 32)
	minor, err2 := strconv.ParseInt(parts[1], 10, 32)
	end := 0
	for end < len(parts[2]) && parts[2][end] >= '0' && parts[2][end] <= '9' {
		end++
	}
	patch, err3 := strconv.ParseInt(parts[2][:end], 10, 32)
	if err1 != nil || err2 != nil || err3 != nil {
		return bad("expected numbers for major, minor and patch")
	}
	n := major*weightMajor + minor*weightMinor + patch*weightPatch
	if rest := strings.ToLower(parts[2][end:]); rest != "" {
		adj, ok := prerelease(rest)
		if !ok {
			return bad("expected -alpha, -beta or -rc and a number after the patch")
		}
		n += adj
	}
	return int32(n), nil
}

// prerelease returns what suffix s ("-rc.1") adds to a base version: at
// most one separator before the keyword and one before its number.
func prerelease(s string) (int64, bool) {
	if s[0] == '.' || s[0] == '-' {
		s = s[1:]
	}
	for _, p := range prereleaseWeights {
		num, ok := strings.CutPrefix(s, p.name)
		if !ok {
			continue
		}
		if num == "" {
			return -p.weight, true
		}
		if num[0] == '.' || num[0] == '-' {
			num = num[1:]
		}
		if num == "" || num[0] < '0' || num[0] > '9' {
			return 0, false
		}
		k, err := strconv.ParseInt(num, 10, 32)
		if err != nil {
			return 0, false
		}
		return k - p.weight, true
	}
	return 0, false
}

// CANNPackage is aclCANNPackageName, with the CANN values.
type CANNPackage int

const (
	PkgCANN      CANNPackage = iota // ACL_PKG_NAME_CANN: CANN itself, whose version is the runtime's
	PkgRuntime                      // ACL_PKG_NAME_RUNTIME
	PkgCompiler                     // ACL_PKG_NAME_COMPILER
	PkgHCCL                         // ACL_PKG_NAME_HCCL
	PkgToolkit                      // ACL_PKG_NAME_TOOLKIT
	PkgOPP                          // ACL_PKG_NAME_OPP
	PkgOPPKernel                    // ACL_PKG_NAME_OPP_KERNEL
	PkgDriver                       // ACL_PKG_NAME_DRIVER
)

// PackageVersionParts is a package's version and its parts, as
// aclCANNPackageVersion holds them; a part the version lacks is "0".
type PackageVersionParts struct {
	Version, Major, Minor, Release, Patch string
}

// CANNPackageVersion returns the version of package pkg, which must be
// installed: PkgCANN and PkgRuntime are gocann itself, the others are not
// installed.
//
// CANN: aclsysGetCANNVersion.
func CANNPackageVersion(pkg CANNPackage) (PackageVersionParts, error) {
	const op = "CANNPackageVersion (aclsysGetCANNVersion)"
	switch {
	case pkg < PkgCANN || pkg > PkgDriver:
		return PackageVersionParts{}, wrap(op, rterr.Errorf(rterr.KindBadArgument,
			"name %d is invalid, expected ACL_PKG_NAME_CANN (0) to ACL_PKG_NAME_DRIVER (7)", pkg))
	case pkg > PkgRuntime:
		return PackageVersionParts{}, wrap(op, rterr.Errorf(rterr.KindInvalidFile,
			"package %d is not installed, expected ACL_PKG_NAME_CANN (0) or ACL_PKG_NAME_RUNTIME (1), the one package gocann is", pkg))
	}
	parts := append(strings.Split(RuntimeVersion, "."), "0", "0", "0")
	return PackageVersionParts{Version: RuntimeVersion, Major: parts[0], Minor: parts[1], Release: parts[2], Patch: parts[3]}, nil
}
