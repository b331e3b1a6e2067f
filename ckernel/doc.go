// Package ckernel loads kernel binaries for the simulated NPU: ELF shared
// objects compiled for the host, whose exported functions are kernels
// taking one pointer-or-integer parameter per 8-byte argument slot, as an
// Ascend C kernel `extern "C" void add(GM_ADDR x, GM_ADDR y, GM_ADDR z)`
// does when built with GM_ADDR defined as uint8_t*.
//
// A running kernel calls GetBlockIdx, GetBlockNum, Trap and gocann_trap
// (a trap with a message of its own), which this
// package defines in C; the C ABI library exports them, and a Go program
// using this package exports them from its executable (the package links
// with -rdynamic) so kernel binaries resolve them when loaded.
//
// Loading C code needs cgo, so it lives here, apart from the runtime, which
// builds without it.
//
// A block runs inside one call into C, with a trap point Trap leaves
// through (shim.c). A fault of the kernel's own code (SIGSEGV, SIGBUS,
// SIGFPE, SIGILL) fails the block as an AI core's exception fails its task
// on the device: the handler fault.c installs when the first kernel is
// loaded records it and resumes the thread at the trap point, and
// guard.cc catches a C++ exception leaving the kernel. The block's call
// returns a kernel.Fault, which the backend makes the task's fault; the
// process goes on. A fault anywhere else goes to the handler installed
// before (Go's, the program's own, the default action).
//
// It imports kernel, internal/rterr and golang.org/x/sys only, never the
// device contract or the runtime core: its kernels are kernel.Funcs,
// which the Go API (gocann.NewKernel) and the C ABI both take, and its
// errors are the runtime's (internal/rterr) of the kinds CANN reports for
// kernel binaries (invalid file, symbol not found, ...); gocann.Wrap gives
// one its CANN code.
package ckernel
