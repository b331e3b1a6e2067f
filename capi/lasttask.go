package main

/*
#include "acl/acl.h"
#include "thread.h"
*/
import "C"

import (
	"unsafe"

	"github.com/gocann/gocann"
)

//export gocann_aclrtGetThreadLastTaskId
func gocann_aclrtGetThreadLastTaskId(t *C.gocann_thread, taskID *C.uint32_t) C.aclError {
	const fn = "aclrtGetThreadLastTaskId"
	if code := unsupported(t, "aclrtGetThreadLastTaskId"); code != 0 {
		return code
	}
	if taskID == nil {
		return nullArg(t, fn, "taskId")
	}
	if t.last_task_go == 0 {
		*taskID = t.last_task // the direct path's, or 0
		return 0
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	*taskID = C.uint32_t(r.Raw().ThreadLastTaskID(captureThread(t)))
	return 0
}

//export gocann_aclrtCacheLastTaskOpInfo
func gocann_aclrtCacheLastTaskOpInfo(t *C.gocann_thread, info unsafe.Pointer, size C.size_t) C.aclError {
	const fn = "aclrtCacheLastTaskOpInfo"
	if info == nil {
		return nullArg(t, fn, "infoPtr")
	}
	if size == 0 {
		return failf(t, fn, gocann.KindBadArgument, "infoSize 0 is invalid, expected a positive size")
	}
	return cacheInfo(t, fn, info, size, false)
}

//export gocann_aclrtCacheLastTaskExtendInfo
func gocann_aclrtCacheLastTaskExtendInfo(t *C.gocann_thread, info *C.char, size C.size_t) C.aclError {
	const fn = "aclrtCacheLastTaskExtendInfo"
	if info == nil {
		return failf(t, fn, gocann.KindInvalidParam, "extendInfoPtr is NULL, expected the extended information")
	}
	return cacheInfo(t, fn, unsafe.Pointer(info), size, true)
}

// cacheInfo attaches size bytes at p to the thread's last task. Only a task
// being captured or built can take information, and those are queued
// through Go, never by the direct path.
func cacheInfo(t *C.gocann_thread, fn string, p unsafe.Pointer, size C.size_t, extend bool) C.aclError {
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	if !extend && uint64(size) > 64<<10 {
		return failf(t, fn, gocann.KindInvalidParam, "infoSize %d is invalid, expected 1..%d", uint64(size), 64<<10)
	}
	n := uint64(size)
	if extend {
		n = min(n, 4<<10) // the rest is not kept
	}
	b := unsafe.Slice((*byte)(p), n)
	th := captureThread(t)
	if t.last_task_go == 0 {
		th.ID = 0 // the last launch was direct, so in no model: no thread has id 0
	}
	if extend {
		return fail(t, fn, r.Raw().CacheLastTaskExtendInfo(th, b))
	}
	return fail(t, fn, r.Raw().CacheLastTaskOpInfo(th, b))
}
