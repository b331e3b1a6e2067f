// Command capi is the C ABI of gocann, built with -buildmode=c-shared into
// libascendcl.so: the acl* functions of the public CANN headers, so that an
// unmodified CANN host program compiles against include/acl and runs on the
// simulated NPU.
//
// The C functions themselves are generated wrappers (zz_wrappers.c, from
// the headers) that pass the calling thread's state to the Go function
// gocann_<name> implementing each one. This package keeps what only C
// programs have: the current device and context per OS thread, the
// per-thread last error and error messages, and tables that turn C handles
// into Go objects. Every handle is checked; a NULL, destroyed, stale or
// wrong-kind handle is an error code, never a crash. Error codes come from
// the Go errors (gocann.CodeOf); nothing is mapped twice.
//
// The tables are process state by nature: the one place in gocann that keeps
// package-level state.
//
// Fuzzers check the handle table (FuzzTable) and the building of kernel
// argument lists (FuzzKernelArgs, through the Go side of the
// aclrtKernelArgs* calls) against models; go test runs their seeds, and
// go test -fuzz=FuzzTable -fuzztime=10m ./capi explores (likewise
// FuzzKernelArgs).
package main

//go:generate go run ./gen

/*
#cgo CFLAGS: -I${SRCDIR}/../include -I${SRCDIR}/../ckernel
#cgo LDFLAGS: -lm
#include "acl/acl.h"
#include "thread.h"
*/
import "C"

func main() {}
