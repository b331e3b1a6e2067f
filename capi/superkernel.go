package main

/*
#include "acl/acl.h"
#include "thread.h"
*/
import "C"

// SuperKernel ranges of a captured stream (gocann/superkernel.h), a gocann
// extension: the front exports gocannSuperKernelBegin/End and calls these.

//export gocann_gocannSuperKernelBegin
func gocann_gocannSuperKernelBegin(t *C.gocann_thread, sp C.aclrtStream, name *C.char) C.aclError {
	const fn = "gocannSuperKernelBegin"
	if name == nil {
		return nullArg(t, fn, "name")
	}
	s, code := stream(t, fn, sp)
	if code != 0 {
		return code
	}
	return fail(t, fn, s.s.BeginSuperKernel(C.GoString(name)))
}

//export gocann_gocannSuperKernelEnd
func gocann_gocannSuperKernelEnd(t *C.gocann_thread, sp C.aclrtStream) C.aclError {
	const fn = "gocannSuperKernelEnd"
	s, code := stream(t, fn, sp)
	if code != 0 {
		return code
	}
	return fail(t, fn, s.s.EndSuperKernel())
}
