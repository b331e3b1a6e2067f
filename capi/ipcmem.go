package main

/*
#include <string.h>
#include "acl/acl.h"
#include "thread.h"
*/
import "C"

import (
	"os"
	"unsafe"

	"github.com/gocann/gocann"
)

// IPC memory. Keys cross the C ABI as NUL-terminated strings of
// gocann.IPCKeyLen hexadecimal digits; one is read to at most twice that
// length, enough for the refusal to show it.

// cKey reads key text at p.
func cKey(p *C.char) string {
	n := C.strnlen(p, C.size_t(2*gocann.IPCKeyLen+1))
	return C.GoStringN(p, C.int(n))
}

// cPids reads a whitelist of n process ids at p; n is checked first.
func cPids(p *C.int32_t, n C.size_t) []int32 {
	return unsafe.Slice((*int32)(unsafe.Pointer(p)), int(n))
}

// pidCount refuses a whitelist length CANN's int32 cannot hold.
func pidCount(t *C.gocann_thread, fn, param string, n C.size_t) C.aclError {
	if n == 0 || uint64(n) > 1<<31-1 {
		return failf(t, fn, gocann.KindInvalidParam, "%s %d is invalid, expected (0, 2147483647]", param, uint64(n))
	}
	return 0
}

//export gocann_aclrtIpcMemGetExportKey
func gocann_aclrtIpcMemGetExportKey(t *C.gocann_thread, p unsafe.Pointer, size C.size_t, key *C.char, keyLen C.size_t, flags C.uint64_t) C.aclError {
	const fn = "aclrtIpcMemGetExportKey"
	switch {
	case p == nil:
		return nullArg(t, fn, "devPtr")
	case key == nil:
		return nullArg(t, fn, "key")
	}
	if err := gocann.CheckIPCMemExportArgs(uint64(size), uint64(keyLen), uint64(flags)); err != nil {
		return fail(t, fn, err)
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	if code := unsupported(t, "aclrtIpcMemGetExportKey"); code != 0 {
		return code
	}
	if keyLen < gocann.IPCKeyLen+1 {
		return failf(t, fn, gocann.KindInvalidParam, "len %d is invalid, expected at least %d (a %d-digit key and its NUL)",
			uint64(keyLen), gocann.IPCKeyLen+1, gocann.IPCKeyLen)
	}
	k, err := c.c.IPCMemExportKey(devPtr(p), uint64(size), uint64(flags))
	if err != nil {
		return fail(t, fn, err)
	}
	out := unsafe.Slice((*byte)(unsafe.Pointer(key)), len(k)+1)
	copy(out, k)
	out[len(k)] = 0
	return 0
}

//export gocann_aclrtIpcMemSetImportPid
func gocann_aclrtIpcMemSetImportPid(t *C.gocann_thread, key *C.char, pid *C.int32_t, num C.size_t) C.aclError {
	const fn = "aclrtIpcMemSetImportPid"
	switch {
	case key == nil:
		return nullArg(t, fn, "key")
	case pid == nil:
		return nullArg(t, fn, "pid")
	}
	if code := pidCount(t, fn, "num", num); code != 0 {
		return code
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	return fail(t, fn, c.c.IPCMemSetImportPid(cKey(key), cPids(pid, num)...))
}

//export gocann_aclrtIpcMemImportPidInterServer
func gocann_aclrtIpcMemImportPidInterServer(t *C.gocann_thread, key *C.char, servers *C.aclrtServerPid, num C.size_t) C.aclError {
	const fn = "aclrtIpcMemImportPidInterServer"
	// CANN's runtime checks these, not its ACL layer: 107000.
	switch {
	case key == nil:
		return failf(t, fn, gocann.KindInvalidParam, "key is NULL, expected a key from aclrtIpcMemGetExportKey")
	case servers == nil:
		return failf(t, fn, gocann.KindInvalidParam, "serverPids is NULL, expected %d entries", uint64(num))
	}
	if code := pidCount(t, fn, "num", num); code != 0 {
		return code
	}
	in := unsafe.Slice(servers, int(num))
	list := make([]gocann.ServerPids, len(in))
	for i := range in {
		if in[i].pid == nil {
			return failf(t, fn, gocann.KindInvalidParam, "serverPids[%d].pid is NULL, expected %d process ids", i, uint64(in[i].num))
		}
		if code := pidCount(t, fn, "serverPids[].num", in[i].num); code != 0 {
			return code
		}
		list[i] = gocann.ServerPids{SDID: uint32(in[i].sdid), Pids: cPids(in[i].pid, in[i].num)}
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	return fail(t, fn, c.c.IPCMemImportPidInterServer(cKey(key), list))
}

//export gocann_aclrtIpcMemImportByKey
func gocann_aclrtIpcMemImportByKey(t *C.gocann_thread, out *unsafe.Pointer, key *C.char, flags C.uint64_t) C.aclError {
	const fn = "aclrtIpcMemImportByKey"
	switch {
	case out == nil:
		return nullArg(t, fn, "devPtr")
	case key == nil:
		return nullArg(t, fn, "key")
	}
	if flags > 1 {
		return failf(t, fn, gocann.KindInvalidParam,
			"flags %d is invalid, expected ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT (0) or _ENABLE_PEER_ACCESS (1)", uint64(flags))
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	p, err := c.c.IPCMemImport(cKey(key), uint64(flags))
	if err != nil {
		return fail(t, fn, err)
	}
	*out = addrPtr(p)
	return 0
}

//export gocann_aclrtIpcMemSetAttr
func gocann_aclrtIpcMemSetAttr(t *C.gocann_thread, key *C.char, typ C.aclrtIpcMemAttrType, attr C.uint64_t) C.aclError {
	const fn = "aclrtIpcMemSetAttr"
	if key == nil {
		// CANN's runtime checks it, not its ACL layer: 107000.
		return failf(t, fn, gocann.KindInvalidParam, "key is NULL, expected a key from aclrtIpcMemGetExportKey")
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	return fail(t, fn, c.c.IPCMemSetAttr(cKey(key), uint32(typ), uint64(attr)))
}

//export gocann_aclrtIpcMemClose
func gocann_aclrtIpcMemClose(t *C.gocann_thread, key *C.char) C.aclError {
	const fn = "aclrtIpcMemClose"
	if key == nil {
		return nullArg(t, fn, "key")
	}
	// The chip before the context, as CANN checks them.
	if code := unsupported(t, "aclrtIpcMemClose"); code != 0 {
		return code
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	return fail(t, fn, c.c.IPCMemClose(cKey(key)))
}

//export gocann_aclrtDeviceGetBareTgid
func gocann_aclrtDeviceGetBareTgid(t *C.gocann_thread, pid *C.int32_t) C.aclError {
	const fn = "aclrtDeviceGetBareTgid"
	if pid == nil {
		return nullArg(t, fn, "pid")
	}
	r := proc.runtime()
	if r == nil {
		// It needs neither a device nor aclInit.
		*pid = C.int32_t(os.Getpid())
		return 0
	}
	v, err := r.BareTgid()
	if err != nil {
		return fail(t, fn, err)
	}
	*pid = C.int32_t(v)
	return 0
}
