// Block state for kernels compiled for the simulated NPU, and the call shim
// that runs one block of a kernel.
#ifndef GOCANN_CKERNEL_SHIM_H
#define GOCANN_CKERNEL_SHIM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GOCANN_MAX_ARGS 32

// What a block's call returns: 0, or these bits.
#define GOCANN_CALL_TRAPPED 1  // the kernel called Trap (or gocann_trap)
#define GOCANN_CALL_OVERFLOW 2 // it returned having called gocann_report_overflow
#define GOCANN_CALL_FAULTED 4  // its code raised a signal, or a C++ exception left it
#define GOCANN_CALL_PRINTED 8  // it printed: the record holds the text
#define GOCANN_CALL_COPIED 16  // it moved global memory (gocann_copy_bytes): the record says how much

// How a faulting instruction used memory (gocann_failure.access).
#define GOCANN_ACCESS_UNKNOWN 0
#define GOCANN_ACCESS_READ 1
#define GOCANN_ACCESS_WRITE 2
#define GOCANN_ACCESS_EXEC 3

// gocann_failure is what a call that failed or printed leaves for its
// caller: a trap's message, or a fault's signal and address, or an
// exception's type and message; and the block's printed lines. Only such a
// call writes it.
typedef struct gocann_failure {
	int32_t signo; // the fault's signal; 0 for a trap or an exception
	int32_t code;  // its si_code
	int32_t access;
	int32_t addr_known; // addr is the faulting data address
	uint64_t addr;
	uint64_t pc;    // the faulting instruction, 0 if unknown
	char text[256]; // a trap's message, or an exception's "type: what()"
	char *out;      // GOCANN_CALL_PRINTED: the lines, malloc'd, the caller frees them
	uint64_t out_len;
	uint64_t copied; // GOCANN_CALL_COPIED: the bytes of global memory its copies reached
} gocann_failure;

// gocann_call_kernel runs block idx of num of kernel fn with n argument
// slots, those fpmask marks (bit i: parameter i is a float or a double)
// in floating-point registers. It returns 0 or GOCANN_CALL_* bits; on a
// trap or a fault it fills *fail.
int gocann_call_kernel(void *fn, int64_t idx, int64_t num, const uint64_t *args, int n, uint32_t fpmask,
		       gocann_failure *fail);

// gocann_fp_supported reports whether this host's calling convention is
// one a float mask can be passed in.
int gocann_fp_supported(void);

// gocann_native_call is one launch of gocann_call_kernels.
typedef struct gocann_native_call {
	uintptr_t fn, args;
	int64_t nargs;
} gocann_native_call;

// gocann_call_kernels runs block 0 of 1 of each of n launches in order. It
// returns n, or the index of the first that trapped or faulted (later
// ones do not run), with *result its GOCANN_CALL_* bits and *fail filled.
int gocann_call_kernels(const gocann_native_call *calls, int n, int *result, gocann_failure *fail);

// gocann_dim3 is a SIMT extent or index (the layout of CANN's dim3).
typedef struct gocann_dim3 {
	uint32_t x, y, z;
} gocann_dim3;

// gocann_call_simt is gocann_call_kernel for one thread of a SIMT block:
// layout holds the thread's index, the block's and the grid's extents (nine
// words), barrier the block's barrier handle.
int gocann_call_simt(void *fn, int64_t idx, int64_t num, const uint64_t *args, int n, uint32_t fpmask,
		     const uint32_t *layout, uintptr_t barrier, gocann_failure *fail);

// gocann_call_sk is gocann_call_kernel for a block of a SuperKernel's
// sub-kernel whose SetNextTaskStart and WaitPreTaskEnd take effect: they
// call back into Go with sk; gang is as for gocann_call_gang, or 0.
int gocann_call_sk(void *fn, int64_t idx, int64_t num, const uint64_t *args, int n, uint32_t fpmask, uintptr_t gang,
		   uintptr_t sk, gocann_failure *fail);

// gocann_call_gang is gocann_call_kernel for a block of a gang launch,
// whose blocks share the words at gang (kernel.Gang): their cross-block
// waits (gang.c) use them.
int gocann_call_gang(void *fn, int64_t idx, int64_t num, const uint64_t *args, int n, uint32_t fpmask, uintptr_t gang,
		     gocann_failure *fail);

// gocann_fault_install makes faults of kernel code fail their block
// instead of the process, from now on: it installs the handler of
// SIGSEGV, SIGBUS, SIGFPE and SIGILL, which passes every other fault on
// to the handler it replaced. It returns 0, or -1 on a host where faults
// cannot be contained (they end the process, as before). Calls after the
// first do nothing.
int gocann_fault_install(void);

#ifdef __cplusplus
}
#endif

#endif
