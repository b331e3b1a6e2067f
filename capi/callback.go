package main

/*
#include <stdlib.h>
#include "acl/acl.h"
#include "thread.h"
#include "hostfail.h"

// Each call returns the failure the function reported, taken on the thread
// that ran it.
static inline char *gocann_call_host(uintptr_t fn, uintptr_t arg) {
	free(gocann_host_take_failure());
	((aclrtHostFunc)fn)((void *)arg);
	return gocann_host_take_failure();
}
static inline char *gocann_call_callback(uintptr_t fn, uintptr_t arg) {
	free(gocann_host_take_failure());
	((aclrtCallback)fn)((void *)arg);
	return gocann_host_take_failure();
}
*/
import "C"

import (
	"sync"
	"time"
	"unsafe"

	"github.com/gocann/gocann"
)

// callHost runs a C host function: a is the function, b its argument. A
// function that called gocann_host_func_fail fails its task: the panic is
// the host function fault the simulator reports.
func callHost(a, b uintptr) {
	if msg, failed := hostFailure(C.gocann_call_host(C.uintptr_t(a), C.uintptr_t(b))); failed {
		panic(msg)
	}
}

// hostFailure turns a failure taken from C into the fault's message.
func hostFailure(m *C.char) (string, bool) {
	if m == nil {
		return "", false
	}
	defer C.free(unsafe.Pointer(m))
	return "gocann_host_func_fail: " + C.GoString(m), true
}

//export gocann_aclrtLaunchHostFunc
func gocann_aclrtLaunchHostFunc(t *C.gocann_thread, sp C.aclrtStream, fn C.aclrtHostFunc, args C.uintptr_t) C.aclError {
	const name = "aclrtLaunchHostFunc"
	if fn == nil {
		return nullArg(t, name, "fn")
	}
	s, code := queueStream(t, name, sp)
	if code != 0 {
		return code
	}
	return fail(t, name, s.s.Raw().LaunchHostFunc(callHost, uintptr(unsafe.Pointer(fn)), uintptr(args)))
}

// Report threads: aclrtLaunchCallback queues a callback that runs in the
// user thread subscribed to the stream, inside its aclrtProcessReport.

// report is one callback for a report thread.
type report struct {
	fn, arg uintptr
	done    chan struct{} // closed once it ran (ACL_CALLBACK_BLOCK)
	failed  *string       // ACL_CALLBACK_BLOCK: what it failed with (gocann_host_func_fail), set before done closes
}

// reportThread is a subscribed user thread.
type reportThread struct {
	id      uint64
	reports chan report
	dev     int // device of its streams
	streams int // streams subscribed
}

// maxReportThreads is how many report threads a process may have.
const maxReportThreads = 1024

// reports maps report threads and subscribed streams.
var reports struct {
	// mu guards the maps.
	mu      sync.Mutex
	threads map[uint64]*reportThread
	streams map[*cStream]*reportThread
}

// reportQueue bounds the callbacks waiting for a report thread.
const reportQueue = 4096

//export gocann_aclrtSubscribeReport
func gocann_aclrtSubscribeReport(t *C.gocann_thread, threadID C.uint64_t, sp C.aclrtStream) C.aclError {
	const fn = "aclrtSubscribeReport"
	s, code := stream(t, fn, sp)
	if code != 0 {
		return code
	}
	reports.mu.Lock()
	defer reports.mu.Unlock()
	if reports.threads == nil {
		reports.threads = make(map[uint64]*reportThread)
		reports.streams = make(map[*cStream]*reportThread)
	}
	if th, ok := reports.streams[s]; ok {
		return failf(t, fn, gocann.KindRepeatSubscribe, "stream %d is already subscribed to report thread %#x", s.s.ID(), th.id)
	}
	th := reports.threads[uint64(threadID)]
	if th == nil {
		if len(reports.threads) >= maxReportThreads {
			return failf(t, fn, gocann.KindOverLimit, "%d report threads are subscribed, the most a process may have", maxReportThreads)
		}
		th = &reportThread{id: uint64(threadID), reports: make(chan report, reportQueue)}
		reports.threads[th.id] = th
	}
	if th.streams > 0 && th.dev != s.ctx.dev {
		return failf(t, fn, gocann.KindThreadNotSubscribed, "report thread %#x serves streams of device %d; a thread serves one device, stream %d is on device %d", th.id, th.dev, s.s.ID(), s.ctx.dev)
	}
	th.dev = s.ctx.dev
	th.streams++
	reports.streams[s] = th
	return 0
}

//export gocann_aclrtUnSubscribeReport
func gocann_aclrtUnSubscribeReport(t *C.gocann_thread, threadID C.uint64_t, sp C.aclrtStream) C.aclError {
	const fn = "aclrtUnSubscribeReport"
	s, code := stream(t, fn, sp)
	if code != 0 {
		return code
	}
	reports.mu.Lock()
	defer reports.mu.Unlock()
	th, ok := reports.streams[s]
	if !ok || th.id != uint64(threadID) {
		return failf(t, fn, gocann.KindNotSubscribed, "stream %d is not subscribed to report thread %#x", s.s.ID(), uint64(threadID))
	}
	delete(reports.streams, s)
	th.streams--
	return 0
}

//export gocann_aclrtLaunchCallback
func gocann_aclrtLaunchCallback(t *C.gocann_thread, fn C.aclrtCallback, data C.uintptr_t, block C.aclrtCallbackBlockType, sp C.aclrtStream) C.aclError {
	const name = "aclrtLaunchCallback"
	if fn == nil {
		return nullArg(t, name, "fn")
	}
	if block != C.ACL_CALLBACK_NO_BLOCK && block != C.ACL_CALLBACK_BLOCK {
		return failf(t, name, gocann.KindInvalidParam, "blockType %d is invalid, expected ACL_CALLBACK_NO_BLOCK (0) or ACL_CALLBACK_BLOCK (1)", block)
	}
	s, code := queueStream(t, name, sp)
	if code != 0 {
		return code
	}
	reports.mu.Lock()
	th := reports.streams[s]
	reports.mu.Unlock()
	if th == nil {
		return failf(t, name, gocann.KindNotSubscribed, "stream %d has no report thread; call aclrtSubscribeReport first", s.s.ID())
	}
	rep := report{fn: uintptr(unsafe.Pointer(fn)), arg: uintptr(data)}
	if block == C.ACL_CALLBACK_BLOCK {
		rep.done, rep.failed = make(chan struct{}), new(string)
	}
	// The stream task hands the callback over; with ACL_CALLBACK_BLOCK it
	// holds the stream until the report thread has run it.
	return fail(t, name, s.s.Raw().LaunchCallback(func() {
		th.reports <- rep
		if rep.done != nil {
			<-rep.done
			if *rep.failed != "" {
				panic(*rep.failed) // the stream waited for it: its task fails
			}
		}
	}))
}

//export gocann_aclrtProcessReport
func gocann_aclrtProcessReport(t *C.gocann_thread, timeout C.int32_t) C.aclError {
	const fn = "aclrtProcessReport"
	if timeout == 0 || timeout < -1 {
		return failf(t, fn, gocann.KindInvalidParam, "timeout %d is invalid, expected -1 (forever) or milliseconds > 0", timeout)
	}
	reports.mu.Lock()
	th := reports.threads[uint64(t.pthread)]
	reports.mu.Unlock()
	if th == nil {
		return failf(t, fn, gocann.KindThreadNotSubscribed, "the calling thread %#x is not a report thread; call aclrtSubscribeReport with its id", uint64(t.pthread))
	}
	var expire <-chan time.Time
	if timeout > 0 {
		timer := time.NewTimer(time.Duration(timeout) * time.Millisecond)
		defer timer.Stop()
		expire = timer.C
	}
	select {
	case rep := <-th.reports:
		msg, failed := hostFailure(C.gocann_call_callback(C.uintptr_t(rep.fn), C.uintptr_t(rep.arg)))
		if rep.done != nil {
			if failed {
				*rep.failed = msg
			}
			close(rep.done)
		}
		return 0
	case <-expire:
		return failf(t, fn, gocann.KindReportTimeout, "no callback arrived within %d ms", timeout)
	}
}
