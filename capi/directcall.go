package main

/*
#include <stdlib.h>
#include "direct.h"
#include "thread.h"
*/
import "C"

import "unsafe"

// The direct launch path called from Go, as the C launch calls call it
// first: Go tests drive the path's C through these.

// newThreadRecord returns a thread record, in C memory and never freed,
// whose current context is ctx.
func newThreadRecord(ctx handle, tid uint32) *C.gocann_thread {
	t := (*C.gocann_thread)(C.calloc(1, C.sizeof_gocann_thread))
	t.ready, t.device = 1, -1
	t.context = C.uint64_t(ctx)
	t.tid = C.uint32_t(tid)
	return t
}

// launchDirect offers the launch of f on stream with argument slots args
// to the direct path for the thread whose record is t, and reports whether
// the path queued it.
func launchDirect(t *C.gocann_thread, f handle, blocks uint32, stream handle, args []uint64) bool {
	var p unsafe.Pointer
	if len(args) > 0 {
		p = unsafe.Pointer(&args[0])
	}
	return C.gocann_direct_launch(t, C.uint64_t(f), C.uint32_t(blocks), C.uint64_t(stream), p, C.size_t(8*len(args))) == 0
}
