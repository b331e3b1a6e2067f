package main

/*
#include <string.h>
#include "acl/acl.h"
#include "thread.h"
*/
import "C"

import (
	"math"
	"unsafe"

	"github.com/gocann/gocann"
)

// Events and notifies shared between processes. An IPC event handle is
// the export's key in its first 32 bytes, zeros after; a notify key is
// gocann.NotifyKeyLen lowercase hexadecimal digits and a NUL.

//export gocann_aclrtIpcGetEventHandle
func gocann_aclrtIpcGetEventHandle(t *C.gocann_thread, p C.aclrtEvent, handle *C.aclrtIpcEventHandle) C.aclError {
	const fn = "aclrtIpcGetEventHandle"
	if handle == nil {
		return nullArg(t, fn, "handle")
	}
	e, code := eventOf(t, fn, p)
	if code != 0 {
		return code
	}
	h, err := e.e.IPCHandle()
	if err != nil {
		return fail(t, fn, err)
	}
	out := unsafe.Slice((*byte)(unsafe.Pointer(&handle.reserved[0])), C.ACL_IPC_EVENT_HANDLE_SIZE)
	copy(out, h[:])
	return 0
}

//export gocann_aclrtIpcOpenEventHandle
func gocann_aclrtIpcOpenEventHandle(t *C.gocann_thread, handle C.aclrtIpcEventHandle, out *C.aclrtEvent) C.aclError {
	var h gocann.IPCEventHandle
	copy(h[:], unsafe.Slice((*byte)(unsafe.Pointer(&handle.reserved[0])), C.ACL_IPC_EVENT_HANDLE_SIZE))
	return createEvent(t, "aclrtIpcOpenEventHandle", out, func(c *gocann.Context) (*gocann.Event, error) {
		return c.OpenIPCEvent(h)
	})
}

//export gocann_aclrtNotifyGetExportKey
func gocann_aclrtNotifyGetExportKey(t *C.gocann_thread, p C.aclrtNotify, key *C.char, n C.size_t, flags C.uint64_t) C.aclError {
	const fn = "aclrtNotifyGetExportKey"
	if p == nil {
		return nullArg(t, fn, "notify")
	}
	if key == nil {
		return nullArg(t, fn, "key")
	}
	cn, code := notifyOf(t, fn, p)
	if code != 0 {
		return code
	}
	if n < gocann.NotifyKeyLen+1 {
		return failf(t, fn, gocann.KindInvalidParam, "len %d is invalid, expected at least %d (the key's %d characters and its NUL)", n, gocann.NotifyKeyLen+1, gocann.NotifyKeyLen)
	}
	k, err := cn.n.ExportKey(gocann.NotifyExportFlags(flags))
	if err != nil {
		return fail(t, fn, err)
	}
	buf := unsafe.Slice((*byte)(unsafe.Pointer(key)), gocann.NotifyKeyLen+1)
	buf[copy(buf, k)] = 0
	return 0
}

// pidList reads num pids at pid for fn, num from 1 to 2^31 - 1.
func pidList(t *C.gocann_thread, fn string, pid *C.int32_t, num C.size_t) ([]int32, C.aclError) {
	if num == 0 || num > math.MaxInt32 {
		return nil, failf(t, fn, gocann.KindInvalidParam, "num %d is invalid, expected (0, 2147483647]", num)
	}
	return unsafe.Slice((*int32)(unsafe.Pointer(pid)), int(num)), 0
}

//export gocann_aclrtNotifySetImportPid
func gocann_aclrtNotifySetImportPid(t *C.gocann_thread, p C.aclrtNotify, pid *C.int32_t, num C.size_t) C.aclError {
	const fn = "aclrtNotifySetImportPid"
	if p == nil {
		return nullArg(t, fn, "notify")
	}
	if pid == nil {
		return nullArg(t, fn, "pid")
	}
	cn, code := notifyOf(t, fn, p)
	if code != 0 {
		return code
	}
	pids, code := pidList(t, fn, pid, num)
	if code != 0 {
		return code
	}
	return fail(t, fn, cn.n.AllowImport(pids...))
}

//export gocann_aclrtNotifySetImportPidInterServer
func gocann_aclrtNotifySetImportPidInterServer(t *C.gocann_thread, p C.aclrtNotify, sp *C.aclrtServerPid, num C.size_t) C.aclError {
	const fn = "aclrtNotifySetImportPidInterServer"
	// CANN's ACL layer checks nothing here; its runtime refuses a NULL
	// with ACL_ERROR_RT_PARAM_INVALID.
	if p == nil {
		return failf(t, fn, gocann.KindInvalidParam, "notify is NULL, expected a notify")
	}
	if sp == nil {
		return failf(t, fn, gocann.KindInvalidParam, "serverPids is NULL, expected an array of num aclrtServerPid")
	}
	if num == 0 || num > math.MaxInt32 {
		return failf(t, fn, gocann.KindInvalidParam, "num %d is invalid, expected (0, 2147483647]", num)
	}
	cn, code := notifyOf(t, fn, p)
	if code != 0 {
		return code
	}
	entries := unsafe.Slice(sp, int(num))
	servers := make([]gocann.ServerPids, len(entries))
	for i := range entries {
		e := &entries[i]
		if e.pid == nil {
			return failf(t, fn, gocann.KindInvalidParam, "serverPids[%d].pid is NULL, expected a pid", i)
		}
		if e.num != 1 {
			return failf(t, fn, gocann.KindInvalidParam, "serverPids[%d].num is %d, expected 1 (a notify takes one pid per server)", i, e.num)
		}
		servers[i] = gocann.ServerPids{SDID: uint32(e.sdid), Pids: []int32{int32(*e.pid)}}
	}
	return fail(t, fn, cn.n.AllowImportInterServer(servers...))
}

//export gocann_aclrtNotifyImportByKey
func gocann_aclrtNotifyImportByKey(t *C.gocann_thread, out *C.aclrtNotify, key *C.char, flags C.uint64_t) C.aclError {
	const fn = "aclrtNotifyImportByKey"
	if out == nil {
		return nullArg(t, fn, "notify")
	}
	if key == nil {
		return nullArg(t, fn, "key")
	}
	// A key longer than a notify key is invalid whatever follows; read no
	// further than one byte past it.
	k := C.GoStringN(key, C.int(C.strnlen(key, gocann.NotifyKeyLen+1)))
	// CANN checks the chip and the flags before the current context.
	if code := unsupported(t, fn); code != 0 {
		return code
	}
	if flags > 3 {
		return failf(t, fn, gocann.KindInvalidParam, "flags %#x is invalid, expected at most 0x3 (ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS is 0x2)", flags)
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	n, err := c.c.ImportNotify(k, gocann.NotifyImportFlags(flags))
	if err != nil {
		return fail(t, fn, err)
	}
	return addNotify(t, fn, c, n, out)
}

// addNotify gives notify n of context c a handle and stores it in out.
func addNotify(t *C.gocann_thread, fn string, c *cContext, n *gocann.Notify, out *C.aclrtNotify) C.aclError {
	cn := &cNotify{n: n, ctx: c}
	h, ok := proc.handles.add(kindNotify, cn)
	if !ok {
		n.Close()
		return failf(t, fn, gocann.KindNoNotify, "too many live handles")
	}
	cn.h = h
	if !adopt(c, &c.notifies, cn) {
		proc.handles.remove(h, kindNotify)
		return contextGone(t, fn, c)
	}
	*out = C.aclrtNotify(C.gocann_handle(C.uintptr_t(h)))
	return 0
}
