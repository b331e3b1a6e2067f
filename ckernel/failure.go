package ckernel

/*
#define _GNU_SOURCE
#include <dlfcn.h>
#include "shim.h"

// symbolize names the function holding pc and its object, as "fn+0xoff in
// file"; it returns 0 when nothing is known there.
static int symbolize(uintptr_t pc, const char **fn, uintptr_t *off, const char **file) {
	Dl_info info;
	if (pc == 0 || dladdr((void *)pc, &info) == 0) {
		return 0;
	}
	*fn = info.dli_sname;
	*off = info.dli_sname ? pc - (uintptr_t)info.dli_saddr : pc - (uintptr_t)info.dli_fbase;
	*file = info.dli_fname;
	return 1;
}
*/
import "C"

import (
	"fmt"
	"syscall"
	"unsafe"

	"github.com/gocann/gocann/kernel"
)

// installFaults makes faults of kernel code fail their block from the
// first kernel loaded on (fault.c): installed then, not at start, so a Go
// program that never runs a C kernel keeps its handlers as they are, and
// after the Go runtime's own, whose faults it passes on.
func installFaults() { C.gocann_fault_install() }

// failureOf is the panic value of a block whose call returned r with
// record f: a *kernel.TrapError or a *kernel.Fault. The record comes by
// value, so the caller's stays on its stack: a block's call costs no
// allocation.
func failureOf(r C.int, f C.gocann_failure) error {
	text := C.GoString((*C.char)(unsafe.Pointer(&f.text[0])))
	if r&C.GOCANN_CALL_TRAPPED != 0 {
		return &kernel.TrapError{Msg: text}
	}
	flt := &kernel.Fault{
		Signal:    syscall.Signal(f.signo),
		Code:      int32(f.code),
		Addr:      uint64(f.addr),
		AddrKnown: f.addr_known != 0,
		PC:        uint64(f.pc),
	}
	switch f.access {
	case C.GOCANN_ACCESS_READ:
		flt.Access = kernel.AccessRead
	case C.GOCANN_ACCESS_WRITE:
		flt.Access = kernel.AccessWrite
	case C.GOCANN_ACCESS_EXEC:
		flt.Access = kernel.AccessExec
	}
	if f.signo == 0 {
		flt.Exception = text
	}
	flt.Symbol = symbol(uintptr(f.pc))
	return flt
}

// symbol names the code at pc: its function and offset in its object.
func symbol(pc uintptr) string {
	var (
		fn, file *C.char
		off      C.uintptr_t
	)
	if C.symbolize(C.uintptr_t(pc), &fn, &off, &file) == 0 {
		return ""
	}
	obj := C.GoString(file)
	if fn == nil {
		return fmt.Sprintf("%s+%#x", obj, uint64(off))
	}
	return fmt.Sprintf("%s+%#x in %s", C.GoString(fn), uint64(off), obj)
}
