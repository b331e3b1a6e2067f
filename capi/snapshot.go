package main

/*
#include <stdint.h>
#include "acl/acl.h"
#include "direct.h"

static inline uint32_t gocann_call_snap(aclrtSnapShotCallBack cb, int32_t dev, uintptr_t args) {
	return cb(dev, (void *)args);
}
*/
import "C"

import (
	"os"
	"runtime"
	"sync/atomic"
	"unsafe"

	"github.com/gocann/gocann"
)

// Process snapshots. The runtime keeps the state and makes the calls wait
// while the process is locked; the direct launch path, which queues
// without the runtime, reads the lock from gocann_epoch.locked and leaves
// launches to Go then, which waits in turn (noteSnapshot).

// snapProcess checks the pid and the reserved pointer of a snapshot call
// (CANN: ACL_ERROR_INVALID_PARAM for either) and returns the runtime.
func snapProcess(t *C.gocann_thread, fn string, pid C.int, reserved uintptr, name string) (*gocann.Runtime, C.aclError) {
	if self := os.Getpid(); int(pid) != self {
		return nil, failf(t, fn, gocann.KindBadArgument, "pid %d is not this process's id %d: a snapshot covers only the calling process", int(pid), self)
	}
	if reserved != 0 {
		return nil, failf(t, fn, gocann.KindBadArgument, "%s is %#x, expected NULL (a reserved parameter)", name, reserved)
	}
	return procRuntime(), 0
}

//export gocann_aclrtSnapShotProcessLock
func gocann_aclrtSnapShotProcessLock(t *C.gocann_thread, pid C.int, reserve C.uintptr_t) C.aclError {
	const fn = "aclrtSnapShotProcessLock"
	r, code := snapProcess(t, fn, pid, uintptr(reserve), "reserve")
	if code != 0 {
		return code
	}
	return fail(t, fn, r.SnapshotLock())
}

//export gocann_aclrtSnapShotProcessUnlock
func gocann_aclrtSnapShotProcessUnlock(t *C.gocann_thread, pid C.int, reserve C.uintptr_t) C.aclError {
	const fn = "aclrtSnapShotProcessUnlock"
	r, code := snapProcess(t, fn, pid, uintptr(reserve), "reserve")
	if code != 0 {
		return code
	}
	return fail(t, fn, r.SnapshotUnlock())
}

//export gocann_aclrtSnapShotProcessBackup
func gocann_aclrtSnapShotProcessBackup(t *C.gocann_thread, pid C.int, args *C.aclrtSnapShotBackupArgs) C.aclError {
	const fn = "aclrtSnapShotProcessBackup"
	r, code := snapProcess(t, fn, pid, uintptr(unsafe.Pointer(args)), "args")
	if code != 0 {
		return code
	}
	return fail(t, fn, r.SnapshotBackup())
}

//export gocann_aclrtSnapShotProcessRestore
func gocann_aclrtSnapShotProcessRestore(t *C.gocann_thread, pid C.int, args *C.aclrtSnapShotRestoreArgs) C.aclError {
	const fn = "aclrtSnapShotProcessRestore"
	r, code := snapProcess(t, fn, pid, uintptr(unsafe.Pointer(args)), "args")
	if code != 0 {
		return code
	}
	return fail(t, fn, r.SnapshotRestore())
}

//export gocann_aclrtSnapShotCallbackRegister
func gocann_aclrtSnapShotCallbackRegister(t *C.gocann_thread, stage C.aclrtSnapShotStage, cb C.aclrtSnapShotCallBack, args C.uintptr_t) C.aclError {
	const fn = "aclrtSnapShotCallbackRegister"
	var f gocann.SnapCallback
	if cb != nil {
		f = func(dev int32) uint32 { return uint32(C.gocann_call_snap(cb, C.int32_t(dev), args)) }
	}
	// The callback's address is its identity, as in CANN.
	return fail(t, fn, procRuntime().RegisterSnapCallback(gocann.SnapStage(stage), uintptr(unsafe.Pointer(cb)), f))
}

//export gocann_aclrtSnapShotCallbackUnregister
func gocann_aclrtSnapShotCallbackUnregister(t *C.gocann_thread, stage C.aclrtSnapShotStage, cb C.aclrtSnapShotCallBack) C.aclError {
	const fn = "aclrtSnapShotCallbackUnregister"
	return fail(t, fn, procRuntime().UnregisterSnapCallback(gocann.SnapStage(stage), uintptr(unsafe.Pointer(cb))))
}

// noteSnapshot tells the direct launch path whether the process is
// locked. Locking waits for the threads inside the path that may have
// read the word before it changed: the word's store and the fence
// against the slots' announcements make sure a thread either saw it or is
// seen in its slot, and such a thread leaves in a few instructions.
func noteSnapshot(locked bool) {
	word := (*uint32)(unsafe.Pointer(&C.gocann_epoch.locked))
	if !locked {
		atomic.StoreUint32(word, 0)
		return
	}
	atomic.StoreUint32(word, 1)
	e := cEpochs()
	// A failed fence leaves a thread announcing without a barrier unseen
	// for the instant it takes; there is nothing better to wait on.
	e.fence()
	for i := range e.n() {
		s := e.slot(i)
		if at := s.Load(); at != 0 {
			for s.Load() == at {
				runtime.Gosched()
			}
		}
	}
}
