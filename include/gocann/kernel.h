/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * gocann/kernel.h: what kernel source needs to be built for the simulated
 * NPU with the ordinary host compiler.
 *
 * A kernel binary for gocann is a host shared object (for example built
 * with "cc -shared -fPIC"). aclrtBinaryLoadFromFile/aclrtBinaryLoadFromData
 * load it and aclrtBinaryGetFunction finds a kernel by its exported symbol
 * name, so kernels must have C linkage (extern "C" in C++) and default
 * visibility. A kernel function returns void and takes one parameter per
 * 8-byte slot of the launch's argument block, in order, each a pointer
 * (GM_ADDR or any other pointer type), an integer of at most 8 bytes, a
 * float (in the low half of its slot) or a double; at most 32 parameters.
 * Float and double parameters are passed as the C calling convention
 * passes them once the runtime knows the kernel's parameters (below). It is called once per block, possibly from
 * several threads at once; GetBlockIdx and GetBlockNum tell it which
 * block it is.
 *
 * The runtime needs each kernel's parameters to check argument blocks
 * against them and to pack aclrtLaunchKernelWithArgsArray's arguments. It
 * reads them from the binary's debug information (build with -g), or from
 * a declaration next to the kernel, which wins when both are present:
 *
 *     GOCANN_KERNEL_PARAMS(add, GOCANN_PARAM_PTR, GOCANN_PARAM_PTR,
 *                          GOCANN_PARAM_PTR, GOCANN_PARAM_INT64);
 *
 * A kernel whose parameters are known neither way still runs, unchecked,
 * with every launch call but aclrtLaunchKernelWithArgsArray.
 *
 *     #include <gocann/kernel.h>
 *
 *     extern "C" __global__ __aicore__ void add(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint64_t n)
 *     {
 *         ...
 *     }
 */
#ifndef GOCANN_KERNEL_H_
#define GOCANN_KERNEL_H_

#include <stdint.h>

/* Address in device global memory, as kernels receive it. Define
 * GOCANN_NO_GM_ADDR, or define GM_ADDR yourself before including this
 * header, to use your own definition. */
#if !defined(GM_ADDR) && !defined(GOCANN_NO_GM_ADDR)
typedef uint8_t* GM_ADDR;
#endif

/* Ascend C function and address-space qualifiers. On the simulated NPU
 * kernels are ordinary host functions and device memory is ordinary host
 * memory, so they expand to nothing unless already defined. */
#ifndef __global__
#define __global__
#endif
#ifndef __aicore__
#define __aicore__
#endif
#ifndef __gm__
#define __gm__
#endif
#ifndef __vector__
#define __vector__
#endif
#ifndef __cube__
#define __cube__
#endif
#ifndef __mix__
#define __mix__(cube, vector)
#endif
#ifndef __host__
#define __host__
#endif
#ifndef __ubuf__
#define __ubuf__
#endif
#ifndef __cbuf__
#define __cbuf__
#endif
#ifndef __ca__
#define __ca__
#endif
#ifndef __cb__
#define __cb__
#endif
#ifndef __cc__
#define __cc__
#endif
#ifndef __fbuf__
#define __fbuf__
#endif
#ifndef __ssbuf__
#define __ssbuf__
#endif
#ifndef __simd_vf__
#define __simd_vf__
#endif
#ifndef __simd_callee__
#define __simd_callee__
#endif
#ifndef __simt_vf__
#define __simt_vf__
#endif
#ifndef __simt_callee__
#define __simt_callee__
#endif
#ifndef __schedmode__
#define __schedmode__(mode)
#endif

/* Parameter kinds for GOCANN_KERNEL_PARAMS, one per parameter: the kind
 * in the high four bits, the size in bytes in the low four. Integers may
 * be signed or unsigned. */
#define GOCANN_PARAM_PTR 0x18    /* a pointer (GM_ADDR or any other) */
#define GOCANN_PARAM_INT8 0x21   /* int8_t, uint8_t, char, bool */
#define GOCANN_PARAM_INT16 0x22  /* int16_t, uint16_t */
#define GOCANN_PARAM_INT32 0x24  /* int32_t, uint32_t, int */
#define GOCANN_PARAM_INT64 0x28  /* int64_t, uint64_t, size_t */
#define GOCANN_PARAM_FLOAT 0x34  /* float */
#define GOCANN_PARAM_DOUBLE 0x48 /* double */

/* GOCANN_KERNEL_PARAMS(kernel, kinds...) declares kernel's parameters, in
 * order, by their GOCANN_PARAM_* kinds; GOCANN_KERNEL_PARAMS(kernel) says
 * it has none. Write it at file scope in the kernel's source, once per
 * kernel. It defines the exported, read-only symbol
 * gocann_params_<kernel>: the byte 'G' followed by one byte per parameter. */
#ifdef __cplusplus
#define GOCANN_PARAMS_LINKAGE_ extern "C"
#else
#define GOCANN_PARAMS_LINKAGE_
#endif
/* The trailing comma keeps GOCANN_KERNEL_PARAMS(kernel) standard C. */
#define GOCANN_KERNEL_PARAMS(...) GOCANN_KERNEL_PARAMS_(__VA_ARGS__, )
#define GOCANN_KERNEL_PARAMS_(kernel, ...)                                                     \
    GOCANN_PARAMS_LINKAGE_ __attribute__((visibility("default"), used)) const unsigned char \
        gocann_params_##kernel[] = {'G', __VA_ARGS__}

#ifdef __cplusplus
extern "C" {
#endif

/* Index of the calling block, in [0, GetBlockNum()). Valid only inside a
 * kernel call. */
int64_t GetBlockIdx(void);

/* Number of blocks of the running launch. Valid only inside a kernel
 * call. */
int64_t GetBlockNum(void);

/* Stop the calling block and fail the launch with an AI core trap
 * exception. */
void Trap(void);

/* Trap with a message of the kernel's own (at most 255 bytes are kept),
 * which the launch's exception report carries instead of "Trap() called". */
#if defined(__GNUC__)
__attribute__((noreturn))
#endif
void gocann_trap(const char *message);

/* In a sub-kernel of a SuperKernel (gocann/superkernel.h) on an Atlas A3
 * or Ascend 950: SetNextTaskStart, called once on every core after its
 * last data movement, lets the next sub-kernel start while the rest of
 * this one runs; WaitPreTaskEnd, called once on every core before its
 * first data movement, waits until the sub-kernel before has ended on
 * every core. A sub-kernel whose cores do not all call one of them
 * exactly once fails. Elsewhere they do nothing. */
void SetNextTaskStart(void);
void WaitPreTaskEnd(void);

/* Report a float overflow (an inf or a NaN the kernel produced), as an AI
 * core's overflow detection does: if the launch's stream has its overflow
 * switch on (aclrtSetStreamOverflowSwitch), the device's overflow status
 * is set (aclrtGetOverflowStatus). */
void gocann_report_overflow(void);

/* Report that a block's copy reached n bytes of global memory, which
 * profiling counts as the kernel's memory traffic; Ascend C's DataCopy
 * calls it. */
void gocann_copy_bytes(uint64_t n);

/* printf as the device prints a kernel's lines: each line of a block comes
 * out prefixed "[AIV Block i/n] ", when the launch ends, blocks in order.
 * Outside a kernel (and in a SIMT thread) it is printf. The Ascend C
 * compiler driver makes a kernel's printf calls this. */
#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
int gocann_kernel_printf(const char *format, ...);

/* SIMT kernels (aclrtLaunchSIMTKernelWithArgsArray / WithHostArgs, on
 * chips with SIMT units): each block runs blockDim threads of the kernel
 * at once. Mark such a kernel with GOCANN_SIMT_KERNEL(kernel) at file
 * scope; it defines the exported symbol gocann_simt_<kernel>. */
#define GOCANN_SIMT_KERNEL(kernel) \
    GOCANN_PARAMS_LINKAGE_ __attribute__((visibility("default"), used)) const unsigned char gocann_simt_##kernel = 1

/* An extent or index in three dimensions (the layout of dim3). */
typedef struct gocann_dim3 {
    uint32_t x, y, z;
} gocann_dim3;

/* This thread's index in its block (threadIdx), the block's extent
 * (blockDim), this block's index in the grid (blockIdx) and the grid's
 * extent (gridDim). Outside a SIMT launch a block is one thread: index 0,
 * extent 1×1×1, and the grid GetBlockNum()×1×1. */
gocann_dim3 gocann_thread_idx(void);
gocann_dim3 gocann_block_dim(void);
gocann_dim3 gocann_block_idx(void);
gocann_dim3 gocann_grid_dim(void);

/* Wait until every thread of the block still running reaches this point.
 * A thread that has returned or trapped no longer counts. */
void asc_syncthreads(void);

#ifdef __cplusplus
}

/* Ascend C code often calls these through the AscendC namespace. */
namespace AscendC {
using ::GetBlockIdx;
using ::GetBlockNum;
using ::Trap;
}
#endif

#endif /* GOCANN_KERNEL_H_ */
