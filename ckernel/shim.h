// Block state for kernels compiled for the simulated NPU, and the call shim
// that runs one block of a kernel.
#ifndef GOCANN_CKERNEL_SHIM_H
#define GOCANN_CKERNEL_SHIM_H

#include <stdint.h>

#define GOCANN_MAX_ARGS 32

// gocann_call_kernel runs block idx of num of kernel fn with n argument
// slots. It returns 0, or 1 if the kernel called Trap.
int gocann_call_kernel(void *fn, int64_t idx, int64_t num, const uint64_t *args, int n);

// gocann_call_kernel_fp is gocann_call_kernel for a kernel whose
// parameters fpmask marks as floating point (bit i: parameter i is a float
// or a double). Only where gocann_fp_supported says so.
int gocann_call_kernel_fp(void *fn, int64_t idx, int64_t num, const uint64_t *args, int n, uint32_t fpmask);

// gocann_fp_supported reports whether this host's calling convention is
// one gocann_call_kernel_fp knows.
int gocann_fp_supported(void);

// gocann_native_call is one launch of gocann_call_kernels.
typedef struct gocann_native_call {
	uintptr_t fn, args;
	int64_t nargs;
} gocann_native_call;

// gocann_call_kernels runs block 0 of 1 of each of n launches in order. It
// returns n, or the index of the first that called Trap (later ones do not
// run).
int gocann_call_kernels(const gocann_native_call *calls, int n);

// gocann_trap_message returns the message of the calling thread's last trap.
const char *gocann_trap_message(void);

#endif
