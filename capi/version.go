package main

/*
#include <stdlib.h>
#include <string.h>
#include "acl/acl.h"
#include "thread.h"

// The features aclGetCannAttributeList hands out: the library keeps the
// array, as CANN's does.
static aclCannAttr gocann_cann_attrs[3];

static aclCannAttr *cann_attrs(void) { return gocann_cann_attrs; }
*/
import "C"

import (
	"unsafe"

	"github.com/gocann/gocann"
)

// Versions and CANN attributes: answered with no runtime, before aclInit
// too; package versions from the install tree ASCEND_HOME_PATH names when
// the call is made.

// installTree is ASCEND_HOME_PATH as the C environment has it now: the
// program may have set it after the core loaded, which Go's copy of the
// environment would miss.
func installTree() string {
	name := C.CString(gocann.HomeEnv)
	defer C.free(unsafe.Pointer(name))
	return C.GoString(C.getenv(name))
}

//export gocann_aclrtGetVersion
func gocann_aclrtGetVersion(t *C.gocann_thread, major, minor, patch *C.int32_t) C.aclError {
	if major == nil || minor == nil || patch == nil {
		return nullArg(t, "aclrtGetVersion", "majorVersion, minorVersion or patchVersion")
	}
	a, b, c := gocann.APIVersion()
	*major, *minor, *patch = C.int32_t(a), C.int32_t(b), C.int32_t(c)
	return 0
}

// copyString writes s and a terminating NUL into the n bytes at dst.
func copyString(dst *C.char, n int, s string) {
	out := unsafe.Slice((*byte)(unsafe.Pointer(dst)), n)
	out[copy(out[:n-1], s)] = 0
}

//export gocann_aclsysGetVersionStr
func gocann_aclsysGetVersionStr(t *C.gocann_thread, pkgName, versionStr *C.char) C.aclError {
	const fn = "aclsysGetVersionStr"
	if code := unsupported(t, "aclsysGetVersionStr"); code != 0 {
		return code
	}
	if versionStr == nil {
		return nullArg(t, fn, "versionStr")
	}
	if pkgName == nil {
		return nullArg(t, fn, "pkgName")
	}
	v, err := gocann.PackageVersionAt(installTree(), C.GoString(pkgName))
	if err != nil {
		return fail(t, fn, err)
	}
	copyString(versionStr, C.ACL_PKG_VERSION_MAX_SIZE, v)
	return 0
}

//export gocann_aclsysGetVersionNum
func gocann_aclsysGetVersionNum(t *C.gocann_thread, pkgName *C.char, versionNum *C.int32_t) C.aclError {
	const fn = "aclsysGetVersionNum"
	if code := unsupported(t, "aclsysGetVersionNum"); code != 0 {
		return code
	}
	if versionNum == nil {
		return nullArg(t, fn, "versionNum")
	}
	if pkgName == nil {
		return nullArg(t, fn, "pkgName")
	}
	n, err := gocann.PackageVersionNumAt(installTree(), C.GoString(pkgName))
	if err != nil {
		return fail(t, fn, err)
	}
	*versionNum = C.int32_t(n)
	return 0
}

//export gocann_aclsysGetCANNVersion
func gocann_aclsysGetCANNVersion(t *C.gocann_thread, name C.aclCANNPackageName, version *C.aclCANNPackageVersion) C.aclError {
	const fn = "aclsysGetCANNVersion"
	if version == nil {
		return nullArg(t, fn, "version")
	}
	v, err := gocann.CANNPackageVersion(gocann.CANNPackage(name))
	if err != nil {
		return fail(t, fn, err)
	}
	C.memset(unsafe.Pointer(version), 0, C.sizeof_aclCANNPackageVersion)
	copyString(&version.version[0], C.ACL_PKG_VERSION_MAX_SIZE, v.Version)
	copyString(&version.majorVersion[0], C.ACL_PKG_VERSION_PARTS_MAX_SIZE, v.Major)
	copyString(&version.minorVersion[0], C.ACL_PKG_VERSION_PARTS_MAX_SIZE, v.Minor)
	copyString(&version.releaseVersion[0], C.ACL_PKG_VERSION_PARTS_MAX_SIZE, v.Release)
	copyString(&version.patchVersion[0], C.ACL_PKG_VERSION_PARTS_MAX_SIZE, v.Patch)
	return 0
}

//export gocann_aclGetCannAttributeList
func gocann_aclGetCannAttributeList(t *C.gocann_thread, list **C.aclCannAttr, num *C.size_t) C.aclError {
	const fn = "aclGetCannAttributeList"
	if list == nil {
		return nullArg(t, fn, "cannAttrList")
	}
	if num == nil {
		return nullArg(t, fn, "num")
	}
	attrs := gocann.CannAttributes()
	arr := unsafe.Slice(C.cann_attrs(), len(C.gocann_cann_attrs))
	if len(attrs) > len(arr) {
		return failf(t, fn, gocann.KindInternal, "%d attributes do not fit the library's array of %d", len(attrs), len(arr))
	}
	for i, a := range attrs {
		arr[i] = C.aclCannAttr(a)
	}
	*list, *num = C.cann_attrs(), C.size_t(len(attrs))
	return 0
}

//export gocann_aclGetCannAttribute
func gocann_aclGetCannAttribute(t *C.gocann_thread, attr C.aclCannAttr, value *C.int32_t) C.aclError {
	const fn = "aclGetCannAttribute"
	if value == nil {
		return nullArg(t, fn, "value")
	}
	ok, err := gocann.CannAttribute(gocann.CannAttr(attr))
	if err != nil {
		return fail(t, fn, err)
	}
	*value = 0
	if ok {
		*value = 1
	}
	return 0
}
