// Command capi is the core of gocann's C ABI, built with
// -buildmode=c-shared into libgocann_core.so: the Go implementation of the
// acl* functions of the public CANN headers. Programs link the front
// library, libascendcl.so (capi/front, plain C), which loads this core on
// the first call that needs it and forwards each API function to its entry
// point here, gocann_<name>, with the calling thread's state first. The
// core's entry points are Go functions, except the launch calls, which try
// the direct path in C (direct.c) before Go.
//
// This package keeps what only C programs have: the current device and
// context per OS thread, the per-thread last error and error messages, and
// tables that turn C handles into Go objects. Every handle is checked; a
// NULL, destroyed, stale or wrong-kind handle is an error code, never a
// crash. Error codes come from the Go errors (gocann.CodeOf); nothing is
// mapped twice.
//
// The tables are process state by nature: the one place in gocann that keeps
// package-level state.
//
// The core reaches the runtime through the root package's API, its typed
// and raw dialects, with hal's types and package ckernel; it imports
// neither internal/ nor sim (imports_test.go in the root checks it).
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
#include "acl/acl.h"
#include "thread.h"
*/
import "C"

func main() {}
