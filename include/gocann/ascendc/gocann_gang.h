/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * Gang kernels: kernels whose blocks wait for one another (SyncAll,
 * IBSet/IBWait, GroupBarrier, WaitPreBlock/NotifyNextBlock, or declared
 * __schedmode__(1), CANN's batch mode). The runtime starts a launch of one
 * only when it can run every block at once, and refuses one wider than
 * the chip's cores of the kernel's kind (vector cores for a vector
 * kernel, cube cores for a cube kernel, AI cores for the others).
 *
 * The compiler driver (bisheng) marks them: a <<<>>> launch (and an
 * aclrtlaunch_<kernel> function) of a kernel of a source that calls one of
 * those passes the kernel's flags to Launch, which hands them to the
 * runtime after the kernel's parameters; an extern "C" kernel defined in
 * such a source also gets GOCANN_GANG_KERNEL, for when its binary is
 * loaded with aclrtBinaryLoad*. Hand-built kernel binaries can use it too.
 * Included by gocann_launch.h and kernel_operator.h.
 */
#ifndef GOCANN_ASCENDC_GANG_H_
#define GOCANN_ASCENDC_GANG_H_

#include "../kernel.h"

/* A kernel's flags: GOCANN_GANG, and the kind of core its blocks run on. */
#define GOCANN_GANG 0x01
#define GOCANN_GANG_AICORE 0x00 /* an AI core: a mixed kernel, or one that does not say */
#define GOCANN_GANG_VECTOR 0x10 /* a vector core: __vector__, __mix__(0, n) */
#define GOCANN_GANG_CUBE 0x20   /* a cube core: __cube__, __mix__(n, 0) */

/* GOCANN_GANG_KERNEL(kernel, flags) marks kernel, exported from a kernel
 * binary, as a gang kernel: it defines the exported byte
 * gocann_gang_<kernel> holding its flags. */
#define GOCANN_GANG_KERNEL(kernel, flags) \
    GOCANN_PARAMS_LINKAGE_ __attribute__((visibility("default"), used)) const unsigned char gocann_gang_##kernel = (flags)

#endif /* GOCANN_ASCENDC_GANG_H_ */
