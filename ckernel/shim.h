// Block state for kernels compiled for the simulated NPU, and the call shim
// that runs one block of a kernel.
#ifndef GOCANN_CKERNEL_SHIM_H
#define GOCANN_CKERNEL_SHIM_H

#include <stdint.h>

#define GOCANN_MAX_ARGS 32

// gocann_call_kernel runs block idx of num of kernel fn with n argument
// slots. It returns 0, or 1 if the kernel called Trap.
int gocann_call_kernel(void *fn, int64_t idx, int64_t num, const uint64_t *args, int n);

// gocann_trap_message returns the message of the calling thread's last trap.
const char *gocann_trap_message(void);

#endif
