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
// builds without it. A kernel that crashes (a wild pointer, a segfault)
// crashes the process, as on hardware; Trap and bounds-checked faults do
// not.
//
// It imports kernel, internal/rterr and golang.org/x/sys only, never the
// device contract or the runtime core: its kernels are kernel.Funcs,
// which the Go API (gocann.NewKernel) and the C ABI both take, and its
// errors are the runtime's (internal/rterr) of the kinds CANN reports for
// kernel binaries (invalid file, symbol not found, ...); gocann.Wrap gives
// one its CANN code.
package ckernel
