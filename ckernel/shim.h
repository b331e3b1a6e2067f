// Block state for kernels compiled for the simulated NPU, and the call shim
// that runs one block of a kernel.
#ifndef GOCANN_CKERNEL_SHIM_H
#define GOCANN_CKERNEL_SHIM_H

#include <stdint.h>

#define GOCANN_MAX_ARGS 32

// What a block's call returns: 0, or these bits.
#define GOCANN_CALL_TRAPPED 1  // the kernel called Trap (or gocann_trap)
#define GOCANN_CALL_OVERFLOW 2 // it returned having called gocann_report_overflow

// gocann_call_kernel runs block idx of num of kernel fn with n argument
// slots. It returns 0 or GOCANN_CALL_* bits.
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

// gocann_dim3 is a SIMT extent or index (the layout of CANN's dim3).
typedef struct gocann_dim3 {
	uint32_t x, y, z;
} gocann_dim3;

// gocann_call_simt is gocann_call_kernel_fp for one thread of a SIMT block:
// layout holds the thread's index, the block's and the grid's extents (nine
// words), barrier the block's barrier handle.
int gocann_call_simt(void *fn, int64_t idx, int64_t num, const uint64_t *args, int n, uint32_t fpmask,
		     const uint32_t *layout, uintptr_t barrier);

// gocann_trap_message returns the message of the calling thread's last trap.
const char *gocann_trap_message(void);

#endif
